package dev.ebb.server.config;

/**
 * The configuration could not be loaded; the server must not start. The message is ready to print to stderr as is,
 * in Redis's format, with the source of the bad line added:
 * <pre>
 * *** FATAL CONFIG FILE ERROR (Ebb 0.1.0) ***
 * Reading the configuration file, at line 8 (/etc/ebb/ebb.conf)
 * &gt;&gt;&gt; 'maxmemory 1tb'
 * argument must be a memory value
 * </pre>
 * The expected reaction is {@code System.err.println(e.getMessage()); exit(1)}.
 */
public final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient ConfigLocation location;
    private final String reason;

    private ConfigException(ConfigLocation location, String reason) {
        super(render(location, reason));
        this.location = location;
        this.reason = reason;
    }

    /** A problem with the directive read at {@code location}, e.g. from a server-side check of a rename-command. */
    public static ConfigException at(ConfigLocation location, String reason) {
        return new ConfigException(location, reason);
    }

    /** A problem not tied to one line, e.g. the config file cannot be opened. */
    public static ConfigException general(String reason) {
        return new ConfigException(null, reason);
    }

    /** The line that failed, or null for a problem not tied to one line. */
    public ConfigLocation location() {
        return location;
    }

    /** The reason alone, without the banner and the line, e.g. {@code Bad directive or wrong number of arguments}. */
    public String reason() {
        return reason;
    }

    private static String render(ConfigLocation location, String reason) {
        StringBuilder out = new StringBuilder("*** FATAL CONFIG FILE ERROR (Ebb ")
                .append(ServerVersion.ebbVersion()).append(") ***\n");
        if (location != null) {
            out.append("Reading the configuration file, at line ").append(location.lineNumber())
                    .append(" (").append(location.source()).append(")\n")
                    .append(">>> '").append(location.line()).append("'\n");
        }
        return out.append(reason).toString();
    }
}
