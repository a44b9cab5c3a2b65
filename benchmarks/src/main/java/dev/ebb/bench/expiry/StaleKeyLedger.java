package dev.ebb.bench.expiry;

/**
 * The simulation's ground truth for "stale keys": how many keys the database still holds whose
 * time has passed, known without asking the database. Keys are counted per cron period of their
 * expiry time ({@code (when - base) / periodMs}); at the boundary of period {@code k} (time
 * {@code base + k * periodMs}) a key is stale exactly when its period is below {@code k}
 * (Redis's rule: expired when {@code now > when}).
 *
 * <p>Costs: O(1) per added or removed key, O(periods passed) per {@link #advanceTo}; one
 * {@code int} per period of the simulated span. Not thread-safe.
 */
final class StaleKeyLedger {
    private final long baseMs;
    private final long periodMs;
    private final int[] keysByPeriod;
    private int pastPeriods;
    private long stale;

    /**
     * @param baseMs the simulation's time zero
     * @param periodMs one cron period
     * @param spanMs no expiry time lies later than {@code base + spanMs}
     */
    StaleKeyLedger(long baseMs, long periodMs, long spanMs) {
        this.baseMs = baseMs;
        this.periodMs = periodMs;
        this.keysByPeriod = new int[Math.toIntExact(spanMs / periodMs + 2)];
    }

    void added(long whenMs) {
        int period = period(whenMs);
        keysByPeriod[period]++;
        if (period < pastPeriods) {
            stale++;
        }
    }

    void removed(long whenMs) {
        int period = period(whenMs);
        keysByPeriod[period]--;
        if (period < pastPeriods) {
            stale--;
        }
    }

    /** Moves to the boundary of period {@code boundary}: the keys of every earlier period are stale. */
    void advanceTo(int boundary) {
        while (pastPeriods < boundary) {
            stale += keysByPeriod[pastPeriods];
            pastPeriods++;
        }
    }

    /** Keys held whose time has passed, at the current boundary. */
    long stale() {
        return stale;
    }

    /** Stale keys that expired before the period that just ended (more than one period ago). */
    long staleOlderThanOnePeriod() {
        return pastPeriods == 0 ? 0 : stale - keysByPeriod[pastPeriods - 1];
    }

    private int period(long whenMs) {
        long period = (whenMs - baseMs) / periodMs;
        if (whenMs < baseMs || period >= keysByPeriod.length) {
            throw new IllegalArgumentException("expiry time outside the simulated span: whenMs=" + whenMs);
        }
        return (int) period;
    }
}
