package dev.ebb.storage;

import java.util.Objects;
import java.util.function.IntFunction;

/**
 * The key half of {@link Dict} and {@link LongDict}: an open-addressing hash table of {@code byte[]} keys with
 * incremental resizing, random sampling and a resize-proof scan cursor.
 *
 * <h2>Layout</h2>
 * A table is a power-of-two number of slots held in one {@code Object[]} of rows: each slot is
 * {@code 2^rowShift} consecutive references, the key first ({@code null} for an empty slot) and then the
 * subclass's reference columns ({@link Dict} keeps its value there, so one cache line serves a look-up's
 * key and value). Primitive columns (Dict's meta int, LongDict's long) live in parallel arrays of the
 * subclass, which moves them when told to by the hooks at the bottom of this class. A key's <em>home</em>
 * slot is {@code hash & (capacity - 1)}, where the hash is a seeded {@link SipHash} of the key's bytes, and it
 * lives in the first free slot at or after its home (linear probing, wrapping at the end). Keys are compared
 * by content, so any byte sequence, including the empty one, is a key. Nothing else is stored per slot: no
 * cached hash, no entry object. With the maximum load factor of 3/4 (a table grows on the insert that
 * would pass it) and the shrink threshold of 1/10, the load of a table at rest is between 0.1 and 0.75; a
 * lookup probes about 2.5 (hit) to 8.5 (miss) slots at 0.75, 1.5 to 2.5 at 0.5. The one exception is a
 * large table whose grown arrays are still being allocated ahead when it reaches 3/4 (see below): it takes
 * inserts up to 7/8 ({@link TableSizing#fillLimit}) while they are, probing about 4.5 (hit) to 32 (miss) slots
 * at 7/8. The thresholds and targets are {@link TableSizing}'s; the probing itself is {@link RowArrays}'s.
 *
 * <h2>Deletion without tombstones</h2>
 * Removing the key in slot {@code i} opens a hole that would cut the probe chains passing through it, so
 * the keys after it in the same cluster (the run of occupied slots up to the next empty one) are examined
 * in order, and each one whose home is not cyclically inside {@code (hole, slot]} moves back into the hole,
 * which moves to where that key was (backward-shift deletion), until an empty slot ends the cluster. This
 * re-hashes the keys of the rest of the cluster: a few on average at load 0.75.
 *
 * <h2>Incremental resize</h2>
 * Growing or shrinking a table of millions of keys in one go would stall the single command thread for
 * tens of milliseconds, so, as in Redis, a resize keeps two tables for a while:
 * <ul>
 *   <li>Start: the current table becomes the <em>old</em> table and a new empty one (twice as large when
 *       growing; the smallest power of two at least {@link #MIN_CAPACITY} that holds the keys at load 3/8
 *       or less when shrinking) becomes the <em>live</em> table. Allocating the new, zeroed arrays is the
 *       only step whose cost grows with the table, so a table of {@link NextTable#AHEAD_MIN_CAPACITY} slots or
 *       more has them allocated ahead on a background thread: a grow's when the table passes 15/16 of its
 *       maximum fill, a shrink's when it falls under 1/8 full (see {@link NextTable}). If a grow's arrays
 *       are still being allocated when the table reaches 3/4, the grow waits for them, without blocking:
 *       the table takes inserts up to 7/8 full meanwhile, and allocates inline only if it gets there
 *       first. (Fresh memory can be slow: on a VM whose host backs guest pages on first touch, zeroing the
 *       48 MB of a 2^22-slot table took 200 ms, longer than 1/16 of the keys took to arrive.)</li>
 *   <li>The old table only drains. Inserts always go to the live table; look-ups try the live table and then
 *       the old one; a key is never in both. A slot of the old table whose key has been migrated or removed
 *       holds the {@link #TOMBSTONE} sentinel rather than {@code null}, so the probe chains of the old table
 *       stay intact without moving anything in it. Tombstones exist only in the old table, which is dropped
 *       as a whole when the last old key has been migrated.</li>
 *   <li>Migration walks the old slots in index order ({@code rehashIndex}) moving each key to the live
 *       table. Every {@code put} and {@code remove} first migrates a bounded number of old slots, and the
 *       cron calls {@link #rehashFor} to migrate in a time-boxed loop.</li>
 *   <li>The per-write step is {@code max(4, ceil(2 * oldCapacity / min(headroom, keys)))} slots, where
 *       {@code headroom} is how many inserts the live table takes before passing 3/4 and {@code keys} is the
 *       key count when the resize starts. Draining then takes at most half of either figure in writes, so
 *       the live table can never overflow during a resize (no resize ever has to wait for another), and at
 *       least half of the keys remain, which bounds the cost of {@link #randomHandle} while shrinking. A grow
 *       uses the minimum of 4 slots (about 3 keys) per write; a shrink, whose old table is at most 1/10
 *       full, examines more slots but moves few keys.</li>
 * </ul>
 *
 * <h2>Random keys</h2>
 * {@link #randomHandle} picks a random slot and walks forward to the first key: O(1) expected and allocation
 * free, but biased: with a walk of unlimited length a key that follows {@code g} empty slots would be picked
 * {@code (g + 1) * load} times more often than uniform. With hashed positions the longest gap in a table of
 * {@code n} keys is about {@code ln(n) / load}, so the worst key would come up about {@code ln(n)} times too
 * often (8 to 10 for a few thousand keys) - but during a resize the live table fills unevenly (migration
 * goes in slot order, so whole regions are still empty) and the gaps there are unbounded. So the walk
 * stops after {@link #RANDOM_WALK_SLOTS} slots and starts again from a new random slot. Each key then has a
 * weight {@code min(g, 15) + 1} between 1 and 16 and is drawn with probability weight / total weight, where
 * the total is at least the number of keys: no key is drawn more than 16 times as often as uniform, in any
 * state. The table is chosen first, old or live in proportion to the keys each holds, and the draw stays in
 * it, so the bound holds during a resize too; the expected number of slots read is about
 * {@code (old slots + live slots) / size}, a handful at any load the resize rules allow.
 * {@code DictSamplingTest} checks the bound (at 20) at loads from the shrink threshold to the maximum.
 * Eviction and active expiry only need "roughly random", which is also all Redis promises.
 *
 * <h2>Scan</h2>
 * {@link #scanHandles} is Redis's stateless reverse-binary cursor over home slots, see {@link HomeSlotScan}.
 *
 * <h2>Memory</h2>
 * {@link #memoryBytes} counts the slot arrays of both tables, assuming a 64-bit HotSpot JVM with compressed
 * references (heaps under 32 GB): 16-byte array headers, 4-byte references, sizes rounded up to 8 bytes.
 * A {@link Dict} costs 12 bytes a slot, so 16 to 120 bytes a key at the loads allowed (25 at 1 million
 * keys, which need 2^21 slots). Under G1 an array of more than half a region is placed in whole regions,
 * and a power-of-two slot array is just over a power of two bytes with its header, so each large array
 * may leave most of one region unused (about 2 bytes a key at 1 million keys with 1 MB regions); the
 * estimate leaves this out.
 *
 * <p>Handles are {@code int} slot numbers, with bit 30 set for a slot of the old table; they stay valid until
 * the next put, remove, clear or rehash step. Not thread-safe: a table belongs to one thread.
 */
