package dev.ebb.server;

import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.config.MaxmemoryPolicy;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.storage.Database;
import dev.ebb.storage.EvictionListener;
import dev.ebb.storage.EvictionPolicy;
import dev.ebb.storage.Evictor;
import dev.ebb.storage.NanoClock;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;

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
 *       garbage collection is above {@value #HEAP_SHORT_PERCENT}% of its maximum in any heap pool
 *       that holds survivors (the old generation; not eden or survivor spaces)
 *       that reports collection usage, {@code denyoom} commands are refused with the same OOM
 *       error, so a full heap stops writes long before the JVM would throw OutOfMemoryError. The
 *       flag is refreshed by the cron ({@link #refreshHeapState}), so it costs one field read per
 *       command.</li>
 *   <li><b>Giving memory back</b> when {@code used_memory} falls by half or more ({@link MemoryReturn}).</li>
 * </ul>
 *
 * <p>Costs per command with a limit set: O(databases) to sum {@code used_memory}, plus the evictions
 * it performs. Loop thread only.
 */
public final class MemoryGuard {
    /** Heap occupancy after GC, in percent of the pool's maximum, above which writes are refused. */
    static final int HEAP_SHORT_PERCENT = 90;

    private final Server server;
    private final Database[] dbs;
    private final Evictor evictor = new Evictor();
    private final List<MemoryPoolMXBean> collectedHeapPools = new ArrayList<>();
    private final MemoryReturn memoryReturn = new MemoryReturn(
            () -> ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted());
    private EvictionPolicy policy;
    private boolean heapShort;

    MemoryGuard(Server server, Database[] dbs) {
        this.server = server;
        this.dbs = dbs;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.isCollectionUsageThresholdSupported()
                    && holdsSurvivors(pool.getName())) {
                collectedHeapPools.add(pool);
            }
        }
        ServerConfig config = server.config();
        Runnable reconfigure = this::configure;
        config.onChange("maxmemory-policy", reconfigure);
        config.onChange("lfu-log-factor", reconfigure);
        config.onChange("lfu-decay-time", reconfigure);
        configure();
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
     * Evicts as needed before {@code spec} runs; false if it must be refused with OOM (it is
     * {@code denyoom} and memory is over the limit with nothing left to evict, or the heap is short).
     */
    boolean admit(CommandSpec spec) {
        boolean denyoom = spec.has(CommandFlags.DENYOOM);
        if (heapShort && denyoom) {
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
        memoryReturn.cron(used, server.nowMs());
        long limit = server.config().maxmemory();
        if (limit > 0) {
            evict(limit);
        }
    }

    private Evictor.Outcome evict(long limit) {
        if (Evictor.usedMemory(dbs) <= limit) {
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
     * Re-reads whether the heap is short: any collected heap pool whose usage after its last
     * collection exceeds {@value #HEAP_SHORT_PERCENT}% of its maximum.
     */
    void refreshHeapState() {
        boolean shortNow = false;
        for (MemoryPoolMXBean pool : collectedHeapPools) {
            MemoryUsage afterGc = pool.getCollectionUsage();
            if (afterGc != null && afterGc.getMax() > 0
                    && afterGc.getUsed() * 100 > afterGc.getMax() * (long) HEAP_SHORT_PERCENT) {
                shortNow = true;
            }
        }
        heapShort = shortNow;
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

    /** CONFIG RESETSTAT. */
    public void resetStats() {
        evictor.resetStats();
    }
}
