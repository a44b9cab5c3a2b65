package dev.ebb.bench.expiry;

import dev.ebb.storage.Database;
import dev.ebb.storage.expiry.ExpiryStrategyKind;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The write path of SET with and without a TTL, at the {@link Database} level, as the server's
 * {@code setGeneric} runs it: {@code setKey} for SET, {@code setWithExpire} for SET EX. The
 * database holds {@code keys} keys and every write overwrites one of them chosen at random, so
 * the key count and the tables stay the same size while the benchmark runs; with a TTL every key is volatile and gets a new expiry {@code NOW + 300 s + rand(60 s)}.
 *
 * <ul>
 *   <li>{@code setWithoutTtl}: no key has a TTL; {@code expires} is empty, so even its probe is
 *       skipped.</li>
 *   <li>{@code setWithTtl}: per {@code strategy}: {@code sampling} and {@code bucket-cursor}
 *       keep no index (the cost is the {@code expires} dict: its entry updated in place);
 *       {@code exact} also pushes onto its heap, O(log n), and rebuilds it from {@code expires}
 *       when stale entries outnumber live ones.</li>
 *   <li>{@code setWithTtlRemoveReinsert}: the same end state through {@code setKey} +
 *       {@code setExpire}, the server's path until 2026-11-22: the {@code expires} entry is
 *       removed (a backward-shift deletion) and inserted again.</li>
 *   <li>{@code setWithTtlTreeMap} / {@code setWithTtlTimerWheel}: the {@code sampling} database
 *       plus an exact index kept by the caller ({@link TreeMapExpiryIndex},
 *       {@link TimerWheelExpiryIndex}).</li>
 * </ul>
 *
 * <p>Run (allocation per op with {@code -prof gc}):
 * {@code java -jar benchmarks/target/benchmarks.jar ExpiryWrite -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc};
 * 10 million keys need {@code -jvmArgs -Xmx8g}, which replaces the 6 GB the fork is given below.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms6g", "-Xmx6g"})
public class ExpiryWriteBenchmarks {
    /** Expiry times cycled through; a power of two. */
    private static final int WHENS = 1 << 16;

    /** Key count, probe keys and new expiry times shared by every variant. */
    @State(Scope.Benchmark)
    public static class Writes {
        @Param({"10000", "1000000", "10000000"})
        public int keys;

        byte[][] probes;
        long[] whens;
        private int nextProbe;
        private int nextWhen;

        @Setup
        public void createProbes() {
            probes = ExpiryKeys.probes(keys, 1, random -> random.nextInt(keys));
            whens = new long[WHENS];
            SplittableRandom random = new SplittableRandom(2);
            for (int i = 0; i < WHENS; i++) {
                whens[i] = ExpiryKeys.liveWhen(random);
            }
        }

        byte[] nextProbe() {
            byte[] probe = probes[nextProbe];
            nextProbe = nextProbe + 1 == probes.length ? 0 : nextProbe + 1;
            return probe;
        }

        long nextWhen() {
            long when = whens[nextWhen];
            nextWhen = (nextWhen + 1) & (WHENS - 1);
            return when;
        }
    }

    /** A database of {@code keys} keys without TTL. */
    @State(Scope.Benchmark)
    public static class PlainDb {
        Database db;

        @Setup
        public void fill(Writes writes) {
            db = new Database(0, 42, ExpiryStrategyKind.SAMPLING);
            for (int i = 0; i < writes.keys; i++) {
                db.setKey(ExpiryKeys.key(i), ExpiryKeys.VALUE, ExpiryKeys.NOW_MS);
            }
            ExpiryKeys.finishRehash(db);
        }
    }

    /** A database of {@code keys} volatile keys, with the engine's {@code strategy}. */
    @State(Scope.Benchmark)
    public static class VolatileDb {
        @Param({"sampling", "bucket-cursor", "exact"})
        public String strategy;

        Database db;