abstract class OpenTable {

    /** Smallest capacity; shrinking stops here and {@link #clear()} returns here. */
    static final int MIN_CAPACITY = 8;

    /** Largest capacity: Dict's rows (two references a slot) must fit in a Java array. */
    static final int MAX_CAPACITY = 1 << 29;

    /** Set in a handle that names a slot of the draining old table. */
    static final int OLD_TABLE_HANDLE = 1 << 30;

    /** Old slots migrated per chunk of {@link #rehashFor}, between two clock readings. */
    static final int REHASH_CHUNK_SLOTS = 100;

    /** The least number of old slots each put or remove migrates while a resize is in progress. */
    static final int MIN_REHASH_SLOTS_PER_WRITE = 4;

    /** {@link #sampleKeys} examines at most this many slots per key asked for. */
    static final int SAMPLE_STEPS_PER_KEY = 32;

    /** {@link #sampleKeys} jumps to a new random slot after this many empty slots in a row. */
    static final int SAMPLE_EMPTY_RUN = 16;

    /**
     * {@link #randomHandle} examines at most this many slots from a random start before drawing another, which
     * caps how much more often than uniform a key can be drawn at this factor.
     */
    static final int RANDOM_WALK_SLOTS = 16;

    /**
     * Marks a slot of the draining old table whose key was migrated or removed. Compared by identity only, so
     * it never equals a user's empty key.
     */
    static final byte[] TOMBSTONE = new byte[0];

