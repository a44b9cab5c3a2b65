package dev.ebb.bench;

import dev.ebb.storage.Dict;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The longest stall a single {@link Dict#put} causes while a dict grows from empty to 10 million keys
 * (keys {@code "key:" + n}, one shared 32-byte value), timed with {@code System.nanoTime()} around each put.
 *
 * <p>Prints the longest put, the 99.9th and 99.99th percentiles, and the slowest puts with what they did:
 * whether the put started a resize (which allocates the new, zeroed slot arrays, the one step whose cost
 * grows with the table, unless they were allocated ahead in the background) and whether the JVM's collection count moved during it, so a GC pause can be told from the
 * dict's own work. Keys are built before timing so that only the put is measured. Each put's CPU time on
 * the calling thread is read too (one {@code getCurrentThreadCpuTime} before and after, about a microsecond
 * each, outside the wall-clock figure): on a shared machine a put whose wall time is long but whose CPU time is
 * short was descheduled, not working. Page faults on fresh heap count as the thread's CPU time.
 *
 * <p>Run: {@code java -Xms6g -Xmx6g -cp benchmarks/target/benchmarks.jar dev.ebb.bench.DictResizePause [keys]}.
 */
public final class DictResizePause {

    private static final int SLOWEST_SHOWN = 12;
    private static final long SLOW_NANOS = 1_000_000;

    private DictResizePause() {
    }

    public static void main(final String[] args) {
        final int count = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
        final byte[][] keys = new byte[count][];
        for (int i = 0; i < count; i++) {
            keys[i] = ("key:" + i).getBytes(StandardCharsets.US_ASCII);
        }
        final byte[] value = new byte[32];
        final long[] nanos = new long[count];
        final long[] cpuNanos = new long[count];
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final boolean[] startedResize = new boolean[count];
        final boolean[] duringGc = new boolean[count];
        final GarbageCollectorMXBean[] collectors =
            ManagementFactory.getGarbageCollectorMXBeans().toArray(new GarbageCollectorMXBean[0]);
        final Dict<byte[]> dict = new Dict<>(7);
        System.out.printf("JVM %s, collectors %s, arguments %s%n", Runtime.version(), collectorNames(collectors),
            ManagementFactory.getRuntimeMXBean().getInputArguments());

        for (int i = 0; i < count; i++) {
            final boolean wasRehashing = dict.isRehashing();
            final int capacityBefore = dict.capacity();
            final long collectionsBefore = collections(collectors);
            final long cpuStart = threads.getCurrentThreadCpuTime();
            final long start = System.nanoTime();
            dict.put(keys[i], value);
            final long elapsed = System.nanoTime() - start;
            cpuNanos[i] = threads.getCurrentThreadCpuTime() - cpuStart;
            nanos[i] = elapsed;
            startedResize[i] = !wasRehashing && dict.capacity() != capacityBefore;
            duringGc[i] = elapsed > SLOW_NANOS && collections(collectors) != collectionsBefore;
        }

        final long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("puts=%,d  final capacity=%,d  memoryBytes=%,d%n",
            count, dict.capacity(), dict.memoryBytes());
        System.out.printf("median %.2f us, p99 %.2f us, p99.9 %.2f us, p99.99 %.2f us, max %.3f ms%n",
            sorted[count / 2] / 1e3, percentile(sorted, 0.99) / 1e3, percentile(sorted, 0.999) / 1e3,
            percentile(sorted, 0.9999) / 1e3, sorted[count - 1] / 1e6);

        long longestOwnWork = 0;
        long longestCpu = 0;
        long longestCpuOutsideGc = 0;
        int slowPuts = 0;
        for (int i = 0; i < count; i++) {
            if (!startedResize[i] && !duringGc[i]) {
                longestOwnWork = Math.max(longestOwnWork, nanos[i]);
            }
            longestCpu = Math.max(longestCpu, cpuNanos[i]);
            if (!duringGc[i]) {
                longestCpuOutsideGc = Math.max(longestCpuOutsideGc, cpuNanos[i]);
            }
            if (nanos[i] > SLOW_NANOS) {
                slowPuts++;
            }
        }
        System.out.printf("puts over %.1f ms: %d; longest put that neither started a resize nor met a GC: %.3f ms%n",
            SLOW_NANOS / 1e6, slowPuts, longestOwnWork / 1e6);
        System.out.printf("longest put in thread CPU time: %.3f ms (%.3f ms among puts no GC ran during)%n",
            longestCpu / 1e6, longestCpuOutsideGc / 1e6);
        System.out.println("puts that started a resize:");
        for (int i = 0; i < count; i++) {
            if (startedResize[i]) {
                printPuts(new int[] {i}, nanos, cpuNanos, startedResize, duringGc);
            }
        }
        System.out.println("slowest puts:");
        printPuts(slowest(nanos, SLOWEST_SHOWN), nanos, cpuNanos, startedResize, duringGc);
        System.out.println("puts with the most thread CPU time:");
        printPuts(slowest(cpuNanos, SLOWEST_SHOWN), nanos, cpuNanos, startedResize, duringGc);
    }

    private static void printPuts(final int[] which, final long[] nanos, final long[] cpuNanos,
                                  final boolean[] startedResize, final boolean[] duringGc) {
        for (final int i : which) {
            System.out.printf("  put #%,d: %.3f ms (CPU %.3f ms)%s%s%n", i, nanos[i] / 1e6, cpuNanos[i] / 1e6,
                startedResize[i] ? ", started a resize" : "", duringGc[i] ? ", a GC ran during it" : "");
        }
    }

    /** Indexes of the {@code k} largest values, largest first. */
    private static int[] slowest(final long[] values, final int k) {
        final int[] top = new int[k];
        Arrays.fill(top, -1);
        for (int i = 0; i < values.length; i++) {
            int rank = k;
            while (rank > 0 && (top[rank - 1] < 0 || values[top[rank - 1]] < values[i])) {
                rank--;
            }
            if (rank < k) {
                System.arraycopy(top, rank, top, rank + 1, k - rank - 1);
                top[rank] = i;
            }
        }
        return top;
    }

    private static long percentile(final long[] sorted, final double fraction) {
        return sorted[(int) Math.min(sorted.length - 1, Math.round(fraction * sorted.length))];
    }

    private static String collectorNames(final GarbageCollectorMXBean[] collectors) {
        final StringBuilder names = new StringBuilder();
        for (final GarbageCollectorMXBean collector : collectors) {
            names.append(names.length() == 0 ? "" : ", ").append(collector.getName());
        }
        return names.toString();
    }

    private static long collections(final GarbageCollectorMXBean[] collectors) {
        long total = 0;
        for (final GarbageCollectorMXBean collector : collectors) {
            total += collector.getCollectionCount();
        }
        return total;
    }
}
