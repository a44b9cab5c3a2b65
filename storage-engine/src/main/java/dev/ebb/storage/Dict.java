package dev.ebb.storage;

import java.util.Objects;

/**
 * The keyspace hash table: {@code byte[]} keys (compared by content, binary safe, any length) to values,
 * plus 24 bits of metadata per key that the caller uses for its LRU clock or LFU counter (Redis keeps the
 * same 24 bits in its {@code lru} field).
 *
 * <p>Open addressing with linear probing over two arrays (a row of key and value references, and the meta
 * ints: 12 bytes a slot, no object per entry), a seeded SipHash so clients cannot aim keys at one slot,
 * backward-shift deletion, and an incremental resize that keeps two tables and migrates a few slots per
 * write; the design, the load factors (at most 3/4, or 7/8 while a large table's
 * grown arrays are still being allocated; shrink under 1/10) and the costs are described in
 * {@link OpenTable}, which holds the key half shared with {@link LongDict}.
 *
 * <p><b>Hash tags.</b> The top byte of each meta int is the dict's: a bit set in every occupied slot, the
 * snapshot mark (below) and six bits of the key's hash (bits 58-63, independent of the slot number, which
 * comes from the low bits).
 * A look-up in the live table reads the meta ints of the probe chain (16 to a cache line) and loads a
 * slot's key only when the tag matches, so the other keys of the chain cost no cache miss and a hit
 * usually loads one row and one key; a non-matching key passes the tag test with probability 1/64. The
 * tag moves with the meta through resizes and backward shifts. The old table of a resize, which has
 * tombstones, is probed by key as before.
 *
 * <p><b>Snapshot marks.</b> One bit of the dict's byte tells whether the point-in-time snapshot under way
 * has already taken the entry ({@link #isMarked}). "Marked" means the bit equals the dict's current
 * parity, so {@link #flipMarks} turns every entry unmarked in O(1) when a snapshot starts (at rest every
 * entry is marked), entries inserted later are born marked, and the bit moves with the entry through
 * resizes and backward shifts. See {@code dev.ebb.storage.snapshot}.
 *
 * <p>Costs: {@link #get}, {@link #put}, {@link #remove} O(1) expected (a write during a resize also migrates
 * a few slots; the write that starts a resize allocates the new arrays, O(capacity) zeroing);
 * {@link #randomKey} and {@link #sampleKeys} O(1) expected; {@link #scan} O(1) expected per call;
 * {@link #forEach} O(capacity). Operations allocate nothing except when a resize starts.
 *
 * <p>Handles from {@link #find} and {@link #randomHandle} name a slot and stay valid until the next put,
 * remove, clear or rehash step; they let a caller read and update a value and its meta with one look-up.
 *
 * <p>Not thread-safe: a dict belongs to the command loop thread.
 *
 * @param <V> the value type; values are never null
 */
public final class Dict<V> extends OpenTable {

    private static final long META_BYTES = 4;
    /** Each slot is a row of 2^1 references: the key, then the value. */
    private static final int ROW_SHIFT = 1;
    private static final int VALUE_COLUMN = 1;

    /** The bits of a meta int that belong to the caller; the top byte is the dict's (see the class comment). */
    public static final int META_MASK = 0x00FF_FFFF;
    /** Set in the meta int of every occupied slot. */
    private static final int PRESENT = 0x8000_0000;
    /** The snapshot mark: an entry is marked when this bit equals {@link #markParity}. */
    private static final int MARK = 0x4000_0000;
    /** The bits a probe compares: {@link #PRESENT} and the 6-bit hash tag. */
    private static final int TAG_MASK = 0xBF00_0000;

    private int[] metas;
    private int[] oldMetas;
    /** {@link #MARK} or 0: the mark bit of a marked entry, and of every inserted one. */
    private int markParity;

    /**
     * Creates an empty dict of 8 slots.
     *
     * @param seed seeds the SipHash key and the sampler's random numbers; equal seeds behave identically
     */
    public Dict(final long seed) {
        super(seed, ROW_SHIFT);
        resetColumns(capacity());
    }

    /**
     * Looks a key up. O(1) expected.
     *
     * @param key the key bytes
     * @return the value, or {@code null} if absent
     */
    public V get(final byte[] key) {
        final int handle = find(key);
        return handle < 0 ? null : valueAt(handle);
    }