    private static final long ARRAY_HEADER_BYTES = 16;
    private static final long REFERENCE_BYTES = 4;

    private final SipHash hasher;
    /** The arrays of the next resize, allocated ahead for large tables. */
    private final NextTable next = new NextTable();
    /** {@link #newColumns} as a function, made once so that requesting ahead allocates nothing here. */
    private final IntFunction<Object> columnAllocator = this::newColumns;
    /** log2 of the references per slot: 0 for a key only, 1 for a key and one value. */
    private final int rowShift;
    private final SlotRandom random;

    /** The live table's rows: inserts go here. */
    private Object[] rows;
    /** The rows of the table being drained by a resize, or {@code null}. */
    private Object[] oldRows;
    /** Keys in both tables. */
    private int size;
    /** Keys still in the old table. */
    private int oldCount;
    /** Next old slot to migrate; old slots below it hold only tombstones and empty slots. */
    private int rehashIndex;
    /** Old slots migrated by each put or remove during the current resize. */
    private int rehashSlotsPerWrite;

    /**
     * Creates an empty table of {@link #MIN_CAPACITY} slots; subclasses allocate their primitive columns of
     * {@link #capacity()} slots in their constructor.
     *
     * @param seed     seeds the hash key and the random sampler
     * @param rowShift log2 of the references per slot (the key and the subclass's reference columns): 0 or 1
     */
    OpenTable(final long seed, final int rowShift) {
        this.hasher = new SipHash(seed);
        this.rowShift = rowShift;
        this.random = new SlotRandom(seed);
        this.rows = new Object[MIN_CAPACITY << rowShift];
    }

    /**
     * Number of keys. O(1).
     *
     * @return the number of keys in the table
     */
    public final int size() {
        return size;
    }

    /**
     * Whether the table holds no key. O(1).
     *
     * @return {@code size() == 0}
     */
    public final boolean isEmpty() {
        return size == 0;
    }

    /**
     * Whether {@code key} is present (compared by content). O(1) expected.
     *
     * @param key the key bytes
     * @return true if present
     */
    public final boolean containsKey(final byte[] key) {
        return find(key) >= 0;
    }

    /**
     * Looks a key up. O(1) expected: one hash of the key and a short probe of the live table, then of the old
     * table during a resize.
     *
     * @param key the key bytes, compared by content
     * @return the key's handle, or -1 if absent
     */
    public final int find(final byte[] key) {
        final long hash = hasher.hash(key);
        final int slot = probeLive(rows, key, hash);
        if (slot >= 0) {
            return slot;
        }
        final Object[] old = oldRows;
        if (old != null) {
            final int oldSlot = RowArrays.probe(old, rowShift, key, hash);
            if (oldSlot >= 0) {
                return oldSlot | OLD_TABLE_HANDLE;
            }
        }
        return -1;
    }

    /**
     * The stored key instance of a handle. O(1).
     *
     * @param handle a current handle from {@link #find}, {@link #randomHandle} or a visitor
     * @return the key instance that was inserted (not a copy: do not modify it)
     */
    public final byte[] keyAt(final int handle) {
        return (byte[]) rowReference(handle, 0);
    }

    /**
     * A random key, see {@link #randomHandle()} for the cost and the bias.
     *
     * @return a stored key instance, or {@code null} if the table is empty
     */
    public final byte[] randomKey() {
        final int handle = randomHandle();
        return handle < 0 ? null : keyAt(handle);
    }

