package dev.ebb.storage.expiry;

/**
 * What one sampling loop saw: keys examined, how many of them were expired (and deleted), and
 * the TTLs of the ones still alive (for avg_ttl). A reusable, mutable holder, so the cycle
 * allocates nothing per loop. Not thread-safe.
 */
public final class ExpireSample {
    int sampled;
    int expired;
    /** Hashes among {@link #sampled} (and {@link #expired}) drawn from the volatile-hash index. */
    int hashes;
    int dueHashes;
    /** Hash fields removed by the loop. */
    int fields;
    long ttlSumMs;
    int ttlSamples;

    /**
     * Records one examined key.
     *
     * @param ttlMs its expiry time minus now, measured before deletion
     * @param wasExpired whether the loop deleted it
     */
    public void record(long ttlMs, boolean wasExpired) {
        sampled++;
        if (wasExpired) {
            expired++;
        }
        if (ttlMs > 0) {
            ttlSumMs += ttlMs;
            ttlSamples++;
        }
    }

    /**
     * Records one hash drawn from the volatile-hash index: an examined entry, "expired" if it had
     * due fields, as keys count for the stale estimate; {@code fieldsRemoved} of its fields went.
     */
    public void recordHash(boolean hadDueFields, int fieldsRemoved) {
        sampled++;
        hashes++;
        if (hadDueFields) {
            expired++;
            dueHashes++;
        }
        fields += fieldsRemoved;
    }

    public int sampled() {
        return sampled;
    }

    public int expired() {
        return expired;
    }

    void reset() {
        sampled = 0;
        expired = 0;
        hashes = 0;
        dueHashes = 0;
        fields = 0;
        ttlSumMs = 0;
        ttlSamples = 0;
    }
}
