package dev.ebb.bench.expiry;

import dev.ebb.storage.Database;
import dev.ebb.storage.NanoClock;
import dev.ebb.storage.expiry.ActiveExpireCycle;
import dev.ebb.storage.expiry.ExpireCycleConfig;
import dev.ebb.storage.expiry.ExpiryStrategyKind;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntToLongFunction;

/**
 * Drives one {@link SimulationScenario} through the real storage engine, a {@link Database} and an
 * {@link ActiveExpireCycle}, on virtual time: deterministic, seeded, no sleeping, a few seconds of
 * CPU for a quarter of an hour of virtual time at thousands of writes a second.
 *
 * <h2>Model</h2>
 * Virtual time advances in 1 ms steps; each step is one turn of the server's event loop:
 * <ol>
 *   <li>On a cron boundary (every {@code 1000 / hz} ms) a row's figures are taken (before the
 *       tick's cycle, so {@code stale} counts the keys that expired during the period that just
 *       ended), the dicts get a fixed amount of incremental rehashing, and a slow cycle begins
 *       ({@link ActiveExpireCycle#beginSlow}), as {@code Cron.tick} does.</li>
 *   <li>The step's commands run at {@code now}: the writes and reads due in this millisecond by
 *       their rates. A write is the server's SET EX ({@code setWithExpire}); a read
 *       is {@code lookupRead}, which expires a stale key lazily.</li>
 *   <li>Then, as the server does after serving I/O, the cycle gets a call: the next slice of
 *       the slow cycle if one is in progress ({@link ActiveExpireCycle#runSlice}), else, if any
 *       command ran or the last fast cycle left a backlog, the offer of a fast cycle
 *       ({@link ActiveExpireCycle#runFast}); and more calls while work remains and the modelled
 *       time has not reached the end of the step, as the server runs the next slice right after
 *       the (here empty) I/O.</li>
 * </ol>
 * The cycle's clock is a {@link ModelledCpuClock}: a fixed cost per key examined and per key
 * deleted, read after every sampling loop, so budgets, slices and fast-cycle spacing are decided on modelled
 * time. Whether a key has expired is decided by the step's {@code now}.
 *
 * <h2>What is deterministic</h2>
 * Every {@link SimulationRow} field and the deterministic summary follow from the scenario and its
 * seed: the workload draws from one {@code SplittableRandom(seed)}, the dicts' hashing and random
 * sampling are seeded from it, and nothing reads the real clock. Only
 * {@link SimulationResult.Measured} (real {@code System.nanoTime()} around calls) varies.
 *
 * <h2>Ground truth and checks</h2>
 * A {@link StaleKeyLedger} fed by the writes and by an {@link dev.ebb.storage.ExpiryListener}
 * knows at every cron boundary how many held keys have expired. At every boundary the simulator
 * checks that the database holds exactly the keys the workload expects and that the stale count
 * lies in {@code [0, keys held]}; a violation throws {@link IllegalStateException}.
 *
 * <p>Single use, single-threaded.
 */
final class ExpirySimulator {
    /** The simulation's time zero: 2023-11-14T22:13:20Z, a multiple of every cron period. */
    static final long BASE_MS = 1_700_000_000_000L;
    /** Old slots migrated per dict per cron tick ({@code rehashFor} chunks of 100 slots). */
    private static final long REHASH_CHUNKS_PER_TICK = 100;

    private final SimulationScenario scenario;
    private final long periodMs;
    private final Database db;
    private final ModelledCpuClock clock;
    private final ActiveExpireCycle cycle;
    private final StaleKeyLedger ledger;
    private final SplittableRandom random;

    private long rehashClockTicks;
    private final NanoClock rehashClock = () -> rehashClockTicks++;

    // The workload's view of the keyspace, by key id.
    private final long[] whenById;
    private final boolean[] heldById;
    private int keysCreated;
    private int keysHeld;
    private boolean inCycleCall;

    // The row being accumulated.
    private final List<SimulationRow> rows = new ArrayList<>();
    private long rowPeakStale;
    private long rowPeakStaleOlder;
    private long rowExamined;
    private long rowActiveExpired;
    private long rowLazyExpired;
    private int rowCycles;
    private int rowTimeCapped;
    private long rowModelledCpuNanos;
    private long rowLongestPauseNanos;

    private double staleKeySeconds;
    private long drainedAtMillis = -1;
    private long realCycleNanos;
    private long longestRealCallNanos;
    private long longestRealCommandNanos;