    /**
     * The handle of a roughly random key: a random slot, then a walk of at most {@value #RANDOM_WALK_SLOTS}
     * slots forward to the first key, starting over at another random slot if there is none. O(1) expected
     * (about {@code 1 / load} slots, mostly sequential), no allocation. Biased towards keys after empty
     * slots, by at most {@value #RANDOM_WALK_SLOTS} times uniform (see the class comment).
     *
     * @return a handle, or -1 if the table is empty
     */
    public final int randomHandle() {
        return randomHandle(RANDOM_WALK_SLOTS);
    }

    /**
     * The handle of a uniformly random key, for commands whose users count the draws (SRANDMEMBER,
     * HRANDFIELD, SPOP, as Redis's dictGetFairRandomKey): random slots are drawn until one is
     * occupied, so every key is equally likely. O(slots / keys) expected, a handful of slot reads at
     * any load the resize rules allow; no allocation.
     *
     * @return a handle, or -1 if the table is empty
     */
    public final int fairRandomHandle() {
        return randomHandle(1);
    }

    private int randomHandle(final int walk) {
        if (size == 0) {
            return -1;
        }
        final Object[] old = oldRows;
        if (old != null && random.nextInt(size) < oldCount) {
            final int slot = RowArrays.randomSlot(old, rowShift, rehashIndex, slots(old) - rehashIndex, walk, random);
            return slot | OLD_TABLE_HANDLE;
        }
        return RowArrays.randomSlot(rows, rowShift, 0, slots(rows), walk, random);
    }

    /**
     * Up to {@code count} distinct keys for eviction and active expiry, read from runs of contiguous slots
     * (the idea of Redis's {@code dictGetSomeKeys}): from a random slot, walk forward collecting keys, and
     * jump to another random slot after {@value #SAMPLE_EMPTY_RUN} empty slots in a row (the live table is
     * unevenly filled during a resize). Examines at most {@code count * }{@value #SAMPLE_STEPS_PER_KEY}
     * slots: O(count), allocation free. Neighbours in a run are unrelated keys (positions are hashed).
     *
     * @param out   receives the stored key instances in {@code out[0..n)}
     * @param count the number of keys wanted, at most {@code out.length}
     * @return {@code n}, less than {@code count} only if {@code size() < count} or the step limit ran out
     */
    public final int sampleKeys(final byte[][] out, final int count) {
        if (count < 0 || count > out.length) {
            throw new IllegalArgumentException("count must be in [0, out.length]: count=" + count
                + ", out.length=" + out.length);
        }
        if (count == 0 || size == 0) {
            return 0;
        }
        return RunSampler.sample(rows, oldRows, rehashIndex, rowShift, size, oldCount, random, out, count);
    }

    /**
     * Whether a resize is in progress (two tables are kept). O(1).
     *
     * @return true while the old table still holds keys
     */
    public final boolean isRehashing() {
        return oldRows != null;
    }

    /**
     * Migrates up to {@code slots} slots of the old table to the live one. Costs one hash and one probe per
     * key moved; examining an empty or tombstone slot is a single read. Finishes the resize when the old
     * table is empty, and may then start a shrink if the table has become sparse meanwhile.
     *
     * @param slots the most old slots to examine, at least 0
     * @return the number of old slots examined (0 when not rehashing)
     */
    public final int rehashSteps(final int slots) {
        if (slots < 0) {
            throw new IllegalArgumentException("slots must not be negative: slots=" + slots);
        }
        final Object[] old = oldRows;
        if (old == null) {
            return 0;
        }
        final int oldSlots = slots(old);
        final int end = slots >= oldSlots - rehashIndex ? oldSlots : rehashIndex + slots;
        int slot = rehashIndex;
        while (slot < end && oldCount > 0) {
            final Object key = old[slot << rowShift];
            if (key != null && key != TOMBSTONE) {
                migrate(old, slot, (byte[]) key);
            }
            slot++;
        }
        final int examined = slot - rehashIndex;
        rehashIndex = slot;
        if (oldCount == 0) {
            finishResize();
        }
        return examined;
    }

