package dev.ebb.server;

import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.config.MaxmemoryPolicy;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.storage.Database;
import dev.ebb.storage.EvictionListener;
import dev.ebb.storage.EvictionPolicy;
import dev.ebb.storage.Evictor;
import dev.ebb.storage.NanoClock;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import javax.management.NotificationEmitter;

/**
 * Keeps memory within bounds before each command (Redis's performEvictions in processCommand):
 *
 * <ul>
 *   <li><b>maxmemory</b>: when the keyspace's {@code used_memory} is over the limit, evicts keys
 *       under {@code maxmemory-policy} within the time budget of {@code maxmemory-eviction-tenacity}.
 *       If memory is still over the limit and nothing can be evicted (noeviction, or no candidate
 *       left), commands flagged {@code denyoom} are refused with OOM; everything else runs. If the
 *       budget ran out while keys remain, the command runs and the cron carries on evicting.</li>
 *   <li><b>JVM heap safety net</b>, independent of maxmemory: when the heap after the last
 *       garbage collection is above {@link #HEAP_SHORT_PERCENT}% of its maximum in any heap pool
 *       that holds survivors (the old generation; not eden or survivor spaces)
 *       that reports collection usage, {@code denyoom} commands are refused with the same OOM
 *       error, so a full heap stops writes long before the JVM would throw OutOfMemoryError. The
 *       flag is refreshed by the cron ({@link #refreshHeapState}), so it costs one field read per
 *       command while the heap is fine; and after every collection (the collectors' JMX
 *       notification sets a flag the next command reads), so a client writing fast cannot push
 *       the heap past the line during the time to the next cron tick.</li>
 *   <li><b>Re-arming the safety net.</b> The after-GC reading goes stale: once writes stop, little
 *       is allocated and no old-generation collection may run for a long time (under G1 on Java 17
 *       the old pool's after-GC usage changes only at a full collection), so after FLUSHALL the
 *       reading would still say "full". Two checks clear the flag: (1) cheaply, on every refused
 *       write and every cron tick, the pool's current occupancy (garbage included) — if even that is
 *       under the line, the heap is not short; (2) when the keyspace's {@code used_memory} has
 *       dropped by more than a tenth of the heap (the margin above the line) since the heap was found
 *       short, the cron asks for a full collection ({@code System.gc()}, at most once every
 *       {@value #FORCED_GC_INTERVAL_MS} ms) and reads again. The same collection is forced the
 *       other way round, when the pool's current occupancy is over the line but its last after-GC
 *       reading is not: under G1 that reading would otherwise wait for the full collection the JVM
 *       makes only once the heap is exhausted, too late to refuse writes before OutOfMemoryError.
 *       So the server recovers within a cron tick or two of FLUSHALL or a large DEL (Redis does at
 *       once), and a heap that stays truly full costs no further forced collections. The price: a
 *       full collection, at most every {@value #FORCED_GC_INTERVAL_MS} ms, while the old
 *       generation sits above the line.</li>
 *   <li><b>Large allocations</b> ({@link #tryAllocate}): a command that builds a big array
 *       (APPEND, SETRANGE, SETBIT growth, Lua's {@code string.rep}) first checks its size against
 *       the heap that is left and gets null, to refuse with OOM, instead of an OutOfMemoryError.
 *       The server turns any OutOfMemoryError a command still raises into the same OOM reply
 *       ({@link Server#execute}), keeping the connection and the loop.</li>
 *   <li><b>Giving memory back</b> when {@code used_memory} falls by half or more, and under G1 once a load that
 *       grew the heap is over ({@link MemoryReturn}).</li>
 * </ul>
 *
 * <p>Costs per command with a limit set: O(databases) to sum {@code used_memory}, plus the evictions
 * it performs; without one, a volatile read (and a re-read of the heap pools after a collection).
 * Loop thread only, except {@link #tryAllocate}.
 */
public final class MemoryGuard {
    /**
     * Heap occupancy after GC, in percent of the pool's maximum, above which writes are refused: 90,
     * or the system property {@code ebb.heapShortPercent} (for tests, which need a line well below
     * where a small heap starts to thrash).
     */
    static final int HEAP_SHORT_PERCENT = Integer.getInteger("ebb.heapShortPercent", 90);
    /** Least time between two collections forced to re-arm the heap safety net. */
    static final long FORCED_GC_INTERVAL_MS = 250;
    /** Heap pools that hold what survives collections, JVM-wide. */
    private static final List<MemoryPoolMXBean> COLLECTED_HEAP_POOLS = collectedHeapPools();
    /** The JMX notification type a garbage collector sends when it ends a collection. */
    private static final String GC_NOTIFICATION = "com.sun.management.gc.notification";
    /** Set by the JVM's notification thread after every collection, cleared by {@link #admit}. */
    private static volatile boolean collected;

