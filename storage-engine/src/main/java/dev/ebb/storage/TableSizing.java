package dev.ebb.storage;

/**
 * The fill thresholds and resize targets shared by the open-addressing tables ({@link OpenTable},
 * {@link EntryTable}, {@link SlotIndex}): when a table grows, asks for its grown arrays ahead, or
 * shrinks, to what capacity, and how many old slots each write migrates during a resize. See
 * {@link OpenTable}'s class comment for why these figures. Stateless; all O(1) but
 * {@link #shrinkCapacity}, O(log size).
 */
final class TableSizing {

    private TableSizing() {
    }

    /** Most keys a table of {@code capacity} slots holds: 3/4 of it. */
    static int maxFill(final int capacity) {
        return capacity - (capacity >>> 2);
    }

    /**
     * Most keys a table of {@code capacity} slots ever holds: {@link #maxFill}, or 7/8 of it for a table of
     * {@link NextTable#AHEAD_MIN_CAPACITY} slots or more, which may go on filling past 3/4 while the arrays of
     * its grown table are being allocated ahead.
     */
    static int fillLimit(final int capacity) {
        return capacity >= NextTable.AHEAD_MIN_CAPACITY ? capacity - (capacity >>> 3) : maxFill(capacity);
    }

    /** The fill at which a large table asks for its grown arrays ahead: 15/16 of {@link #maxFill}. */
    static int aheadFill(final int capacity) {
        final int max = maxFill(capacity);
        return max - (max >>> 4);
    }

    /**
     * The smallest power of two, at least {@link OpenTable#MIN_CAPACITY}, holding {@code size} keys at load
     * 3/8 or less.
     */
    static int shrinkCapacity(final int size) {
        final long wanted = ((long) size * 8 + 2) / 3;
        int capacity = OpenTable.MIN_CAPACITY;
        while (capacity < wanted) {
            capacity <<= 1;
        }
        return capacity;
    }

    /**
     * Old slots each put or remove migrates during a resize from {@code oldCapacity} to {@code newCapacity}
     * slots that starts with {@code size} keys: {@code max(4, ceil(2 * oldCapacity / min(headroom, size)))},
     * at most {@code oldCapacity}, where {@code headroom} is how many inserts the new table takes before it
     * passes {@link #maxFill}. Draining then takes at most half of either figure in writes.
     */
    static int rehashSlotsPerWrite(final int oldCapacity, final int newCapacity, final int size) {
        final int headroom = maxFill(newCapacity) - size;
        final long bound = Math.max(1, Math.min(headroom, size));
        final long perWrite = (2L * oldCapacity + bound - 1) / bound;
        return (int) Math.min(oldCapacity, Math.max(OpenTable.MIN_REHASH_SLOTS_PER_WRITE, perWrite));
    }
}