    /**
     * Migrates old slots in chunks of {@value #REHASH_CHUNK_SLOTS} until the resize is done or
     * {@code budgetNanos} have passed, reading {@code clock} once before the first chunk and once after each
     * chunk that leaves work to do. Runs at least one chunk; one chunk moves at most 100 keys (a few
     * microseconds), so the overshoot is one chunk.
     *
     * @param budgetNanos the time allowed, in the clock's nanoseconds
     * @param clock       the time source (the command loop's, or a manual one in tests)
     * @return the number of chunks migrated (0 when not rehashing)
     */
    public final int rehashFor(final long budgetNanos, final NanoClock clock) {
        if (oldRows == null) {
            return 0;
        }
        final long start = clock.nanoTime();
        int chunks = 0;
        do {
            rehashSteps(REHASH_CHUNK_SLOTS);
            chunks++;
        } while (oldRows != null && clock.nanoTime() - start < budgetNanos);
        return chunks;
    }

    /**
     * Number of slots of the live table (the new one during a resize). O(1).
     *
     * @return a power of two between {@link #MIN_CAPACITY} and {@link #MAX_CAPACITY}
     */
    public final int capacity() {
        return slots(rows);
    }

    /**
     * Estimated heap bytes of the slot arrays of both tables (the rows and the subclass's primitive
     * columns), assuming 16-byte array headers, 4-byte compressed references and 8-byte alignment.
     * Does not count the keys and values themselves, nor the next table's arrays held ready
     * ({@link #aheadBytes}). O(1). Changes only in calls made by the owning thread, so a caller may
     * account for it incrementally (a value's memory before and after a command).
     *
     * @return the estimate in bytes
     */
    public final long memoryBytes() {
        long bytes = arrayBytes(rows.length, REFERENCE_BYTES);
        if (oldRows != null) {
            bytes += arrayBytes(oldRows.length, REFERENCE_BYTES);
        }
        return bytes + columnBytes();
    }

    /**
     * Estimated heap bytes of the next table's arrays if the background thread holds them ready
     * (see {@link NextTable}); 0 otherwise. Changes at any moment (when the allocation finishes), so
     * it must be read afresh rather than accounted incrementally. O(1).
     */
    public final long aheadBytes() {
        final int ready = next.readyCapacity();
        return ready > 0 ? arrayBytes(ready << rowShift, REFERENCE_BYTES) + columnArrayBytes(ready) : 0;
    }

    /**
     * Sizes an empty table for {@code keys} inserts, so that they start no resize and ask for no grown
     * arrays ahead (a loader that knows its key count, as Redis's RESIZEDB expands a dict). Does nothing
     * if the table holds keys or already has that many slots. O(new capacity).
     */
    public final void presize(final int keys) {
        if (size != 0 || oldRows != null) {
            return;
        }
        int capacity = MIN_CAPACITY;
        while (capacity < MAX_CAPACITY && TableSizing.aheadFill(capacity) <= keys) {
            capacity <<= 1;
        }
        if (capacity > slots(rows)) {
            reset(capacity);
        }
    }

    /** Removes every key and returns to {@link #MIN_CAPACITY} slots, dropping any resize in progress. O(1). */
    public final void clear() {
        reset(MIN_CAPACITY);
    }

    /** Capacity of the next table's arrays held ready (0 if none); exposed for tests of the memory figure. */
    final int readyAheadCapacity() {
        return next.readyCapacity();
    }

    /** Keys in the live table; exposed for tests of the resize invariants. */
    final int liveCount() {
        return size - oldCount;
    }

    /**
     * A reference column of a slot: column 0 is the key, columns 1.. the subclass's.
     *
     * @param handle a current handle
     * @param column the column, below {@code 2^rowShift}
     * @return the reference
     */
    final Object rowReference(final int handle, final int column) {
        return (handle & OLD_TABLE_HANDLE) != 0
            ? oldRows[((handle & ~OLD_TABLE_HANDLE) << rowShift) + column]
            : rows[(handle << rowShift) + column];
    }

