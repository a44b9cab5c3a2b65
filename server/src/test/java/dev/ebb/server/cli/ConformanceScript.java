package dev.ebb.server.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One conformance script ({@code NAME.txt}: redis-cli commands, one a line) and its transcript
 * recorded from a real redis-server ({@code NAME.expected}), in the formats that
 * {@code server/src/test/conformance-record.sh} documents and writes.
 *
 * <p>The script is fed to a single non-interactive redis-cli with a client-side marker before every
 * command ({@code :set conformance-line-N}, which redis-cli answers itself with "unknown redis-cli
 * preference" and never sends), so the output splits exactly into one reply per command. The
 * recorder and {@link #parseOutput} turn the same raw output into the same transcript; this class
 * and the shell script must change together.
 *
 * <p>Immutable.
 */
final class ConformanceScript {
    private static final String MARKER_NAME = "conformance-line-";
    private static final Pattern MARKER = Pattern.compile(MARKER_NAME + "(\\d+)");
    /** redis-cli prints "(0.53s)" after a command that took over half a second; it is no reply. */
    private static final Pattern SLOW_COMMAND_TIMING = Pattern.compile("\\(\\d+\\.\\d+s\\)");

    private final String name;
    private final List<String> options;
    private final List<String> requires;
    private final List<Command> commands;
    private final Path transcript;

    private ConformanceScript(String name, List<String> options, List<String> requires, List<Command> commands,
            Path transcript) {
        this.name = name;
        this.options = options;
        this.requires = requires;
        this.commands = commands;
        this.transcript = transcript;
    }

    /** A command of the script: its 1-based line number in the file and its text. */
    record Command(int line, String text) {
    }

    /** A command and the lines redis-cli printed for its reply. */
    record Exchange(Command command, List<String> reply) {
    }

    /** Reads {@code dir/NAME.txt}; its transcript is {@code dir/NAME.expected}. */
    static ConformanceScript load(Path dir, String name) {
        Path script = dir.resolve(name + ".txt");
        List<String> lines = readLines(script);
        List<String> options = List.of();
        List<String> requires = List.of();
        List<Command> commands = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("#!")) {
                List<String> words = List.of(line.substring(2).trim().split("\\s+"));
                List<String> values = words.subList(1, words.size());
                switch (words.get(0)) {
                    case "options" -> options = values;
                    case "requires" -> requires = values;
                    default -> throw new IllegalStateException("unknown directive at " + script + ":" + (i + 1)
                            + ": " + line);
                }
            } else if (!line.isBlank() && !line.stripLeading().startsWith("#")) {
                commands.add(new Command(i + 1, line));
            }
        }
        if (commands.isEmpty()) {
            throw new IllegalStateException("conformance script has no commands: " + script);
        }
        return new ConformanceScript(name, options, requires, List.copyOf(commands), dir.resolve(name + ".expected"));
    }

    String name() {
        return name;
    }

    /** Extra redis-cli options from the script's {@code #! options} line, e.g. {@code -3}. */
    List<String> options() {
        return options;
    }

    /** Commands from the {@code #! requires} line that the script needs the server to have. */
    List<String> requires() {
        return requires;
    }

    List<Command> commands() {
        return commands;
    }

    /** What redis-cli reads on its standard input: a marker line before every command line. */
    String feed() {
        StringBuilder sb = new StringBuilder();
        for (Command c : commands) {
            sb.append(":set ").append(MARKER_NAME).append(c.line()).append('\n');
            sb.append(c.text()).append('\n');
        }
        return sb.toString();
    }

    /**
     * Splits redis-cli's output for {@link #feed()} into exchanges. Output before the first marker
     * (there should be none) is kept in an exchange for a pseudo-command at line 0, so it shows up
     * in the comparison instead of vanishing.
     */
    List<Exchange> parseOutput(String output) {
        List<Exchange> exchanges = new ArrayList<>();
        List<String> current = null;
        for (String raw : splitLines(output)) {
            String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
            if (SLOW_COMMAND_TIMING.matcher(line).matches()) {
                continue;
            }
            Matcher marker = MARKER.matcher(line);
            if (marker.find()) {
                current = new ArrayList<>();
                exchanges.add(new Exchange(commandAtLine(Integer.parseInt(marker.group(1))), current));
            } else {
                if (current == null) {
                    current = new ArrayList<>();
                    exchanges.add(new Exchange(new Command(0, "(before the first command)"), current));
                }
                current.add(line);
            }
        }
        return exchanges;
    }

    /**
     * The recorded transcript as exchanges. Fails if it does not hold exactly the script's commands
     * in order: the script was edited without re-recording.
     */
    List<Exchange> expected() {
        List<String> lines = readLines(transcript);
        List<Exchange> exchanges = new ArrayList<>();
        List<String> current = null;
        int next = 0;
        for (String line : lines) {
            if (next < commands.size() && line.equals("> " + commands.get(next).text())) {
                current = new ArrayList<>();
                exchanges.add(new Exchange(commands.get(next), current));
                next++;
            } else if (current != null) {
                current.add(line);
            } else if (!line.startsWith("# ")) {
                throw stale("unexpected line before the first command: " + line);
            }
        }
        if (next != commands.size()) {
            throw stale("the transcript has no reply for line " + commands.get(next).line() + ": "
                    + commands.get(next).text());
        }
        return exchanges;
    }

    /** Renders exchanges in the transcript format (without the header). */
    static String render(List<Exchange> exchanges) {
        StringBuilder sb = new StringBuilder();
        for (Exchange e : exchanges) {
            sb.append("> ").append(e.command().text()).append('\n');
            for (String line : e.reply()) {
                sb.append(line).append('\n');
            }
        }
        return sb.toString();
    }

    private Command commandAtLine(int line) {
        for (Command c : commands) {
            if (c.line() == line) {
                return c;
            }
        }
        throw new IllegalStateException("redis-cli printed a marker for line " + line + ", which holds no command in "
                + name + ".txt");
    }

    private IllegalStateException stale(String why) {
        return new IllegalStateException(transcript.getFileName() + " does not match " + name
                + ".txt (" + why + "); re-record it with server/src/test/conformance-record.sh " + name);
    }

    private static List<String> readLines(Path file) {
        try {
            return splitLines(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    private static List<String> splitLines(String text) {
        if (text.isEmpty()) {
            return List.of();
        }
        String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return Arrays.asList(body.split("\n", -1));
    }
}
