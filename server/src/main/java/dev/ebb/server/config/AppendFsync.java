package dev.ebb.server.config;

/** {@code appendfsync}: when the append-only file is fsynced (in Redis's order, which its error text lists). */
public enum AppendFsync implements ConfigEnum {
    /** Once a second, by a background thread. */
    EVERYSEC("everysec"),
    /** After every write, before its reply is sent. */
    ALWAYS("always"),
    /** Never explicitly: the kernel flushes when it likes. */
    NO("no");

    private final String configName;

    AppendFsync(String configName) {
        this.configName = configName;
    }

    @Override
    public String configName() {
        return configName;
    }
}
