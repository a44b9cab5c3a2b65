package dev.ebb.storage.expiry;

import dev.ebb.storage.Database;

/**
 * How the active expire cycle finds expired keys in one database. One instance per database
 * (its per-database state, such as a cursor or a heap, lives here), created by
 * {@link ExpiryStrategyKind#newStrategy()}. The {@link ActiveExpireCycle} owns the loop, budget
 * and statistics; a strategy only implements one sampling loop and follows expiry changes.
 *
 * <p>The {@link Database} calls the change hooks after it has updated its {@code expires} dict;
 * strategies that read {@code expires} directly ({@code sampling}, {@code bucket-cursor}) ignore
 * them. Every method is called on the command loop thread only; implementations are not
 * thread-safe. Methods receive the database rather than keeping it, so SWAPDB can move a
 * strategy's state together with the keys.
 */
public interface ExpiryStrategy {
    /** The config name ({@code sampling}, {@code bucket-cursor}, {@code exact}). */
    String name();

    /** {@code key} (the array stored in the main dict) now expires at {@code whenMs}. */
    void expireSet(Database db, byte[] key, long whenMs);

    /** {@code key} no longer has a time to live (PERSIST, overwrite, delete, expiry). */
    void expireRemoved(Database db, byte[] key);

    /** The database was flushed: forget everything, in O(1). */
    void cleared(Database db);

    /**
     * One loop of the active expire cycle on {@code db}: examine up to {@code maxKeys} volatile
     * keys, delete the expired ones through {@link Database#expireIfNeeded}, and record every key
     * examined in {@code out}. Called only while {@code db.expiresSize() > 0}. Must do bounded
     * work even when it finds nothing to examine (then it records no sample).
     */
    void sampleLoop(Database db, int maxKeys, long nowMs, ExpireSample out);

    /** Estimated heap bytes of this strategy's own index (0 if it keeps none). O(1). */
    long memoryBytes();
}
