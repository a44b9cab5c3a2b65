package dev.ebb.server.config;

/** {@code loglevel}: how much the server logs, from most to least verbose. */
public enum LogLevel implements ConfigEnum {
    /** A lot of information, useful for development and testing. */
    DEBUG("debug"),
    /** Many rarely useful pieces of information, but not a mess like debug. */
    VERBOSE("verbose"),
    /** Moderately verbose, what you want in production. */
    NOTICE("notice"),
    /** Only very important or critical messages. */
    WARNING("warning"),
    /** Nothing is logged (Redis 7.2). */
    NOTHING("nothing");

    private final String configName;

    LogLevel(String configName) {
        this.configName = configName;
    }

    @Override
    public String configName() {
        return configName;
    }
}
