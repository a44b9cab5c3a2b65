package dev.ebb.bench.expiry;

import java.util.SplittableRandom;

/** How the simulation's writes choose expiry times. */
enum TtlPattern {
    /** TTL uniform in [1 s, 600 s). */
    UNIFORM("uniform", 600_000) {
        @Override
        long whenMs(long nowMs, long baseMs, int loadSeconds, SplittableRandom random) {
            return nowMs + 1000 + random.nextInt(599_000);
        }
    },
    /** The common cache pattern {@code EX 300 + rand(60)}: TTL uniform in [300 s, 360 s). */
    JITTERED("jittered", 360_000) {
        @Override
        long whenMs(long nowMs, long baseMs, int loadSeconds, SplittableRandom random) {
            return nowMs + 300_000 + random.nextInt(60_000);
        }
    },
    /** Every key expires at one instant ({@code EXAT}), 60 s after the writes end. */
    MASS("mass", 60_000) {
        @Override
        long whenMs(long nowMs, long baseMs, int loadSeconds, SplittableRandom random) {
            return baseMs + loadSeconds * 1000L + MASS_DELAY_MS;
        }
    };

    static final long MASS_DELAY_MS = 60_000;

    private final String label;
    private final long maxTtlMs;

    TtlPattern(String label, long maxTtlMs) {
        this.label = label;
        this.maxTtlMs = maxTtlMs;
    }

    String label() {
        return label;
    }

    /** No expiry time lies later than the end of the writes plus this. */
    long maxTtlMs() {
        return maxTtlMs;
    }

    /**
     * The absolute expiry time of a key written at {@code nowMs}.
     *
     * @param baseMs the simulation's time zero
     * @param loadSeconds how long the writes last
     * @param random the workload's random numbers (the only source of randomness)
     */
    abstract long whenMs(long nowMs, long baseMs, int loadSeconds, SplittableRandom random);
}
