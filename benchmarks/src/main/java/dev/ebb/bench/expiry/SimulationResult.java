package dev.ebb.bench.expiry;

import java.util.List;
import java.util.Locale;

/**
 * The outcome of one simulation run: its rows over virtual time, totals that follow from the seed,
 * and real-time measurements that do not.
 *
 * @param rows one per {@code rowMillis} of virtual time
 * @param keysCreated distinct keys written
 * @param staleKeySeconds the integral of stale keys over time, sampled at cron boundaries: the
 *     memory held by expired keys, in key-seconds
 * @param drainedAtMillis first cron boundary after the last write at which the database was empty
 *     (every key expired and reclaimed), or -1 if it never was within the horizon
 * @param measured real-time figures: differ from run to run
 */
record SimulationResult(SimulationScenario scenario, List<SimulationRow> rows, int keysCreated,
        double staleKeySeconds, long drainedAtMillis, Measured measured) {

    static final String SUMMARY_HEADER = "workload,strategy,preset,keys_created,peak_stale_keys,stale_key_seconds,"
            + "keys_examined,active_expired,lazy_expired,cycles,time_capped,modelled_cpu_ms,"
            + "longest_modelled_pause_us,drained_at_s";

    static final String MEASURED_HEADER = "workload,strategy,preset,real_cycle_ms,longest_real_call_us,"
            + "longest_real_command_us";

    long peakStaleKeys() {
        return rows.stream().mapToLong(SimulationRow::peakStaleKeys).max().orElse(0);
    }

    long keysExamined() {
        return rows.stream().mapToLong(SimulationRow::keysExamined).sum();
    }

    long activeExpired() {
        return rows.stream().mapToLong(SimulationRow::activeExpired).sum();
    }

    long lazyExpired() {
        return rows.stream().mapToLong(SimulationRow::lazyExpired).sum();
    }

    long longestPauseMicros() {
        return rows.stream().mapToLong(SimulationRow::longestPauseMicros).max().orElse(0);
    }

    /** The scenario's labels, the first columns of every CSV line. */
    String labels() {
        return scenario.ttl().label() + "," + scenario.strategy().configName() + "," + scenario.preset().label();
    }

    /** The deterministic summary line. */
    String summaryCsv() {
        return String.format(Locale.ROOT, "%s,%d,%d,%.0f,%d,%d,%d,%d,%d,%.1f,%d,%.1f", labels(), keysCreated,
                peakStaleKeys(), staleKeySeconds, keysExamined(), activeExpired(), lazyExpired(),
                rows.stream().mapToLong(SimulationRow::cycles).sum(),
                rows.stream().mapToLong(SimulationRow::timeCapped).sum(),
                rows.stream().mapToLong(SimulationRow::modelledCpuMicros).sum() / 1000.0, longestPauseMicros(),
                drainedAtMillis < 0 ? -1.0 : drainedAtMillis / 1000.0);
    }

    /** The measured line (real time; not reproducible). */
    String measuredCsv() {
        return String.format(Locale.ROOT, "%s,%.1f,%.1f,%.1f", labels(), measured.cycleNanos / 1e6,
                measured.longestCallNanos / 1e3, measured.longestCommandNanos / 1e3);
    }

    /**
     * Real time, measured with {@code System.nanoTime()} around each call while the simulation
     * ran on the modelled clock; these vary with the machine and its load.
     *
     * @param cycleNanos total time in active-expire calls
     * @param longestCallNanos longest single call into the cycle
     * @param longestCommandNanos longest single simulated command (SET or GET), which includes the
     *     {@code exact} heap's rebuilds
     */
    record Measured(long cycleNanos, long longestCallNanos, long longestCommandNanos) {
    }
}
