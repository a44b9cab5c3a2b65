package dev.ebb.storage.expiry;

import dev.ebb.storage.Database;
import dev.ebb.storage.NanoClock;

/**
 * Active expiry: finds and deletes keys whose time to live has passed but that nobody looks up,
 * spending a bounded share of the command loop's time. Redis's activeExpireCycle, with its
 * budget spent in slices so the loop can serve commands in between.
 *
 * <h2>Idea (as in Redis)</h2>
 * Each cycle visits up to {@code dbsPerCall} databases round-robin, starting after the one the
 * previous cycle started last, so a cycle that runs out of time resumes at the next database and
 * time is spread evenly. Databases whose {@code expires} is empty are skipped at once. In a
 * database the cycle runs sampling loops: each loop asks the database's {@link ExpiryStrategy}
 * to examine {@code keysPerLoop} volatile keys and delete the expired ones, and the loop repeats
 * while more than {@code acceptableStalePercent} of the keys it examined had expired (or it
 * examined none). The ratio found is an estimate of how many expired keys still sit in memory:
 * when it is low, further sampling would mostly find live keys, so the cycle moves on.
 *
 * <p>Two kinds of cycle: the <b>slow</b> cycle, once per cron tick, may spend
 * {@code slowCycleCpuPercent} of the cron period (25% at hz 10 = 25 ms); the <b>fast</b> cycle,
 * offered on every event-loop iteration ({@link #runFast}), spends at most
 * {@code fastCycleDurationMicros} (1 ms) and runs only when the previous cycle hit its time limit
 * or the stale estimate is at or above the acceptable percentage, and starts at most once per
 * twice its duration. A cycle that hit its time limit makes the next one visit every database.
 *
 * <h2>Slices (Ebb)</h2>
 * Redis runs the whole slow cycle in one go, delaying every pending command by up to 25 ms. Here
 * the server calls {@link #beginSlow()} on its cron tick and then {@link #runSlice} until it
 * returns false, serving I/O between calls. A slice stops after about {@code sliceMicros}; the
 * cycle as a whole still stops when the time spent inside its slices (not the wall time between
 * them) reaches its budget, and a cycle interrupted mid-database resumes in that database in its
 * next slice. {@link #runSlow} runs all slices back to back (Redis's behaviour).
 *
 * <p>A fast cycle is cut at {@code sliceMicros} too. A fast cycle stopped by time (its budget or
 * its slice) with expired keys still coming up is a <em>backlog</em> ({@link #fastBacklog}): the
 * next fast cycle may then start at once instead of waiting twice the fast duration, and the
 * server offers it as soon as pending I/O has been served. In an expiry storm the loop thus
 * alternates between client I/O and short expiry slices, using the time clients leave free:
 * Redis caps the fast cycle at half the loop's time and holds commands for a whole cycle; Ebb
 * reclaims as fast as the spare time allows while a command waits at most one slice. Once a fast
 * cycle ends because the samples found few expired keys, Redis's spacing applies again.
 *
 * <h2>Time</h2>
 * Budgets are measured with the injected {@link NanoClock}, read once per
 * {@code timeCheckInterval} loops (Redis: 16). Redis stops once the elapsed time has exceeded the
 * limit; Ebb stops <em>before</em> a group of loops that the previous group's duration predicts
 * would cross it, so slices and cycles stay within their budgets while per-loop costs are steady.
 * Every slice still runs at least one group of loops, or no progress could be made. Whether a
 * key is expired is decided with {@code nowMs}, the loop's unix time, passed in by the caller.
 *
 * <h2>Hash fields (Redis 7.4)</h2>
 * A database's hashes with volatile fields are indexed by their earliest field expiry
 * ({@link dev.ebb.storage.VolatileHashes}). Each sampling loop also draws {@code keysPerLoop}
 * entries of that index and removes the due fields of each drawn hash in a bounded step; a drawn
 * hash counts as one examined entry, "expired" if it had due fields. So fields and keys share one
 * budget, one slicing and one stale estimate, and a database with only volatile fields is visited
 * as one with only volatile keys. A hash visit costs what the hash costs (a compact hash is walked
 * and copied whole), so the clock is read after every loop that removed fields, and the field
 * loop itself stops at the slice's deadline: a slice overruns by at most one hash visit.
 *
 * <h2>Statistics (INFO names)</h2>
 * {@code expired_stale_perc}: running average of the expired share of examined keys, each cycle
 * weighing 5%. {@code expired_time_cap_reached_count}: cycles stopped by their time budget.
 * {@code expire_cycle_cpu_milliseconds}: time spent in cycles. {@code expired_keys}: keys expired
 * lazily or actively, summed over the databases.
 *
 * <h2>Deliberate differences from Redis 7.0</h2>
 * Redis compares the stale estimate, a fraction of 1, with the acceptable percentage, so its fast
 * cycle in practice runs only after a time-limited cycle; Ebb compares percent with percent as
 * the comment in Redis intends. Redis also skips a database whose {@code expires} table is under
 * 1% full, waiting for a shrink; open addressing makes a sparse random walk cheap and the dicts
 * shrink themselves, so Ebb samples regardless.
 *
 * <p>Costs: a loop costs what its strategy costs ({@code keysPerLoop} O(1) draws for
 * {@code sampling}); the cycle allocates nothing. Not thread-safe: command loop thread only.
 */
