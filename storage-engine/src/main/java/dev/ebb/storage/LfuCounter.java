package dev.ebb.storage;

/**
 * Redis's LFU access counter, packed in a key's 24-bit dict meta: bits 8..23 hold the time of the
 * last decrement in minutes (unix minutes modulo 2^16), bits 0..7 a logarithmic counter (0..255).
 *
 * <p>The counter does not count accesses: an access increments it with probability
 * {@code 1 / ((counter - 5) * lfuLogFactor + 1)}, so with the default factor 10 it takes about a
 * million hits to reach 255. It decays by one for every {@code lfuDecayTime} minutes since the
 * last decrement, read lazily when the key is accessed or sampled. New keys start at
 * {@link #INITIAL_COUNTER} so that they are not evicted before they had a chance to be used.
 *
 * <p>Stateless and thread-safe; the random draw is passed in by the caller.
 */
public final class LfuCounter {
    /** The counter of a new key (Redis's LFU_INIT_VAL). */
    public static final int INITIAL_COUNTER = 5;
    /** The saturated counter. */
    public static final int MAX_COUNTER = 255;
    private static final int MINUTES_MASK = 0xFFFF;

    private LfuCounter() {
    }

    /** The meta of a key created at {@code nowMs}. */
    public static int initial(long nowMs) {
        return (minutes(nowMs) << 8) | INITIAL_COUNTER;
    }

    /** The meta of a key whose counter is set to {@code counter} (0..255) at {@code nowMs} (RESTORE … FREQ, loading). */
    public static int withCounter(int counter, long nowMs) {
        return (minutes(nowMs) << 8) | (counter & 0xFF);
    }

    /** The counter stored in {@code meta} after the decay due at {@code nowMs}; does not change anything. */
    public static int decayed(int meta, long nowMs, int decayMinutes) {
        int counter = meta & 0xFF;
        if (decayMinutes <= 0) {
            return counter;
        }
        long periods = elapsedMinutes((meta >>> 8) & MINUTES_MASK, nowMs) / decayMinutes;
        return periods >= counter ? 0 : (int) (counter - periods);
    }

    /**
     * The meta after one access at {@code nowMs}: decay, then a logarithmic increment decided by
     * {@code random} (uniform in [0, 1)), stamped with the current minute.
     */
    public static int accessed(int meta, long nowMs, int logFactor, int decayMinutes, double random) {
        int counter = decayed(meta, nowMs, decayMinutes);
        if (counter < MAX_COUNTER) {
            double base = Math.max(0, counter - INITIAL_COUNTER);
            if (random < 1.0 / (base * logFactor + 1)) {
                counter++;
            }
        }
        return (minutes(nowMs) << 8) | counter;
    }

    private static int minutes(long nowMs) {
        return (int) ((nowMs / 60_000) & MINUTES_MASK);
    }

    private static long elapsedMinutes(int stamp, long nowMs) {
        int now = minutes(nowMs);
        return now >= stamp ? now - stamp : MINUTES_MASK - stamp + now;
    }
}
