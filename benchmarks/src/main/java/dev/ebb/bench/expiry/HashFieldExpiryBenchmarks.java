package dev.ebb.bench.expiry;

import dev.ebb.storage.types.HashValue;
import java.nio.charset.StandardCharsets;
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
 * The per-field write cost of HSET against HSETEX (a field written with a TTL), at the
 * {@link HashValue} level, in both encodings: a hash of {@code fields} fields ({@code 100}: the
 * compact {@code listpack}/{@code listpackex} layout, below the 128-entry threshold; {@code 10000}
 * and {@code 1000000}: {@code hashtable}) where every write overwrites a random existing field
 * with a fresh field array (as decoded from the wire) and a 32-byte value.
 *
 * <ul>
 *   <li>{@code hset}: {@link HashValue#put}, no field has a TTL.</li>
 *   <li>{@code hsetex}: {@link HashValue#putWithExpiry}, every field volatile, each write a new
 *       expiry {@code NOW + 300 s + rand(60 s)}: compact, the 8 bytes written inline; hashtable,
 *       the TTL dict updated in place and a heap push (O(log n); the entry the write replaces
 *       becomes stale and is dropped when it surfaces or by a rebuild once stale entries outnumber
 *       live ones).</li>
 * </ul>
 *
 * <p>Memory per volatile field is measured by {@link HashFieldMemory} (deterministic, no JMH).
 * Run: {@code java -jar benchmarks/target/benchmarks.jar HashFieldExpiry -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
public class HashFieldExpiryBenchmarks {
    private static final long NOW = 1_800_000_000_000L;
    private static final long MAX_ENTRIES = 128;
    private static final long MAX_VALUE = 64;
    private static final int PROBES = 1 << 16;

    /** One hash, its probe fields and the expiry times cycled through. */
    @State(Scope.Benchmark)
    public static class Writes {
        @Param({"100", "10000", "1000000"})
        public int fields;

        HashValue plain;
        HashValue volatileHash;
        byte[][] probes;
        long[] whens;
        final byte[] value = new byte[32];
        private int next;

        @Setup
        public void fill() {
            SplittableRandom random = new SplittableRandom(1);
            plain = new HashValue();
            volatileHash = new HashValue();
            for (int i = 0; i < fields; i++) {
                plain.put(field(i), value, MAX_ENTRIES, MAX_VALUE);
                volatileHash.putWithExpiry(field(i), value, when(random), MAX_ENTRIES, MAX_VALUE);
            }
            probes = new byte[PROBES][];
            whens = new long[PROBES];
            for (int i = 0; i < PROBES; i++) {
                probes[i] = field(random.nextInt(fields));
                whens[i] = when(random);
            }
        }

        private static long when(SplittableRandom random) {
            return NOW + 300_000 + random.nextInt(60_000);
        }

        int next() {
            int i = next;
            next = (next + 1) & (PROBES - 1);
            return i;
        }
    }

    static byte[] field(int i) {
        return ("field:" + i).getBytes(StandardCharsets.US_ASCII);
    }

    @Benchmark
    public boolean hset(Writes w) {
        int i = w.next();
        return w.plain.put(w.probes[i].clone(), w.value, MAX_ENTRIES, MAX_VALUE);
    }

    @Benchmark
    public boolean hsetex(Writes w) {
        int i = w.next();
        return w.volatileHash.putWithExpiry(w.probes[i].clone(), w.value, w.whens[i], MAX_ENTRIES, MAX_VALUE);
    }
}