        @Setup
        public void fill(Writes writes) {
            db = volatileDb(ExpiryStrategyKind.fromConfigName(strategy), writes.keys, null, null);
        }
    }

    /** A {@code sampling} database of volatile keys plus a {@link TreeMapExpiryIndex}. */
    @State(Scope.Benchmark)
    public static class TreeMapDb {
        Database db;
        TreeMapExpiryIndex index;

        @Setup
        public void fill(Writes writes) {
            index = new TreeMapExpiryIndex();
            db = volatileDb(ExpiryStrategyKind.SAMPLING, writes.keys, index, null);
        }
    }

    /** A {@code sampling} database of volatile keys plus a {@link TimerWheelExpiryIndex}. */
    @State(Scope.Benchmark)
    public static class TimerWheelDb {
        /** 4096 ticks of 100 ms (one cron period at hz 10): the wheel turns in about 7 minutes. */
        static final int SLOTS = 4096;
        static final long RESOLUTION_MS = 100;

        Database db;
        TimerWheelExpiryIndex index;

        @Setup
        public void fill(Writes writes) {
            index = new TimerWheelExpiryIndex(SLOTS, RESOLUTION_MS, ExpiryKeys.NOW_MS);
            db = volatileDb(ExpiryStrategyKind.SAMPLING, writes.keys, null, index);
        }
    }

    static Database volatileDb(ExpiryStrategyKind kind, int keys, TreeMapExpiryIndex treeMap,
            TimerWheelExpiryIndex wheel) {
        Database db = new Database(0, 42, kind);
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < keys; i++) {
            byte[] key = ExpiryKeys.key(i);
            long when = ExpiryKeys.liveWhen(random);
            db.setKey(key, ExpiryKeys.VALUE, ExpiryKeys.NOW_MS);
            db.setExpire(key, when);
            if (treeMap != null) {
                treeMap.add(key, when);
            }
            if (wheel != null) {
                wheel.add(db, key, when);
            }
        }
        ExpiryKeys.finishRehash(db);
        return db;
    }

    @Benchmark
    public void setWithoutTtl(Writes writes, PlainDb state) {
        state.db.setKey(writes.nextProbe(), ExpiryKeys.VALUE, ExpiryKeys.NOW_MS);
    }

    @Benchmark
    public void setWithTtl(Writes writes, VolatileDb state) {
        state.db.setWithExpire(writes.nextProbe(), ExpiryKeys.VALUE, ExpiryKeys.NOW_MS,
                writes.nextWhen());
    }

    /**
     * The same end state as {@link #setWithTtl} through {@code setKey} + {@code setExpire}: the
     * {@code expires} entry of an existing key is removed by {@code setKey} and inserted again
     * by {@code setExpire}. Kept to show what that costs.
     */
    @Benchmark
    public void setWithTtlRemoveReinsert(Writes writes, VolatileDb state) {
        Database db = state.db;
        byte[] key = writes.nextProbe();
        db.setKey(key, ExpiryKeys.VALUE, ExpiryKeys.NOW_MS);
        db.setExpire(key, writes.nextWhen());
    }

    @Benchmark
    public void setWithTtlTreeMap(Writes writes, TreeMapDb state) {
        Database db = state.db;
        byte[] key = writes.nextProbe();
        long when = writes.nextWhen();
        long old = db.getExpire(key);
        db.setWithExpire(key, ExpiryKeys.VALUE, ExpiryKeys.NOW_MS, when);
        if (old != Database.NO_EXPIRE) {
            state.index.remove(key, old);
        }
        state.index.add(key, when);
    }

    @Benchmark
    public void setWithTtlTimerWheel(Writes writes, TimerWheelDb state) {
        Database db = state.db;
        byte[] key = writes.nextProbe();
        long when = writes.nextWhen();
        db.setWithExpire(key, ExpiryKeys.VALUE, ExpiryKeys.NOW_MS, when);
        state.index.add(db, key, when);
    }
}
