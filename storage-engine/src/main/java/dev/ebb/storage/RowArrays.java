package dev.ebb.storage;

/**
 * Operations on one row array of an {@link OpenTable} (a power-of-two number of slots of {@code 2^shift}
 * references each, the key first; see the layout in {@link OpenTable}'s class comment): linear probing for a
 * key or a free slot, copying and clearing rows, and drawing a random occupied slot. Stateless static
 * methods, small enough to be inlined into the table's get and put paths; nothing here allocates.
 */
final class RowArrays {

    private RowArrays() {
    }

    /** The slot of {@code key} in {@code table} (skipping tombstones), or -1. */
    static int probe(final Object[] table, final int shift, final byte[] key, final long hash) {
        final int mask = (table.length >>> shift) - 1;
        for (int slot = (int) hash & mask; ; slot = (slot + 1) & mask) {
            final Object stored = table[slot << shift];
            if (stored == null) {
                return -1;
            }
            if (stored != OpenTable.TOMBSTONE && KeyBytes.equal((byte[]) stored, key)) {
                return slot;
            }
        }
    }

    /** The first empty slot at or after the home of {@code hash}; the table has no tombstones. */
    static int freeSlot(final Object[] table, final int shift, final long hash) {
        final int mask = (table.length >>> shift) - 1;
        int slot = (int) hash & mask;
        while (table[slot << shift] != null) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    /** Copies every reference of slot {@code fromSlot} of {@code from} to slot {@code toSlot} of {@code to}. */
    static void copyRow(final Object[] from, final int fromSlot, final Object[] to, final int toSlot,
                        final int shift) {
        final int width = 1 << shift;
        final int source = fromSlot << shift;
        final int target = toSlot << shift;
        for (int column = 0; column < width; column++) {
            to[target + column] = from[source + column];
        }
    }

    /** Nulls every reference of a slot, key included, so nothing stays reachable from it. */
    static void clearRow(final Object[] table, final int slot, final int shift) {
        final int width = 1 << shift;
        final int first = slot << shift;
        for (int column = 0; column < width; column++) {
            table[first + column] = null;
        }
    }

    /**
     * A random occupied slot of {@code table[from, from + span)}, which holds at least one key: walks at most
     * {@code walk} slots (wrapping within the span) from each random start.
     */
    static int randomSlot(final Object[] table, final int shift, final int from, final int span, final int walk,
                          final SlotRandom random) {
        final int end = from + span;
        while (true) {
            int slot = from + random.nextInt(span);
            for (int walked = 0; walked < walk; walked++) {
                final Object key = table[slot << shift];
                if (key != null && key != OpenTable.TOMBSTONE) {
                    return slot;
                }
                slot = slot + 1 == end ? from : slot + 1;
            }
        }
    }
}
