package dev.ebb.storage.expiry;

/**
 * What one sampling loop saw: keys examined, how many of them were expired (and deleted), and
 * the TTLs of the ones still alive (for avg_ttl). A reusable, mutable holder, so the cycle
 * allocates nothing per loop. Not thread-safe.
 */
public final class ExpireSample {
    int sampled;
    int expired;
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

    public int sampled() {
        return sampled;
    }

    public int expired() {
        return expired;
    }

    void reset() {
        sampled = 0;
        expired = 0;
        ttlSumMs = 0;
        ttlSamples = 0;
    }
}
