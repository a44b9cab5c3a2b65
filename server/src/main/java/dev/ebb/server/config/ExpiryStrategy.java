package dev.ebb.server.config;

/**
 * {@code expiry-strategy} (Ebb only): how the active expire cycle finds expired keys. Lazy expiry on access is the
 * same for all of them.
 */
public enum ExpiryStrategy implements ConfigEnum {
    /** Redis's algorithm: sample random keys of each database's expires dict, repeat while many had expired. */
    SAMPLING("sampling"),
    /** Redis 6+'s variant: walk the expires dict with a cursor, bucket by bucket. */
    BUCKET_CURSOR("bucket-cursor"),
    /** An exact index ordered by expiry time, so every expired key is found without sampling. */
    EXACT("exact");

    private final String configName;

    ExpiryStrategy(String configName) {
        this.configName = configName;
    }

    @Override
    public String configName() {
        return configName;
    }
}
