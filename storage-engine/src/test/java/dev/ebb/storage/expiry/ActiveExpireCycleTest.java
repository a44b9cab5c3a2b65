package dev.ebb.storage.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.storage.Database;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The cycle's mechanics (budget, slices, stale rule, round-robin), with the default sampling strategy. */
class ActiveExpireCycleTest {
    private static final long NOW = 1_000_000;
    private static final long MS = 1_000_000;
    private static final long US = 1_000;

    /** Redis defaults, but one slice per cycle, so a cycle runs as in Redis. */
    private static final ExpireCycleConfig UNSLICED = ExpireCycleConfig.defaults().withSliceMicros(25_000);

    @Test
    void cycleShouldDeleteOnlyExpiredKeys() {
        Database db = new Database(0, 1);
        fill(db, "dead", 500, NOW - 1);
        fill(db, "live", 500, NOW + 10_000);
        fillPersistent(db, "plain", 200);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, new SteppingNanoClock(0));

        cycle.runSlow(NOW);

        assertTrue(cycle.lastCycleExpired() > 0);
        assertEquals(1200 - cycle.lastCycleExpired(), db.size());
        assertEquals(cycle.lastCycleExpired(), db.expiredKeys());
        for (int i = 0; i < 500; i++) {
            assertEquals(NOW + 10_000, db.getExpire(key("live" + i)));
        }
        for (int i = 0; i < 200; i++) {
            assertTrue(db.exists(key("plain" + i), NOW));
        }
    }

    @Test
    void cycleShouldRepeatWhileAllSampledKeysAreExpiredUntilTheDatabaseIsClean() {
        Database db = new Database(0, 1);
        fill(db, "dead", 1000, NOW - 1);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, new SteppingNanoClock(0));

        cycle.runSlow(NOW);

        assertEquals(50, cycle.lastCycleLoops());
        assertEquals(1000, cycle.lastCycleSampled());
        assertEquals(1000, cycle.lastCycleExpired());
        assertEquals(0, db.size());
        assertFalse(cycle.lastCycleTimeLimited());
    }

    @Test
    void cycleShouldRunOneLoopWhenNoSampledKeyIsExpired() {
        Database db = new Database(0, 1);
        fill(db, "live", 1000, NOW + 5000);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, new SteppingNanoClock(0));

        cycle.runSlow(NOW);

        assertEquals(1, cycle.lastCycleLoops());
        assertEquals(20, cycle.lastCycleSampled());
        assertEquals(0, cycle.lastCycleExpired());
    }

    @Test
    void cycleShouldStopSamplingOnceTheStaleShareFallsBelowTheThreshold() {
        Database mostlyLive = new Database(0, 1);
        fill(mostlyLive, "dead", 250, NOW - 1);
        fill(mostlyLive, "live", 4750, NOW + 5000);
        Database halfDead = new Database(0, 2);
        fill(halfDead, "dead", 2500, NOW - 1);
        fill(halfDead, "live", 2500, NOW + 5000);

        ActiveExpireCycle lowCycle = new ActiveExpireCycle(new Database[] {mostlyLive}, UNSLICED, new SteppingNanoClock(0));
        lowCycle.runSlow(NOW);
        ActiveExpireCycle highCycle = new ActiveExpireCycle(new Database[] {halfDead}, UNSLICED, new SteppingNanoClock(0));
        highCycle.runSlow(NOW);

        // 5% stale: a loop repeats only when a sample of 20 happens to hold 3+ expired keys.
        assertTrue(lowCycle.lastCycleLoops() <= 5, "loops=" + lowCycle.lastCycleLoops());
        assertTrue(lowCycle.lastCycleExpired() < 50, "expired=" + lowCycle.lastCycleExpired());
        // 50% stale: a sample of 20 holds 2 or fewer expired keys with probability 0.0002, so loops
        // repeat, deleting about 10 keys each, until the stale share has dropped well below 50%.
        assertTrue(highCycle.lastCycleLoops() > 5, "loops=" + highCycle.lastCycleLoops());
        assertTrue(highCycle.lastCycleExpired() > 100, "expired=" + highCycle.lastCycleExpired());
        assertEquals(highCycle.lastCycleLoops() * 20L, highCycle.lastCycleSampled());
    }

    @Test
    void acceptableStaleOfHundredPercentShouldRunExactlyOneLoopPerDatabase() {
        Database db = new Database(0, 1);
        fill(db, "dead", 1000, NOW - 1);
        ExpireCycleConfig config = new ExpireCycleConfig(10, 20, 100, 25, 1000, 25_000, 16, 16);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, config, new SteppingNanoClock(0));

        cycle.runSlow(NOW);

        assertEquals(1, cycle.lastCycleLoops());
        assertEquals(20, cycle.lastCycleExpired());
    }

    @Test
    void cycleShouldStopAtItsCpuBudgetAndCountTheTimeCap() {
        Database db = new Database(0, 1);
        fill(db, "dead", 20_000, NOW - 1);
        SteppingNanoClock clock = new SteppingNanoClock(MS);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, clock);

        cycle.runSlow(NOW);

        // One reading to start, then one per 16 loops, each 1 ms later: the 25th check finds 25 ms
        // spent and the next window would pass the 25 ms budget.
        assertEquals(25 * MS, UNSLICED.slowCycleBudgetNanos());
        assertEquals(25 * 16, cycle.lastCycleLoops());
        assertEquals(25 * 16 * 20, cycle.lastCycleExpired());
        assertEquals(25 * MS, cycle.lastCycleNanos());
        assertTrue(cycle.lastCycleTimeLimited());
        assertEquals(1, cycle.expiredTimeCapReachedCount());
        assertEquals(25, cycle.expireCycleCpuMilliseconds());
        assertEquals(20_000 - 8000, db.size());
    }

    @Test
    void slicesShouldEachStayWithinTheSliceBudgetAndTogetherWithinTheCycleBudget() {
        Database db = new Database(0, 1);
        fill(db, "dead", 20_000, NOW - 1);
        WorkClock clock = new WorkClock(3 * US);
        db.setExpiryListener((d, k) -> clock.work());
        ExpireCycleConfig config = ExpireCycleConfig.defaults().withSliceMicros(1000);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, config, clock);

        cycle.beginSlow();
        int slices = 0;
        long maxSlice = 0;
        boolean more;
        do {
            long before = cycle.expireCycleCpuNanos();
            more = cycle.runSlice(NOW);
            maxSlice = Math.max(maxSlice, cycle.expireCycleCpuNanos() - before);
            slices++;
        } while (more && slices < 1000);

        // A loop is 20 keys at 3 us = 60 us. The first window is 16 loops = 960 us; after it the
        // clock is read every 4 loops (a quarter of the slice), and four such windows fill 960 us.
        assertEquals(960 * US, maxSlice);
        assertTrue(cycle.lastCycleNanos() <= config.slowCycleBudgetNanos());
        assertTrue(cycle.lastCycleNanos() > config.slowCycleBudgetNanos() - 960 * US);
        assertEquals(26, slices);
        assertTrue(cycle.lastCycleTimeLimited());
        assertEquals(1, cycle.expiredTimeCapReachedCount());
    }

    @Test
    void slicesWithAClockCheckEveryLoopShouldFillTheSliceBudgetExactly() {
        Database db = new Database(0, 1);
        fill(db, "dead", 10_000, NOW - 1);
        ExpireCycleConfig config = new ExpireCycleConfig(10, 20, 10, 25, 1000, 1000, 16, 1);
        SteppingNanoClock clock = new SteppingNanoClock(100 * US);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, config, clock);

        cycle.beginSlow();
        int slices = 0;
        while (cycle.runSlice(NOW) && slices < 1000) {
            assertEquals((slices + 1) * MS, cycle.expireCycleCpuNanos());
            slices++;
        }

        assertEquals(24, slices);
        assertEquals(25 * MS, cycle.lastCycleNanos());
        assertEquals(25 * 10, cycle.lastCycleLoops());
        assertFalse(cycle.inProgress());
    }

    @Test
    void sliceShouldReturnFalseWhenTheCycleFinishesItsWork() {
        Database db = new Database(0, 1);
        fill(db, "dead", 100, NOW - 1);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, ExpireCycleConfig.defaults(),
                new SteppingNanoClock(US));

        cycle.beginSlow();
        boolean more = cycle.runSlice(NOW);

        assertFalse(more);
        assertFalse(cycle.inProgress());
        assertEquals(0, db.size());
        assertFalse(cycle.runSlice(NOW));
    }

    @Test
    void cycleShouldSkipDatabasesWithoutVolatileKeys() {
        Database plain = new Database(0, 1);
        fillPersistent(plain, "p", 100);
        Database empty = new Database(1, 2);
        Database volatileDb = new Database(2, 3);
        fill(volatileDb, "live", 100, NOW + 1000);
        Database[] dbs = {plain, empty, volatileDb, new Database(3, 4)};
        ActiveExpireCycle cycle = new ActiveExpireCycle(dbs, UNSLICED, new SteppingNanoClock(0));

        cycle.runSlow(NOW);

        assertEquals(1, cycle.lastCycleLoops());
        assertEquals(20, cycle.lastCycleSampled());
        assertEquals(1000, volatileDb.avgTtlMs());
        assertEquals(0, plain.avgTtlMs());
    }

    @Test
    void timeCappedCycleShouldResumeAtTheNextDatabase() {
        Database[] dbs = new Database[3];
        for (int i = 0; i < dbs.length; i++) {
            dbs[i] = new Database(i, i + 10);
            fill(dbs[i], "dead", 10_000, NOW - 1);
        }
        ActiveExpireCycle cycle = new ActiveExpireCycle(dbs, UNSLICED, new SteppingNanoClock(MS));

        cycle.runSlow(NOW);
        int[] afterFirst = sizes(dbs);
        cycle.runSlow(NOW);
        int[] afterSecond = sizes(dbs);

        assertEquals(2000, afterFirst[0]);
        assertEquals(10_000, afterFirst[1]);
        assertEquals(10_000, afterFirst[2]);
        assertEquals(2000, afterSecond[1]);
        assertEquals(10_000, afterSecond[2]);
        assertEquals(2, cycle.expiredTimeCapReachedCount());
    }

    @Test
    void cycleShouldVisitAtMostDbsPerCallDatabasesRoundRobin() {
        Database[] dbs = new Database[20];
        for (int i = 0; i < dbs.length; i++) {
            dbs[i] = new Database(i, i);
            fill(dbs[i], "live", 40, NOW + 500);
        }
        ActiveExpireCycle cycle = new ActiveExpireCycle(dbs, UNSLICED, new SteppingNanoClock(0));

        cycle.runSlow(NOW);
        boolean db15Sampled = dbs[15].avgTtlMs() > 0;
        boolean db16Sampled = dbs[16].avgTtlMs() > 0;
        cycle.runSlow(NOW);

        assertEquals(16, cycle.lastCycleLoops());
        assertTrue(db15Sampled);
        assertFalse(db16Sampled);
        for (Database db : dbs) {
            assertEquals(500, db.avgTtlMs(), "db " + db.id());
        }
    }

    @Test
    void cycleAfterATimeCapShouldVisitEveryDatabase() {
        Database[] dbs = new Database[20];
        for (int i = 0; i < dbs.length; i++) {
            dbs[i] = new Database(i, i);
            fill(dbs[i], "live", 40, NOW + 500);
        }
        fill(dbs[0], "dead", 20_000, NOW - 1);
        SteppingNanoClock clock = new SteppingNanoClock(MS);
        ActiveExpireCycle cycle = new ActiveExpireCycle(dbs, UNSLICED, clock);
        cycle.runSlow(NOW);
        assertTrue(cycle.lastCycleTimeLimited());
        dbs[0].flush();

        cycle.runSlow(NOW);

        // dbs 1..19 one loop each, db 0 skipped as empty: 19 databases, not dbsPerCall = 16.
        assertEquals(19, cycle.lastCycleLoops());
    }

    @Test
    void fastCycleShouldRunOnlyAfterATimeCapOrWithAHighStaleEstimate() {
        Database db = new Database(0, 1);
        fill(db, "live", 100, NOW + 500);
        SteppingNanoClock clock = new SteppingNanoClock(0);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, clock);
        cycle.runSlow(NOW);

        boolean ran = cycle.runFast(NOW);

        assertFalse(ran);
        assertEquals(0, cycle.fastCycles());
    }

    @Test
    void fastCycleShouldRunAfterATimeCappedSlowCycleAndAgainAtOnceWhileItLeavesABacklog() {
        Database db = new Database(0, 1);
        fill(db, "dead", 50_000, NOW - 1);
        WorkClock clock = new WorkClock(3 * US);
        db.setExpiryListener((d, k) -> clock.work());
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, clock);
        cycle.runSlow(NOW);
        assertTrue(cycle.lastCycleTimeLimited());
        int afterSlow = db.size();

        boolean first = cycle.runFast(NOW);
        int afterFirst = db.size();
        boolean backlogAfterFirst = cycle.fastBacklog();
        boolean second = cycle.runFast(NOW);

        assertTrue(first);
        assertEquals(320, afterSlow - afterFirst, "one window of 16 loops (960 us) fits the 1 ms budget");
        assertTrue(cycle.lastCycleTimeLimited(), "the fast cycle was time-capped too");
        assertTrue(backlogAfterFirst);
        assertTrue(second, "a backlog lifts the spacing of twice the fast duration");
        assertEquals(640, afterSlow - db.size());
        assertEquals(2, cycle.fastCycles());
    }

    @Test
    void fastCycleShouldKeepRedisSpacingOnceItFindsFewExpiredKeys() {
        Database db = new Database(0, 1);
        WorkClock clock = new WorkClock(3 * US);
        db.setExpiryListener((d, k) -> clock.work());
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, clock);
        for (int round = 0; round < 5; round++) {
            fill(db, "dead" + round, 100, NOW - 1);
            cycle.runSlow(NOW);
        }
        fill(db, "live", 1_000, NOW + 500);
        fill(db, "late", 5, NOW - 1);
        assertTrue(cycle.wantsFastCycle(), "stale=" + cycle.expiredStalePerc());

        boolean first = cycle.runFast(NOW);
        boolean backlog = cycle.fastBacklog();
        boolean tooSoon = cycle.runFast(NOW);
        clock.advance(2 * MS);
        assertTrue(cycle.wantsFastCycle(), "stale=" + cycle.expiredStalePerc());
        boolean later = cycle.runFast(NOW);

        assertTrue(first);
        assertFalse(backlog, "the cycle ended on the stale rule, not on time");
        assertFalse(tooSoon, "no backlog: at most one fast cycle per twice its duration");
        assertTrue(later);
        assertEquals(2, cycle.fastCycles());
    }

    @Test
    void fastCycleShouldStopAtTheSliceLength() {
        Database db = new Database(0, 1);
        fill(db, "dead", 100_000, NOW - 1);
        WorkClock clock = new WorkClock(500);
        db.setExpiryListener((d, k) -> clock.work());
        ExpireCycleConfig shortSlices = ExpireCycleConfig.defaults().withSliceMicros(250);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, shortSlices, clock);
        cycle.runSlow(NOW);
        int before = db.size();

        assertTrue(cycle.runFast(NOW));

        // A loop of 20 deletions at 0.5 us takes 10 us, so the clock is read every 6 loops (a
        // quarter of the 250 us slice); four 60 us groups, and a fifth would cross 250 us.
        assertEquals(6, ActiveExpireCycle.loopsPerReading(10 * US, 250 * US, 16));
        assertEquals(240 * US, cycle.lastCycleNanos());
        assertTrue(before - db.size() > 0);
        assertTrue(cycle.fastBacklog());
    }

    @Test
    void clockShouldBeReadEvery16LoopsUnlessLoopsAreSlowForTheSlice() {
        assertEquals(16, ActiveExpireCycle.loopsPerReading(0, MS, 16), "nothing measured yet");
        assertEquals(16, ActiveExpireCycle.loopsPerReading(2 * US, MS, 16), "cheap loops: Redis's 16");
        assertEquals(10, ActiveExpireCycle.loopsPerReading(25 * US, MS, 16), "storm loops: a quarter slice");
        assertEquals(1, ActiveExpireCycle.loopsPerReading(2 * MS, MS, 16), "at least one loop");
    }

    @Test
    void fastCycleShouldRunWhenTheStaleEstimateIsHighEvenWithoutATimeCap() {
        Database db = new Database(0, 1);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, new SteppingNanoClock(0));
        for (int round = 0; round < 3; round++) {
            fill(db, "dead" + round, 100, NOW - 1);
            cycle.runSlow(NOW);
        }
        assertTrue(cycle.expiredStalePerc() >= 10, "stale=" + cycle.expiredStalePerc());
        assertFalse(cycle.lastCycleTimeLimited());
        fill(db, "dead", 100, NOW - 1);

        boolean ran = cycle.runFast(NOW);

        assertTrue(ran);
        assertEquals(0, db.size());
    }

    @Test
    void fastCycleShouldNotRunWhileASlicedSlowCycleIsInProgress() {
        Database db = new Database(0, 1);
        fill(db, "dead", 10_000, NOW - 1);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, ExpireCycleConfig.defaults(),
                new SteppingNanoClock(100 * US));
        cycle.beginSlow();
        assertTrue(cycle.runSlice(NOW));

        boolean ran = cycle.runFast(NOW);

        assertFalse(ran);
        assertTrue(cycle.inProgress());
    }

    @Test
    void staleEstimateShouldBeARunningAverageWeighingEachCycleFivePercent() {
        Database db = new Database(0, 1);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, new SteppingNanoClock(0));
        fill(db, "dead", 1000, NOW - 1);
        cycle.runSlow(NOW);
        double afterAllExpired = cycle.expiredStalePerc();
        fill(db, "live", 100, NOW + 1000);
        cycle.runSlow(NOW);

        assertEquals(5.0, afterAllExpired, 1e-9);
        assertEquals(4.75, cycle.expiredStalePerc(), 1e-9);
    }

    @Test
    void beginSlowShouldCloseAnUnfinishedCycle() {
        Database db = new Database(0, 1);
        fill(db, "dead", 10_000, NOW - 1);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, ExpireCycleConfig.defaults(),
                new SteppingNanoClock(100 * US));
        cycle.beginSlow();
        cycle.runSlice(NOW);
        long expiredInFirstSlice = db.expiredKeys();

        cycle.beginSlow();

        assertEquals(expiredInFirstSlice, cycle.lastCycleExpired());
        assertTrue(cycle.inProgress());
        assertEquals(2, cycle.slowCycles());
    }

    @Test
    void statisticsShouldSumDatabasesAndResetOnRequest() {
        Database a = new Database(0, 1);
        Database b = new Database(1, 2);
        fill(a, "dead", 30, NOW - 1);
        fill(b, "dead", 10, NOW - 1);
        b.lookupRead(key("dead0"), NOW);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {a, b}, UNSLICED, new SteppingNanoClock(US));

        cycle.runSlow(NOW);

        assertEquals(40, cycle.expiredKeys());
        assertEquals(39, cycle.activeExpiredKeys());
        assertTrue(cycle.expireCycleCpuNanos() > 0);
        cycle.resetStats();
        assertEquals(0, cycle.activeExpiredKeys());
        assertEquals(0, cycle.expiredStalePerc());
        assertEquals(0, cycle.expireCycleCpuNanos());
    }

    @Test
    void cycleOverNoDatabasesShouldFinishAtOnce() {
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[0], UNSLICED, new SteppingNanoClock(US));

        cycle.runSlow(NOW);

        assertEquals(0, cycle.lastCycleLoops());
        assertFalse(cycle.inProgress());
    }

    @Test
    void setConfigShouldApplyToTheNextCycle() {
        Database db = new Database(0, 1);
        fill(db, "dead", 1000, NOW - 1);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, new SteppingNanoClock(0));

        cycle.setConfig(new ExpireCycleConfig(10, 50, 100, 25, 1000, 25_000, 16, 16));
        cycle.runSlow(NOW);

        assertEquals(50, cycle.lastCycleExpired());
        assertEquals(50, cycle.config().keysPerLoop());
    }

    /** A clock that advances only when the test says work was done. */
    static final class WorkClock implements dev.ebb.storage.NanoClock {
        private final long nanosPerUnit;
        private long now;

        WorkClock(long nanosPerUnit) {
            this.nanosPerUnit = nanosPerUnit;
        }

        void work() {
            now += nanosPerUnit;
        }

        void advance(long nanos) {
            now += nanos;
        }

        @Override
        public long nanoTime() {
            return now;
        }
    }

    static void fill(Database db, String prefix, int n, long expireAtMs) {
        for (int i = 0; i < n; i++) {
            byte[] k = key(prefix + i);
            db.setKey(k, k, 0);
            db.setExpire(k, expireAtMs);
        }
    }

    static void fillPersistent(Database db, String prefix, int n) {
        for (int i = 0; i < n; i++) {
            byte[] k = key(prefix + i);
            db.setKey(k, k, 0);
        }
    }

    private static int[] sizes(Database[] dbs) {
        int[] sizes = new int[dbs.length];
        for (int i = 0; i < dbs.length; i++) {
            sizes[i] = dbs[i].size();
        }
        return sizes;
    }

    static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