    /**
     * Inserts or replaces. A replace keeps the stored key instance and its meta; an insert stores
     * {@code key} itself (do not modify it afterwards) with meta 0. O(1) expected.
     *
     * @param key   the key bytes
     * @param value the value, not null
     * @return the previous value, or {@code null} if the key was absent
     */
    public V put(final byte[] key, final V value) {
        Objects.requireNonNull(value, "value");
        final int handle = insertKey(key);
        if (handle < 0) {
            setRowReference(~handle, VALUE_COLUMN, value);
            return null;
        }
        final V previous = valueAt(handle);
        setValueAt(handle, value);
        return previous;
    }

    /**
     * As {@link #put(byte[], Object)}, and sets the entry's meta in the same probe (the write path
     * stores the access clock this way instead of a second lookup). O(1) expected.
     *
     * @return the previous value, or {@code null} if the key was absent
     */
    public V put(final byte[] key, final V value, final int meta) {
        Objects.requireNonNull(value, "value");
        final int handle = insertKey(key);
        if (handle < 0) {
            setRowReference(~handle, VALUE_COLUMN, value);
            setMetaAt(~handle, meta);
            return null;
        }
        final V previous = valueAt(handle);
        setValueAt(handle, value);
        setMetaAt(handle, meta);
        return previous;
    }

    /**
     * Inserts {@code key} with {@code value} and {@code meta} if it is absent, in one probe; a present key
     * is left as it is. O(1) expected.
     *
     * @return the present key's value, or {@code null} if the key was inserted
     */
    public V putIfAbsent(final byte[] key, final V value, final int meta) {
        Objects.requireNonNull(value, "value");
        final int handle = insertKey(key);
        if (handle >= 0) {
            return valueAt(handle);
        }
        setRowReference(~handle, VALUE_COLUMN, value);
        setMetaAt(~handle, meta);
        return null;
    }

    /**
     * Removes a key. O(1) expected.
     *
     * @param key the key bytes
     * @return the removed value, or {@code null} if absent
     */
    public V remove(final byte[] key) {
        final int handle = findForRemoval(key);
        if (handle < 0) {
            return null;
        }
        final V previous = valueAt(handle);
        removeAt(handle);
        return previous;
    }

    /**
     * The value of a current handle. O(1).
     *
     * @param handle a handle from {@link #find}, {@link #randomHandle} or an insert
     * @return the value
     */
    @SuppressWarnings("unchecked")
    public V valueAt(final int handle) {
        return (V) rowReference(handle, VALUE_COLUMN);
    }

    /**
     * Replaces the value of a current handle, keeping key and meta. O(1).
     *
     * @param handle a current handle
     * @param value  the new value, not null
     */
    public void setValueAt(final int handle, final V value) {
        setRowReference(handle, VALUE_COLUMN, Objects.requireNonNull(value, "value"));
    }

    /**
     * The meta of a current handle (0 after insert): 24 bits, 0 to {@link #META_MASK}. O(1).
     *
     * @param handle a current handle
     * @return the meta
     */
    public int metaAt(final int handle) {
        return (isOldHandle(handle) ? oldMetas[slotOf(handle)] : metas[handle]) & META_MASK;
    }

    /**
     * Sets the meta of a current handle; it moves with the entry through resizes. Only the low 24 bits
     * ({@link #META_MASK}) are kept. O(1).
     *
     * @param handle a current handle
     * @param meta   the value; bits above the 24th are ignored
     */
    public void setMetaAt(final int handle, final int meta) {
        final int[] column = isOldHandle(handle) ? oldMetas : metas;
        final int slot = slotOf(handle);
        column[slot] = (column[slot] & ~META_MASK) | (meta & META_MASK);
    }

    /**
     * Unmarks every entry in O(1) by flipping the parity a marked entry's bit must equal: the start of a
     * point-in-time snapshot. Entries inserted from now on are born marked. Expects every entry marked
     * (the state at rest: see {@link #markAll}).
     */
    public void flipMarks() {
        markParity ^= MARK;
    }

    /**
     * Whether the entry of a current handle is marked (taken by the snapshot, or inserted since it began). O(1).
     *
     * @param handle a current handle
     * @return true if marked
     */
    public boolean isMarked(final int handle) {
        final int meta = isOldHandle(handle) ? oldMetas[slotOf(handle)] : metas[handle];
        return (meta & MARK) == markParity;
    }

    /**
     * Marks the entry of a current handle. O(1).
     *
     * @param handle a current handle
     */
    public void mark(final int handle) {
        final int[] column = isOldHandle(handle) ? oldMetas : metas;
        final int slot = slotOf(handle);
        column[slot] = (column[slot] & ~MARK) | markParity;
    }

