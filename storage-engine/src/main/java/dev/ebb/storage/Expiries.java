package dev.ebb.storage;

import dev.ebb.storage.expiry.ExpiryStrategy;
import dev.ebb.storage.expiry.ExpiryStrategyKind;

/**
 * A {@link Database}'s times to live: the {@code expires} dict (key to absolute expiry in unix ms; its keys
 * are the very instances stored in the main dict, and only volatile keys are in it), the database's own
 * active expiry strategy instance, which follows every expiry set or removed, and the running
 * {@code avg_ttl} estimate. The database decides when a key expires and tells the listeners; this keeps
 * the three in step through sets, removals, flushes and swaps. Command-loop thread only.
 */
final class Expiries {
    /** {@link #when} answer for a key without a time to live; also refused as an expiry time. */
    static final long MISSING = Long.MIN_VALUE;

    private final long seed;
    private LongDict dict;
    private ExpiryStrategy strategy;
    private long avgTtlMs;

    /**
     * @param seed the hash seed of the {@code expires} dict; kept for {@link #clear}
     * @param kind the active expiry strategy; this instance gets its own
     */
    Expiries(long seed, ExpiryStrategyKind kind) {
        this.seed = seed;
        this.dict = new LongDict(seed);
        this.strategy = kind.newStrategy();
    }

    /** The {@code expires} dict (read-only use outside this class). */
    LongDict dict() {
        return dict;
    }

    /** The active expiry strategy instance. */
    ExpiryStrategy strategy() {
        return strategy;
    }

    /** INFO keyspace {@code avg_ttl} in ms, see {@link Database#avgTtlMs}. */
    long avgTtlMs() {
        return avgTtlMs;
    }

    /** {@code key}'s absolute expiry in unix ms, or {@link #MISSING}. O(1), no probe while the dict is empty. */
    long when(byte[] key) {
        return dict.isEmpty() ? MISSING : dict.get(key, MISSING);
    }

    /** Sets the expiry of {@code storedKey}, the main dict's instance, replacing any previous one. */
    void set(Database db, byte[] storedKey, long whenMs) {
        dict.put(storedKey, whenMs);
        strategy.expireSet(db, storedKey, whenMs);
    }

    /**
     * Drops {@code key}'s time to live, if it has one; resets {@code avg_ttl} when the last one goes.
     *
     * @return true if the key had one
     */
    boolean remove(Database db, byte[] key) {
        if (dict.isEmpty() || !dict.remove(key)) {
            return false;
        }
        if (dict.isEmpty()) {
            avgTtlMs = 0;
        }
        strategy.expireRemoved(db, key);
        return true;
    }

    /** Folds one sampling loop's mean TTL into {@code avg_ttl}, see {@link Database#recordTtlSample}. */
    void recordTtlSample(long meanTtlMs) {
        long avg = avgTtlMs == 0 ? meanTtlMs : avgTtlMs;
        avgTtlMs = (avg / 50) * 49 + (meanTtlMs / 50);
    }

    /** Every key was removed (FLUSHDB): a fresh dict, no {@code avg_ttl}, the strategy told. O(1). */
    void clear(Database db) {
        dict = new LongDict(seed);
        avgTtlMs = 0;
        strategy.cleared(db);
    }

    /** Exchanges the dicts, strategy instances and {@code avg_ttl} with {@code other} (SWAPDB). O(1). */
    void swapWith(Expiries other) {
        LongDict d = dict;
        dict = other.dict;
        other.dict = d;
        ExpiryStrategy s = strategy;
        strategy = other.strategy;
        other.strategy = s;
        long a = avgTtlMs;
        avgTtlMs = other.avgTtlMs;
        other.avgTtlMs = a;
    }

    /** Heap bytes of the {@code expires} dict's slot arrays, those allocated ahead included. O(1). */
    long tableBytes() {
        return dict.memoryBytes() + dict.aheadBytes();
    }
}
