package dev.ebb.bench.expiry;

import dev.ebb.storage.Database;
import dev.ebb.storage.LongDict;
import java.util.Arrays;

/**
 * Baseline for the write-path benchmark: a hashed timer wheel (as in Netty's HashedWheelTimer or
 * Kafka's purgatory) beside a {@link Database} whose own strategy is {@code sampling}.
 *
 * <p>Idea: time is cut into ticks of {@code resolutionMs}; tick {@code t} maps to slot
 * {@code t mod slots}, and each slot holds an append-only array of (key, expiry) entries. Adding
 * is an append, O(1). {@link #reclaim} visits the slots of the ticks that have fully passed since
 * its last call and deletes the entries whose time has passed; entries of a later turn of the
 * wheel (TTL longer than {@code slots * resolutionMs}) stay. As in the engine's {@code exact}
 * heap, an entry is not removed when its key's expiry changes (that would need a key-to-position
 * index): it is checked against {@code expires} when its slot comes up and dropped if stale. When
 * stale entries make the wheel hold more than twice as many entries as there are volatile keys
 * (and more than {@value #COMPACT_MIN_ENTRIES}), it is rebuilt from {@code expires}, O(n):
 * amortized O(1) per write, but one long pause.
 *
 * <p>Limits: a key is reclaimed up to one tick after it expires (the wheel's resolution), and a
 * slot holding many far-future entries is rescanned on every turn.
 *
 * <p>Costs: {@link #add} O(1) amortized (array growth and rebuilds allocate); {@link #reclaim}
 * O(entries in the visited slots). Not thread-safe.
 */
final class TimerWheelExpiryIndex {
    static final int COMPACT_MIN_ENTRIES = 1024;
    private static final int SLOT_INITIAL = 4;

    private final long resolutionMs;
    private final int mask;
    private final long[][] whens;
    private final byte[][][] keys;
    private final int[] counts;
    private long cursorTick;
    private int entries;
    private final LongDict.Visitor rebuildCollector = this::append;

    /**
     * @param slots number of slots, a power of two
     * @param resolutionMs length of one tick
     * @param startMs the time from which ticks are processed
     */
    TimerWheelExpiryIndex(int slots, long resolutionMs, long startMs) {
        if (Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two: slots=" + slots);
        }
        if (resolutionMs <= 0) {
            throw new IllegalArgumentException("resolutionMs must be positive: resolutionMs=" + resolutionMs);
        }
        this.resolutionMs = resolutionMs;
        this.mask = slots - 1;
        this.whens = new long[slots][];
        this.keys = new byte[slots][][];
        this.counts = new int[slots];
        this.cursorTick = startMs / resolutionMs;
    }

    /** Indexes {@code key} (not copied) of {@code db} to expire at {@code whenMs}. */
    void add(Database db, byte[] key, long whenMs) {
        append(key, whenMs);
        if (entries > COMPACT_MIN_ENTRIES && entries > 2L * db.expiresSize()) {
            rebuild(db);
        }
    }

    /**
     * Deletes from {@code db} the indexed keys whose time has passed ({@code nowMs > when}) in the
     * ticks that ended since the last call (all slots at most once).
     *
     * @return the number of keys deleted from {@code db}
     */
    int reclaim(Database db, long nowMs) {
        long nowTick = nowMs / resolutionMs;
        long ticks = Math.min(nowTick - cursorTick, (long) mask + 1);
        int expired = 0;
        for (long t = 0; t < ticks; t++) {
            expired += reclaimSlot(db, (int) ((cursorTick + t) & mask), nowMs);
        }
        if (nowTick > cursorTick) {
            cursorTick = nowTick;
        }
        return expired;
    }

    /** Entries held, stale ones included. */
    int entries() {
        return entries;
    }

    private int reclaimSlot(Database db, int slot, long nowMs) {
        long[] slotWhens = whens[slot];
        byte[][] slotKeys = keys[slot];
        int n = counts[slot];
        int kept = 0;
        int expired = 0;
        for (int i = 0; i < n; i++) {
            byte[] key = slotKeys[i];
            long when = slotWhens[i];
            if (db.getExpire(key) != when) {
                continue;
            }
            if (when < nowMs) {
                if (db.expireIfNeeded(key, nowMs)) {
                    expired++;
                }
                continue;
            }
            slotKeys[kept] = key;
            slotWhens[kept] = when;
            kept++;
        }
        if (n > 0) {
            Arrays.fill(slotKeys, kept, n, null);
        }
        counts[slot] = kept;
        entries -= n - kept;
        return expired;
    }

    private void append(byte[] key, long whenMs) {
        long tick = Math.max(whenMs / resolutionMs, cursorTick);
        int slot = (int) (tick & mask);
        int n = counts[slot];
        if (keys[slot] == null) {
            keys[slot] = new byte[SLOT_INITIAL][];
            whens[slot] = new long[SLOT_INITIAL];
        } else if (n == keys[slot].length) {
            keys[slot] = Arrays.copyOf(keys[slot], n * 2);
            whens[slot] = Arrays.copyOf(whens[slot], n * 2);
        }
        keys[slot][n] = key;
        whens[slot][n] = whenMs;
        counts[slot] = n + 1;
        entries++;
    }

    private void rebuild(Database db) {
        for (int slot = 0; slot <= mask; slot++) {
            if (counts[slot] > 0) {
                Arrays.fill(keys[slot], 0, counts[slot], null);
                counts[slot] = 0;
            }
        }
        entries = 0;
        db.expires().forEach(rebuildCollector);
    }
}
