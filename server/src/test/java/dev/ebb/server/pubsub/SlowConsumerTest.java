package dev.ebb.server.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * client-output-buffer-limit with Redis's defaults ({@code pubsub 32mb 8mb 60}, {@code normal 0 0 0}):
 * a subscriber that never reads is closed when it crosses the pubsub hard limit while a publisher
 * floods 100 MB; the publisher and other clients carry on and the server's buffer memory returns
 * to its baseline. A normal client asking for a huge reply without reading is closed only when
 * a normal limit is set.
 */
public class SlowConsumerTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static final int MESSAGE_BYTES = 64 * 1024;
    private static final int FLOOD_MESSAGES = 1600;

    @Test
    void subscriberThatNeverReadsShouldBeClosedAtPubsubHardLimit() throws Exception {
        floodStalledSubscriber(ebb);
    }

    /** The flood scenario against {@code ebb}, which must run with the default pubsub limits. */
    static void floodStalledSubscriber(EbbExtension ebb) throws Exception {
        long baseline = usedDirectMemory();
        byte[] message = new byte[MESSAGE_BYTES];
        Arrays.fill(message, (byte) 'm');
        try (Socket slow = stalledSocket(ebb); Jedis pub = new Jedis(ebb.host(), ebb.port());
                Jedis other = new Jedis(ebb.host(), ebb.port())) {
            send(slow, "SUBSCRIBE", "flood");
            awaitSubscribers(pub, "flood", 1);
            long disconnectionsBefore = stat(other, "client_output_buffer_limit_disconnections");

            long delivered = 0;
            long peak = 0;
            for (int batch = 0; batch < FLOOD_MESSAGES / 100; batch++) {
                Pipeline p = pub.pipelined();
                for (int i = 0; i < 100; i++) {
                    p.publish("flood".getBytes(StandardCharsets.US_ASCII), message);
                }
                for (Object receivers : p.syncAndReturnAll()) {
                    delivered += (Long) receivers;
                }
                peak = Math.max(peak, usedDirectMemory() - baseline);
            }

            assertTrue(delivered * MESSAGE_BYTES < 40L * 1024 * 1024,
                    "delivered " + delivered + " messages before the subscriber was dropped");
            assertTrue(closedByServer(slow), "the stalled subscriber must be disconnected");
            assertEquals(disconnectionsBefore + 1, stat(other, "client_output_buffer_limit_disconnections"));
            assertEquals(0L, pub.publish("flood", "after"));
            assertEquals("PONG", other.ping());
            assertEquals("PONG", pub.ping());
            long settled = usedDirectMemory() - baseline;
            for (int i = 0; i < 100 && settled > 16L * 1024 * 1024; i++) {
                Thread.sleep(20);
                settled = usedDirectMemory() - baseline;
            }
            System.out.printf("slow consumer flood: peak buffer memory %.1f MB over baseline, settled %.1f MB%n",
                    peak / 1048576.0, settled / 1048576.0);
            // Pooled memory is counted in whole chunks per thread arena: the 32 MB the subscriber held,
            // its growing reply buffer and the publisher's decoded pipelines fit well under 80 MB.
            assertTrue(peak < 80L * 1024 * 1024, "peak " + peak);
            assertTrue(settled < 16L * 1024 * 1024, "settled " + settled);
        }
    }

    @Test
    void normalClientWithLimitShouldBeClosedForHugeReplyAndNotWithoutLimit() throws Exception {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            byte[] big = new byte[8 * 1024 * 1024];
            admin.set("big".getBytes(StandardCharsets.US_ASCII), big);
            admin.configSet("client-output-buffer-limit", "normal 1mb 0 0");
            try (Socket limited = stalledSocket()) {
                send(limited, "GET", "big");

                assertTrue(closedByServer(limited), "a normal client over its hard limit must be closed");
            } finally {
                admin.configSet("client-output-buffer-limit", "normal 0 0 0");
            }
            try (Socket unlimited = stalledSocket()) {
                send(unlimited, "GET", "big");

                Thread.sleep(300);
                unlimited.setReceiveBufferSize(1 << 20);
                InputStream in = unlimited.getInputStream();
                long total = 0;
                byte[] buf = new byte[1 << 16];
                long expected = big.length + "$8388608\r\n\r\n".length();
                while (total < expected) {
                    int n = in.read(buf);
                    assertTrue(n > 0, "connection closed after " + total + " bytes");
                    total += n;
                }
                assertEquals(expected, total);
            }
        }
    }

    public static long usedDirectMemory() {
        return PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory()
                + PooledByteBufAllocator.DEFAULT.metric().usedHeapMemory();
    }

    /** A connection with a tiny receive window that the test never reads from. */
    static Socket stalledSocket() throws IOException {
        return stalledSocket(ebb);
    }

    public static Socket stalledSocket(EbbExtension ebb) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(4096);
        s.connect(new InetSocketAddress(ebb.host(), ebb.port()));
        s.setSoTimeout(5000);
        return s;
    }

    public static void send(Socket s, String... args) throws IOException {
        StringBuilder sb = new StringBuilder().append('*').append(args.length).append("\r\n");
        for (String arg : args) {
            sb.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
        }
        OutputStream out = s.getOutputStream();
        out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Drains what the server sent and reports whether it then closed the connection. */
    public static boolean closedByServer(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        byte[] buf = new byte[1 << 16];
        try {
            while (true) {
                if (in.read(buf) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    static void awaitSubscribers(Jedis j, String channel, long count) throws InterruptedException {
        for (int i = 0; i < 500 && j.pubsubNumSub(channel).get(channel) != count; i++) {
            Thread.sleep(10);
        }
        assertEquals(count, j.pubsubNumSub(channel).get(channel));
    }

    public static long stat(Jedis j, String name) {
        for (String line : j.info("stats").split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1));
            }
        }
        assertFalse(true, "no INFO field " + name);
        return -1;
    }
}
