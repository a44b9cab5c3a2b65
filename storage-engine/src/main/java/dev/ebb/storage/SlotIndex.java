package dev.ebb.storage;

import java.util.Arrays;

/**
 * The keys of one {@link Database} grouped by hash slot, kept only in cluster mode: how many keys each of
 * the {@value #SLOTS} slots holds, and the keys themselves, so that CLUSTER COUNTKEYSINSLOT answers in O(1)
 * and GETKEYSINSLOT in O(count) instead of a walk over the whole keyspace (resharding asks both once per
 * slot moved, which made it quadratic in the keys of the node).
 *
 * <h2>Layout</h2>
 * A count per slot ({@code int[16384]}) and, for each slot holding keys, a small open-addressing set of
 * the stored key instances: the very {@code byte[]} the main dict holds, compared by identity and placed by
 * their identity hash. So the index never reads a key's bytes after taking its slot, hashes nothing an
 * attacker chooses (identity hashes come from the JVM, not from the content) and does not care where the
 * main dict keeps the key: the main dict's resizes and backward shifts leave it untouched. Each set is a
 * power-of-two {@code byte[][]} of at least {@value #MIN_CAPACITY} slots, linear probing, backward-shift
 * deletion, grown at 3/4 full and shrunk under 1/8 to a load of 3/8 or less; an emptied slot drops its array.
 *
 * <p>This is Ebb's counterpart of Redis 7.2's per-slot doubly linked list through the dict entries'
 * metadata (16 bytes a key) and of 7.4's dict per slot. Index-based links in the main dict's parallel
 * arrays would cost 8 bytes per table slot, 10 to 21 bytes a key at the loads the main dict allows and
 * about 17 at 1 million keys; these sets cost {@code 4 / load} bytes a key plus a 16-byte header per
 * non-empty slot, plus a fixed 128 KB for the two top-level arrays: at 1 million keys (61 keys a slot,
 * mostly in 128-slot sets) 8.5 bytes a key by {@link #memoryBytes} and 7.5 measured on the heap
 * ({@code benchmarks/scripts/slot-index-bench.sh}); more in a sparsely filled keyspace (a slot with one
 * key costs 32 bytes).
 *
 * <h2>Costs</h2>
 * Adding and removing a key: O(1) expected, the key's slot function (CRC16 of the key, O(key length)),
 * one identity hash and a short probe. Growing or shrinking a slot's set rebuilds it at once, O(keys in the
 * slot): harmless when keys spread over the slots (a few dozen each), but a slot holding millions of keys
 * through one hash tag pauses the loop for milliseconds at each doubling, where Redis 7.4's per-slot dict
 * resizes incrementally. {@link #count}: O(1). {@link #keys}: O(count / load) slots read from the start
 * of the slot's set. {@link #clear}: O(16384).
 *
 * <p>Keys are indexed whether expired or not: as in Redis, COUNTKEYSINSLOT and GETKEYSINSLOT report
 * expired keys that are still stored.
 *
 * <p>Not thread-safe: belongs to its database's thread.
 */
public final class SlotIndex {
    /** Number of hash slots in a Redis Cluster. */
    public static final int SLOTS = 16384;

    /** Smallest set of a non-empty slot. */
    static final int MIN_CAPACITY = 4;

    private final SlotFunction slotFunction;
    private final int[] counts = new int[SLOTS];
    private final byte[][][] sets = new byte[SLOTS][][];
    /** Keys in all slots. */
    private int size;
    /** Heap bytes of the per-slot sets, see {@link OpenTable#arrayBytes}. */
    private long setBytes;

    /**
     * @param slotFunction maps a key to its slot, 0 to {@value #SLOTS} - 1
     */
    public SlotIndex(final SlotFunction slotFunction) {
        if (slotFunction == null) {
            throw new IllegalArgumentException("slotFunction must not be null");
        }
        this.slotFunction = slotFunction;
    }

    /**
     * Number of keys in {@code slot}. O(1).
     *
     * @throws IllegalArgumentException if the slot is outside 0 to {@value #SLOTS} - 1
     */
    public int count(final int slot) {
        return counts[checkedSlot(slot)];
    }

    /**
     * Up to {@code max} keys of {@code slot}, in no particular order. O(returned keys / load).
     *
     * @return the stored key instances (do not modify them): {@code min(max, count(slot))} of them
     * @throws IllegalArgumentException if the slot is outside 0 to {@value #SLOTS} - 1 or {@code max} is negative
     */
    public byte[][] keys(final int slot, final int max) {
        if (max < 0) {
            throw new IllegalArgumentException("max must not be negative: max=" + max);
        }
        final int n = Math.min(max, counts[checkedSlot(slot)]);
        final byte[][] out = new byte[n][];
        final byte[][] set = sets[slot];
        for (int i = 0, found = 0; found < n; i++) {
            if (set[i] != null) {
                out[found++] = set[i];
            }
        }
        return out;
    }