    static {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter) {
                ((NotificationEmitter) gc).addNotificationListener((notification, handback) -> collected = true,
                        notification -> GC_NOTIFICATION.equals(notification.getType()), null);
            }
        }
    }

    private final Server server;
    private final Database[] dbs;
    private final Evictor evictor = new Evictor();
    private final MemoryReturn memoryReturn = new MemoryReturn(
            () -> ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted());
    private EvictionPolicy policy;
    private boolean heapShort;
    /** {@code used_memory} when the heap was last found short, to tell when the keyspace shrank. */
    private long usedWhenShort;
    private long lastForcedGcNanos;
    /** {@code used_memory} of the empty databases when the server started (MEMORY STATS {@code startup.allocated}). */
    private final long startupAllocated;

    MemoryGuard(Server server, Database[] dbs) {
        this.server = server;
        this.dbs = dbs;
        this.startupAllocated = Evictor.usedMemory(dbs);
        ServerConfig config = server.config();
        Runnable reconfigure = this::configure;
        config.onChange("maxmemory-policy", reconfigure);
        config.onChange("lfu-log-factor", reconfigure);
        config.onChange("lfu-decay-time", reconfigure);
        configure();
    }

    private static List<MemoryPoolMXBean> collectedHeapPools() {
        List<MemoryPoolMXBean> pools = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.isCollectionUsageThresholdSupported()
                    && holdsSurvivors(pool.getName())) {
                pools.add(pool);
            }
        }
        return List.copyOf(pools);
    }

    private void configure() {
        ServerConfig config = server.config();
        EvictionPolicy next = evictionPolicy(config.maxmemoryPolicy());
        if (next != policy) {
            evictor.clearPool();
        }
        policy = next;
        for (Database db : dbs) {
            db.trackFrequency(policy.usesLfu(), config.lfuLogFactor(), config.lfuDecayTime());
        }
    }

    static EvictionPolicy evictionPolicy(MaxmemoryPolicy policy) {
        return EvictionPolicy.valueOf(policy.name());
    }

    /** Sets the listener told about evicted keys (keyspace notifications' {@code evicted} event). */
    public void evictionListener(EvictionListener listener) {
        evictor.listener(listener);
    }

    /**
     * Evicts as needed before a command with {@code commandFlags} runs; false if it must be refused
     * with OOM (it is {@code denyoom} and memory is over the limit with nothing left to evict, or the heap is short).
     */
    boolean admit(long commandFlags) {
        boolean denyoom = (commandFlags & CommandFlags.DENYOOM) != 0;
        if (collected) {
            collected = false;
            refreshHeapState();
        }
        if (heapShort && denyoom && occupiedOverLine(false)) {
            return false;
        }
        long limit = server.config().maxmemory();
        if (limit <= 0) {
            return true;
        }
        return evict(limit) != Evictor.Outcome.FAIL || !denyoom;
    }

    /** Continues eviction from the cron if memory is still over the limit (after a RUNNING outcome). */
    void cron() {
        refreshHeapState();
        long used = Evictor.usedMemory(dbs);
        server.stats().observeUsedMemory(used);
        memoryReturn.cron(used, server.stats().totalCommandsProcessed(), server.stats().netInputBytes(),
                server.nowMs());
        long limit = server.config().maxmemory();
        if (limit > 0) {
            evict(limit);
        }
    }

    private Evictor.Outcome evict(long limit) {
        // CLIENT PAUSE holds eviction, as Redis does: nothing is evicted and nothing refused meanwhile.
        // A replica never evicts (Redis's default replica-ignore-maxmemory yes): its primary's DELs do.
        if (Evictor.usedMemory(dbs) <= limit || server.pause().active() || server.primaryLink().active()) {
            return Evictor.Outcome.OK;
        }
        long start = System.nanoTime();
        Evictor.Outcome outcome = evictor.evict(dbs, policy, limit, server.config().maxmemorySamples(),
                server.nowMs(), budgetNanos(server.config().maxmemoryEvictionTenacity()), NanoClock.SYSTEM);
        server.latencyMonitor().record("eviction-cycle", (System.nanoTime() - start) / 1_000_000, server.nowMs());
        return outcome;
    }

    /**
     * How long one eviction pass may run, from {@code maxmemory-eviction-tenacity} as Redis maps it:
     * linear 0..500 µs up to 10, then 15% more per step, no limit at 100.
     */
    static long budgetNanos(int tenacity) {
        if (tenacity <= 10) {
            return 50_000L * tenacity;
        }
        if (tenacity < 100) {
            return (long) (500_000.0 * Math.pow(1.15, tenacity - 10.0));
        }
        return Long.MAX_VALUE;
    }

    /**
     * Whether a heap pool holds what survives collections (G1/PS Old Gen, Tenured Gen, ZGC's and
     * Shenandoah's single pool). Eden and survivor spaces are left out: a survivor space is
     * routinely full right after a young collection (ParallelGC sizes it small), which says
     * nothing about the heap running short.
     */
    static boolean holdsSurvivors(String poolName) {
        String name = poolName.toLowerCase(java.util.Locale.ROOT);
        return !name.contains("eden") && !name.contains("survivor") && !name.contains("young");
    }

    /**
     * Re-reads whether the heap is short: some collected heap pool's usage after its last
     * collection exceeds {@link #HEAP_SHORT_PERCENT}% of its maximum, and its current usage does
     * too. While short, forces a collection if the keyspace has shrunk by a tenth of the heap since
     * (see the class comment).
     */
    void refreshHeapState() {
        boolean afterGcOver = occupiedOverLine(true);
        boolean nowOver = occupiedOverLine(false);
        if (nowOver && !afterGcOver && mayForceCollection()) {
            // The pool filled past the line since its last collection was measured: measure again.
            forceCollection();
            afterGcOver = occupiedOverLine(true);
            nowOver = occupiedOverLine(false);
        }
        boolean shortNow = afterGcOver && nowOver;
        if (shortNow) {
            long used = Evictor.usedMemory(dbs);
            if (!heapShort) {
                usedWhenShort = used;
            } else if (usedWhenShort - used > Runtime.getRuntime().maxMemory() / 10 && mayForceCollection()) {
                forceCollection();
                usedWhenShort = used;
                shortNow = occupiedOverLine(true) && occupiedOverLine(false);
            }
        }
        heapShort = shortNow;
        if (!shortNow) {
            usedWhenShort = 0;
        }
    }

    private boolean mayForceCollection() {
        return System.nanoTime() - lastForcedGcNanos > FORCED_GC_INTERVAL_MS * 1_000_000;
    }

    /** A full collection, so the after-GC readings are current; timed as latency event "forced-gc". */
    private void forceCollection() {
        long start = System.nanoTime();
        System.gc();
        lastForcedGcNanos = System.nanoTime();
        server.latencyMonitor().record("forced-gc", (lastForcedGcNanos - start) / 1_000_000, server.nowMs());
    }

    /**
     * Whether any collected heap pool is above {@link #HEAP_SHORT_PERCENT}% of its maximum, by its
     * usage after the last collection ({@code afterGc}) or by its current usage, garbage included.
     */
    private static boolean occupiedOverLine(boolean afterGc) {
        for (MemoryPoolMXBean pool : COLLECTED_HEAP_POOLS) {
            MemoryUsage usage = afterGc ? pool.getCollectionUsage() : pool.getUsage();
            if (usage != null && usage.getMax() > 0
                    && usage.getUsed() * 100 > usage.getMax() * (long) HEAP_SHORT_PERCENT) {
                return true;
            }
        }
        return false;
    }

    /**
     * A zeroed {@code byte[length]}, or null if the heap cannot hold it: refused at once when it is
     * larger than the heap's maximum less what its collected pools hold (the lower of their usage
     * after the last collection and now), else allocated, and null if that still raises
     * OutOfMemoryError (a failed allocation of one array takes nothing else down). The caller
     * replies OOM. Any thread.
     */
    public static byte[] tryAllocate(int length) {
        if (length > Runtime.getRuntime().maxMemory() - liveHeapBytes()) {
            return null;
        }
        try {
            return new byte[length];
        } catch (OutOfMemoryError e) {
            return null;
        }
    }

    /** Bytes the collected heap pools hold, at best as of their last collection. */
    private static long liveHeapBytes() {
        long live = 0;
        for (MemoryPoolMXBean pool : COLLECTED_HEAP_POOLS) {
            MemoryUsage afterGc = pool.getCollectionUsage();
            long now = pool.getUsage().getUsed();
            live += afterGc == null ? now : Math.min(afterGc.getUsed(), now);
        }
        return live;
    }

    /** Whether writes are currently refused because the JVM heap is nearly full. */
    public boolean heapShort() {
        return heapShort;
    }

    /** INFO {@code evicted_keys}. */
    public long evictedKeys() {
        return evictor.evictedKeys();
    }

    /** INFO {@code jvm_memory_returns}: collections started to give memory back after the data went. */
    public long memoryReturns() {
        return memoryReturn.returns();
    }

    /** MEMORY STATS {@code startup.allocated} and INFO {@code used_memory_startup}. */
    public long startupAllocated() {
        return startupAllocated;
    }

    /** MEMORY PURGE: asks the JVM to give memory back now ({@link MemoryReturn#purge}); loop thread only. */
    public void purge() {
        memoryReturn.purge(server.nowMs());
    }

    /** CONFIG RESETSTAT. */
    public void resetStats() {
        evictor.resetStats();
    }
}
