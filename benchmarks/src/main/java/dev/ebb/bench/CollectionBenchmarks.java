package dev.ebb.bench;

import dev.ebb.storage.types.HashValue;
import dev.ebb.storage.types.SetValue;
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
 * The per-element cost of the large ({@code hashtable}) hash and set encodings at the
 * {@link HashValue}/{@link SetValue} level: a hash of {@code size} fields {@code field:NNNNNNN} with
 * 8-byte values and a set of {@code size} members {@code member:NNNNNNN}, probed with fresh arrays
 * (as decoded from the wire) of random existing elements.
 *
 * <ul>
 *   <li>{@code hget}, {@code sismember}: a hit.</li>
 *   <li>{@code hsetOverwrite}: HSET of an existing field with a new value.</li>
 *   <li>{@code hdelHset}, {@code sremSadd}: remove an element and add it back (HDEL/SREM and
 *       HSET/SADD of a new element, the size unchanged).</li>
 * </ul>
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar CollectionBenchmarks -f 1 -wi 3 -i 5 -w 1s -r 1s}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
public class CollectionBenchmarks {
    private static final long MAX_ENTRIES = 128;
    private static final long MAX_VALUE = 64;
    private static final int PROBES = 1 << 16;

    /** One hash and one set of {@code size} elements, and the probes cycled through. */
    @State(Scope.Benchmark)
    public static class Collections {
        @Param({"10000", "1000000"})
        public int size;

        HashValue hash;
        SetValue set;
        byte[][] fields;
        byte[][] members;
        byte[][] values;
        private int next;

        @Setup
        public void fill() {
            hash = new HashValue();
            set = new SetValue();
            for (int i = 0; i < size; i++) {
                hash.put(field(i), value(i), MAX_ENTRIES, MAX_VALUE);
                set.add(member(i), 512, 128, 64);
            }
            SplittableRandom random = new SplittableRandom(1);
            fields = new byte[PROBES][];
            members = new byte[PROBES][];
            values = new byte[PROBES][];
            for (int i = 0; i < PROBES; i++) {
                int n = random.nextInt(size);
                fields[i] = field(n);
                members[i] = member(n);
                values[i] = value(random.nextInt());
            }
        }

        int nextProbe() {
            return next++ & (PROBES - 1);
        }

        private static byte[] field(int i) {
            return String.format("field:%07d", i).getBytes(StandardCharsets.US_ASCII);
        }

        private static byte[] member(int i) {
            return String.format("member:%07d", i).getBytes(StandardCharsets.US_ASCII);
        }

        private static byte[] value(int i) {
            return String.format("%08x", i).getBytes(StandardCharsets.US_ASCII);
        }
    }

    @Benchmark
    public byte[] hget(Collections c) {
        return c.hash.get(c.fields[c.nextProbe()]);
    }

    @Benchmark
    public boolean hsetOverwrite(Collections c) {
        int i = c.nextProbe();
        return c.hash.put(c.fields[i], c.values[i], MAX_ENTRIES, MAX_VALUE);
    }

    @Benchmark
    public boolean hdelHset(Collections c) {
        int i = c.nextProbe();
        c.hash.remove(c.fields[i]);
        return c.hash.put(c.fields[i], c.values[i], MAX_ENTRIES, MAX_VALUE);
    }

    @Benchmark
    public boolean sismember(Collections c) {
        return c.set.contains(c.members[c.nextProbe()]);
    }

    @Benchmark
    public boolean sremSadd(Collections c) {
        byte[] member = c.members[c.nextProbe()];
        c.set.remove(member);
        return c.set.add(member, 512, 128, 64);
    }
}
