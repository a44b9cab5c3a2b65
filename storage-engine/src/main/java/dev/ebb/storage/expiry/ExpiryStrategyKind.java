package dev.ebb.storage.expiry;

import java.util.Locale;
import java.util.function.Supplier;

/** The active expiry strategies, by the config name the server uses to pick one. */
public enum ExpiryStrategyKind {
    /** Redis's classic cycle: random keys of {@code expires}, O(1) each. The default. */
    SAMPLING("sampling", SamplingExpiry::new),
    /** Redis 6+: walk {@code expires} with the scan cursor, a bounded number of buckets per loop. */
    BUCKET_CURSOR("bucket-cursor", BucketCursorExpiry::new),
    /** Baseline: a min-heap by expiry time, so each loop pops exactly the earliest keys. */
    EXACT("exact", ExactExpiry::new);

    private final String configName;
    private final Supplier<ExpiryStrategy> factory;

    ExpiryStrategyKind(String configName, Supplier<ExpiryStrategy> factory) {
        this.configName = configName;
        this.factory = factory;
    }

    public String configName() {
        return configName;
    }

    /** A fresh instance, for one database. */
    public ExpiryStrategy newStrategy() {
        return factory.get();
    }

    /**
     * The kind named {@code name}, case-insensitively.
     *
     * @throws IllegalArgumentException for an unknown name, listing the valid ones
     */
    public static ExpiryStrategyKind fromConfigName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (ExpiryStrategyKind kind : values()) {
            if (kind.configName.equals(lower)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown expiry strategy: name=" + name
                + " (expected sampling, bucket-cursor or exact)");
    }
}