public final class ActiveExpireCycle {
    private static final double STALE_SAMPLE_WEIGHT = 0.05;

    private static final int SLICE_DONE = 0;
    private static final int CYCLE_DONE = 1;
    private static final int TIME_CAP = 2;

    private final Database[] dbs;
    private final NanoClock clock;
    private final ExpireSample sample = new ExpireSample();
    private ExpireCycleConfig config;

    // State carried from cycle to cycle.
    private int nextDb;
    private boolean timeLimitExit;
    private boolean fastStarted;
    private boolean fastBacklog;
    private long lastFastStartNanos;
    private long windowNanos;
    /** Measured time of one sampling loop in the last group, for sizing the next group. */
    private long loopNanos;

    // The cycle in progress.
    private boolean running;
    private int dbsLeft;
    private Database currentDb;
    private long budgetNanos;
    private long spentNanos;
    private int cycleLoops;
    private long cycleSampled;
    private long cycleExpired;
    private boolean cycleTimeLimited;

    // Statistics.
    private double staleFraction;
    private long timeCapReachedCount;
    private long cpuNanos;
    private long activeExpiredKeys;
    private long activeExpiredFields;
    private long slowCycles;
    private long fastCycles;
    private int lastCycleLoops;
    private long lastCycleSampled;
    private long lastCycleExpired;
    private long lastCycleNanos;
    private boolean lastCycleTimeLimited;

    /**
     * @param dbs the server's databases; the array is read on every cycle, so a SWAPDB done with
     *     {@link Database#swapWith} is seen at once
     * @param config budgets and thresholds
     * @param clock measures the CPU budget (the server passes {@link NanoClock#SYSTEM})
     */
    public ActiveExpireCycle(Database[] dbs, ExpireCycleConfig config, NanoClock clock) {
        this.dbs = dbs;
        this.config = config;
        this.clock = clock;
    }

    public ExpireCycleConfig config() {
        return config;
    }

    /**
     * Replaces the configuration (CONFIG SET hz / active-expire-effort). Budgets apply from the
     * next cycle; per-loop numbers (keys per loop, stale threshold, check interval) from the next
     * slice.
     */
    public void setConfig(ExpireCycleConfig config) {
        this.config = config;
    }

    /**
     * Starts a slow cycle (once per cron tick), to be run by {@link #runSlice}. A slow cycle still
     * in progress from the previous tick is closed first (its statistics are recorded) so that
     * each tick gets exactly one budget.
     */
    public void beginSlow() {
        if (running) {
            finishCycle();
        }
        startCycle(config.slowCycleBudgetNanos());
        slowCycles++;
    }

    /**
     * Runs one slice of the slow cycle begun by {@link #beginSlow()}: at most about
     * {@code sliceMicros}, and never past the cycle's remaining budget.
     *
     * @param nowMs the loop's current unix time in ms, for deciding what is expired
     * @return true if the cycle has both work and budget left (call again after serving I/O);
     *     false once it has finished, and when no slow cycle is in progress
     */
    public boolean runSlice(long nowMs) {
        if (!running) {
            return false;
        }
        long start = clock.nanoTime();
        long cycleLeft = budgetNanos - spentNanos;
        if (spentNanos > 0 && windowNanos > cycleLeft) {
            timeCapReached();
            finishCycle();
            return false;
        }
        int outcome = work(start, Math.min(config.sliceNanos(), cycleLeft), nowMs);
        if (outcome == SLICE_DONE) {
            return true;
        }
        if (outcome == TIME_CAP) {
            timeCapReached();
        }
        finishCycle();
        return false;
    }

