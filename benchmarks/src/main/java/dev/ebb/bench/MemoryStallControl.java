package dev.ebb.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.SplittableRandom;

/**
 * The control for {@link DictResizePause}: 10 million random {@code int} stores into an array of a given size,
 * each timed as that benchmark times a put ({@code nanoTime}, and the thread's CPU time around it). A store
 * does no work that could take a millisecond, so any store that does shows what the machine itself adds to
 * a program touching that much memory; compare its longest stores with the longest puts.
 *
 * <p>Run: {@code java -Xms6g -Xmx6g -cp benchmarks/target/benchmarks.jar dev.ebb.bench.MemoryStallControl
 * [megabytes, default 768]}.
 */
public final class MemoryStallControl {

    private static final int STORES = 10_000_000;
    private static final long SLOW_NANOS = 1_000_000;

    private MemoryStallControl() {
    }

    public static void main(final String[] args) {
        final int megabytes = args.length > 0 ? Integer.parseInt(args[0]) : 768;
        if (megabytes < 1 || megabytes > 8191) {
            throw new IllegalArgumentException("megabytes must be 1 to 8191: megabytes=" + megabytes);
        }
        final int[] memory = new int[megabytes << 18];
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final SplittableRandom random = new SplittableRandom(1);
        long longest = 0;
        long longestCpu = 0;
        int slow = 0;
        for (int i = 0; i < STORES; i++) {
            final int index = random.nextInt(memory.length);
            final long cpuStart = threads.getCurrentThreadCpuTime();
            final long start = System.nanoTime();
            memory[index] += i;
            final long elapsed = System.nanoTime() - start;
            longestCpu = Math.max(longestCpu, threads.getCurrentThreadCpuTime() - cpuStart);
            longest = Math.max(longest, elapsed);
            if (elapsed > SLOW_NANOS) {
                slow++;
            }
        }
        System.out.printf("%,d random int stores into %,d MB: longest %.3f ms (longest in thread CPU %.3f ms), "
            + "%d over %.1f ms%n", STORES, megabytes, longest / 1e6, longestCpu / 1e6, slow, SLOW_NANOS / 1e6);
    }
}
