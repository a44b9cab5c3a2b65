package dev.ebb.server;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives G1's heap back to the operating system with a concurrent cycle, in a JVM where {@code System.gc()} would be a
 * stop-the-world full collection: the README's plain {@code java -jar}, G1 without
 * {@code -XX:+ExplicitGCInvokesConcurrent}.
 *
 * <p>Three of the flags HotSpot lets a running JVM change make that request together. {@code G1PeriodicGCInterval}
 * makes G1's service thread start a concurrent cycle once no collection has run for that long (it checks every
 * second while the flag is 0, then at that interval); at the cycle's remark pause G1 cuts the committed heap to
 * what is in use divided by {@code 1 - MaxHeapFreeRatio/100}, and hands the regions it cut back to the operating
 * system. With the defaults (40/70) G1 keeps up to 3.3 times what is in use, and a load of a million keys leaves
 * the JVM holding about 950 MB of heap for 120 MB in use. A trim sets {@code MinHeapFreeRatio=0},
 * {@code MaxHeapFreeRatio=10} and a {@value #INTERVAL_MS} ms interval, waits until the cycle has shrunk the heap
 * (or a second collection ran, or {@value #TIMEOUT_S} s passed), then puts the three flags back as they were. The
 * heap grows again as a load needs it; the command loop only sees the cycle's start and remark pauses (a few ms).
 *
 * <p>Only the process {@link Main} runs: an embedding application's JVM flags are not the server's to change, so
 * {@link #forThisJvm()} is empty until {@link #enableInThisProcess()}. It is also empty when the JVM does not run
 * G1, when {@code System.gc()} is already concurrent (the {@code maxmemory} child of {@link JvmRelaunch}), when the
 * user set any of the three flags, or when {@code G1PeriodicGCInvokesConcurrent} is off (the periodic collection
 * would be a full one). {@link #run} blocks its caller (a daemon thread of {@link MemoryReturn}) for the trim.
 */
final class G1Trim implements Runnable {
    static final String MIN_FREE = "MinHeapFreeRatio";
    static final String MAX_FREE = "MaxHeapFreeRatio";
    static final String INTERVAL = "G1PeriodicGCInterval";
    static final long INTERVAL_MS = 200;
    static final long TIMEOUT_S = 30;
    private static final long POLL_MS = 20;
    private static final Logger LOG = LoggerFactory.getLogger(G1Trim.class);
    private static volatile boolean enabled;

    /** Reads and writes the JVM's manageable flags. */
    interface Flags {
        String get(String name);

        void set(String name, String value);
    }

    /** Waits; the tests pass one that advances their clock. */
    interface Pause {
        void sleep(long ms) throws InterruptedException;
    }

    private final Flags flags;
    private final LongSupplier committed;
    private final LongSupplier collections;
    private final LongSupplier nanoTime;
    private final Pause pause;

    G1Trim(Flags flags, LongSupplier committed, LongSupplier collections, LongSupplier nanoTime, Pause pause) {
        this.flags = flags;
        this.committed = committed;
        this.collections = collections;
        this.nanoTime = nanoTime;
        this.pause = pause;
    }

    /** Lets this process's servers change the JVM's heap flags; only {@link Main} calls it. */
    static void enableInThisProcess() {
        enabled = true;
    }

    /** A trim for this JVM, if it runs G1 and may be trimmed this way (see the class comment). */
    static Optional<G1Trim> forThisJvm() {
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        if (!enabled || !MemoryReturn.shrinksAtRemark() || hotSpot == null || MemoryReturn.concurrentExplicitGc()) {
            return Optional.empty();
        }
        try {
            for (String name : List.of(MIN_FREE, MAX_FREE, INTERVAL)) {
                VMOption option = hotSpot.getVMOption(name);
                if (option.getOrigin() != VMOption.Origin.DEFAULT || !option.isWriteable()) {
                    return Optional.empty();
                }
            }
            if (!Boolean.parseBoolean(hotSpot.getVMOption("G1PeriodicGCInvokesConcurrent").getValue())) {
                return Optional.empty();
            }
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        Flags flags = new Flags() {
            @Override
            public String get(String name) {
                return hotSpot.getVMOption(name).getValue();
            }

            @Override
            public void set(String name, String value) {
                hotSpot.setVMOption(name, value);
            }
        };
        LongSupplier committed = () -> ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
        LongSupplier collections = () -> collectors.stream().mapToLong(GarbageCollectorMXBean::getCollectionCount)
                .sum();
        return Optional.of(new G1Trim(flags, committed, collections, System::nanoTime, Thread::sleep));
    }

    @Override
    public void run() {
        String min = flags.get(MIN_FREE);
        String max = flags.get(MAX_FREE);
        String interval = flags.get(INTERVAL);
        long before = committed.getAsLong();
        long startCollections = collections.getAsLong();
        long deadline = nanoTime.getAsLong() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        // Min first on the way down and last on the way up: the JVM refuses a minimum above the maximum.
        flags.set(MIN_FREE, "0");
        flags.set(MAX_FREE, "10");
        flags.set(INTERVAL, Long.toString(INTERVAL_MS));
        try {
            while (nanoTime.getAsLong() < deadline && !cycleDone(before, startCollections)) {
                pause.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            flags.set(INTERVAL, interval);
            flags.set(MAX_FREE, max);
            flags.set(MIN_FREE, min);
        }
        LOG.debug("Heap trimmed by a concurrent cycle: {} MB committed before, {} MB after", before >> 20,
                committed.getAsLong() >> 20);
    }

    /**
     * Whether the periodic cycle has run far enough: a collection started it and the heap shrank at its remark, or a
     * second collection came (a periodic one starts only after the cycle ends; a load's own ones end the wait too).
     */
    private boolean cycleDone(long before, long startCollections) {
        long ran = collections.getAsLong() - startCollections;
        return ran >= 2 || (ran >= 1 && committed.getAsLong() < before);
    }
}
