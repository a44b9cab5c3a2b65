package dev.ebb.storage.expiry;

/**
 * The numbers that drive the {@link ActiveExpireCycle}. Immutable; build it from Redis's
 * {@code hz} and {@code active-expire-effort} with {@link #forEffort}, or set every field.
 *
 * @param hz cron frequency (1..500); the slow cycle runs once per cron tick
 * @param keysPerLoop keys examined per sampling loop (Redis ACTIVE_EXPIRE_CYCLE_KEYS_PER_LOOP)
 * @param acceptableStalePercent a database's loop repeats while more than this percentage of the
 *     keys it examined had expired; the fast cycle runs while the stale estimate is above it
 * @param slowCycleCpuPercent share of each cron period the slow cycle may spend
 * @param fastCycleDurationMicros budget of one fast cycle; fast cycles start at most once per
 *     twice this duration
 * @param sliceMicros Ebb only: the slow cycle yields to the server at least this often, see
 *     {@link ActiveExpireCycle#runSlice}
 * @param dbsPerCall databases visited per cycle (Redis CRON_DBS_PER_CALL), all of them when the
 *     previous cycle ran out of time
 * @param timeCheckInterval the clock is read once per this many sampling loops
 */
public record ExpireCycleConfig(int hz, int keysPerLoop, int acceptableStalePercent, int slowCycleCpuPercent,
        long fastCycleDurationMicros, long sliceMicros, int dbsPerCall, int timeCheckInterval) {

    /** Redis's default {@code hz}. */
    public static final int DEFAULT_HZ = 10;
    /** Redis's default {@code active-expire-effort}. */
    public static final int DEFAULT_EFFORT = 1;
    /** Ebb's default slice of the slow cycle: 250 µs (a command waits at most about that behind expiry). */
    public static final long DEFAULT_SLICE_MICROS = 250;
    /** Redis's CRON_DBS_PER_CALL. */
    public static final int DEFAULT_DBS_PER_CALL = 16;
    /** Redis reads the clock every 16 loops. */
    public static final int DEFAULT_TIME_CHECK_INTERVAL = 16;

    static final int BASE_KEYS_PER_LOOP = 20;
    static final long BASE_FAST_DURATION_MICROS = 1000;
    static final int BASE_SLOW_CPU_PERCENT = 25;
    static final int BASE_ACCEPTABLE_STALE_PERCENT = 10;

    public ExpireCycleConfig {
        requireRange("hz", hz, 1, 500);
        requireRange("keysPerLoop", keysPerLoop, 1, 1 << 20);
        requireRange("acceptableStalePercent", acceptableStalePercent, 0, 100);
        requireRange("slowCycleCpuPercent", slowCycleCpuPercent, 1, 100);
        requireRange("fastCycleDurationMicros", fastCycleDurationMicros, 1, 1_000_000);
        requireRange("sliceMicros", sliceMicros, 1, 1_000_000);
        requireRange("dbsPerCall", dbsPerCall, 1, Integer.MAX_VALUE);
        requireRange("timeCheckInterval", timeCheckInterval, 1, 1 << 20);
    }

    /** Redis 7 defaults: {@code hz 10}, {@code active-expire-effort 1}. */
    public static ExpireCycleConfig defaults() {
        return forEffort(DEFAULT_EFFORT, DEFAULT_HZ);
    }

    /**
     * Redis 7's mapping of {@code active-expire-effort} (1..10), rescaled to e = effort - 1
     * (0..9): keys per loop {@code 20 + 20/4*e}, fast cycle {@code 1000 + 1000/4*e} µs, slow
     * cycle CPU {@code 25 + 2*e} %, acceptable stale {@code 10 - e} %. Effort 1 is therefore 20
     * keys, 1 ms, 25 %, 10 %; effort 10 is 65 keys, 3.25 ms, 43 %, 1 %.
     */
    public static ExpireCycleConfig forEffort(int effort, int hz) {
        requireRange("effort", effort, 1, 10);
        int e = effort - 1;
        return new ExpireCycleConfig(hz,
                BASE_KEYS_PER_LOOP + BASE_KEYS_PER_LOOP / 4 * e,
                BASE_ACCEPTABLE_STALE_PERCENT - e,
                BASE_SLOW_CPU_PERCENT + 2 * e,
                BASE_FAST_DURATION_MICROS + BASE_FAST_DURATION_MICROS / 4 * e,
                DEFAULT_SLICE_MICROS, DEFAULT_DBS_PER_CALL, DEFAULT_TIME_CHECK_INTERVAL);
    }

    public ExpireCycleConfig withHz(int newHz) {
        return new ExpireCycleConfig(newHz, keysPerLoop, acceptableStalePercent, slowCycleCpuPercent,
                fastCycleDurationMicros, sliceMicros, dbsPerCall, timeCheckInterval);
    }

    public ExpireCycleConfig withSliceMicros(long newSliceMicros) {
        return new ExpireCycleConfig(hz, keysPerLoop, acceptableStalePercent, slowCycleCpuPercent,
                fastCycleDurationMicros, newSliceMicros, dbsPerCall, timeCheckInterval);
    }

    /**
     * CPU budget of one slow cycle in ns: {@code slowCycleCpuPercent} of the cron period, computed
     * in whole µs as Redis does (at least 1 µs). 25 ms at hz 10 and effort 1.
     */
    public long slowCycleBudgetNanos() {
        long micros = slowCycleCpuPercent * 1_000_000L / hz / 100;
        return Math.max(1, micros) * 1000;
    }

    public long fastCycleBudgetNanos() {
        return fastCycleDurationMicros * 1000;
    }

    public long sliceNanos() {
        return sliceMicros * 1000;
    }

    private static void requireRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "]: " + name + "=" + value);
        }
    }
}