    /**
     * Sets a reference column (1..) of a slot.
     *
     * @param handle a current handle
     * @param column the column, from 1 to {@code 2^rowShift - 1}
     * @param value  the new reference
     */
    final void setRowReference(final int handle, final int column, final Object value) {
        if ((handle & OLD_TABLE_HANDLE) != 0) {
            oldRows[((handle & ~OLD_TABLE_HANDLE) << rowShift) + column] = value;
        } else {
            rows[(handle << rowShift) + column] = value;
        }
    }

    /**
     * Reports the handle of every key in the table, live table first. O(capacity). The visitor must not add
     * or remove keys.
     *
     * @param visitor receives each handle once
     */
    final void forEachHandle(final HandleVisitor visitor) {
        final Object[] live = rows;
        for (int slot = 0, slots = slots(live); slot < slots; slot++) {
            if (live[slot << rowShift] != null) {
                visitor.visit(slot);
            }
        }
        final Object[] old = oldRows;
        if (old != null) {
            for (int slot = rehashIndex, slots = slots(old); slot < slots; slot++) {
                final Object key = old[slot << rowShift];
                if (key != null && key != TOMBSTONE) {
                    visitor.visit(slot | OLD_TABLE_HANDLE);
                }
            }
        }
    }

    /**
     * The handle of the key at a walk position (the old table's slots first during a resize, then the live
     * table's), or -1 for an empty slot, a tombstone or a position past the end. O(1).
     */
    final int occupiedHandle(final int position) {
        int slot = position;
        final Object[] old = oldRows;
        if (old != null) {
            final int oldSlots = slots(old);
            if (slot < oldSlots) {
                final Object key = old[slot << rowShift];
                return key != null && key != TOMBSTONE ? slot | OLD_TABLE_HANDLE : -1;
            }
            slot -= oldSlots;
        }
        if (slot < 0 || slot >= slots(rows)) {
            return -1;
        }
        return rows[slot << rowShift] != null ? slot : -1;
    }

    /** The number of walk positions of {@link #occupiedHandle}: old and live slots. O(1). */
    final int positionSpan() {
        final Object[] old = oldRows;
        return slots(rows) + (old != null ? slots(old) : 0);
    }

    /**
     * One step of a scan (see {@link HomeSlotScan}): reports the keys of one home slot of the smaller table
     * and, during a resize, of its expansions in the larger one. O(1) expected per home slot visited; hashes
     * each key of the runs walked. The visitor must not add or remove keys.
     *
     * @param cursor  0 to start, then the value returned by the previous call
     * @param visitor receives handles; a key may be reported by more than one call
     * @return the next cursor, 0 when the scan is complete
     */
    final long scanHandles(final long cursor, final HandleVisitor visitor) {
        return size == 0 ? 0 : HomeSlotScan.step(cursor, rows, oldRows, rowShift, hasher, visitor);
    }

    /**
     * Finds {@code key} for a write, inserting it into the live table if absent. Runs a migration step first
     * and starts a grow when the insert would pass the maximum load. The caller stores the value.
     *
     * @param key the key bytes; the instance is kept if inserted
     * @return the existing key's handle, or {@code ~slot} (negative) of the live slot it was inserted into,
     *     whose columns are cleared
     */
    final int insertKey(final byte[] key) {
        Objects.requireNonNull(key, "key");
        stepOnWrite();
        final long hash = hasher.hash(key);
        Object[] live = rows;
        final int found = probeLive(live, key, hash);
        if (found >= 0) {
            return found;
        }
        final int mask = slots(live) - 1;
        if (oldRows != null) {
            final int oldSlot = RowArrays.probe(oldRows, rowShift, key, hash);
            if (oldSlot >= 0) {
                return oldSlot | OLD_TABLE_HANDLE;
            }
        } else if (size >= TableSizing.maxFill(mask + 1)) {
            if (mask + 1 == MAX_CAPACITY) {
                throw new IllegalStateException("table is full: size=" + size + ", capacity=" + (mask + 1));
            }
            // While the grown arrays are still being allocated ahead, fill this table past 3/4 (up to
            // fillLimit) rather than allocate them here: the write that starts the grow must not stall.
            if (size >= TableSizing.fillLimit(mask + 1) || !next.isAllocating((mask + 1) << 1)) {
                startResize((mask + 1) << 1);
                live = rows;
            }
        } else if (size >= TableSizing.aheadFill(mask + 1) && mask + 1 >= NextTable.AHEAD_MIN_CAPACITY
                && mask + 1 < MAX_CAPACITY) {
            next.request((mask + 1) << 1, rowShift, columnAllocator);
        }
        final int slot = RowArrays.freeSlot(live, rowShift, hash);
        live[slot << rowShift] = key;
        insertedColumns(slot, hash);
        size++;
        return ~slot;
    }