    ExpirySimulator(SimulationScenario scenario) {
        this.scenario = scenario;
        this.periodMs = scenario.periodMillis();
        this.random = new SplittableRandom(scenario.seed());
        this.db = new Database(0, random.nextLong(), scenario.strategy());
        this.db.setExpiryListener((database, key) -> expired(key));
        ExpireCycleConfig base = scenario.preset().config();
        ExpireCycleConfig config = new ExpireCycleConfig(base.hz(), base.keysPerLoop(), base.acceptableStalePercent(),
                base.slowCycleCpuPercent(), base.fastCycleDurationMicros(), base.sliceMicros(), base.dbsPerCall(), 1);
        this.clock = new ModelledCpuClock(scenario.examineNanos(), scenario.deleteNanos(),
                loopKeysModel(scenario.strategy(), config.keysPerLoop()));
        this.cycle = new ActiveExpireCycle(new Database[] {db}, config, clock);
        long spanMs = Math.max(scenario.horizonSeconds() * 1000L,
                scenario.loadSeconds() * 1000L + scenario.ttl().maxTtlMs());
        this.ledger = new StaleKeyLedger(BASE_MS, periodMs, spanMs);
        this.whenById = new long[scenario.totalWrites()];
        this.heldById = new boolean[scenario.totalWrites()];
    }

    /** Estimated keys a sampling loop examined, from the keys it deleted (see {@link ModelledCpuClock}). */
    private IntToLongFunction loopKeysModel(ExpiryStrategyKind strategy, int keysPerLoop) {
        if (strategy == ExpiryStrategyKind.EXACT) {
            return deleted -> Math.min(keysPerLoop, deleted + 1);
        }
        return deleted -> Math.min(keysPerLoop, db.expiresSize() + deleted);
    }

    /** A bound on the cycle calls in one simulated millisecond (each call charges some work). */
    private static final int MAX_CALLS_PER_TURN = 1000;

    /** Runs the scenario to its horizon. */
    SimulationResult run() {
        long horizonMs = scenario.horizonSeconds() * 1000L;
        long loadMs = scenario.loadSeconds() * 1000L;
        int rowPeriods = (int) (scenario.rowMillis() / periodMs);
        for (long step = 0; step <= horizonMs; step++) {
            long now = BASE_MS + step;
            clock.advanceTo(step * 1_000_000L);
            if (step % periodMs == 0) {
                int boundary = (int) (step / periodMs);
                cronBoundary(boundary, step, loadMs, rowPeriods);
                if (step == horizonMs) {
                    break;
                }
                db.rehashFor(REHASH_CHUNKS_PER_TICK, rehashClock);
                boolean wasRunning = cycle.inProgress();
                cycle.beginSlow();
                if (wasRunning) {
                    cycleFinished();
                }
            }
            int commands = runCommands(step, now, loadMs);
            runCycleCalls(step, now, commands > 0);
        }
        return new SimulationResult(scenario, List.copyOf(rows), keysCreated, staleKeySeconds, drainedAtMillis,
                new SimulationResult.Measured(realCycleNanos, longestRealCallNanos, longestRealCommandNanos));
    }

    private void cronBoundary(int boundary, long step, long loadMs, int rowPeriods) {
        ledger.advanceTo(boundary);
        long stale = ledger.stale();
        checkInvariants(stale, step);
        rowPeakStale = Math.max(rowPeakStale, stale);
        rowPeakStaleOlder = Math.max(rowPeakStaleOlder, ledger.staleOlderThanOnePeriod());
        staleKeySeconds += stale * (periodMs / 1000.0);
        if (drainedAtMillis < 0 && step > loadMs && keysHeld == 0) {
            drainedAtMillis = step;
        }
        if (boundary > 0 && boundary % rowPeriods == 0) {
            rows.add(new SimulationRow(step, keysHeld, stale, rowPeakStale, rowPeakStaleOlder, rowExamined,
                    rowActiveExpired, rowLazyExpired, rowCycles, rowTimeCapped, rowModelledCpuNanos / 1000,
                    rowLongestPauseNanos / 1000));
            rowPeakStale = 0;
            rowPeakStaleOlder = 0;
            rowExamined = 0;
            rowActiveExpired = 0;
            rowLazyExpired = 0;
            rowCycles = 0;
            rowTimeCapped = 0;
            rowModelledCpuNanos = 0;
            rowLongestPauseNanos = 0;
        }
    }

    private void checkInvariants(long stale, long step) {
        if (db.size() != keysHeld || db.expiresSize() != keysHeld) {
            throw new IllegalStateException("database out of step with the workload at step " + step + ": size="
                    + db.size() + ", expires=" + db.expiresSize() + ", expected=" + keysHeld);
        }
        if (stale < 0 || stale > keysHeld) {
            throw new IllegalStateException("stale count out of range at step " + step + ": stale=" + stale
                    + ", held=" + keysHeld);
        }
    }

