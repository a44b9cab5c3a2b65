package dev.ebb.server.config;

/**
 * {@code repl-diskless-load}: how a replica loads the RDB of a full sync. Ebb implements Redis's default only:
 * the payload is written to a temporary file in {@code dir}, then loaded into fresh databases that replace the
 * old ones when the whole file has been read (so a failed transfer never leaves half a dataset).
 */
public enum ReplDisklessLoad implements ConfigEnum {
    DISABLED("disabled");

    private final String configName;

    ReplDisklessLoad(String configName) {
        this.configName = configName;
    }

    @Override
    public String configName() {
        return configName;
    }
}