    /**
     * Finds {@code key} for a removal, after a migration step. The caller reads the value it needs and then
     * calls {@link #removeAt}.
     *
     * @param key the key bytes
     * @return the key's handle, or -1 if absent
     */
    final int findForRemoval(final byte[] key) {
        Objects.requireNonNull(key, "key");
        stepOnWrite();
        return find(key);
    }

    /**
     * Removes the key of a current handle: a backward shift in the live table, a tombstone in the old one.
     * Starts a shrink when the table falls under 1/10 full.
     *
     * @param handle the key's handle
     */
    final void removeAt(final int handle) {
        size--;
        if ((handle & OLD_TABLE_HANDLE) != 0) {
            final int slot = handle & ~OLD_TABLE_HANDLE;
            RowArrays.clearRow(oldRows, slot, rowShift);
            oldRows[slot << rowShift] = TOMBSTONE;
            clearColumns(handle);
            if (--oldCount == 0) {
                finishResize();
            }
            return;
        }
        shiftBack(handle);
        if (oldRows == null) {
            shrinkIfSparse();
        }
    }

    /** Backward-shift deletion of live slot {@code slot} (see the class comment). */
    private void shiftBack(final int slot) {
        final Object[] live = rows;
        final int mask = slots(live) - 1;
        int hole = slot;
        for (int next = (slot + 1) & mask; ; next = (next + 1) & mask) {
            final Object key = live[next << rowShift];
            if (key == null) {
                break;
            }
            final int home = (int) hasher.hash((byte[]) key) & mask;
            // The key may fill the hole unless its home lies cyclically in (hole, next].
            if (((next - home) & mask) >= ((next - hole) & mask)) {
                RowArrays.copyRow(live, next, live, hole, rowShift);
                moveLiveColumns(next, hole);
                hole = next;
            }
        }
        RowArrays.clearRow(live, hole, rowShift);
        clearColumns(hole);
    }

    private void stepOnWrite() {
        if (oldRows != null) {
            rehashSteps(rehashSlotsPerWrite);
        }
    }

    private void migrate(final Object[] old, final int oldSlot, final byte[] key) {
        final Object[] live = rows;
        final int slot = RowArrays.freeSlot(live, rowShift, hasher.hash(key));
        RowArrays.copyRow(old, oldSlot, live, slot, rowShift);
        migrateColumns(oldSlot, slot);
        RowArrays.clearRow(old, oldSlot, rowShift);
        old[oldSlot << rowShift] = TOMBSTONE;
        oldCount--;
    }

    private void shrinkIfSparse() {
        final int capacity = slots(rows);
        if (capacity <= MIN_CAPACITY || (long) size * 8 >= capacity) {
            return;
        }
        if ((long) size * 10 < capacity) {
            startResize(TableSizing.shrinkCapacity(size));
            return;
        }
        // Under 1/8 full: the shrink comes at 1/10, to the capacity that size will want.
        final int target = TableSizing.shrinkCapacity((capacity - 1) / 10);
        if (target >= NextTable.AHEAD_MIN_CAPACITY) {
            next.request(target, rowShift, columnAllocator);
        }
    }

