package dev.ebb.server;

import static dev.ebb.server.pubsub.SlowConsumerTest.stalledSocket;
import static dev.ebb.server.pubsub.SlowConsumerTest.stat;
import static dev.ebb.server.pubsub.SlowConsumerTest.usedDirectMemory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * The reply path with values of a megabyte and more: a pipeline of big replies arrives intact and
 * in order, a client that does not read holds stored values by reference (its replies count in
 * {@code omem} without being copied), and a client over its output-buffer limit is cut at the
 * limit, before the rest of its pipeline runs.
 */
class BigRepliesTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static final int MB = 1 << 20;

    @Test
    void pipelinedRepliesOfLargeAndSmallValuesShouldArriveIntactAndInOrder() {
        byte[] big = randomBytes(MB, 1);
        byte[] medium = randomBytes(20_000, 2);
        byte[] small = randomBytes(5_000, 3);
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            jedis.set(bytes("big"), big);
            jedis.set(bytes("medium"), medium);
            jedis.set(bytes("small"), small);

            Pipeline p = jedis.pipelined();
            for (int i = 0; i < 60; i++) {
                p.get(bytes("big"));
                p.incr("counter");
                p.get(bytes("medium"));
                p.getrange(bytes("big"), 1000, 70_999);
                p.get(bytes("small"));
                p.strlen("small");
            }
            List<Object> replies = p.syncAndReturnAll();

            assertEquals(360, replies.size());
            byte[] slice = Arrays.copyOfRange(big, 1000, 71_000);
            for (int i = 0; i < 60; i++) {
                assertArrayEquals(big, (byte[]) replies.get(6 * i), "GET big #" + i);
                assertEquals(i + 1L, replies.get(6 * i + 1));
                assertArrayEquals(medium, (byte[]) replies.get(6 * i + 2));
                assertArrayEquals(slice, (byte[]) replies.get(6 * i + 3));
                assertArrayEquals(small, (byte[]) replies.get(6 * i + 4));
                assertEquals(5000L, replies.get(6 * i + 5));
            }
        }
    }

    @Test
    void clientThatDoesNotReadShouldHoldAStoredValueByReference() throws Exception {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            admin.set(bytes("big"), randomBytes(MB, 4));
            long before = usedDirectMemory();
            try (Socket stalled = stalledSocket(ebb)) {
                OutputStream out = stalled.getOutputStream();
                out.write("*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n".repeat(200).getBytes(StandardCharsets.US_ASCII));
                out.flush();

                long omem = awaitOmem(admin, 150L * MB);

                // 200 MB of replies are pending, yet the server's buffers grew by no more than what
                // the channel holds (its 4 MB high water mark) plus pool granularity: the values are
                // referenced, not copied.
                long grown = usedDirectMemory() - before;
                assertTrue(grown < 32L * MB, "buffer memory grew by " + grown + " with omem " + omem);
                assertEquals("PONG", admin.ping());
            }
        }
    }

    @Test
    void clientOverItsHardLimitShouldBeCutBeforeTheRestOfItsPipelineRuns() throws Exception {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            admin.set(bytes("big"), randomBytes(MB, 5));
            admin.configSet("client-output-buffer-limit", "normal 32mb 8mb 10");
            try (Socket stalled = stalledSocket(ebb)) {
                long disconnections = stat(admin, "client_output_buffer_limit_disconnections");
                String gets = "*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n".repeat(300);
                OutputStream out = stalled.getOutputStream();
                out.write((gets + "*2\r\n$4\r\nINCR\r\n$5\r\nafter\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();

                for (int i = 0; i < 500 && stat(admin, "client_output_buffer_limit_disconnections") == disconnections; i++) {
                    Thread.sleep(10);
                }

                assertEquals(disconnections + 1, stat(admin, "client_output_buffer_limit_disconnections"));
                assertNull(admin.get("after"), "the command after the limit was reached must not run");
            } finally {
                admin.configSet("client-output-buffer-limit", "normal 0 0 0");
            }
        }
    }

    @Test
    void clientThatReadsShouldGetEveryReplyWithoutReachingItsSoftLimit() throws Exception {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            admin.configSet("client-output-buffer-limit", "normal 0 64mb 60");
            byte[] big = randomBytes(MB, 6);
            admin.set(bytes("big"), big);
            long disconnections = stat(admin, "client_output_buffer_limit_disconnections");
            try (Jedis reader = new Jedis(ebb.host(), ebb.port())) {
                Pipeline p = reader.pipelined();
                for (int i = 0; i < 40; i++) {
                    p.get(bytes("big"));
                }
                for (Object reply : p.syncAndReturnAll()) {
                    assertArrayEquals(big, (byte[]) reply);
                }
            } finally {
                admin.configSet("client-output-buffer-limit", "normal 0 0 0");
            }
            assertEquals(disconnections, stat(admin, "client_output_buffer_limit_disconnections"));
        }
    }

    /** Polls CLIENT LIST until some client's omem reaches {@code atLeast}; returns the largest seen. */
    private static long awaitOmem(Jedis admin, long atLeast) throws InterruptedException {
        long largest = 0;
        for (int i = 0; i < 500 && largest < atLeast; i++) {
            for (String line : admin.clientList().split("\n")) {
                for (String field : line.split(" ")) {
                    if (field.startsWith("omem=")) {
                        largest = Math.max(largest, Long.parseLong(field.substring(5).trim()));
                    }
                }
            }
            if (largest < atLeast) {
                Thread.sleep(10);
            }
        }
        assertTrue(largest >= atLeast, "omem reached only " + largest);
        return largest;
    }

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