    /** Marks every entry, the state at rest (a snapshot abandoned half way). O(capacity). */
    public void markAll() {
        forEachHandle(this::mark);
    }

    /**
     * The handle of the entry at a walk position, or -1 if that slot holds none. Positions 0 to
     * {@link #walkSpan()} - 1 cover the old table of a resize (if any) and then the live table; an entry that
     * stays put keeps its position, but one moved by a resize step or a backward shift may pass from one side
     * of a position to the other, and a resize renumbers them all, so a walk that must see every entry
     * repeats until it has (the snapshot counts what it still needs). O(1).
     *
     * @param position a walk position
     * @return a current handle, or -1
     */
    public int handleAtPosition(final int position) {
        return occupiedHandle(position);
    }

    /**
     * The number of walk positions ({@link #handleAtPosition}): the slots of the old and the live table. O(1).
     *
     * @return the span of walk positions
     */
    public int walkSpan() {
        return positionSpan();
    }

    /**
     * One step of a stateless scan with Redis's guarantee: every key present for the whole iteration is
     * visited at least once, across any number of resizes between calls; a key may be visited more than
     * once. Start with cursor 0 and call again with the returned cursor until it is 0. O(1) expected per call.
     *
     * @param cursor  0 to start, then the previous result
     * @param visitor receives keys and values; it must not modify this dict
     * @return the next cursor, 0 when done (also for an empty dict)
     */
    public long scan(final long cursor, final Visitor<V> visitor) {
        return scanHandles(cursor, handle -> visitor.visit(keyAt(handle), valueAt(handle)));
    }

    /**
     * Visits every entry once, in no particular order. O(capacity).
     *
     * @param visitor receives keys and values; it must not modify this dict
     */
    public void forEach(final Visitor<V> visitor) {
        forEachHandle(handle -> visitor.visit(keyAt(handle), valueAt(handle)));
    }

    @Override
    Object newColumns(final int capacity) {
        return new int[capacity];
    }

    @Override
    void beginColumnResize(final Object columns) {
        oldMetas = metas;
        metas = (int[]) columns;
    }

    @Override
    void endColumnResize() {
        oldMetas = null;
    }

    @Override
    void resetColumns(final int capacity) {
        oldMetas = null;
        metas = new int[capacity];
    }

    @Override
    void migrateColumns(final int oldSlot, final int liveSlot) {
        metas[liveSlot] = oldMetas[oldSlot];
    }

    @Override
    void moveLiveColumns(final int from, final int to) {
        metas[to] = metas[from];
    }

    @Override
    void clearColumns(final int handle) {
        if (!isOldHandle(handle)) {
            metas[handle] = 0;
        }
    }

    @Override
    void insertedColumns(final int slot, final long hash) {
        metas[slot] = tag(hash) | markParity;
    }

    /**
     * Reads the meta ints from the home of {@code hash} to the first one without {@link #PRESENT}, and compares
     * the key of a slot only when its tag equals the key's: the other keys of the probe chain are ruled out
     * without loading them, and a hit usually loads one row and one key.
     */
    @Override
    int probeLive(final Object[] live, final byte[] key, final long hash) {
        final int[] column = metas;
        final int mask = column.length - 1;
        final int tag = tag(hash);
        for (int slot = (int) hash & mask; ; slot = (slot + 1) & mask) {
            final int meta = column[slot];
            if ((meta & PRESENT) == 0) {
                return -1;
            }
            if ((meta & TAG_MASK) == tag && KeyBytes.equal((byte[]) live[slot << ROW_SHIFT], key)) {
                return slot;
            }
        }
    }

    /** {@link #PRESENT} and bits 58 to 63 of the hash (the slot number comes from the low bits). */
    private static int tag(final long hash) {
        return PRESENT | (int) (hash >>> 58) << 24;
    }

    @Override
    long columnArrayBytes(final int capacity) {
        return arrayBytes(capacity, META_BYTES);
    }

    @Override
    long columnBytes() {
        final long bytes = arrayBytes(metas.length, META_BYTES);
        return oldMetas == null ? bytes : bytes + arrayBytes(oldMetas.length, META_BYTES);
    }

    /**
     * Receives the entries of {@link #scan} and {@link #forEach}.
     *
     * @param <V> the value type
     */
    @FunctionalInterface
    public interface Visitor<V> {

        /**
         * Called once per entry reported.
         *
         * @param key   the stored key instance (do not modify it)
         * @param value the value
         */
        void visit(byte[] key, V value);
    }
}
