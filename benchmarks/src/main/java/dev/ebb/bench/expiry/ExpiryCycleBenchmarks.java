package dev.ebb.bench.expiry;

import dev.ebb.storage.Database;
import dev.ebb.storage.NanoClock;
import dev.ebb.storage.expiry.ActiveExpireCycle;
import dev.ebb.storage.expiry.ExpiryStrategyKind;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One slow active-expire cycle ({@link ActiveExpireCycle#runSlow}: Redis's behaviour, every slice
 * back to back, timed with the real clock) on one database of {@code keys} volatile keys of which
 * {@code expiredPercent} have expired, per expiry {@code strategy} and cycle {@code preset}
 * ({@link CyclePreset}: {@code default}, {@code effort10}, {@code hz100}, {@code keys100},
 * {@code stale1}, {@code cpu5}).
 *
 * <p>A cycle deletes keys, so after each one (outside the timing, JMH's {@code Level.Invocation})
 * the keys it deleted are put back with their old, passed expiry times and any resize is
 * finished: every cycle starts from the same expired fraction. The cycle's own state (stale
 * estimate, "last cycle hit its time limit") carries over as in a server that meets the same
 * backlog tick after tick. Besides the time per cycle, the auxiliary counters report per cycle
 * (averaged over the iteration): {@code keysSampled}, {@code keysReclaimed} and
 * {@code timeCapPercent} (share of cycles stopped by the CPU budget). Cycles of a few
 * microseconds or less carry JMH's per-invocation timing overhead (tens of ns). JMH prints these per
 * iteration; its summary table shows their <em>sum</em> over the measurement iterations (marked
 * {@code [Sum]}), so divide it by {@code -i}, or read the JSON's {@code rawData}.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar ExpiryCycle -f 1 -wi 2 -i 3 -w 1s -r 1s};
 * other presets with {@code -p preset=effort10,hz100,keys100,stale1,cpu5}; 10 million keys with
 * {@code -p keys=10000000 -jvmArgs -Xmx8g}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms6g", "-Xmx6g"})
public class ExpiryCycleBenchmarks {

    /** The database, its cycle, and what the last cycle deleted. */
    @State(Scope.Thread)
    public static class CycleState {
        @Param({"10000", "1000000"})
        public int keys;

        @Param({"0", "10", "25", "50", "100"})
        public int expiredPercent;

        @Param({"sampling", "bucket-cursor", "exact"})
        public String strategy;

        @Param({"default"})
        public String preset;

        Database db;
        ActiveExpireCycle cycle;
        private long[] whenOf;
        private byte[][] reclaimed;
        private int reclaimedCount;

        @Setup(Level.Trial)
        public void fill() {
            db = new Database(0, 42, ExpiryStrategyKind.fromConfigName(strategy));
            whenOf = new long[keys];
            int expiredKeys = (int) ((long) keys * expiredPercent / 100);
            reclaimed = new byte[Math.max(1, expiredKeys)][];
            SplittableRandom random = new SplittableRandom(4);
            for (int i = 0; i < keys; i++) {
                byte[] key = ExpiryKeys.key(i);
                whenOf[i] = i < expiredKeys ? ExpiryKeys.expiredWhen(random) : ExpiryKeys.liveWhen(random);
                db.setKey(key, ExpiryKeys.VALUE, ExpiryKeys.NOW_MS);
                db.setExpire(key, whenOf[i]);
            }
            ExpiryKeys.finishRehash(db);
            db.setExpiryListener((database, key) -> reclaimed[reclaimedCount++] = key);
            cycle = new ActiveExpireCycle(new Database[] {db}, CyclePreset.of(preset).config(), NanoClock.SYSTEM);
        }

        /** Puts back the keys the last cycle deleted, with their passed expiry times. */
        @TearDown(Level.Invocation)
        public void restore() {
            for (int i = 0; i < reclaimedCount; i++) {
                byte[] key = reclaimed[i];
                reclaimed[i] = null;
                db.add(key, ExpiryKeys.VALUE, ExpiryKeys.NOW_MS);
                db.setExpire(key, whenOf[ExpiryKeys.idOf(key)]);
            }
            reclaimedCount = 0;
            ExpiryKeys.finishRehash(db);
        }
    }

    /** Per-cycle figures, averaged over the cycles of an iteration. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class CycleCounters {
        public double keysSampled;
        public double keysReclaimed;
        public double timeCapPercent;

        private long cycles;
        private long sampledSum;
        private long reclaimedSum;
        private long timeCapped;

        @Setup(Level.Iteration)
        public void reset() {
            cycles = 0;
            sampledSum = 0;
            reclaimedSum = 0;
            timeCapped = 0;
        }

        void record(ActiveExpireCycle cycle) {
            cycles++;
            sampledSum += cycle.lastCycleSampled();
            reclaimedSum += cycle.lastCycleExpired();
            if (cycle.lastCycleTimeLimited()) {
                timeCapped++;
            }
            keysSampled = (double) sampledSum / cycles;
            keysReclaimed = (double) reclaimedSum / cycles;
            timeCapPercent = 100.0 * timeCapped / cycles;
        }
    }

    @Benchmark
    public long slowCycle(CycleState state, CycleCounters counters) {
        state.cycle.runSlow(ExpiryKeys.NOW_MS);
        counters.record(state.cycle);
        return state.cycle.lastCycleSampled();
    }
}