    /** A whole slow cycle without yielding: {@link #beginSlow()} and every slice back to back. */
    public void runSlow(long nowMs) {
        beginSlow();
        while (runSlice(nowMs)) {
            // Each slice is bounded; the cycle budget ends the loop.
        }
    }

    /**
     * Redis's fast cycle, offered once per event-loop iteration. It runs only if no slow cycle is
     * in progress, the previous cycle hit its time limit or the stale estimate is at least the
     * acceptable percentage, and either no fast cycle started within twice the fast duration or
     * the previous fast cycle left a {@linkplain #fastBacklog backlog}. It runs for at most the
     * fast duration and at most one slice.
     *
     * @return true if a fast cycle ran
     */
    public boolean runFast(long nowMs) {
        if (!wantsFastCycle()) {
            return false;
        }
        long fastBudget = config.fastCycleBudgetNanos();
        long start = clock.nanoTime();
        if (fastStarted && !fastBacklog && start - lastFastStartNanos < 2 * fastBudget) {
            return false;
        }
        fastStarted = true;
        lastFastStartNanos = start;
        startCycle(fastBudget);
        fastCycles++;
        int outcome = work(start, Math.min(fastBudget, config.sliceNanos()), nowMs);
        fastBacklog = outcome != CYCLE_DONE;
        if (fastBacklog) {
            timeCapReached();
        }
        finishCycle();
        return true;
    }

    /**
     * Whether the last fast cycle stopped on time with expired keys still coming up, so the
     * server should offer the next one as soon as it has served pending I/O. False while a slow
     * cycle is in progress.
     */
    public boolean fastBacklog() {
        return fastBacklog && !running;
    }

    /**
     * Whether expired keys are piling up faster than slow cycles remove them: no slow cycle is in
     * progress, and the last cycle ran out of time or the stale estimate is at or above the
     * acceptable percentage. While this holds the server should keep offering {@link #runFast}.
     */
    public boolean wantsFastCycle() {
        return !running && (timeLimitExit || expiredStalePerc() >= config.acceptableStalePercent());
    }

    /** Whether a slow cycle has slices left to run. */
    public boolean inProgress() {
        return running;
    }

    private void startCycle(long budget) {
        running = true;
        fastBacklog = false;
        int n = dbs.length;
        dbsLeft = timeLimitExit ? n : Math.min(config.dbsPerCall(), n);
        timeLimitExit = false;
        currentDb = null;
        budgetNanos = budget;
        spentNanos = 0;
        cycleLoops = 0;
        cycleSampled = 0;
        cycleExpired = 0;
        cycleTimeLimited = false;
    }

    /**
     * Sampling loops from {@code start} until the cycle runs out of databases, its budget, or the
     * slice's {@code sliceLimit}; adds the time used to the cycle.
     */
    private int work(long start, long sliceLimit, long nowMs) {
        final Database[] dbs = this.dbs;
        final ExpireSample sample = this.sample;
        final int keysPerLoop = config.keysPerLoop();
        final int acceptableStale = config.acceptableStalePercent();
        final int checkInterval = config.timeCheckInterval();
        int group = loopsPerReading(loopNanos, sliceLimit, checkInterval);
        long windowStart = start;
        int loopsInWindow = 0;
        while (true) {
            Database db = currentDb;
            if (db == null) {
                if (dbsLeft == 0) {
                    addSpent(clock.nanoTime() - start);
                    return CYCLE_DONE;
                }
                db = dbs[nextDb];
                nextDb = nextDb + 1 == dbs.length ? 0 : nextDb + 1;
                dbsLeft--;
                currentDb = db;
            }
            int volatileHashes = db.volatileHashes().size();
            if (db.expiresSize() == 0 && volatileHashes == 0) {
                currentDb = null;
                continue;
            }
            sample.reset();
            if (db.expiresSize() > 0) {
                db.expiryStrategy().sampleLoop(db, keysPerLoop, nowMs, sample);
            }
            if (volatileHashes > 0) {
                db.volatileHashes().sampleLoop(db, keysPerLoop, nowMs, clock, start + sliceLimit, sample);
            }
            cycleLoops++;
            cycleSampled += sample.sampled;
            cycleExpired += sample.expired;
            activeExpiredKeys += sample.expired - sample.dueHashes;
            activeExpiredFields += sample.fields;
            if (sample.ttlSamples > 0) {
                db.recordTtlSample(sample.ttlSumMs / sample.ttlSamples);
            }
            if (sample.sampled > 0 && sample.expired * 100L / sample.sampled <= acceptableStale) {
                currentDb = null;
            }
            // A loop that removed hash fields costs what the hashes it visited cost, so nothing
            // predicts the next one: the clock is read after each such loop.
            if (++loopsInWindow == group || sample.fields > 0) {
                long now = clock.nanoTime();
                loopNanos = (now - windowStart) / loopsInWindow;
                loopsInWindow = 0;
                windowStart = now;
                group = loopsPerReading(loopNanos, sliceLimit, checkInterval);
                windowNanos = loopNanos * group;
                long elapsed = now - start;
                if (spentNanos + elapsed + windowNanos > budgetNanos) {
                    addSpent(elapsed);
                    return TIME_CAP;
                }
                if (elapsed + windowNanos > sliceLimit) {
                    addSpent(elapsed);
                    return SLICE_DONE;
                }
            }
        }
    }

