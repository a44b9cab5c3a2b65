package dev.ebb.server;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Gives memory back to the operating system when the data goes (FLUSHALL, FLUSHDB, a large UNLINK, an expiry storm,
 * a lower {@code maxmemory}), as Redis's allocator does on its own.
 *
 * <p>A JVM keeps the heap it has grown to until a collection decides to shrink it, and with little allocation after
 * the data went no collection may come for a long time. So the cron watches {@code used_memory}: when it has fallen
 * to half or less of the highest value seen since the last return, by at least {@value #MIN_DROP_MB} MB, and the
 * heap has at least {@value #MIN_COMMITTED_MB} MB committed, a daemon thread calls {@code System.gc()}, at most once
 * every {@value #MIN_INTERVAL_MS} ms. The loop only starts the thread; the collection's pauses are the collector's.
 * Under the flags {@link JvmRelaunch} chooses (G1 with {@code ExplicitGCInvokesConcurrent} and
 * {@code MaxHeapFreeRatio=30}) that call is a concurrent cycle whose remark pause (a few ms) uncommits the heap
 * down to 1/0.7 of what is live. The cron does this only where {@code System.gc()} is such a concurrent cycle (G1
 * with {@code ExplicitGCInvokesConcurrent}, ZGC, Shenandoah: {@link #concurrentExplicitGc}). Under ParallelGC,
 * SerialGC or G1 without the flag it is a stop-the-world full collection whose pause grows with what is still live:
 * 270-340 ms with a million keys left after an expiry storm, every command waiting. There the cron leaves the heap to
 * the collector and only MEMORY PURGE, an operator's explicit request, calls it.
 *
 * <p>Costs one comparison per cron tick. {@link #cron} is called by the loop thread only; the collection runs on a
 * thread of its own.
 */
final class MemoryReturn {
    static final long MIN_DROP_MB = 16;
    static final long MIN_COMMITTED_MB = 64;
    static final long MIN_INTERVAL_MS = 5_000;
    private static final long MB = 1024L * 1024;

    private final LongSupplier heapCommitted;
    private final Runnable collect;
    private final Executor executor;
    private final boolean automatic;
    private final AtomicBoolean running = new AtomicBoolean();
    private long highWater;
    private long lastReturnMs = Long.MIN_VALUE / 2;
    private long returns;

    /**
     * Gives memory back with {@code System.gc()} on a daemon thread of its own; from the cron only if this JVM's
     * {@code System.gc()} is concurrent.
     */
    MemoryReturn(LongSupplier heapCommitted) {
        this(heapCommitted, System::gc, MemoryReturn::startDaemon, concurrentExplicitGc());
    }

    /**
     * @param heapCommitted the JVM heap's committed bytes
     * @param collect what gives memory back
     * @param executor where {@code collect} runs
     * @param automatic whether the cron may start returns (MEMORY PURGE always may)
     */
    MemoryReturn(LongSupplier heapCommitted, Runnable collect, Executor executor, boolean automatic) {
        this.heapCommitted = heapCommitted;
        this.collect = collect;
        this.executor = executor;
        this.automatic = automatic;
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


    private static void startDaemon(Runnable task) {
        Thread thread = new Thread(task, "ebb-memory-return");
        thread.setDaemon(true);
        thread.start();
    }

    /** Called every cron tick with the keyspace's {@code used_memory}; true if a return was started. */
    boolean cron(long usedMemory, long nowMs) {
        if (!automatic) {
            return false;
        }
        if (usedMemory > highWater) {
            highWater = usedMemory;
            return false;
        }
        if (usedMemory * 2 > highWater || highWater - usedMemory < MIN_DROP_MB * MB
                || nowMs - lastReturnMs < MIN_INTERVAL_MS || heapCommitted.getAsLong() < MIN_COMMITTED_MB * MB
                || !running.compareAndSet(false, true)) {
            return false;
        }
        highWater = usedMemory;
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
        if (!running.compareAndSet(false, true)) {
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

    /** INFO {@code jvm_memory_returns}: how many times memory was handed back since start. */
    long returns() {
        return returns;
    }
}
