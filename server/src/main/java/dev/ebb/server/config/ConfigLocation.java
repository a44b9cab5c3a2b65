package dev.ebb.server.config;

/**
 * Where a directive was read: the source (a config file's absolute path, {@code "command line"} or {@code "stdin"}),
 * its 1-based line number in that source and the line itself, trimmed.
 */
public record ConfigLocation(String source, int lineNumber, String line) {
    /** The source label of directives given as {@code --name value} arguments. */
    public static final String COMMAND_LINE = "command line";
    /** The source label of a configuration read from standard input ({@code ebb-server -}). */
    public static final String STDIN = "stdin";
}
