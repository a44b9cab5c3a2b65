package dev.ebb.server;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Gives memory back to the operating system when the data goes (FLUSHALL, FLUSHDB, a large UNLINK, an expiry storm,
 * a lower {@code maxmemory}) or when a load that grew the heap is over, as Redis's allocator does on its own.
 *
 * <p>A JVM keeps the heap it has grown to until a collection decides to shrink it, and with little allocation after
 * the data went no collection may come for a long time. So the cron watches {@code used_memory}: when it has fallen
 * to half or less of the highest value seen since the last return, by at least {@value #MIN_DROP_MB} MB, and the
 * heap has at least {@value #MIN_COMMITTED_MB} MB committed, a daemon thread starts a return, at most once every
 * {@value #MIN_INTERVAL_MS} ms. The loop only starts the thread; the collection's pauses are the collector's.
 *
 * <p>Under G1 a return is a concurrent cycle whose remark pause (a few ms) uncommits the heap down to a little more
 * than what is live: a {@link G1Trim} in the process {@link Main} runs, or {@code System.gc()} in the
 * {@code maxmemory} child ({@link JvmRelaunch}: G1 with {@code ExplicitGCInvokesConcurrent} and
 * {@code MaxHeapFreeRatio=30}). Under G1 the cron also returns what a load left behind: once the loop has been quiet
 * (under {@value #QUIET_COMMANDS_PER_S} commands and {@value #QUIET_INPUT_BYTES_PER_S} bytes of input a second) for
 * {@value #QUIET_MS} ms and the committed heap exceeds 1.5 times {@code used_memory} plus {@value #MIN_COMMITTED_MB}
 * MB, with at least {@value #MIN_DATA_MB} MB of data and at most once every {@value #GROWTH_INTERVAL_MS} ms (a load
 * leaves young-generation regions that G1 keeps committed: 950 MB for a million small keys). Under ZGC and Shenandoah {@code System.gc()} is concurrent too and
 * the cron calls it after a drop. Under ParallelGC, SerialGC, or G1 where no trim may run (embedded, or the user set
 * the heap flags) it is a stop-the-world full collection whose pause grows with what is still live: 270-340 ms with
 * a million keys left after an expiry storm, every command waiting. There the cron leaves the heap to the collector
 * and only MEMORY PURGE, an operator's explicit request, calls it.
 *
 * <p>Costs a few comparisons per cron tick. {@link #cron} is called by the loop thread only; the collection runs on
 * a thread of its own.
 */
final class MemoryReturn {
    static final long MIN_DROP_MB = 16;
    static final long MIN_COMMITTED_MB = 64;
    static final long MIN_INTERVAL_MS = 5_000;
    static final long MIN_DATA_MB = 4;
    static final long QUIET_COMMANDS_PER_S = 1_000;
    static final long QUIET_INPUT_BYTES_PER_S = 1_000_000;
    static final long QUIET_MS = 500;
    static final long GROWTH_INTERVAL_MS = 60_000;
    private static final long MB = 1024L * 1024;

    private final LongSupplier heapCommitted;
    private final Runnable collect;
    private final Executor executor;
    private final boolean automatic;
    private final boolean afterGrowth;
    private final AtomicBoolean running = new AtomicBoolean();
    private long highWater;
    private long lastReturnMs = Long.MIN_VALUE / 2;
    private long lastGrowthReturnMs = Long.MIN_VALUE / 2;
    private long lastCronMs = Long.MIN_VALUE / 2;
    private long lastCommands;
    private long lastInputBytes;
    private long lastBusyMs;
    private long returns;

    /**
     * Gives memory back on a daemon thread of its own with a {@link G1Trim} where one may run, else with
     * {@code System.gc()}; from the cron only if that is concurrent.
     */
    MemoryReturn(LongSupplier heapCommitted) {
        this(heapCommitted, G1Trim.forThisJvm());
    }

    private MemoryReturn(LongSupplier heapCommitted, Optional<G1Trim> trim) {
        this(heapCommitted, trim.isPresent() ? trim.get() : System::gc, MemoryReturn::startDaemon,
                trim.isPresent() || concurrentExplicitGc(), trim.isPresent() || shrinksAtRemark());
    }

    /**
     * @param heapCommitted the JVM heap's committed bytes
     * @param collect what gives memory back
     * @param executor where {@code collect} runs
     * @param automatic whether the cron may start returns (MEMORY PURGE always may)
     * @param afterGrowth whether the cron also returns what a load left committed once the loop is quiet (G1, whose
     *     cycle shrinks the heap to what is live; only with {@code automatic})
     */
    MemoryReturn(LongSupplier heapCommitted, Runnable collect, Executor executor, boolean automatic,
            boolean afterGrowth) {
        this.heapCommitted = heapCommitted;
        this.collect = collect;
        this.executor = executor;
        this.automatic = automatic;
        this.afterGrowth = automatic && afterGrowth;
    }

    /** Whether {@code System.gc()} in this JVM runs a concurrent cycle rather than a stop-the-world collection. */
    static boolean concurrentExplicitGc() {
        List<String> collectors = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).toList();
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        boolean flag = hotSpot != null
                && Boolean.parseBoolean(hotSpot.getVMOption("ExplicitGCInvokesConcurrent").getValue());
        return concurrentExplicitGc(collectors, flag);
    }

    /**
     * Whether {@code System.gc()} is concurrent under the collectors named (their MXBean names) and the value of
     * {@code -XX:ExplicitGCInvokesConcurrent}: always for ZGC and Shenandoah, for G1 only with the flag, never for
     * ParallelGC and SerialGC.
     */
    static boolean concurrentExplicitGc(List<String> collectorNames, boolean explicitGcInvokesConcurrent) {
        for (String name : collectorNames) {
            if (name.startsWith("ZGC") || name.startsWith("Shenandoah")) {
                return true;
            }
            if (name.startsWith("G1") && explicitGcInvokesConcurrent) {
                return true;
            }
        }
        return false;
    }

    /** Whether this JVM runs G1, whose concurrent cycle ends by shrinking the committed heap to fit what is live. */
    static boolean shrinksAtRemark() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().anyMatch(gc -> gc.getName().startsWith("G1"));
    }

    private static void startDaemon(Runnable task) {
        Thread thread = new Thread(task, "ebb-memory-return");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Called every cron tick with the keyspace's {@code used_memory} and the counts of commands processed and of bytes
     * read from clients so far; true if a return was started.
     */
    boolean cron(long usedMemory, long commandsProcessed, long inputBytes, long nowMs) {
        if (!automatic) {
            return false;
        }
        boolean quiet = quiet(commandsProcessed, inputBytes, nowMs);
        if (usedMemory > highWater) {
            highWater = usedMemory;
        } else if (usedMemory * 2 <= highWater && highWater - usedMemory >= MIN_DROP_MB * MB
                && heapCommitted.getAsLong() >= MIN_COMMITTED_MB * MB && start(nowMs)) {
            highWater = usedMemory;
            return true;
        }
        if (afterGrowth && quiet && usedMemory >= MIN_DATA_MB * MB
                && nowMs - lastGrowthReturnMs >= GROWTH_INTERVAL_MS
                && heapCommitted.getAsLong() > usedMemory + usedMemory / 2 + MIN_COMMITTED_MB * MB && start(nowMs)) {
            lastGrowthReturnMs = nowMs;
            return true;
        }
        return false;
    }

    /**
     * Whether the loop has run under {@value #QUIET_COMMANDS_PER_S} commands and {@value #QUIET_INPUT_BYTES_PER_S}
     * bytes of client input a second for {@value #QUIET_MS} ms (a load of large batches is few commands).
     */
    private boolean quiet(long commandsProcessed, long inputBytes, long nowMs) {
        long elapsedMs = Math.max(1, nowMs - lastCronMs);
        if ((commandsProcessed - lastCommands) * 1000 > QUIET_COMMANDS_PER_S * elapsedMs
                || (inputBytes - lastInputBytes) * 1000 > QUIET_INPUT_BYTES_PER_S * elapsedMs) {
            lastBusyMs = nowMs;
        }
        lastCommands = commandsProcessed;
        lastInputBytes = inputBytes;
        lastCronMs = nowMs;
        return nowMs - lastBusyMs >= QUIET_MS;
    }

    private boolean start(long nowMs) {
        if (nowMs - lastReturnMs < MIN_INTERVAL_MS || !running.compareAndSet(false, true)) {
            return false;
        }
        lastReturnMs = nowMs;
        returns++;
        executor.execute(() -> {
            try {
                collect.run();
            } finally {
                running.set(false);
            }
        });
        return true;
    }

    /**
     * MEMORY PURGE: starts a return now, whatever the cron's thresholds say, unless one is already
     * running; true if it started one. Loop thread only.
     */
    boolean purge(long nowMs) {
        lastReturnMs = Long.MIN_VALUE / 2;
        return start(nowMs);
    }

    /** INFO {@code jvm_memory_returns}: how many times memory was handed back since start. */
    long returns() {
        return returns;
    }
}