    /**
     * Loops per clock reading: Redis's {@code timeCheckInterval} (16), or fewer when loops are so
     * slow (an expiry storm: each one deletes up to 20 keys) that that many would take more than
     * a quarter of the slice, so a slice overruns its length by at most about a quarter.
     */
    static int loopsPerReading(long loopNanos, long sliceLimit, int checkInterval) {
        if (loopNanos <= 0) {
            return checkInterval;
        }
        return (int) Math.max(1, Math.min(checkInterval, sliceLimit / (4 * loopNanos)));
    }

    private void addSpent(long nanos) {
        spentNanos += nanos;
        cpuNanos += nanos;
    }

    private void timeCapReached() {
        timeLimitExit = true;
        cycleTimeLimited = true;
        timeCapReachedCount++;
    }

    private void finishCycle() {
        running = false;
        currentDb = null;
        double current = cycleSampled == 0 ? 0 : (double) cycleExpired / cycleSampled;
        staleFraction = current * STALE_SAMPLE_WEIGHT + staleFraction * (1 - STALE_SAMPLE_WEIGHT);
        lastCycleLoops = cycleLoops;
        lastCycleSampled = cycleSampled;
        lastCycleExpired = cycleExpired;
        lastCycleNanos = spentNanos;
        lastCycleTimeLimited = cycleTimeLimited;
    }

    // ---------------------------------------------------------------- statistics

    /** INFO {@code expired_keys}: keys expired lazily or actively, summed over the databases. */
    public long expiredKeys() {
        long sum = 0;
        for (Database db : dbs) {
            sum += db.expiredKeys();
        }
        return sum;
    }

    /** INFO {@code expired_stale_perc}, in percent (print with two decimals). */
    public double expiredStalePerc() {
        return staleFraction * 100;
    }

    /** INFO {@code expired_time_cap_reached_count}. */
    public long expiredTimeCapReachedCount() {
        return timeCapReachedCount;
    }

    /** INFO {@code expire_cycle_cpu_milliseconds}. */
    public long expireCycleCpuMilliseconds() {
        return cpuNanos / 1_000_000;
    }

    /** Time spent in cycles, in ns as measured by the clock. */
    public long expireCycleCpuNanos() {
        return cpuNanos;
    }

    /** Keys deleted by active cycles (lazy expiry excluded). */
    public long activeExpiredKeys() {
        return activeExpiredKeys;
    }

    /** Hash fields removed by active cycles (lazy expiry excluded). */
    public long activeExpiredFields() {
        return activeExpiredFields;
    }

    /** Slow cycles begun. */
    public long slowCycles() {
        return slowCycles;
    }

    /** Fast cycles run. */
    public long fastCycles() {
        return fastCycles;
    }

    /** Sampling loops run by the last finished cycle. */
    public int lastCycleLoops() {
        return lastCycleLoops;
    }

    /** Keys examined by the last finished cycle. */
    public long lastCycleSampled() {
        return lastCycleSampled;
    }

    /** Keys deleted by the last finished cycle. */
    public long lastCycleExpired() {
        return lastCycleExpired;
    }

    /** Time spent by the last finished cycle, summed over its slices, in ns. */
    public long lastCycleNanos() {
        return lastCycleNanos;
    }

    /** Whether the last finished cycle was stopped by its time budget. */
    public boolean lastCycleTimeLimited() {
        return lastCycleTimeLimited;
    }

    /**
     * Clears this cycle's statistics (CONFIG RESETSTAT); the databases' expired-key counters are
     * reset by {@link Database#resetStats()}.
     */
    public void resetStats() {
        staleFraction = 0;
        timeCapReachedCount = 0;
        cpuNanos = 0;
        activeExpiredKeys = 0;
        activeExpiredFields = 0;
        slowCycles = 0;
        fastCycles = 0;
    }
}
