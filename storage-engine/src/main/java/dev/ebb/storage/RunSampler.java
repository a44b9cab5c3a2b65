package dev.ebb.storage;

/**
 * {@link OpenTable#sampleKeys}: up to {@code count} distinct keys read from runs of contiguous slots (the
 * idea of Redis's {@code dictGetSomeKeys}).
 *
 * <p>During a resize the slots that can hold keys form a ring, the old table's undrained part
 * {@code old[rehashIndex..)} followed by the live table. From a random position on it (in the old part with
 * probability {@code oldCount / size}, uniform within the part chosen) the walk collects keys and jumps to
 * another random position after {@link OpenTable#SAMPLE_EMPTY_RUN} empty slots in a row, since the live
 * table fills unevenly while a resize is under way. It examines at most
 * {@code count * }{@link OpenTable#SAMPLE_STEPS_PER_KEY} slots: O(count), allocation free. Neighbours in a
 * run are unrelated keys, because positions are hashed. Stateless; the caller's table and random numbers
 * belong to one thread.
 */
final class RunSampler {

    private RunSampler() {
    }

    /**
     * Samples keys; see the class comment.
     *
     * @param live        the live table's rows
     * @param old         the draining table's rows, or {@code null}
     * @param rehashIndex the old slots below this hold no keys
     * @param rowShift    log2 of the references per slot; the key is the first
     * @param size        keys in both tables, positive
     * @param oldCount    keys in the old table
     * @param random      the table's random numbers
     * @param out         receives the stored key instances in {@code out[0..n)}
     * @param count       the number of keys wanted, positive and at most {@code out.length}
     * @return {@code n}, less than {@code count} only if {@code size < count} or the step limit ran out
     */
    static int sample(final Object[] live, final Object[] old, final int rehashIndex, final int rowShift,
                      final int size, final int oldCount, final SlotRandom random, final byte[][] out,
                      final int count) {
        final int wanted = Math.min(count, size);
        final int oldSpan = old == null ? 0 : (old.length >>> rowShift) - rehashIndex;
        final int liveSlots = live.length >>> rowShift;
        final int ringLength = oldSpan + liveSlots;
        final long steps = (long) count * OpenTable.SAMPLE_STEPS_PER_KEY;
        int position = randomPosition(oldSpan, liveSlots, size, oldCount, random);
        int emptyRun = 0;
        boolean jumped = false;
        int found = 0;
        for (long step = 0; step < steps && found < wanted; step++) {
            final Object key = position < oldSpan
                ? old[(rehashIndex + position) << rowShift]
                : live[(position - oldSpan) << rowShift];
            if (key == null || key == OpenTable.TOMBSTONE) {
                if (++emptyRun == OpenTable.SAMPLE_EMPTY_RUN) {
                    emptyRun = 0;
                    jumped = true;
                    position = randomPosition(oldSpan, liveSlots, size, oldCount, random);
                    continue;
                }
            } else {
                emptyRun = 0;
                // Before the first jump or lap the walk has seen each slot once, so keys cannot repeat.
                if (!jumped && step < ringLength || !containsInstance(out, found, key)) {
                    out[found++] = (byte[]) key;
                }
            }
            position = position + 1 == ringLength ? 0 : position + 1;
        }
        return found;
    }

    /** A random start on the ring: in the old part with probability {@code oldCount / size}. */
    private static int randomPosition(final int oldSpan, final int liveSlots, final int size, final int oldCount,
                                      final SlotRandom random) {
        if (oldSpan > 0 && random.nextInt(size) < oldCount) {
            return random.nextInt(oldSpan);
        }
        return oldSpan + ((int) random.nextLong() & (liveSlots - 1));
    }

    private static boolean containsInstance(final byte[][] keys, final int length, final Object key) {
        for (int i = 0; i < length; i++) {
            if (keys[i] == key) {
                return true;
            }
        }
        return false;
    }
}
