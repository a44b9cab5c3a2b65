package dev.ebb.storage;

/**
 * Evicts keys while memory is over {@code maxmemory}, with Redis's approximated policies.
 *
 * <p><b>Idea.</b> Exact LRU/LFU would need a global ordered structure updated on every access.
 * Redis instead samples: each round takes {@code maxmemory-samples} keys from every database
 * (from the main dict, or from {@code expires} for the volatile policies) with the dict's O(1)
 * sampler, scores them (idle time, 255 minus the LFU counter, or how soon the key expires) and
 * merges them into a 16-entry {@link EvictionPool}; the best entry of the pool is then evicted.
 * Candidates survive in the pool between rounds, which is what makes 5 samples good enough. The
 * random policies skip the pool and take a random key, visiting databases round-robin.
 *
 * <p><b>Costs and limits.</b> A round is O(databases * samples + 16). {@link #evict} loops until
 * memory is under the limit, nothing is left to evict, or its time budget is spent (checked every
 * 16 keys; the budget comes from {@code maxmemory-eviction-tenacity}); in the last case it says
 * {@link Outcome#RUNNING} and the caller lets the command through and tries again later, as
 * Redis does with its eviction time event. The LRU clock has one-second resolution (as Redis's),
 * so keys touched within the same second rank equally.
 *
 * <p>Not thread-safe: loop thread only.
 */
public final class Evictor {
    /** What {@link #evict} achieved. */
    public enum Outcome {
        /** Memory is at or under the limit. */
        OK,
        /** Still over the limit but the time budget ran out; more can be evicted later. */
        RUNNING,
        /** Still over the limit and nothing (more) can be evicted under the policy. */
        FAIL
    }

    private static final int KEYS_PER_TIME_CHECK = 16;

    private final EvictionPool pool = new EvictionPool();
    private byte[][] sample = new byte[5][];
    private EvictionListener listener = EvictionListener.NONE;
    private long evictedKeys;
    private int nextRandomDb;

    /** Sets the listener told about evicted keys ({@link EvictionListener#NONE} to stop). */
    public void listener(EvictionListener listener) {
        this.listener = listener;
    }

    /** Keys evicted since start or {@link #resetStats()} (INFO {@code evicted_keys}). */
    public long evictedKeys() {
        return evictedKeys;
    }

    public void resetStats() {
        evictedKeys = 0;
    }

    /** Forgets pooled candidates (after FLUSHALL or a policy change). */
    public void clearPool() {
        pool.clear();
    }

    /**
     * Evicts keys of {@code dbs} under {@code policy} until their {@link Database#usedMemory()}
     * sum is at most {@code limitBytes}.
     *
     * @param samples keys sampled per database per round ({@code maxmemory-samples})
     * @param budgetNanos how long this call may run; {@link Long#MAX_VALUE} for no limit
     */
    public Outcome evict(Database[] dbs, EvictionPolicy policy, long limitBytes, int samples, long nowMs,
            long budgetNanos, NanoClock clock) {
        if (usedMemory(dbs) <= limitBytes) {
            return Outcome.OK;
        }
        if (policy == EvictionPolicy.NOEVICTION) {
            return Outcome.FAIL;
        }
        if (sample.length < samples) {
            sample = new byte[samples][];
        }
        long start = clock.nanoTime();
        int evicted = 0;
        while (usedMemory(dbs) > limitBytes) {
            if (!evictOne(dbs, policy, samples, nowMs)) {
                return Outcome.FAIL;
            }
            evicted++;
            if (evicted % KEYS_PER_TIME_CHECK == 0 && clock.nanoTime() - start > budgetNanos) {
                return usedMemory(dbs) <= limitBytes ? Outcome.OK : Outcome.RUNNING;
            }
        }
        return Outcome.OK;
    }

    /** Sum of {@link Database#usedMemory()}. O(databases). */
    public static long usedMemory(Database[] dbs) {
        long total = 0;
        for (Database db : dbs) {
            total += db.usedMemory();
        }
        return total;
    }

    private boolean evictOne(Database[] dbs, EvictionPolicy policy, int samples, long nowMs) {
        boolean volatileOnly = policy.volatileOnly();
        if (policy.kind() == EvictionPolicy.Kind.RANDOM) {
            for (int i = 0; i < dbs.length; i++) {
                Database db = dbs[nextRandomDb];
                nextRandomDb = (nextRandomDb + 1) % dbs.length;
                byte[] key = EvictionCandidates.random(db, volatileOnly);
                if (key != null) {
                    remove(db, key);
                    return true;
                }
            }
            return false;
        }
        while (true) {
            boolean anyCandidate = false;
            for (Database db : dbs) {
                if (EvictionCandidates.count(db, volatileOnly) == 0) {
                    continue;
                }
                anyCandidate = true;
                int n = EvictionCandidates.sample(db, volatileOnly, sample, samples);
                for (int i = 0; i < n; i++) {
                    byte[] key = sample[i];
                    sample[i] = null;
                    long score = EvictionCandidates.score(db, key, policy.kind(), nowMs);
                    if (score >= 0) {
                        pool.offer(db, key, score);
                    }
                }
            }
            if (!anyCandidate) {
                return false;
            }
            while (!pool.isEmpty()) {
                Database db = pool.bestDatabase();
                byte[] key = pool.takeBestKey();
                if (EvictionCandidates.contains(db, key, volatileOnly)) {
                    remove(db, key);
                    return true;
                }
            }
            // Every pooled key was gone already: sample again (there are candidates, so this ends).
        }
    }

    private void remove(Database db, byte[] key) {
        Object value = db.delete(key);
        evictedKeys++;
        listener.evicted(db, key, value);
    }
}
