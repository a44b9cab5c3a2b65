package dev.ebb.storage;

/**
 * Receives the keys of a point-in-time snapshot, each exactly once, as it was at the snapshot's instant:
 * from the snapshot's walk, or from the {@link Database} just before the command loop first reads,
 * changes or drops the key. See {@code dev.ebb.storage.snapshot}.
 *
 * <p>Called on the command loop thread, inside the database operation. The value is the live object,
 * about to be changed: the sink must copy or encode what it needs before returning, must not keep
 * {@code value}, and must not modify the database. {@code key} is the stored instance (immutable; it may
 * be kept).
 */
public interface PreImageSink {
    /**
     * One key as of the snapshot's instant.
     *
     * @param expireAtMs absolute expiry in unix ms, or {@link Database#NO_EXPIRE}
     * @param meta the dict's 24-bit meta: the LRU clock or the LFU counter (see {@link Database})
     */
    void preserve(byte[] key, Object value, long expireAtMs, int meta);
}
