package dev.ebb.storage;

/**
 * A hash table from {@code byte[]} keys (compared by content, binary safe) to primitive {@code long}s,
 * used for a database's {@code expires} (key to absolute expiry time in milliseconds) without boxing.
 *
 * <p>The same table as {@link Dict} (see {@link OpenTable} for the design, load factors and costs) with one
 * {@code long[]} parallel to the key references: 12 bytes a slot. Callers normally insert the same key
 * instance they stored in the main dict, so the key bytes are shared.
 *
 * <p>Costs: {@link #get}, {@link #put}, {@link #remove} O(1) expected; {@link #randomKey} and
 * {@link #sampleKeys} O(1) expected; {@link #scan} O(1) expected per call; {@link #forEach} O(capacity).
 * Nothing is allocated except when a resize starts.
 *
 * <p>Not thread-safe: a dict belongs to the command loop thread.
 */
public final class LongDict extends OpenTable {

    private static final long LONG_BYTES = 8;
    /** Each slot is a row of 2^0 references, the key alone; the values are a parallel {@code long[]}. */
    private static final int ROW_SHIFT = 0;

    private long[] values;
    private long[] oldValues;

    /**
     * Creates an empty dict of 8 slots.
     *
     * @param seed seeds the SipHash key and the sampler's random numbers; equal seeds behave identically
     */
    public LongDict(final long seed) {
        super(seed, ROW_SHIFT);
        resetColumns(capacity());
    }

    /**
     * Looks a key up. O(1) expected.
     *
     * @param key          the key bytes
     * @param missingValue returned when the key is absent
     * @return the value, or {@code missingValue}
     */
    public long get(final byte[] key, final long missingValue) {
        final int handle = find(key);
        return handle < 0 ? missingValue : valueAt(handle);
    }

    /**
     * Inserts or replaces; a replace keeps the stored key instance. O(1) expected.
     *
     * @param key   the key bytes; kept if inserted (do not modify it afterwards)
     * @param value the value
     * @return true if the key was inserted, false if its value was replaced
     */
    public boolean put(final byte[] key, final long value) {
        final int handle = insertKey(key);
        if (handle < 0) {
            values[~handle] = value;
            return true;
        }
        setValueAt(handle, value);
        return false;
    }

    /**
     * Removes a key. O(1) expected.
     *
     * @param key the key bytes
     * @return true if the key was present
     */
    public boolean remove(final byte[] key) {
        final int handle = findForRemoval(key);
        if (handle < 0) {
            return false;
        }
        removeAt(handle);
        return true;
    }

    /**
     * The value of a current handle. O(1).
     *
     * @param handle a handle from {@link #find} or {@link #randomHandle}
     * @return the value
     */
    public long valueAt(final int handle) {
        return isOldHandle(handle) ? oldValues[slotOf(handle)] : values[handle];
    }

    /**
     * Replaces the value of a current handle. O(1).
     *
     * @param handle a current handle
     * @param value  the new value
     */
    public void setValueAt(final int handle, final long value) {
        if (isOldHandle(handle)) {
            oldValues[slotOf(handle)] = value;
        } else {
            values[handle] = value;
        }
    }

    /**
     * One step of a stateless scan with the same guarantee as {@link Dict#scan}.
     *
     * @param cursor  0 to start, then the previous result
     * @param visitor receives keys and values; it must not modify this dict
     * @return the next cursor, 0 when done (also for an empty dict)
     */
    public long scan(final long cursor, final Visitor visitor) {
        return scanHandles(cursor, handle -> visitor.visit(keyAt(handle), valueAt(handle)));
    }

    /**
     * Visits every entry once, in no particular order. O(capacity).
     *
     * @param visitor receives keys and values; it must not modify this dict
     */
    public void forEach(final Visitor visitor) {
        forEachHandle(handle -> visitor.visit(keyAt(handle), valueAt(handle)));
    }

    @Override
    Object newColumns(final int capacity) {
        return new long[capacity];
    }

    @Override
    void beginColumnResize(final Object columns) {
        oldValues = values;
        values = (long[]) columns;
    }

    @Override
    void endColumnResize() {
        oldValues = null;
    }

    @Override
    void resetColumns(final int capacity) {
        oldValues = null;
        values = new long[capacity];
    }

    @Override
    void migrateColumns(final int oldSlot, final int liveSlot) {
        values[liveSlot] = oldValues[oldSlot];
    }

    @Override
    void moveLiveColumns(final int from, final int to) {
        values[to] = values[from];
    }

    @Override
    void clearColumns(final int handle) {
        if (!isOldHandle(handle)) {
            values[handle] = 0;
        }
    }

    @Override
    void insertedColumns(final int slot, final long hash) {
        // The value column needs nothing until the caller stores the value.
    }

    @Override
    long columnArrayBytes(final int capacity) {
        return arrayBytes(capacity, LONG_BYTES);
    }

    @Override
    long columnBytes() {
        final long bytes = arrayBytes(values.length, LONG_BYTES);
        return oldValues == null ? bytes : bytes + arrayBytes(oldValues.length, LONG_BYTES);
    }

    /** Receives the entries of {@link #scan} and {@link #forEach}. */
    @FunctionalInterface
    public interface Visitor {

        /**
         * Called once per entry reported.
         *
         * @param key   the stored key instance (do not modify it)
         * @param value the value
         */
        void visit(byte[] key, long value);
    }
}