    /** The slot function this index was made with. */
    SlotFunction slotFunction() {
        return slotFunction;
    }

    /** Keys in all slots. O(1). */
    public int size() {
        return size;
    }

    /**
     * Heap bytes of the index: the counts, the array of sets and the sets. O(1).
     */
    public long memoryBytes() {
        return OpenTable.arrayBytes(SLOTS, 4) * 2 + setBytes;
    }

    /**
     * Adds a key just inserted into the main dict.
     *
     * @param storedKey the instance the main dict stores
     * @throws IllegalStateException if that instance is already indexed
     */
    void add(final byte[] storedKey) {
        final int slot = checkedSlot(slotFunction.slotOf(storedKey));
        byte[][] set = sets[slot];
        final int count = counts[slot];
        if (set == null) {
            set = newSet(MIN_CAPACITY);
            sets[slot] = set;
        } else if (count >= TableSizing.maxFill(set.length)) {
            set = rebuild(slot, set, set.length << 1);
        }
        final int mask = set.length - 1;
        int i = home(storedKey, mask);
        while (set[i] != null) {
            if (set[i] == storedKey) {
                throw new IllegalStateException("key already indexed: key=" + KeyText.printable(storedKey));
            }
            i = (i + 1) & mask;
        }
        set[i] = storedKey;
        counts[slot] = count + 1;
        size++;
    }

    /**
     * Removes a key about to leave the main dict.
     *
     * @param storedKey the instance the main dict stores
     * @throws IllegalStateException if that instance is not indexed
     */
    void remove(final byte[] storedKey) {
        final int slot = checkedSlot(slotFunction.slotOf(storedKey));
        final byte[][] set = sets[slot];
        if (set == null) {
            throw notIndexed(storedKey);
        }
        final int mask = set.length - 1;
        int i = home(storedKey, mask);
        while (set[i] != storedKey) {
            if (set[i] == null) {
                throw notIndexed(storedKey);
            }
            i = (i + 1) & mask;
        }
        shiftBack(set, i);
        final int count = counts[slot] - 1;
        counts[slot] = count;
        size--;
        if (count == 0) {
            sets[slot] = null;
            setBytes -= OpenTable.arrayBytes(set.length, 4);
        } else if (set.length > MIN_CAPACITY && (long) count * 8 < set.length) {
            rebuild(slot, set, shrinkCapacity(count));
        }
    }

    /** Empties every slot (FLUSHDB). O(16384). */
    void clear() {
        Arrays.fill(counts, 0);
        Arrays.fill(sets, null);
        size = 0;
        setBytes = 0;
    }

    private static IllegalStateException notIndexed(final byte[] key) {
        return new IllegalStateException("key not indexed: key=" + KeyText.printable(key));
    }

    private static int checkedSlot(final int slot) {
        if (slot < 0 || slot >= SLOTS) {
            throw new IllegalArgumentException("slot out of range: slot=" + slot);
        }
        return slot;
    }

    /** The key's home in a set of {@code mask + 1} slots: its identity hash, high bits folded in. */
    private static int home(final byte[] key, final int mask) {
        final int h = System.identityHashCode(key) * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    /** Backward-shift deletion of position {@code hole}, as in {@link OpenTable}. */
    private static void shiftBack(final byte[][] set, final int slot) {
        final int mask = set.length - 1;
        int hole = slot;
        for (int next = (slot + 1) & mask; set[next] != null; next = (next + 1) & mask) {
            final int home = home(set[next], mask);
            if (((next - home) & mask) >= ((next - hole) & mask)) {
                set[hole] = set[next];
                hole = next;
            }
        }
        set[hole] = null;
    }

    /** The smallest power of two, at least {@link #MIN_CAPACITY}, holding {@code count} keys at load 3/8 or less. */
    static int shrinkCapacity(final int count) {
        int capacity = MIN_CAPACITY;
        while ((long) capacity * 3 < (long) count * 8) {
            capacity <<= 1;
        }
        return capacity;
    }

    private byte[][] newSet(final int capacity) {
        setBytes += OpenTable.arrayBytes(capacity, 4);
        return new byte[capacity][];
    }

    /** Moves a slot's keys into a new set of {@code capacity} positions. O(old capacity). */
    private byte[][] rebuild(final int slot, final byte[][] set, final int capacity) {
        final byte[][] grown = newSet(capacity);
        setBytes -= OpenTable.arrayBytes(set.length, 4);
        final int mask = capacity - 1;
        for (final byte[] key : set) {
            if (key != null) {
                int i = home(key, mask);
                while (grown[i] != null) {
                    i = (i + 1) & mask;
                }
                grown[i] = key;
            }
        }
        sets[slot] = grown;
        return grown;
    }
}
