package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.config.ServerConfig;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The JVM heap safety net without maxmemory: writes of 64 KB values until the server refuses them
 * with OOM, which must happen before the JVM runs out of heap. Fills the test JVM's heap (2 GB in
 * the pom), so it runs only on request: {@code -Debb.heap.demo=true}.
 */
class HeapSafetyNetTest {
    @Test
    void writesShouldBeRefusedWithOomBeforeTheHeapIsFull() throws Exception {
        assumeTrue(Boolean.getBoolean("ebb.heap.demo"), "run with -Debb.heap.demo=true");
        long maxHeap = Runtime.getRuntime().maxMemory();
        assumeTrue(maxHeap <= 4L << 30, "needs a heap of at most 4 GB, has " + maxHeap);
        byte[] value = new byte[64 * 1024];
        try (EbbServer server = EbbServer.start(ServerConfig.fromText("port 0\nhz 50\n"));
                Jedis j = new Jedis("127.0.0.1", server.port(), 30_000)) {
            int written = 0;
            String refusal = null;
            while (refusal == null && written < 100_000) {
                try {
                    j.set(("k" + written).getBytes(), value);
                    written++;
                } catch (JedisDataException e) {
                    refusal = e.getMessage();
                }
            }
            System.out.printf("heap max %d MB: %d values of 64 KB written (%d MB) before: %s%n", maxHeap >> 20,
                    written, (written * 64L) >> 10, refusal);

            assertEquals("OOM command not allowed when used memory > 'maxmemory'.", refusal);
            assertEquals("PONG", j.ping());
            assertEquals(64 * 1024, j.get("k0".getBytes()).length);
            assertEquals(written, j.dbSize());
            assertTrue(j.flushAll().equals("OK"));
        }
    }
}
