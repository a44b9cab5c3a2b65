package dev.ebb.storage;

/**
 * The eviction view of a {@link Database} for the {@link Evictor}: its candidate keys (the main dict, or
 * {@code expires} under a volatile policy), sampled through the dicts' O(count) sampler, and their
 * eviction scores read from the dict metas without touching them. Stateless; command-loop thread only.
 */
final class EvictionCandidates {
    private static final long MISSING = Long.MIN_VALUE;

    private EvictionCandidates() {
    }

    /** Up to {@code count} stored keys of {@code db}'s candidates, into {@code out}. */
    static int sample(Database db, boolean volatileOnly, byte[][] out, int count) {
        return volatileOnly ? db.expires().sampleKeys(out, count) : db.mainDict().sampleKeys(out, count);
    }

    /** A random stored candidate key of {@code db}, or null if none. O(1). */
    static byte[] random(Database db, boolean volatileOnly) {
        return volatileOnly ? db.expires().randomKey() : db.mainDict().randomKey();
    }

    /** Number of candidate keys of {@code db}. */
    static int count(Database db, boolean volatileOnly) {
        return volatileOnly ? db.expires().size() : db.mainDict().size();
    }

    /**
     * Eviction rank of a present key, higher is evicted first (Redis's pool "idle" score): idle ms
     * for LRU, {@code 255 - counter} for LFU, {@code Long.MAX_VALUE - expireAt} for TTL; -1 if the
     * key is absent. Reads the meta without touching it.
     */
    static long score(Database db, byte[] key, EvictionPolicy.Kind kind, long nowMs) {
        if (kind == EvictionPolicy.Kind.TTL) {
            long when = db.expires().get(key, MISSING);
            return when == MISSING ? -1 : Long.MAX_VALUE - when;
        }
        Dict<Object> dict = db.mainDict();
        int h = dict.find(key);
        if (h < 0) {
            return -1;
        }
        int meta = dict.metaAt(h);
        if (kind == EvictionPolicy.Kind.LFU) {
            return LfuCounter.MAX_COUNTER - db.accessMeta().frequency(meta, nowMs);
        }
        return AccessMeta.idleSeconds(meta, nowMs) * 1000L;
    }

    /** Whether {@code key} is a current candidate of {@code db} (present, and volatile if {@code volatileOnly}). */
    static boolean contains(Database db, byte[] key, boolean volatileOnly) {
        LongDict expires = db.expires();
        return volatileOnly ? !expires.isEmpty() && expires.get(key, MISSING) != MISSING
                : db.mainDict().containsKey(key);
    }
}