    private void startResize(final int newCapacity) {
        if (size == 0) {
            reset(newCapacity);
            return;
        }
        final int oldCapacity = slots(rows);
        final NextTable.Prepared ready = next.take(newCapacity);
        oldRows = rows;
        rows = ready != null ? ready.rows : new Object[newCapacity << rowShift];
        beginColumnResize(ready != null ? ready.columns : newColumns(newCapacity));
        oldCount = size;
        rehashIndex = 0;
        rehashSlotsPerWrite = TableSizing.rehashSlotsPerWrite(oldCapacity, newCapacity, size);
    }

    private void finishResize() {
        oldRows = null;
        oldCount = 0;
        rehashIndex = 0;
        endColumnResize();
        shrinkIfSparse();
    }

    private void reset(final int capacity) {
        next.drop();
        rows = new Object[capacity << rowShift];
        oldRows = null;
        size = 0;
        oldCount = 0;
        rehashIndex = 0;
        resetColumns(capacity);
    }

    /** Slots in a row array. */
    private int slots(final Object[] table) {
        return table.length >>> rowShift;
    }

    /**
     * The live slot holding {@code key}, or -1: the look-up half of {@link #find}, which a subclass with a
     * faster way to rule slots out overrides (the live table has no tombstones). This one compares the key
     * of every slot from the home of {@code hash} to the first empty one.
     *
     * @param live the live table's rows
     * @param key  the key bytes
     * @param hash the key's hash
     * @return the slot, or -1 if the live table does not hold the key
     */
    int probeLive(final Object[] live, final byte[] key, final long hash) {
        return RowArrays.probe(live, rowShift, key, hash);
    }

    /**
     * Heap bytes of an array under the assumptions of {@link #memoryBytes()}.
     *
     * @param length       number of elements
     * @param elementBytes bytes per element (4 for references and ints, 8 for longs)
     * @return header plus elements, rounded up to 8
     */
    static long arrayBytes(final int length, final long elementBytes) {
        return (ARRAY_HEADER_BYTES + length * elementBytes + 7) & ~7L;
    }

    /** Whether a handle names a slot of the old table. */
    static boolean isOldHandle(final int handle) {
        return (handle & OLD_TABLE_HANDLE) != 0;
    }

    /** The slot number of a handle, in whichever table it names. */
    static int slotOf(final int handle) {
        return handle & ~OLD_TABLE_HANDLE;
    }

    // Hooks for the subclass's primitive columns, arrays that mirror the slots one element per slot.

    /**
     * New zeroed columns for a table of {@code capacity} slots. Runs on the background allocation thread as
     * well as the table's: it must only allocate, touching no state.
     */
    abstract Object newColumns(int capacity);

    /** A resize starts: the live columns become the old ones and {@code columns}, from {@link #newColumns}, live. */
    abstract void beginColumnResize(Object columns);

    /** The resize is over: drop the old columns. */
    abstract void endColumnResize();

    /** Drop all columns and make zeroed live ones of {@code capacity} slots. */
    abstract void resetColumns(int capacity);

    /** Copy old slot {@code oldSlot}'s columns to live slot {@code liveSlot}. */
    abstract void migrateColumns(int oldSlot, int liveSlot);

    /** Copy live slot {@code from}'s columns to live slot {@code to} (backward shift). */
    abstract void moveLiveColumns(int from, int to);

    /** Zero the columns at {@code handle}, so that a later insert there finds zeroes. */
    abstract void clearColumns(int handle);

    /**
     * Called when a key has just been stored in live slot {@code slot} by an insert, before the caller stores
     * its value; the slot's columns are zero. Keys moved by a resize or a backward shift are
     * announced by {@link #migrateColumns} and {@link #moveLiveColumns} instead.
     *
     * @param slot the live slot
     * @param hash the key's hash
     */
    abstract void insertedColumns(int slot, long hash);

    /** Heap bytes of the columns of both tables, see {@link #arrayBytes}. */
    abstract long columnBytes();

    /** Heap bytes of the columns of a table of {@code capacity} slots, see {@link #arrayBytes}. */
    abstract long columnArrayBytes(int capacity);

    /** Receives slot handles from {@link #forEachHandle} and {@link #scanHandles}. */
    @FunctionalInterface
    interface HandleVisitor {
        void visit(int handle);
    }
}
