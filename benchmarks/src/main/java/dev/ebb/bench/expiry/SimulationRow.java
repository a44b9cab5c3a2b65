package dev.ebb.bench.expiry;

/**
 * What a simulation saw in one row's window of virtual time (one or more cron periods). Every
 * field follows from the scenario and its seed.
 *
 * @param timeMillis end of the window, from the simulation's start
 * @param volatileKeys keys held at the end of the window (all of them have a TTL)
 * @param staleKeys keys held whose time had passed, at the end of the window, before that cron
 *     tick's cycle ran
 * @param peakStaleKeys most stale keys at any cron boundary of the window
 * @param peakStaleOlderThanPeriod most keys, at any cron boundary of the window, that had expired
 *     more than one cron period earlier and were still held
 * @param keysExamined keys examined by the active-expire cycles that finished in the window
 * @param activeExpired keys deleted by active expiry in the window
 * @param lazyExpired keys deleted by lazy expiry (a read or write met them) in the window
 * @param cycles slow and fast cycles that finished in the window
 * @param timeCapped of those, the ones stopped by their CPU budget
 * @param modelledCpuMicros modelled time spent in active expiry in the window
 * @param longestPauseMicros longest single call into the cycle (a slice or a fast cycle), modelled
 */
record SimulationRow(long timeMillis, int volatileKeys, long staleKeys, long peakStaleKeys,
        long peakStaleOlderThanPeriod, long keysExamined, long activeExpired, long lazyExpired, int cycles,
        int timeCapped, long modelledCpuMicros, long longestPauseMicros) {

    static final String CSV_HEADER = "time_s,volatile_keys,stale_keys,peak_stale_keys,peak_stale_older_than_period,"
            + "keys_examined,active_expired,lazy_expired,cycles,time_capped,modelled_cpu_us,longest_pause_us";

    String toCsv() {
        return String.format(java.util.Locale.ROOT, "%.1f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d", timeMillis / 1000.0,
                volatileKeys, staleKeys, peakStaleKeys, peakStaleOlderThanPeriod, keysExamined, activeExpired,
                lazyExpired, cycles, timeCapped, modelledCpuMicros, longestPauseMicros);
    }
}
