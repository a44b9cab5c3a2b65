package dev.ebb.storage;

/**
 * Redis's eviction pool: the best {@value #SIZE} eviction candidates seen so far, kept sorted by
 * score (ascending; the best candidate is last). Sampling rounds feed it, so a candidate found in
 * one round competes with those of later rounds, which makes sampled LRU/LFU much closer to the
 * real thing than picking the best of each sample alone.
 *
 * <p>Entries hold the stored key instance and its database; a key may have been deleted (or
 * deleted and re-created) since it was pooled, so the caller checks it again before evicting.
 * Insertion is O(SIZE), allocation free. Not thread-safe: loop thread only.
 */
final class EvictionPool {
    static final int SIZE = 16;

    private final byte[][] keys = new byte[SIZE][];
    private final Database[] dbs = new Database[SIZE];
    private final long[] scores = new long[SIZE];
    private int size;

    /** Offers a candidate; it is kept if the pool has room or it beats the worst entry. */
    void offer(Database db, byte[] key, long score) {
        int k = 0;
        while (k < size && scores[k] < score) {
            k++;
        }
        if (k == 0 && size == SIZE) {
            return;
        }
        if (size < SIZE) {
            System.arraycopy(keys, k, keys, k + 1, size - k);
            System.arraycopy(dbs, k, dbs, k + 1, size - k);
            System.arraycopy(scores, k, scores, k + 1, size - k);
            size++;
        } else {
            k--;
            System.arraycopy(keys, 1, keys, 0, k);
            System.arraycopy(dbs, 1, dbs, 0, k);
            System.arraycopy(scores, 1, scores, 0, k);
        }
        keys[k] = key;
        dbs[k] = db;
        scores[k] = score;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The database of the best entry; call before {@link #takeBestKey()}. */
    Database bestDatabase() {
        return dbs[size - 1];
    }

    /** Removes the best entry and returns its key. */
    byte[] takeBestKey() {
        size--;
        byte[] key = keys[size];
        keys[size] = null;
        dbs[size] = null;
        return key;
    }

    /** Drops every entry (FLUSHALL, policy change), so no stale database or key is kept alive. */
    void clear() {
        for (int i = 0; i < size; i++) {
            keys[i] = null;
            dbs[i] = null;
        }
        size = 0;
    }
}
