package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.config.ServerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * Memory-bound soak: 10 clients write random keys under allkeys-lru; used_memory must stay within
 * 5% of maxmemory. Short by default (3 s at 4mb); the README's figures come from
 * {@code -Debb.soak.seconds=60 -Debb.soak.maxmemory=100mb}.
 */
class MemorySoakTest {
    private static final int CLIENTS = 10;

    @Test
    void usedMemoryShouldStayWithinFivePercentOfMaxmemoryUnderConcurrentWriters() throws Exception {
        int seconds = Integer.getInteger("ebb.soak.seconds", 3);
        String maxmemory = System.getProperty("ebb.soak.maxmemory", "4mb");
        try (EbbServer server = EbbServer.start(ServerConfig.fromText(
                "port 0\nmaxmemory " + maxmemory + "\nmaxmemory-policy allkeys-lru\n"))) {
            long limit = server.config().maxmemory();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            List<Future<Long>> writers = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                long seed = i;
                writers.add(pool.submit(() -> write(server.port(), seed, deadline)));
            }
            long maxObserved = 0;
            try (Jedis monitor = new Jedis("127.0.0.1", server.port(), 30_000)) {
                while (System.nanoTime() < deadline) {
                    maxObserved = Math.max(maxObserved, EvictionWorkload.usedMemory(monitor));
                    Thread.sleep(100);
                }
                long written = 0;
                for (Future<Long> w : writers) {
                    written += w.get();
                }
                pool.shutdown();
                long used = EvictionWorkload.usedMemory(monitor);
                long evicted = EvictionWorkload.infoField(monitor, "stats", "evicted_keys");
                System.out.printf("soak %ds: maxmemory %d, used_memory %d (%.2f%%), highest sampled %d (%.2f%%),"
                        + " keys written %d, evicted_keys %d, dbsize %d, heap used %d MB%n", seconds, limit, used,
                        100.0 * used / limit, maxObserved, 100.0 * maxObserved / limit, written, evicted,
                        monitor.dbSize(), EvictionWorkload.infoField(monitor, "memory", "jvm_heap_used") >> 20);

                assertTrue(used <= limit * 105 / 100, "used_memory " + used + " limit " + limit);
                assertTrue(maxObserved <= limit * 105 / 100, "highest used_memory " + maxObserved);
                assertEquals("PONG", monitor.ping());
            }
        }
    }

    private static long write(int port, long seed, long deadline) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] value = new byte[1024];
        long written = 0;
        try (Jedis j = new Jedis("127.0.0.1", port, 30_000)) {
            while (System.nanoTime() < deadline) {
                Pipeline p = j.pipelined();
                for (int i = 0; i < 100; i++) {
                    random.nextBytes(value);
                    p.set(("key:" + random.nextLong()).getBytes(), value.clone());
                }
                p.sync();
                written += 100;
            }
        }
        return written;
    }
}
