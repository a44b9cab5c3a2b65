package dev.ebb.server.command;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PoolArenaMetric;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's memory as the operating system and the JVM see it, for INFO memory and MEMORY STATS: where Redis
 * reads jemalloc, Ebb reads the JVM (the allocator) and {@code /proc/self/status} (the kernel).
 *
 * <ul>
 *   <li>{@code allocated}: the Java heap's used bytes (live data and garbage not yet collected) plus the bytes of
 *       Netty's direct buffers in use (client I/O buffers).</li>
 *   <li>{@code active}: the Java heap's committed bytes plus the direct memory Netty holds from the operating
 *       system (its pooled arenas' chunks and unpooled buffers): what the allocator has taken, used or not.</li>
 *   <li>{@code resident}: {@code RssAnon}, the process's anonymous resident memory: the heap pages touched, direct
 *       buffers, and the JVM's own native memory (metaspace, code cache, GC structures, thread stacks, malloc).
 *       Committed heap that was never touched is not resident, so {@code resident} can be below {@code active}
 *       (jemalloc's never is).</li>
 *   <li>{@code rss}: {@code VmRSS}, resident memory as {@code ps} shows it: {@code resident} plus the file-backed
 *       pages (libjvm, the class-data archive, the jar), which Redis's {@code rss_overhead} counts.</li>
 * </ul>
 *
 * Where {@code /proc} is missing (not Linux), {@code rss} and {@code resident} fall back to the committed heap
 * plus direct memory. One snapshot reads {@code /proc/self/status} once (about 30 µs); loop thread or any thread.
 */
record ProcessMemory(long heapUsed, long heapCommitted, long directAllocated, long directActive, long resident,
        long rss) {
    private static final Path PROC_STATUS = Path.of("/proc/self/status");

    /** Reads the figures now. */
    static ProcessMemory now() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long directActive = nettyDirectActive();
        long directAllocated = Math.min(directActive, nettyDirectAllocated());
        long[] status = procStatus();
        long fallback = heap.getCommitted() + directActive;
        long rss = status[0] > 0 ? status[0] : fallback;
        long resident = status[1] > 0 ? status[1] : fallback;
        return new ProcessMemory(heap.getUsed(), heap.getCommitted(), directAllocated, directActive, resident, rss);
    }

    long allocated() {
        return heapUsed + directAllocated;
    }

    long active() {
        return heapCommitted + directActive;
    }

    /** Redis's {@code allocator_frag_ratio}: active over allocated. */
    double allocatorFragRatio() {
        return allocated() == 0 ? 0 : (double) active() / allocated();
    }

    /** Redis's {@code allocator_rss_ratio}: resident over active. */
    double allocatorRssRatio() {
        return active() == 0 ? 0 : (double) resident / active();
    }

    /** Redis's {@code rss_overhead_ratio}: the process's RSS over the allocator's resident memory. */
    double rssOverheadRatio() {
        return resident == 0 ? 0 : (double) rss / resident;
    }

    /** Redis's {@code mem_fragmentation_ratio}: the process's RSS over {@code used_memory}. */
    double fragmentationRatio(long usedMemory) {
        return usedMemory == 0 ? 0 : (double) rss / usedMemory;
    }

    /** {VmRSS, RssAnon} in bytes, 0 for each one not found. */
    private static long[] procStatus() {
        long[] out = new long[2];
        try {
            for (String line : Files.readAllLines(PROC_STATUS, StandardCharsets.US_ASCII)) {
                if (line.startsWith("VmRSS:")) {
                    out[0] = kilobytes(line);
                } else if (line.startsWith("RssAnon:")) {
                    out[1] = kilobytes(line);
                }
            }
        } catch (IOException | RuntimeException unavailable) {
            // not Linux, or /proc not mounted: the caller falls back
        }
        return out;
    }

    private static long kilobytes(String line) {
        String value = line.substring(line.indexOf(':') + 1).trim().split("\\s+")[0];
        return Long.parseLong(value) * 1024;
    }

    /** Direct memory Netty took from the operating system: pool chunks and unpooled buffers. */
    private static long nettyDirectActive() {
        long counted = PlatformDependent.usedDirectMemory();
        if (counted >= 0) {
            return counted;
        }
        long pooled = ByteBufAllocator.DEFAULT instanceof PooledByteBufAllocator pool
                ? pool.metric().usedDirectMemory() : 0;
        return pooled + UnpooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
    }

    /** Direct memory in buffers Netty has handed out (pooled runs and subpages in use, unpooled buffers). */
    private static long nettyDirectAllocated() {
        long bytes = UnpooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
        if (ByteBufAllocator.DEFAULT instanceof PooledByteBufAllocator pool) {
            for (PoolArenaMetric arena : pool.metric().directArenas()) {
                bytes += Math.max(0, arena.numActiveBytes());
            }
        }
        return bytes;
    }
}
