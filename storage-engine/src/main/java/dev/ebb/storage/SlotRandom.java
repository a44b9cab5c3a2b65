package dev.ebb.storage;

/**
 * The random numbers of a table's samplers: a SplitMix64 sequence (Steele, Lea, Flood 2014), seeded from the
 * table's seed so that tests are reproducible. Statistically good enough for picking slots; not for
 * anything a client must not predict (the table's hash key is a separate {@link SipHash} key).
 *
 * <p>O(1) per number, allocation free. Not thread-safe: it belongs to its table.
 */
final class SlotRandom {

    private long state;

    /**
     * Starts the sequence.
     *
     * @param seed the table's seed; equal seeds give equal sequences
     */
    SlotRandom(final long seed) {
        this.state = SipHash.splitMix64(~seed);
    }

    /**
     * The next 64 random bits.
     *
     * @return a random long
     */
    long nextLong() {
        state += SipHash.GOLDEN_GAMMA;
        return SipHash.splitMix64(state);
    }

    /**
     * Uniform enough in {@code [0, bound)} for sampling: the high 32 random bits scaled by {@code bound}.
     *
     * @param bound the exclusive upper bound, positive
     * @return a random int in {@code [0, bound)}
     */
    int nextInt(final int bound) {
        return (int) (((nextLong() >>> 32) * bound) >>> 32);
    }
}
