package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * The cron finishes an incremental resize that writes alone have left half done: its rehash steps
 * (1 ms a tick, in slices of active-expire-slice-us) run with no client writing.
 */
class CronRehashTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void cronShouldFinishAGrowStartedByWritesWithoutFurtherWrites() throws Exception {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.flushAll();
            // One tick a second (1 ms of rehashing each) while loading (≈ 10 s under the tests' leak detection), so the cron cannot finish
            // the migration before it is measured: 196,608 keys fill 3/4 of 2^18 slots, the next
            // one starts the grow to 2^19, and the 3,391 writes after it migrate 4 old slots each.
            j.configSet("hz", "1");
            load(200_000);
            long during = usedMemory(j);
            j.configSet("hz", "100");

            long oldTableBytes = 262_144L * 12;
            long deadline = System.nanoTime() + 20_000_000_000L;
            long now = during;
            while (during - now < oldTableBytes && System.nanoTime() < deadline) {
                Thread.sleep(20);
                now = usedMemory(j);
            }
            assertTrue(during - now >= oldTableBytes,
                    "the old table is dropped once the cron has migrated it: " + during + " -> " + now);
            assertEquals(200_000, j.dbSize());
        }
    }

    /** SETs k0..k(n-1) in one write of raw RESP (fast enough that few cron ticks pass meanwhile). */
    private static void load(int n) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < n; i++) {
            String key = "k" + i;
            out.writeBytes(("*3\r\n$3\r\nSET\r\n$" + key.length() + "\r\n" + key + "\r\n$1\r\nv\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        }
        try (Socket socket = new Socket(ebb.host(), ebb.port())) {
            socket.getOutputStream().write(out.toByteArray());
            socket.getOutputStream().flush();
            byte[] replies = socket.getInputStream().readNBytes(n * "+OK\r\n".length());
            assertEquals(n * 5, replies.length);
        }
    }

    private static long usedMemory(Jedis j) {
        for (String line : j.info("memory").split("\r\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()));
            }
        }
        throw new AssertionError("no used_memory in INFO memory");
    }
}
