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
 * What lazy expiry adds to a read ({@link Database#lookupRead}) of one of {@code keys} keys,
 * looked up with fresh key arrays in random order:
 * <ul>
 *   <li>{@code lookupWithoutTtl}: no key has a TTL, so the {@code expires} probe is skipped
 *       ({@code expires} is empty);</li>
 *   <li>{@code lookupNoTtlKeyAmongVolatile}: half the keys have a TTL and the key read is one of
 *       the others: a missed probe of {@code expires} first;</li>
 *   <li>{@code lookupLiveTtlKey}: the key has a TTL that has not passed: a hit in
 *       {@code expires}, then the main dict;</li>
 *   <li>{@code lookupExpiredKeyAndRestore}: every key has expired, so the read deletes it
 *       (lazy expiry: both dicts, the listener, the stats); to keep the database the same the
 *       operation then puts the key back ({@code add} + {@code setExpire} with the passed
 *       time); {@code deleteAndRestore} is that restore with a plain {@code delete} in place of
 *       the read, so the difference is what the lazy expiry check costs over a delete.</li>
 * </ul>
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar ExpiryLookup -f 1 -wi 2 -i 3 -w 1s -r 1s};
 * 10 million keys with {@code -p keys=10000000 -jvmArgs -Xmx8g}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms6g", "-Xmx6g"})
public class ExpiryLookupBenchmarks {

    /** Key count and probes: even ids (the volatile ones in {@link HalfVolatileDb}) and odd ids. */
    @State(Scope.Benchmark)
    public static class Lookups {
        @Param({"10000", "1000000"})
        public int keys;

        byte[][] evenProbes;
        byte[][] oddProbes;
        private int nextEven;
        private int nextOdd;

        @Setup
        public void createProbes() {
            int half = keys / 2;
            evenProbes = ExpiryKeys.probes(keys, 5, random -> 2 * random.nextInt(half));
            oddProbes = ExpiryKeys.probes(keys, 6, random -> 2 * random.nextInt(half) + 1);
        }

        byte[] nextEven() {
            byte[] probe = evenProbes[nextEven];
            nextEven = nextEven + 1 == evenProbes.length ? 0 : nextEven + 1;
            return probe;
        }

        byte[] nextOdd() {
            byte[] probe = oddProbes[nextOdd];
            nextOdd = nextOdd + 1 == oddProbes.length ? 0 : nextOdd + 1;
            return probe;
        }
    }

    /** {@code keys} keys, none with a TTL. */
    @State(Scope.Benchmark)
    public static class PlainDb {
        Database db;

        @Setup
        public void fill(Lookups lookups) {
            db = filled(lookups.keys, id -> Database.NO_EXPIRE, null);
        }
    }

    /** {@code keys} keys; the even ones expire in 5 to 6 minutes. */
    @State(Scope.Benchmark)
    public static class HalfVolatileDb {
        Database db;

        @Setup
        public void fill(Lookups lookups) {
            SplittableRandom random = new SplittableRandom(7);
            db = filled(lookups.keys, id -> id % 2 == 0 ? ExpiryKeys.liveWhen(random) : Database.NO_EXPIRE, null);
        }
    }

    /** {@code keys} keys, all expired 1 to 61 seconds ago. */
    @State(Scope.Benchmark)
    public static class ExpiredDb {
        Database db;
        long[] whenOf;

        @Setup
        public void fill(Lookups lookups) {
            SplittableRandom random = new SplittableRandom(8);
            whenOf = new long[lookups.keys];
            db = filled(lookups.keys, id -> ExpiryKeys.expiredWhen(random), whenOf);
        }

        void restore(byte[] key) {
            db.add(key, ExpiryKeys.VALUE, ExpiryKeys.NOW_MS);
            db.setExpire(key, whenOf[ExpiryKeys.idOf(key)]);
        }
    }

    /** A database of {@code keys} keys whose expiry times {@code whens} gives ({@link Database#NO_EXPIRE} for none). */
    static Database filled(int keys, WhenOf whens, long[] record) {
        Database db = new Database(0, 42, ExpiryStrategyKind.SAMPLING);
        for (int i = 0; i < keys; i++) {
            byte[] key = ExpiryKeys.key(i);
            db.setKey(key, ExpiryKeys.VALUE, ExpiryKeys.NOW_MS);
            long when = whens.when(i);
            if (when != Database.NO_EXPIRE) {
                db.setExpire(key, when);
            }
            if (record != null) {
                record[i] = when;
            }
        }
        ExpiryKeys.finishRehash(db);
        return db;
    }

    @Benchmark
    public Object lookupWithoutTtl(Lookups lookups, PlainDb state) {
        return state.db.lookupRead(lookups.nextEven(), ExpiryKeys.NOW_MS);
    }

    @Benchmark
    public Object lookupNoTtlKeyAmongVolatile(Lookups lookups, HalfVolatileDb state) {
        return state.db.lookupRead(lookups.nextOdd(), ExpiryKeys.NOW_MS);
    }

    @Benchmark
    public Object lookupLiveTtlKey(Lookups lookups, HalfVolatileDb state) {
        return state.db.lookupRead(lookups.nextEven(), ExpiryKeys.NOW_MS);
    }

    @Benchmark
    public Object lookupExpiredKeyAndRestore(Lookups lookups, ExpiredDb state) {
        byte[] key = lookups.nextEven();
        Object value = state.db.lookupRead(key, ExpiryKeys.NOW_MS);
        state.restore(key);
        return value;
    }

    @Benchmark
    public Object deleteAndRestore(Lookups lookups, ExpiredDb state) {
        byte[] key = lookups.nextEven();
        Object value = state.db.delete(key);
        state.restore(key);
        return value;
    }

    /** Expiry time of key {@code id}. */
    @FunctionalInterface
    interface WhenOf {
        long when(int id);
    }
}