    /** The writes and reads due in millisecond {@code step}; returns how many ran. */
    private int runCommands(long step, long now, long loadMs) {
        int writes = step < loadMs ? due(step, scenario.writesPerSecond()) : 0;
        int reads = keysCreated == 0 ? 0 : due(step, scenario.readsPerSecond());
        for (int i = 0; i < writes; i++) {
            long start = System.nanoTime();
            write(now);
            noteCommand(System.nanoTime() - start);
        }
        for (int i = 0; i < reads; i++) {
            byte[] key = ExpiryKeys.key(random.nextInt(keysCreated));
            long start = System.nanoTime();
            db.lookupRead(key, now);
            noteCommand(System.nanoTime() - start);
        }
        return writes + reads;
    }

    /** Events of a per-second rate that fall in millisecond {@code step}, spread evenly. */
    private static int due(long step, int perSecond) {
        return (int) ((step + 1) * perSecond / 1000 - step * perSecond / 1000);
    }

    /** SET key value EX ttl: a new key, or an overwrite of an earlier one. */
    private void write(long now) {
        int id;
        if (keysCreated > 0 && random.nextInt(100) < scenario.rewritePercent()) {
            id = random.nextInt(keysCreated);
        } else {
            id = keysCreated++;
        }
        long when = scenario.ttl().whenMs(now, BASE_MS, scenario.loadSeconds(), random);
        boolean heldLive = heldById[id] && now <= whenById[id];
        if (heldLive) {
            ledger.removed(whenById[id]);
        }
        byte[] key = ExpiryKeys.key(id);
        db.setWithExpire(key, ExpiryKeys.VALUE, now, when);
        if (!heldLive) {
            keysHeld++;
        }
        heldById[id] = true;
        whenById[id] = when;
        ledger.added(when);
    }

    /** The database's expiry listener: a held key was deleted because its time had passed. */
    private void expired(byte[] key) {
        int id = ExpiryKeys.idOf(key);
        if (!heldById[id]) {
            throw new IllegalStateException("expiry of a key the workload does not hold: id=" + id);
        }
        heldById[id] = false;
        keysHeld--;
        ledger.removed(whenById[id]);
        if (inCycleCall) {
            rowActiveExpired++;
            clock.deleted();
        } else {
            rowLazyExpired++;
        }
    }

    /**
     * The calls into the cycle after a turn's commands, as the server makes them: the next slice
     * of the slow cycle if one is in progress, else (if commands ran, or the last fast cycle left a
     * backlog) the offer of a fast cycle; and, since the server schedules the next slice as a
     * zero-delay task, again while work remains and the turn's millisecond is not used up.
     */
    private void runCycleCalls(long step, long now, boolean commandsRan) {
        long turnEnd = (step + 1) * 1_000_000L;
        boolean offerFast = commandsRan;
        for (int calls = 0; calls < MAX_CALLS_PER_TURN && clock.now() < turnEnd; calls++) {
            if (cycle.inProgress()) {
                callCycle(now, false);
            } else if (offerFast || cycle.fastBacklog()) {
                offerFast = false;
                callCycle(now, true);
            } else {
                return;
            }
            if (!cycle.inProgress() && !cycle.fastBacklog()) {
                return;
            }
        }
    }

    /** One call into the cycle: the next slow slice, or the offer of a fast cycle. */
    private void callCycle(long now, boolean fast) {
        clock.beginCall();
        long modelledStart = clock.chargedNanos();
        long realStart = System.nanoTime();
        inCycleCall = true;
        boolean finished = fast ? cycle.runFast(now) : !cycle.runSlice(now);
        inCycleCall = false;
        long real = System.nanoTime() - realStart;
        if (finished && !cycle.lastCycleTimeLimited()) {
            clock.refundLastCharge();
        }
        long modelled = clock.chargedNanos() - modelledStart;
        realCycleNanos += real;
        longestRealCallNanos = Math.max(longestRealCallNanos, real);
        rowModelledCpuNanos += modelled;
        rowLongestPauseNanos = Math.max(rowLongestPauseNanos, modelled);
        if (finished) {
            cycleFinished();
        }
    }

    private void cycleFinished() {
        rowCycles++;
        rowExamined += cycle.lastCycleSampled();
        if (cycle.lastCycleTimeLimited()) {
            rowTimeCapped++;
        }
    }

    private void noteCommand(long nanos) {
        longestRealCommandNanos = Math.max(longestRealCommandNanos, nanos);
    }
}
