package dev.ebb.bench;

import dev.ebb.storage.Dict;
import dev.ebb.storage.LongDict;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.function.IntFunction;

/**
 * Heap bytes per key of a 1-million-key keyspace: 8-byte keys, 32-byte {@code byte[]} values, in a
 * {@link Dict}, then the same in a {@code HashMap<ByteArrayWrapper, byte[]>}, then a {@link LongDict} over
 * the same key instances (an {@code expires} table in which every key is volatile).
 *
 * <p>Method: used heap after several {@code System.gc()} calls, before building and after (with the
 * structure still reachable), divided by the key count. Each key {@code byte[8]} costs 24 bytes and each
 * value {@code byte[32]} 48 bytes on a 64-bit JVM with compressed references, so the whole-keyspace figure
 * minus 72 is the table's own cost.
 *
 * <p>Run: {@code java -Xmx2g -cp benchmarks/target/benchmarks.jar dev.ebb.bench.DictMemory [keys]}.
 */
public final class DictMemory {

    private static final int GC_ROUNDS = 5;
    private static final int KEY_AND_VALUE_BYTES = 24 + 48;

    private DictMemory() {
    }

    public static void main(final String[] args) throws InterruptedException {
        final int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        System.out.printf("keys=%,d, key byte[8] + value byte[32] = %d B/key%n", keys, KEY_AND_VALUE_BYTES);

        final Dict<byte[]> dict = measure("Dict<byte[]>", keys, count -> {
            final Dict<byte[]> built = new Dict<>(1);
            for (int i = 0; i < count; i++) {
                built.put(key(i), new byte[32]);
            }
            built.rehashSteps(Integer.MAX_VALUE);
            return built;
        });
        System.out.printf("  Dict.memoryBytes() estimate: %.1f B/key, capacity %,d%n",
            dict.memoryBytes() / (double) keys, dict.capacity());

        measure("HashMap<ByteArrayWrapper, byte[]>", keys, count -> {
            final HashMap<DictBenchmark.ByteArrayWrapper, byte[]> built = new HashMap<>();
            for (int i = 0; i < count; i++) {
                built.put(new DictBenchmark.ByteArrayWrapper(key(i)), new byte[32]);
            }
            return built;
        });

        final LongDict expires = measure("LongDict over the same keys (table only)", keys, count -> {
            final LongDict built = new LongDict(1);
            dict.forEach((key, value) -> built.put(key, 0L));
            built.rehashSteps(Integer.MAX_VALUE);
            return built;
        });
        System.out.printf("  LongDict.memoryBytes() estimate: %.1f B/key%n", expires.memoryBytes() / (double) keys);
    }

    /** Builds with {@code builder} and prints the heap growth per key; returns the structure. */
    private static <T> T measure(final String name, final int keys, final IntFunction<T> builder)
            throws InterruptedException {
        final long before = settledHeapUsed();
        final T built = builder.apply(keys);
        final long after = settledHeapUsed();
        System.out.printf("%-42s %6.1f B/key (%,d bytes)%n", name, (after - before) / (double) keys, after - before);
        return built;
    }

    private static long settledHeapUsed() throws InterruptedException {
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < GC_ROUNDS; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static byte[] key(final int n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }
}
