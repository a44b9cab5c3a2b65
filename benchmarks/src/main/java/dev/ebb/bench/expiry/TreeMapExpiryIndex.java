package dev.ebb.bench.expiry;

import dev.ebb.storage.Database;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Baseline for the write-path benchmark: the index a Java developer would reach for first, a
 * {@code TreeMap<Long, ArrayList<byte[]>>} from expiry time to the keys expiring then, kept
 * beside a {@link Database} whose own strategy is {@code sampling} (which keeps no index). It is
 * exact: {@link #reclaim} finds every expired key without sampling.
 *
 * <p>Unlike the storage engine's {@code exact} heap, entries are removed eagerly when a key's
 * expiry changes, so the caller passes the old expiry time to {@link #remove}.
 *
 * <p>Costs: {@link #add} and {@link #remove} O(log n) (a red-black tree walk of boxed
 * {@code Long}s, cache-unfriendly at millions of entries) plus O(k) in the list of keys sharing
 * that millisecond; {@link #add} allocates a boxed {@code Long}, and for a new millisecond a tree
 * entry and a list. Not thread-safe.
 */
final class TreeMapExpiryIndex {
    private final TreeMap<Long, ArrayList<byte[]>> byWhen = new TreeMap<>();
    private int size;

    /** Indexes {@code key} (not copied) to expire at {@code whenMs}. */
    void add(byte[] key, long whenMs) {
        ArrayList<byte[]> keys = byWhen.get(whenMs);
        if (keys == null) {
            keys = new ArrayList<>(2);
            byWhen.put(whenMs, keys);
        }
        keys.add(key);
        size++;
    }

    /**
     * Removes {@code key} (compared by content) from the keys expiring at {@code whenMs}.
     *
     * @return true if it was there
     */
    boolean remove(byte[] key, long whenMs) {
        ArrayList<byte[]> keys = byWhen.get(whenMs);
        if (keys == null) {
            return false;
        }
        for (int i = 0, n = keys.size(); i < n; i++) {
            if (Arrays.equals(keys.get(i), key)) {
                keys.set(i, keys.get(n - 1));
                keys.remove(n - 1);
                if (keys.isEmpty()) {
                    byWhen.remove(whenMs);
                }
                size--;
                return true;
            }
        }
        return false;
    }

    /**
     * Deletes from {@code db} every indexed key whose time has passed ({@code nowMs > when}), in
     * expiry order. Keys the database no longer holds, or holds with another expiry, are dropped
     * from the index without counting.
     *
     * @return the number of keys deleted from {@code db}
     */
    int reclaim(Database db, long nowMs) {
        int expired = 0;
        Map.Entry<Long, ArrayList<byte[]>> first;
        while ((first = byWhen.firstEntry()) != null && first.getKey() < nowMs) {
            long when = first.getKey();
            for (byte[] key : first.getValue()) {
                if (db.getExpire(key) == when && db.expireIfNeeded(key, nowMs)) {
                    expired++;
                }
            }
            size -= first.getValue().size();
            byWhen.pollFirstEntry();
        }
        return expired;
    }

    /** Keys indexed. */
    int size() {
        return size;
    }
}
