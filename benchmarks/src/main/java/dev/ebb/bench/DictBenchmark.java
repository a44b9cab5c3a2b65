package dev.ebb.bench;

import dev.ebb.storage.Dict;
import dev.ebb.storage.KeyedHashes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToLongFunction;
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
 * The keyspace {@link Dict} against {@code HashMap<ByteArrayWrapper, byte[]>}, the obvious JDK alternative,
 * at 1 thousand, 1 million and 10 million keys of the form {@code "key:" + n} (5 to 11 bytes).
 *
 * <p>Every operation looks a key up with a fresh {@code byte[]} instance equal in content to a stored key
 * but not the same object, as a server does with the bytes it just decoded; the HashMap side wraps that
 * array on every call, as it would have to. Look-ups visit the keys in a random order, so the large sizes
 * measure cache misses as well as hashing. Each benchmark method builds only the structure it uses, with
 * neither pre-sized (both grow from their default capacity; at every size measured they end at the same
 * number of slots), stores the same shared value object and is moved to the old generation by a full GC
 * before measuring (see {@link #settle}).
 *
 * <p>Back-to-back operations let the CPU overlap one look-up's cache misses with the next one's work, which
 * favours the side with fewer instructions per operation (SipHash-1-2 runs three or four rounds on these
 * keys where {@code Arrays.hashCode} runs a short multiply-add loop): the {@code ...Chained} variants make each look-up wait for the
 * previous one, as the work between two commands of a server does, and so measure latency.
 *
 * <p>{@code Arrays.hashCode} costs fewer instructions than the Dict's seeded SipHash but gives a client who
 * chooses the keys the power to put them all in one bucket; the {@code sipHashMap...} variants hash the
 * HashMap's keys with the Dict's SipHash, so that they differ from the Dict only in the table.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar DictBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s
 * -prof dev.ebb.bench.CpuTimeProfiler}; on a shared machine compare the {@code cpu.worker} figures, which
 * leave out the time the benchmark thread waited for a core (see {@link CpuTimeProfiler}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
public class DictBenchmark {

    /** Probe keys cycled through: enough to defeat the caches, few enough to keep the heap small. */
    private static final int MAX_PROBES = 1 << 20;

    /** The keys and the probe copies shared by both sides. */
    @State(Scope.Benchmark)
    public static class Keys {
        @Param({"1000", "1000000", "10000000"})
        public int size;

        byte[] value;
        byte[][] probes;
        int next;

        @Setup
        public void createProbes() {
            value = new byte[32];
            final int probeCount = Math.min(size, MAX_PROBES);
            probes = new byte[probeCount][];
            final SplittableRandom random = new SplittableRandom(1);
            for (int i = 0; i < probeCount; i++) {
                probes[i] = key(random.nextInt(size));
            }
        }

        /** The next probe key, cycling through them in their random order. */
        byte[] nextProbe() {
            final byte[][] all = probes;
            final byte[] probe = all[next];
            next = next + 1 == all.length ? 0 : next + 1;
            return probe;
        }

        /**
         * Makes the choice of the next probe wait for a byte of the value just read (always 0), so that
         * consecutive look-ups cannot overlap their cache misses: the time per operation is then its latency.
         */
        byte[] chain(final byte[] value) {
            next += value[0];
            return value;
        }
    }

    /** A {@link Dict} holding {@code size} keys, resize finished. */
    @State(Scope.Benchmark)
    public static class DictState {
        Dict<byte[]> dict;

        @Setup
        public void fill(final Keys keys) {
            dict = new Dict<>(42);
            for (int i = 0; i < keys.size; i++) {
                dict.put(key(i), keys.value);
            }
            dict.rehashSteps(Integer.MAX_VALUE);
            settle();
        }
    }

    /** A {@code HashMap} holding {@code size} wrapped keys. */
    @State(Scope.Benchmark)
    public static class MapState {
        HashMap<ByteArrayWrapper, byte[]> map;

        @Setup
        public void fill(final Keys keys) {
            map = filledMap(keys, ByteArrayWrapper::new);
        }
    }

    /**
     * A {@code HashMap} holding {@code size} keys wrapped in {@link SipKey}, which hashes them with the Dict's
     * seeded SipHash: the same resistance to hash flooding, so the two differ only in their tables.
     */
    @State(Scope.Benchmark)
    public static class SipMapState {
        HashMap<SipKey, byte[]> map;

        @Setup
        public void fill(final Keys keys) {
            map = filledMap(keys, SipKey::new);
        }
    }

    @Benchmark
    public byte[] dictGetHit(final Keys keys, final DictState state) {
        return state.dict.get(keys.nextProbe());
    }

    @Benchmark
    public byte[] hashMapGetHit(final Keys keys, final MapState state) {
        return state.map.get(new ByteArrayWrapper(keys.nextProbe()));
    }

    /** As {@link #hashMapGetHit}, with the keys hashed by the Dict's SipHash (see {@link SipMapState}). */
    @Benchmark
    public byte[] sipHashMapGetHit(final Keys keys, final SipMapState state) {
        return state.map.get(new SipKey(keys.nextProbe()));
    }

    /** As {@link #dictGetHit}, one look-up at a time (see {@link Keys#chain}). */
    @Benchmark
    public byte[] dictGetHitChained(final Keys keys, final DictState state) {
        return keys.chain(state.dict.get(keys.nextProbe()));
    }

    /** As {@link #hashMapGetHit}, one look-up at a time (see {@link Keys#chain}). */
    @Benchmark
    public byte[] hashMapGetHitChained(final Keys keys, final MapState state) {
        return keys.chain(state.map.get(new ByteArrayWrapper(keys.nextProbe())));
    }

    @Benchmark
    public byte[] dictPutReplace(final Keys keys, final DictState state) {
        return state.dict.put(keys.nextProbe(), keys.value);
    }

    @Benchmark
    public byte[] hashMapPutReplace(final Keys keys, final MapState state) {
        return state.map.put(new ByteArrayWrapper(keys.nextProbe()), keys.value);
    }

    /** As {@link #hashMapPutReplace}, with the keys hashed by the Dict's SipHash (see {@link SipMapState}). */
    @Benchmark
    public byte[] sipHashMapPutReplace(final Keys keys, final SipMapState state) {
        return state.map.put(new SipKey(keys.nextProbe()), keys.value);
    }

    @Benchmark
    public byte[] dictRemoveThenPut(final Keys keys, final DictState state) {
        final byte[] key = keys.nextProbe();
        state.dict.remove(key);
        return state.dict.put(key, keys.value);
    }

    @Benchmark
    public byte[] hashMapRemoveThenPut(final Keys keys, final MapState state) {
        final byte[] key = keys.nextProbe();
        state.map.remove(new ByteArrayWrapper(key));
        return state.map.put(new ByteArrayWrapper(key), keys.value);
    }

    /** HashMap has no counterpart: it cannot pick a random key in O(1). */
    @Benchmark
    public byte[] dictRandomKey(final DictState state) {
        return state.dict.randomKey();
    }

    /**
     * A full collection after building, so that the structure measured lives in the old generation as a
     * long-running server's keyspace does. Without it the HashMap's entries, all allocated since the last
     * collection, stay young through the measurement and its writes skip G1's card-marking barrier, while
     * the Dict's slot arrays (humongous, so always old) pay it on every store.
     */
    static void settle() {
        System.gc();
    }

    /** A {@code HashMap} holding {@code size} keys, each wrapped by {@code wrap}, settled (see {@link #settle}). */
    static <K> HashMap<K, byte[]> filledMap(final Keys keys, final Function<byte[], K> wrap) {
        final HashMap<K, byte[]> map = new HashMap<>();
        for (int i = 0; i < keys.size; i++) {
            map.put(wrap.apply(key(i)), keys.value);
        }
        settle();
        return map;
    }

    static byte[] key(final int n) {
        return ("key:" + n).getBytes(StandardCharsets.US_ASCII);
    }

    /** A {@code byte[]} compared by content, the way a {@code HashMap}-based keyspace would have to wrap it. */
    static class ByteArrayWrapper {
        final byte[] bytes;

        ByteArrayWrapper(final byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public final boolean equals(final Object other) {
            return other != null && other.getClass() == getClass()
                && Arrays.equals(bytes, ((ByteArrayWrapper) other).bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    /** As {@link ByteArrayWrapper}, hashed with the SipHash of a {@code Dict} seeded 42. */
    static final class SipKey extends ByteArrayWrapper {
        private static final ToLongFunction<byte[]> HASH = KeyedHashes.sipHash(42);

        SipKey(final byte[] bytes) {
            super(bytes);
        }

        @Override
        public int hashCode() {
            final long hash = HASH.applyAsLong(bytes);
            return (int) (hash ^ (hash >>> 32));
        }
    }
}
