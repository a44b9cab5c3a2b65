package dev.ebb.server.config;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;

/**
 * The {@code ebb-server} command line, with redis-server's grammar:
 * <pre>
 * ebb-server [config-file] [--directive value ...] [-]
 * </pre>
 * <ul>
 *   <li>A first argument not starting with '-' is the config file.</li>
 *   <li>Each {@code --name} starts a directive line; the arguments after it, up to the next {@code --name}, are its
 *       values. An argument right after a bare {@code --name} is always a value, even if it starts with
 *       {@code --}. {@code --save} followed by another {@code --name} or by nothing means {@code save ""}.</li>
 *   <li>A lone {@code -} as first or last argument also reads directives from standard input.</li>
 *   <li>Order of precedence, later wins: file, standard input, command line.</li>
 *   <li>{@code -h}/{@code --help} and {@code -v}/{@code -V}/{@code --version} as first argument print and exit 0
 *       (redis-server prints its usage to stderr and exits 1; Ebb follows the usual convention).</li>
 * </ul>
 * Errors in the command-line directives are reported like file errors, with source {@code command line} and the
 * directive's position among the command-line directives as its line number; values appear quoted, as in Redis.
 *
 * <p>Stateless and thread-safe.
 */
public final class ServerCli {
    private ServerCli() {
    }

    /** Parses {@code args}, reading standard input only if a lone {@code -} asks for it. */
    public static StartupRequest parse(String[] args) throws ConfigException {
        return parse(args, System.in);
    }

    /** As {@link #parse(String[])}, reading {@code stdin} when a lone {@code -} asks for it. */
    public static StartupRequest parse(String[] args, InputStream stdin) throws ConfigException {
        if (!needsPicocli(args)) {
            // picocli would stop at the first argument and hand every one back unchanged; building its model
            // of Options by reflection costs 150-170 ms of a start of about a second.
            return new StartupRequest.StartServer(load(List.of(args), stdin));
        }
        Picocli parsed = picocli(args);
        return parsed.print() != null ? new StartupRequest.PrintAndExit(parsed.print())
                : new StartupRequest.StartServer(load(parsed.rest(), stdin));
    }

    /** What picocli makes of a command line: a text to print and exit with, or the arguments left for {@link #load}. */
    record Picocli(String print, List<String> rest) {
    }

    static Picocli picocli(String[] args) throws ConfigException {
        Options options = new Options();
        CommandLine commandLine = new CommandLine(options)
                .setStopAtPositional(true)
                .setStopAtUnmatched(true)
                .setExpandAtFiles(false)
                .setOverwrittenOptionsAllowed(true);
        try {
            commandLine.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw ConfigException.general("Invalid command line: " + e.getMessage());
        }
        if (commandLine.isUsageHelpRequested()) {
            return new Picocli(commandLine.getUsageMessage(CommandLine.Help.Ansi.OFF), null);
        }
        if (commandLine.isVersionHelpRequested()) {
            return new Picocli(versionLine() + System.lineSeparator(), null);
        }
        List<String> rest = new ArrayList<>(options.positional);
        rest.addAll(options.unmatched);
        return new Picocli(null, rest);
    }

    /**
     * Whether picocli may have anything to do with {@code args}: it recognises only leading help and version
     * flags (also clustered, as {@code -hv}) and a leading {@code --} (end of options, dropped); with any other
     * first argument it stops at once (a positional argument or an unknown option) and returns them all as
     * they are. Anything that merely starts like a flag goes to picocli too, as before.
     */
    static boolean needsPicocli(String[] args) {
        if (args.length == 0) {
            return false;
        }
        String first = args[0];
        boolean shortFlags = first.length() > 1 && first.charAt(0) == '-' && "hvV".indexOf(first.charAt(1)) >= 0;
        return shortFlags || first.equals("--") || first.startsWith("--help") || first.startsWith("--version");
    }

    /** {@code Ebb server v=<version> java=<runtime version>}, after redis-server's version line. */
    public static String versionLine() {
        return "Ebb server v=" + ServerVersion.ebbVersion() + " java=" + Runtime.version()
                + " vm=" + System.getProperty("java.vm.name");
    }

    private static ServerConfig load(List<String> args, InputStream stdin) throws ConfigException {
        Path configFile = null;
        int first = 0;
        if (!args.isEmpty() && !args.get(0).startsWith("-")) {
            try {
                configFile = Path.of(args.get(0));
            } catch (InvalidPathException e) {
                throw ConfigException.general(
                        "Fatal error, can't open config file '" + args.get(0) + "': " + e.getReason());
            }
            first = 1;
        }
        boolean readStdin = false;
        StringBuilder directives = new StringBuilder();
        boolean lastDirectiveHasValue = true;
        for (int j = first; j < args.size(); j++) {
            String arg = args.get(j);
            boolean last = j == args.size() - 1;
            if (arg.equals("-") && (j == 0 || last)) {
                readStdin = true;
            } else if (lastDirectiveHasValue && arg.startsWith("--")) {
                if (directives.length() > 0) {
                    directives.append('\n');
                }
                directives.append(arg, 2, arg.length()).append(' ');
                List<String> words = ConfigSyntax.splitArgs(arg);
                lastDirectiveHasValue = words == null || words.size() != 1;
                if (!lastDirectiveHasValue && arg.equalsIgnoreCase("--save")
                        && (last || args.get(j + 1).startsWith("--"))) {
                    directives.append("\"\"");
                    lastDirectiveHasValue = true;
                }
            } else {
                directives.append(ConfigSyntax.quote(arg)).append(' ');
                lastDirectiveHasValue = true;
            }
        }
        String stdinText = readStdin ? readAll(stdin) : null;
        return ServerConfig.load(configFile, stdinText, directives.toString());
    }

    private static String readAll(InputStream in) throws ConfigException {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw ConfigException.general("Fatal error, can't read config from stdin: " + ConfigLoader.describe(e));
        }
    }

    /** The options picocli knows; everything else is collected raw and read with redis-server's rules. */
    @Command(name = "ebb-server",
            customSynopsis = "ebb-server [config-file] [--directive value ...] [-]",
            description = {
                "A Redis-protocol-compatible in-memory server for the JVM.",
                "",
                "  config-file           a redis.conf-syntax file (see conf/ebb.conf)",
                "  --<directive> <value> set a directive after the file: --port 7000 --save ''",
                "  -                     also read directives from stdin (first or last argument)",
                ""},
            footer = {
                "",
                "Examples:",
                "  ebb-server                          (every directive at its default)",
                "  ebb-server /etc/ebb/ebb.conf",
                "  ebb-server --port 7777",
                "  ebb-server /etc/ebb/ebb.conf --loglevel verbose --save ''",
                "  echo 'maxmemory 128mb' | ebb-server -"})
    static final class Options {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
        boolean help;

        @Option(names = {"-v", "-V", "--version"}, versionHelp = true, description = "Print the version and exit.")
        boolean version;

        @Parameters(arity = "0..*", hidden = true)
        List<String> positional = new ArrayList<>();

        @Unmatched
        List<String> unmatched = new ArrayList<>();
    }
}
