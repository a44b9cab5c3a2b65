package dev.ebb.storage;

/**
 * The SCAN cursor of {@link OpenTable}: Redis's stateless reverse-binary cursor, over home slots.
 *
 * <p>Redis's guarantee is that a full iteration (from cursor 0 until 0 comes back) reports every key that
 * was present from its first call to its last at least once, however the table was resized in between;
 * keys may be reported more than once. It rests on two facts. First, a call visits one <em>bucket</em> of
 * the smaller table and, during a resize, every bucket of the larger table whose low bits are that bucket's
 * index (its expansions), so a key is seen whichever of the two tables it sits in at that moment. Second,
 * the cursor counts through bucket indexes with their bits reversed (incrementing from the most significant
 * masked bit down), so the buckets not yet visited in a table of one size are exactly the expansions (or the
 * contractions) of those not yet visited in a table of another size: a resize between two calls neither
 * skips a bucket nor restarts the count. The cursor arithmetic here is Redis's.
 *
 * <p>With open addressing, a key's bucket is its home slot {@code hash & mask}. Under linear probing every
 * key whose home is {@code b} sits in the run of occupied slots that starts at {@code b} (backward-shift
 * deletion keeps it so, and the draining old table's tombstones continue runs rather than end them), so
 * "visiting bucket {@code b}" means walking from {@code b} to the next empty slot and reporting the keys
 * whose home is {@code b}. Keys that moved within a table or between tables between two calls are still
 * found at a home slot of the current tables, so both facts carry over and so does the guarantee. Within a
 * single call nothing moves: the visitor must not modify the table.
 *
 * <p>Cost per call: one bucket of the smaller table plus {@code larger / smaller} buckets of the larger
 * one, each a run walk that hashes every key it passes (about 1 to 8 keys at load 0.75). A full iteration
 * of an unchanged table visits each key exactly once.
 */
final class HomeSlotScan {

    private HomeSlotScan() {
    }

    /**
     * Reports the keys of one home slot (and, during a resize, its expansions) and advances the cursor.
     *
     * @param cursor   0 to start, then the value returned by the previous call
     * @param live     the live table's rows
     * @param old      the draining table's rows, or {@code null}
     * @param rowShift log2 of the references per slot; the key is the first
     * @param hasher   the table's hash function
     * @param visitor  receives the handles, with {@link OpenTable#OLD_TABLE_HANDLE} set for the old table
     * @return the next cursor, 0 when the iteration is complete
     */
    static long step(final long cursor, final Object[] live, final Object[] old, final int rowShift,
                     final SipHash hasher, final OpenTable.HandleVisitor visitor) {
        return step(cursor, live, old, rowShift, (KeyHash) hasher::hash, visitor);
    }

    /**
     * As {@link #step(long, Object[], Object[], int, SipHash, OpenTable.HandleVisitor)} for a table whose key is
     * not the whole stored array ({@link EntryTable}'s field-and-value entries): {@code hasher} gives the hash
     * of a stored array's key.
     */
    static long step(final long cursor, final Object[] live, final Object[] old, final int rowShift,
                     final KeyHash hasher, final OpenTable.HandleVisitor visitor) {
        long v = cursor;
        if (old == null) {
            final long mask = (live.length >>> rowShift) - 1;
            visitHome(live, rowShift, (int) (v & mask), 0, hasher, visitor);
            return nextCursor(v, mask);
        }
        final boolean oldIsSmaller = old.length < live.length;
        final Object[] small = oldIsSmaller ? old : live;
        final Object[] large = oldIsSmaller ? live : old;
        final int smallBit = oldIsSmaller ? OpenTable.OLD_TABLE_HANDLE : 0;
        final int largeBit = oldIsSmaller ? 0 : OpenTable.OLD_TABLE_HANDLE;
        final long smallMask = (small.length >>> rowShift) - 1;
        final long largeMask = (large.length >>> rowShift) - 1;
        visitHome(small, rowShift, (int) (v & smallMask), smallBit, hasher, visitor);
        // The expansions in the larger table: step the bits above smallMask in reverse-binary order until they
        // wrap to zero, which carries into the smaller table's bits and so advances that cursor too.
        do {
            visitHome(large, rowShift, (int) (v & largeMask), largeBit, hasher, visitor);
            v = nextCursor(v, largeMask);
        } while ((v & (smallMask ^ largeMask)) != 0);
        return v;
    }

    /**
     * Increments the bits of {@code cursor} under {@code mask} in reverse-binary order. The bits outside the
     * mask are set first so that the carry passes through them into the masked ones.
     */
    private static long nextCursor(final long cursor, final long mask) {
        return Long.reverse(Long.reverse(cursor | ~mask) + 1);
    }

    /** Reports the keys of {@code table} whose home is {@code home}: they all sit in the run starting there. */
    private static void visitHome(final Object[] table, final int rowShift, final int home, final int handleBit,
                                  final KeyHash hasher, final OpenTable.HandleVisitor visitor) {
        final int mask = (table.length >>> rowShift) - 1;
        for (int slot = home; ; slot = (slot + 1) & mask) {
            final Object key = table[slot << rowShift];
            if (key == null) {
                return;
            }
            if (key != OpenTable.TOMBSTONE && ((int) hasher.hash((byte[]) key) & mask) == home) {
                visitor.visit(slot | handleBit);
            }
        }
    }

    /** The hash of the key of a stored array. */
    @FunctionalInterface
    interface KeyHash {
        long hash(byte[] stored);
    }
}
