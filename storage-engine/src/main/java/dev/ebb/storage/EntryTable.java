package dev.ebb.storage;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The large encoding of sets and hashes ({@code hashtable}): an open-addressing table of {@code byte[]}
 * entries, each holding its own key, laid out for memory.
 *
 * <p><b>Entries.</b> A set's entry is the member itself ({@link #forMembers}); a hash's is the field and
 * its value packed into one array ({@link #forPairs}, layout in {@link PairEntry}), so a field costs one
 * array header instead of two and nothing else: no entry object, no value column, no boxed flag. Entries
 * are immutable once stored: a write stores a new one, so copies of a table may share them.
 *
 * <p><b>Layout.</b> Two parallel arrays per table: the entry references (4 bytes a slot under compressed
 * references) and one tag byte a slot, 0 for an empty slot, else a present bit and 7 bits of the key's
 * hash (bits 57 to 63, independent of the slot number). A look-up reads the tags of its probe chain
 * (64 to a cache line) and loads an entry only when its tag matches, so the other entries of the chain
 * cost no cache miss and a non-matching entry passes the tag test with probability 1/128. Hash codes are
 * not cached: a backward shift, a migration and a scan re-hash the entries they move or test (SipHash of
 * the key, tens of nanoseconds), where a cached 4-byte hash would cost 8 bytes an entry at the usual load.
 * 5 bytes a slot at a load between 3/8 and 3/4 is 7 to 13 bytes an entry (10.5 at one million).
 *
 * <p><b>The algorithms are {@link OpenTable}'s</b>, over these arrays: a seeded {@link SipHash} of the key,
 * linear probing, backward-shift deletion without tombstones, growth at 3/4 (to 7/8 while a large table's
 * grown arrays are allocated ahead by {@link NextTable}), shrink under 1/10 to load 3/8, and an incremental
 * resize that keeps two tables and migrates at least {@value OpenTable#MIN_REHASH_SLOTS_PER_WRITE} old
 * slots per write (tombstones only in the draining old table), so growing a table of millions of entries
 * never stalls the command loop. The scan is {@link HomeSlotScan}'s reverse-binary cursor over home slots
 * (every entry present for the whole scan is returned at least once, across resizes).
 * {@link #fairRandomHandle} draws random slots until one is occupied, in the old or live table in
 * proportion to the entries each holds: uniform, as Redis's dictGetFairRandomKey.
 *
 * <p>Costs: {@link #find}, {@link #put}, {@link #remove} O(1) expected; {@link #scan} O(1) expected per
 * call; {@link #forEach} O(capacity). Operations allocate nothing except when a resize starts.
 * Handles from {@link #find} and {@link #fairRandomHandle} name a slot and stay valid until the next
 * write. Not thread-safe: a table belongs to the command loop thread.
 */
public final class EntryTable {
    private static final int OLD = OpenTable.OLD_TABLE_HANDLE;
    private static final byte[] TOMBSTONE = OpenTable.TOMBSTONE;
    private static final int PRESENT = 0x80;
    private static final IntFunction<Object> TAGS = byte[]::new;

    private final long seed;
    private final boolean pairs;
    private final SipHash hasher;
    private final SlotRandom random;
    private final NextTable next = new NextTable();

    /** The live table's entries; inserts go here. */
    private Object[] slots;
    /** The live table's tags, 0 for an empty slot. */
    private byte[] tags;
    /** The entries of the table being drained by a resize, or null; migrated and removed slots hold TOMBSTONE. */
    private Object[] oldSlots;
    private int size;
    private int oldCount;
    private int rehashIndex;
    private int rehashSlotsPerWrite;

    private EntryTable(final long seed, final boolean pairs) {
        this.seed = seed;
        this.pairs = pairs;
        this.hasher = new SipHash(seed);
        this.random = new SlotRandom(seed);
        this.slots = new Object[OpenTable.MIN_CAPACITY];
        this.tags = new byte[OpenTable.MIN_CAPACITY];
    }

    /**
     * An empty table whose entries are set members: the key is the whole entry.
     *
     * @param seed seeds the hash key and the random draws
     */
    public static EntryTable forMembers(final long seed) {
        return new EntryTable(seed, false);
    }

    /**
     * An empty table of {@link PairEntry} entries keyed by their field.
     *
     * @param seed seeds the hash key and the random draws
     */
    public static EntryTable forPairs(final long seed) {
        return new EntryTable(seed, true);
    }

    /** Number of entries. O(1). */
    public int size() {
        return size;
    }

    /**
     * The handle of the entry whose key is {@code key}, or -1. O(1) expected.
     *
     * @param key a member or a field, compared by content
     */
    public int find(final byte[] key) {
        final long hash = hasher.hash(key);
        final int slot = probeLive(key, hash);
        if (slot >= 0 || oldSlots == null) {
            return slot;
        }
        final int oldSlot = probeOld(key, hash);
        return oldSlot < 0 ? -1 : oldSlot | OLD;
    }

    /** The entry of a current handle (the stored instance: do not modify it). O(1). */
    public byte[] entryAt(final int handle) {
        return (byte[]) ((handle & OLD) != 0 ? oldSlots[handle & ~OLD] : slots[handle]);
    }

    /**
     * Stores {@code entry} under {@code key}, replacing the entry with that key if there is one. O(1)
     * expected; the write also migrates a few slots of a resize in progress, and may start one.
     *
     * @param key   the entry's key (the member itself, or the field packed in the entry)
     * @param entry the entry, kept as given: do not modify it afterwards
     * @return the replaced entry, or null if the key was absent
     */
    public byte[] put(final byte[] key, final byte[] entry) {
        return store(key, entry, true);
    }

    /**
     * As {@link #put} but an entry already stored under {@code key} stays (SADD of a member).
     *
     * @return the entry already stored, or null if {@code entry} was inserted
     */
    public byte[] putIfAbsent(final byte[] key, final byte[] entry) {
        return store(key, entry, false);
    }

    private byte[] store(final byte[] key, final byte[] entry, final boolean replace) {
        Objects.requireNonNull(entry, "entry");
        stepOnWrite();
        final long hash = hasher.hash(key);
        final int slot = probeLive(key, hash);
        if (slot >= 0) {
            final byte[] previous = (byte[]) slots[slot];
            if (replace) {
                slots[slot] = entry;
            }
            return previous;
        }
        if (oldSlots != null) {
            final int oldSlot = probeOld(key, hash);
            if (oldSlot >= 0) {
                final byte[] previous = (byte[]) oldSlots[oldSlot];
                if (replace) {
                    oldSlots[oldSlot] = entry;
                }
                return previous;
            }
        } else {
            growIfFull();
        }
        place(entry, hash);
        size++;
        return null;
    }

    /**
     * Removes the entry whose key is {@code key}. O(1) expected; may start a shrink when the table falls
     * under 1/10 full.
     *
     * @return the removed entry, or null if absent
     */
    public byte[] remove(final byte[] key) {
        stepOnWrite();
        final long hash = hasher.hash(key);
        final int slot = probeLive(key, hash);
        if (slot >= 0) {
            final byte[] previous = (byte[]) slots[slot];
            size--;
            shiftBack(slot);
            if (oldSlots == null) {
                shrinkIfSparse();
            }
            return previous;
        }
        if (oldSlots != null) {
            final int oldSlot = probeOld(key, hash);
            if (oldSlot >= 0) {
                final byte[] previous = (byte[]) oldSlots[oldSlot];
                oldSlots[oldSlot] = TOMBSTONE;
                size--;
                if (--oldCount == 0) {
                    finishResize();
                }
                return previous;
            }
        }
        return null;
    }

    /**
     * The handle of a uniformly random entry, or -1 if empty: random slots are drawn until one is occupied.
     * O(slots / entries) expected, a handful of reads at the loads the resize rules allow.
     */
    public int fairRandomHandle() {
        if (size == 0) {
            return -1;
        }
        final Object[] old = oldSlots;
        if (old != null && random.nextInt(size) < oldCount) {
            final int span = old.length - rehashIndex;
            while (true) {
                final int slot = rehashIndex + random.nextInt(span);
                final Object entry = old[slot];
                if (entry != null && entry != TOMBSTONE) {
                    return slot | OLD;
                }
            }
        }
        final byte[] t = tags;
        while (true) {
            final int slot = random.nextInt(t.length);
            if (t[slot] != 0) {
                return slot;
            }
        }
    }

    /**
     * One step of a stateless scan with Redis's guarantee (see {@link HomeSlotScan}): start at 0, call again
     * with the returned cursor until it is 0. O(1) expected per call.
     *
     * @param visitor receives stored entries; it must not modify this table
     * @return the next cursor, 0 when done
     */
    public long scan(final long cursor, final Consumer<byte[]> visitor) {
        if (size == 0) {
            return 0;
        }
        return HomeSlotScan.step(cursor, slots, oldSlots, 0, this::entryHash,
            handle -> visitor.accept(entryAt(handle)));
    }

    /** Visits every entry once, in no particular order. O(capacity); the visitor must not modify the table. */
    public void forEach(final Consumer<byte[]> visitor) {
        final Object[] live = slots;
        final byte[] t = tags;
        for (int slot = 0; slot < t.length; slot++) {
            if (t[slot] != 0) {
                visitor.accept((byte[]) live[slot]);
            }
        }
        final Object[] old = oldSlots;
        if (old != null) {
            for (int slot = rehashIndex; slot < old.length; slot++) {
                final Object entry = old[slot];
                if (entry != null && entry != TOMBSTONE) {
                    visitor.accept((byte[]) entry);
                }
            }
        }
    }

    /**
     * Migrates up to {@code count} old slots of a resize in progress. O(count).
     *
     * @return the number of old slots examined, 0 when not resizing
     */
    public int rehashSteps(final int count) {
        final Object[] old = oldSlots;
        if (old == null) {
            return 0;
        }
        final int end = count >= old.length - rehashIndex ? old.length : rehashIndex + count;
        int slot = rehashIndex;
        for (; slot < end && oldCount > 0; slot++) {
            final Object entry = old[slot];
            if (entry != null && entry != TOMBSTONE) {
                place((byte[]) entry, entryHash((byte[]) entry));
                old[slot] = TOMBSTONE;
                oldCount--;
            }
        }
        final int examined = slot - rehashIndex;
        rehashIndex = slot;
        if (oldCount == 0) {
            finishResize();
        }
        return examined;
    }

    /** Whether a resize is in progress. O(1). */
    public boolean isRehashing() {
        return oldSlots != null;
    }

    /** Slots of the live table. O(1). */
    public int capacity() {
        return tags.length;
    }

    /**
     * Heap bytes of the slot and tag arrays of both tables (not the entries, not arrays allocated ahead),
     * under the layout assumptions of {@link Values}. O(1).
     */
    public long memoryBytes() {
        long bytes = Values.arrayBytes(slots.length, Values.REFERENCE_BYTES) + Values.arrayBytes(tags.length, 1);
        if (oldSlots != null) {
            bytes += Values.arrayBytes(oldSlots.length, Values.REFERENCE_BYTES);
        }
        return bytes;
    }

    /**
     * A copy with the same hash key, holding the same (immutable) entries in new arrays. O(capacity), array
     * copies only.
     */
    public EntryTable copy() {
        final EntryTable copy = new EntryTable(seed, pairs);
        copy.slots = slots.clone();
        copy.tags = tags.clone();
        copy.oldSlots = oldSlots == null ? null : oldSlots.clone();
        copy.size = size;
        copy.oldCount = oldCount;
        copy.rehashIndex = rehashIndex;
        copy.rehashSlotsPerWrite = rehashSlotsPerWrite;
        return copy;
    }

    /** The live slot whose entry has key {@code key}, or -1: tags first, then the entry when the tag matches. */
    private int probeLive(final byte[] key, final long hash) {
        final byte[] t = tags;
        final Object[] live = slots;
        final int mask = t.length - 1;
        final byte tag = tag(hash);
        for (int slot = (int) hash & mask; ; slot = (slot + 1) & mask) {
            final byte at = t[slot];
            if (at == 0) {
                return -1;
            }
            if (at == tag && keyEquals((byte[]) live[slot], key)) {
                return slot;
            }
        }
    }

    /** The old slot whose entry has key {@code key} (skipping tombstones), or -1. */
    private int probeOld(final byte[] key, final long hash) {
        final Object[] old = oldSlots;
        final int mask = old.length - 1;
        for (int slot = (int) hash & mask; ; slot = (slot + 1) & mask) {
            final Object entry = old[slot];
            if (entry == null) {
                return -1;
            }
            if (entry != TOMBSTONE && keyEquals((byte[]) entry, key)) {
                return slot;
            }
        }
    }

    private boolean keyEquals(final byte[] entry, final byte[] key) {
        if (!pairs) {
            return KeyBytes.equal(entry, key);
        }
        return KeyBytes.equalRange(entry, PairEntry.fieldOffset(entry), PairEntry.fieldLength(entry), key);
    }

    private long entryHash(final byte[] entry) {
        return pairs ? hasher.hash(entry, PairEntry.fieldOffset(entry), PairEntry.fieldLength(entry))
            : hasher.hash(entry);
    }

    private static byte tag(final long hash) {
        return (byte) (PRESENT | (int) (hash >>> 57));
    }

    /** Stores an entry known to be absent in the first free live slot from its home. */
    private void place(final byte[] entry, final long hash) {
        final byte[] t = tags;
        final int mask = t.length - 1;
        int slot = (int) hash & mask;
        while (t[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        slots[slot] = entry;
        t[slot] = tag(hash);
    }

    /** Backward-shift deletion of live slot {@code slot}, as {@link OpenTable}'s. */
    private void shiftBack(final int slot) {
        final Object[] live = slots;
        final byte[] t = tags;
        final int mask = t.length - 1;
        int hole = slot;
        for (int next = (slot + 1) & mask; t[next] != 0; next = (next + 1) & mask) {
            final int home = (int) entryHash((byte[]) live[next]) & mask;
            // The entry may fill the hole unless its home lies cyclically in (hole, next].
            if (((next - home) & mask) >= ((next - hole) & mask)) {
                live[hole] = live[next];
                t[hole] = t[next];
                hole = next;
            }
        }
        live[hole] = null;
        t[hole] = 0;
    }

    private void stepOnWrite() {
        if (oldSlots != null) {
            rehashSteps(rehashSlotsPerWrite);
        }
    }

    /** Before an insert into a table not resizing: grows at 3/4, or asks for the grown arrays ahead. */
    private void growIfFull() {
        final int capacity = tags.length;
        if (size >= TableSizing.maxFill(capacity)) {
            if (capacity == OpenTable.MAX_CAPACITY) {
                throw new IllegalStateException("table is full: size=" + size + ", capacity=" + capacity);
            }
            // While the grown arrays are still being allocated ahead, fill past 3/4 (up to fillLimit) rather
            // than allocate them here: the write that starts the grow must not stall.
            if (size >= TableSizing.fillLimit(capacity) || !next.isAllocating(capacity << 1)) {
                startResize(capacity << 1);
            }
        } else if (size >= TableSizing.aheadFill(capacity) && capacity >= NextTable.AHEAD_MIN_CAPACITY
                && capacity < OpenTable.MAX_CAPACITY) {
            next.request(capacity << 1, 0, TAGS);
        }
    }

    private void shrinkIfSparse() {
        final int capacity = tags.length;
        if (capacity <= OpenTable.MIN_CAPACITY || (long) size * 8 >= capacity) {
            return;
        }
        if ((long) size * 10 < capacity) {
            startResize(TableSizing.shrinkCapacity(size));
            return;
        }
        final int target = TableSizing.shrinkCapacity((capacity - 1) / 10);
        if (target >= NextTable.AHEAD_MIN_CAPACITY) {
            next.request(target, 0, TAGS);
        }
    }

    private void startResize(final int newCapacity) {
        final int oldCapacity = tags.length;
        final NextTable.Prepared ready = next.take(newCapacity);
        if (size == 0) {
            slots = new Object[newCapacity];
            tags = new byte[newCapacity];
            return;
        }
        oldSlots = slots;
        slots = ready != null ? ready.rows : new Object[newCapacity];
        tags = ready != null ? (byte[]) ready.columns : new byte[newCapacity];
        oldCount = size;
        rehashIndex = 0;
        rehashSlotsPerWrite = TableSizing.rehashSlotsPerWrite(oldCapacity, newCapacity, size);
    }

    private void finishResize() {
        oldSlots = null;
        oldCount = 0;
        rehashIndex = 0;
        shrinkIfSparse();
    }
}
