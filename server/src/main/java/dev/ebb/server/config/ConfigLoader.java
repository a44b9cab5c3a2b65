package dev.ebb.server.config;

import dev.ebb.server.util.Glob;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Reads redis.conf-syntax text into directive values, the way Redis's config loader does.
 *
 * <p>Rules, all Redis's:
 * <ul>
 *   <li>One directive per line; lines are trimmed; blank lines and lines starting with {@code #} are skipped
 *       ({@code #} later in a line is not a comment). Arguments split as {@link ConfigSyntax#splitArgs}.</li>
 *   <li>Directive names are case-insensitive; aliases ({@code lua-time-limit}) work as their directive.</li>
 *   <li>Later lines override earlier ones. Multi-argument directives take any number of arguments, or one
 *       argument holding them all ({@code save "900 1 300 10"}, so that {@code --save "900 1"} works on the command
 *       line, as in Redis 7.0.1+); {@code save} lines add save points and {@code save ""} clears them (Redis keeps earlier points
 *       after a later {@code save ""} in the same load; Ebb clears, which is what the line says).</li>
 *   <li>{@code include <path>} reads another file at that point. A relative path is resolved against the
 *       current {@code dir} (Redis resolves it against its working directory, which {@code dir} changes).
 *       Wildcards ({@code * ? [}) are allowed in the file name part, use Redis glob syntax, match in name order
 *       and may match nothing. An include loop is an error instead of Redis's stack overflow.</li>
 *   <li>{@code rename-command <from> <to>} is recorded for the server.</li>
 *   <li>{@code list-max-ziplist-entries}, {@code list-max-ziplist-value} and {@code lua-replicate-commands} are
 *       obsolete in Redis 7 and silently ignored, as Redis does.</li>
 *   <li>Anything else fails with "Bad directive or wrong number of arguments".</li>
 * </ul>
 *
 * <p>Files are read as bytes and handled as byte strings (one char per byte), so any byte in a value survives.
 * Not thread-safe; one loader reads one configuration.
 */
final class ConfigLoader {
    static final String BAD_DIRECTIVE = "Bad directive or wrong number of arguments";
    static final String UNBALANCED_QUOTES = "Unbalanced quotes in configuration line";
    private static final List<String> OBSOLETE_TWO_ARGUMENT_DIRECTIVES =
            List.of("list-max-ziplist-entries", "list-max-ziplist-value", "lua-replicate-commands");
    private static final int MAX_INCLUDE_DEPTH = 64;

    private final Object[] values = Directives.defaults();
    private final List<RenamedCommand> renamedCommands = new ArrayList<>();
    private final List<ConfigUser> users = new ArrayList<>();
    private final Deque<Path> reading = new ArrayDeque<>();
    /** Whether a {@code save} line was read yet: the first one replaces the default points. */
    private boolean savePointsRead;

    /** Reads the main config file, whose path is shown as given in the error if it cannot be read. */
    void loadFile(Path file) throws ConfigException {
        Path absolute = file.toAbsolutePath().normalize();
        String text;
        try {
            text = read(absolute);
        } catch (IOException e) {
            throw ConfigException.general("Fatal error, can't open config file '" + absolute + "': " + describe(e));
        }
        loadFileText(absolute, text);
    }

    /** Reads directives from {@code text}, reporting errors against {@code source}. */
    void loadText(String text, String source) throws ConfigException {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            applyLine(lines[i], source, i + 1);
        }
    }

    /**
     * Checks what Redis checks once everything is read (the log file can be opened) and returns the values.
     */
    Object[] finish() throws ConfigException {
        String logfile = Directives.LOGFILE.cast(values[Directives.LOGFILE.index]);
        if (!logfile.isEmpty()) {
            try {
                Path path = Path.of(Directives.DIR.cast(values[Directives.DIR.index])).resolve(logfile);
                // Opened and closed only to fail early, as Redis does.
                Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND).close();
            } catch (IOException e) {
                throw ConfigException.general("Can't open the log file: " + describe(e));
            } catch (InvalidPathException e) {
                throw ConfigException.general("Can't open the log file: " + e.getReason());
            }
        }
        return values.clone();
    }

    List<ConfigUser> users() {
        return List.copyOf(users);
    }

    List<RenamedCommand> renamedCommands() {
        return List.copyOf(renamedCommands);
    }

    private void loadFileText(Path absolute, String text) throws ConfigException {
        reading.push(absolute);
        try {
            loadText(text, absolute.toString());
        } finally {
            reading.pop();
        }
    }

    private void applyLine(String rawLine, String source, int lineNumber) throws ConfigException {
        String line = trim(rawLine);
        if (line.isEmpty() || line.charAt(0) == '#') {
            return;
        }
        ConfigLocation location = new ConfigLocation(source, lineNumber, line);
        List<String> args = ConfigSyntax.splitArgs(line);
        if (args == null) {
            throw ConfigException.at(location, UNBALANCED_QUOTES);
        }
        if (args.isEmpty()) {
            return;
        }
        String name = ScalarTypes.lower(args.get(0));
        Directive<?> directive = Directives.lookup(name);
        if (directive != null) {
            assign(directive, args.subList(1, args.size()), location);
        } else if (OBSOLETE_TWO_ARGUMENT_DIRECTIVES.contains(name) && args.size() == 2) {
            return;
        } else if (name.equals("include") && args.size() == 2) {
            include(args.get(1), location);
        } else if (name.equals("user") && args.size() >= 2) {
            users.add(new ConfigUser(args.get(1), args.subList(2, args.size()), location));
        } else if (name.equals("rename-command") && args.size() == 3) {
            renamedCommands.add(new RenamedCommand(args.get(1), args.get(2), location));
        } else {
            throw ConfigException.at(location, BAD_DIRECTIVE);
        }
    }

    private <T> void assign(Directive<T> directive, List<String> args, ConfigLocation location)
            throws ConfigException {
        if (!directive.type.multiArg() && args.size() != 1) {
            throw ConfigException.at(location, ScalarTypes.WRONG_NUMBER_OF_ARGUMENTS);
        }
        List<String> effectiveArgs = args;
        if (directive.type.multiArg() && args.size() == 1 && !args.get(0).isEmpty()) {
            List<String> words = ConfigSyntax.splitArgs(args.get(0));
            effectiveArgs = words != null ? words : args;
        }
        T current = directive.cast(values[directive.index]);
        T parsed;
        try {
            parsed = directive.type.parse(effectiveArgs, current);
        } catch (InvalidValueException e) {
            throw ConfigException.at(location, e.reason());
        }
        values[directive.index] = directive == Directives.SAVE ? addSavePoints(current, parsed) : parsed;
    }

    /**
     * A {@code save} line adds its points, except that the first one of a load replaces the default
     * points (Redis's resetServerSaveParams on the first save line read).
     */
    private <T> Object addSavePoints(T current, T parsed) {
        boolean first = !savePointsRead;
        savePointsRead = true;
        List<?> added = (List<?>) parsed;
        if (added.isEmpty()) {
            return added;
        }
        List<Object> all = new ArrayList<>(first ? List.of() : (List<?>) current);
        all.addAll(added);
        return List.copyOf(all);
    }

    private void include(String pathArg, ConfigLocation location) throws ConfigException {
        Path path;
        try {
            path = Path.of(Directives.DIR.cast(values[Directives.DIR.index])).resolve(pathArg).normalize();
        } catch (InvalidPathException e) {
            throw ConfigException.at(location,
                    "Fatal error, can't open config file '" + pathArg + "': " + e.getReason());
        }
        if (!Glob.hasWildcards(pathArg)) {
            includeFile(path, pathArg, location);
            return;
        }
        Path parent = path.getParent();
        if (parent == null || Glob.hasWildcards(parent.toString())) {
            throw ConfigException.at(location,
                    "Wildcards in an include path are supported only in its last part: '" + pathArg + "'");
        }
        for (Path match : matchingFiles(parent, path.getFileName().toString())) {
            includeFile(match, match.toString(), location);
        }
    }

    /** Regular files in {@code directory} whose name matches {@code pattern}, by name; none if it does not exist. */
    private static List<Path> matchingFiles(Path directory, String pattern) throws ConfigException {
        Glob glob = Glob.compile(pattern, false);
        boolean dotFiles = pattern.startsWith(".");
        List<Path> matches = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return matches;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if ((dotFiles || !name.startsWith(".")) && Files.isRegularFile(entry)
                        && glob.matches(name.getBytes(StandardCharsets.ISO_8859_1))) {
                    matches.add(entry);
                }
            }
        } catch (IOException e) {
            throw ConfigException.general("Fatal error, can't read directory '" + directory + "': " + describe(e));
        }
        Collections.sort(matches);
        return matches;
    }

    private void includeFile(Path path, String shownName, ConfigLocation location) throws ConfigException {
        Path absolute = path.toAbsolutePath().normalize();
        if (reading.contains(absolute)) {
            throw ConfigException.at(location, "Include loop: '" + absolute + "' is already being read");
        }
        if (reading.size() >= MAX_INCLUDE_DEPTH) {
            throw ConfigException.at(location, "Includes nested deeper than " + MAX_INCLUDE_DEPTH + " files");
        }
        String text;
        try {
            text = read(absolute);
        } catch (IOException e) {
            throw ConfigException.at(location,
                    "Fatal error, can't open config file '" + shownName + "': " + describe(e));
        }
        loadFileText(absolute, text);
    }

    private static String read(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    }

    /** Trims the characters Redis trims from config lines: space, tab, CR, LF. */
    static String trim(String line) {
        int start = 0;
        int end = line.length();
        while (start < end && isTrimmed(line.charAt(start))) {
            start++;
        }
        while (end > start && isTrimmed(line.charAt(end - 1))) {
            end--;
        }
        return line.substring(start, end);
    }

    private static boolean isTrimmed(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    /** An I/O failure in the words of C's strerror where there is an equivalent. */
    static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof FileSystemException) {
            String reason = ((FileSystemException) e).getReason();
            return reason != null ? reason : Optional.ofNullable(e.getMessage()).orElse(e.toString());
        }
        return Optional.ofNullable(e.getMessage()).orElse(e.toString());
    }
}
