package dev.ebb.bench.expiry;

import dev.ebb.storage.expiry.ExpiryStrategyKind;

/**
 * One simulation run: a workload, the engine's expiry strategy and cycle preset, the cost model,
 * and the seed. Writes ({@code SET key v EX ttl}) arrive at {@code writesPerSecond} during the
 * first {@code loadSeconds}; {@code rewritePercent} of them overwrite a key written before (new
 * TTL), the others create a key. Reads ({@code GET}) of random keys written so far arrive at
 * {@code readsPerSecond} for the whole run and expire stale keys lazily. The run lasts
 * {@code horizonSeconds} and records a row every {@code rowMillis}.
 *
 * @param examineNanos modelled cost of examining one key in a sampling loop
 * @param deleteNanos modelled extra cost of deleting an expired key
 */
record SimulationScenario(TtlPattern ttl, int writesPerSecond, int loadSeconds, int rewritePercent,
        int readsPerSecond, int horizonSeconds, int rowMillis, ExpiryStrategyKind strategy, CyclePreset preset,
        long examineNanos, long deleteNanos, long seed) {

    /**
     * Modelled cost of examining a key, from {@code ExpiryCycleBenchmarks} at 1 million keys and
     * 0% expired (time per cycle over keys sampled), rounded; see EXPIRY.md.
     */
    static final long DEFAULT_EXAMINE_NANOS = 150;
    /** Modelled extra cost of deleting an expired key, from the same benchmark at 100% expired. */
    static final long DEFAULT_DELETE_NANOS = 1000;

    SimulationScenario {
        requirePositive("writesPerSecond", writesPerSecond);
        requirePositive("loadSeconds", loadSeconds);
        requirePositive("horizonSeconds", horizonSeconds);
        requirePositive("rowMillis", rowMillis);
        requirePositive("examineNanos", examineNanos);
        if (rewritePercent < 0 || rewritePercent > 100) {
            throw new IllegalArgumentException("rewritePercent must be in [0, 100]: rewritePercent=" + rewritePercent);
        }
        if (readsPerSecond < 0 || deleteNanos < 0) {
            throw new IllegalArgumentException("readsPerSecond and deleteNanos must not be negative: readsPerSecond="
                    + readsPerSecond + ", deleteNanos=" + deleteNanos);
        }
        if (rowMillis % periodMillis(preset) != 0) {
            throw new IllegalArgumentException("rowMillis must be a multiple of the cron period: rowMillis=" + rowMillis
                    + ", period=" + periodMillis(preset));
        }
        if ((long) writesPerSecond * loadSeconds > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("too many writes: writesPerSecond=" + writesPerSecond
                    + ", loadSeconds=" + loadSeconds);
        }
    }

    /** The cron period in ms ({@code 1000 / hz}, rounded down as a timer in whole ms would be). */
    long periodMillis() {
        return periodMillis(preset);
    }

    int totalWrites() {
        return writesPerSecond * loadSeconds;
    }

    /** This scenario with another strategy. */
    SimulationScenario withStrategy(ExpiryStrategyKind newStrategy) {
        return new SimulationScenario(ttl, writesPerSecond, loadSeconds, rewritePercent, readsPerSecond,
                horizonSeconds, rowMillis, newStrategy, preset, examineNanos, deleteNanos, seed);
    }

    /** This scenario with another cycle preset. */
    SimulationScenario withPreset(CyclePreset newPreset) {
        return new SimulationScenario(ttl, writesPerSecond, loadSeconds, rewritePercent, readsPerSecond,
                horizonSeconds, rowMillis, strategy, newPreset, examineNanos, deleteNanos, seed);
    }

    /** This scenario with another seed. */
    SimulationScenario withSeed(long newSeed) {
        return new SimulationScenario(ttl, writesPerSecond, loadSeconds, rewritePercent, readsPerSecond,
                horizonSeconds, rowMillis, strategy, preset, examineNanos, deleteNanos, newSeed);
    }

    private static long periodMillis(CyclePreset preset) {
        return 1000 / preset.config().hz();
    }

    private static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + name + "=" + value);
        }
    }
}
