package dev.ebb.server.pubsub;

import static dev.ebb.server.pubsub.SlowConsumerTest.awaitSubscribers;
import static dev.ebb.server.pubsub.SlowConsumerTest.send;
import static dev.ebb.server.pubsub.SlowConsumerTest.stalledSocket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * The soft output-buffer limit, timed with the manual clock: a subscriber held just above
 * {@code pubsub 0 1mb 10} is closed once it has been over for more than 10 s (by the cron, within
 * one period, with nothing more written to it); one held below is never closed.
 */
class OutputBufferSoftLimitTest {
    private static final long SOFT = 1024 * 1024;

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock()
            .config("client-output-buffer-limit", "pubsub", "0", "1mb", "10");

    @Test
    void subscriberAboveSoftLimitShouldBeClosedAfterSoftSecondsAndOneBelowShouldNot() throws Exception {
        byte[] message = new byte[16 * 1024];
        Arrays.fill(message, (byte) 'x');
        try (Socket above = stalledSocket(ebb); Socket below = stalledSocket(ebb); Jedis pub = new Jedis(ebb.host(),
                ebb.port())) {
            send(above, "CLIENT", "SETNAME", "above");
            send(above, "SUBSCRIBE", "big");
            send(below, "CLIENT", "SETNAME", "below");
            send(below, "SUBSCRIBE", "small");
            awaitSubscribers(pub, "big", 1);
            awaitSubscribers(pub, "small", 1);
            String aboveId = "above";
            String belowId = "below";
            for (int i = 0; i < 5000 && omem(pub, aboveId) < SOFT; i++) {
                pub.publish("big".getBytes(StandardCharsets.US_ASCII), message);
            }
            assertTrue(omem(pub, aboveId) >= SOFT);
            pub.publish("small", "hello");

            ebb.advanceClock(9_000);
            Thread.sleep(350);

            assertTrue(connected(pub, aboveId), "closed before soft-seconds passed");

            ebb.advanceClock(1_500);
            for (int i = 0; i < 100 && connected(pub, aboveId); i++) {
                Thread.sleep(10);
            }

            assertTrue(!connected(pub, aboveId), "still connected after soft-seconds");
            ebb.advanceClock(60_000);
            Thread.sleep(350);
            assertTrue(connected(pub, belowId), "a client below the soft limit must stay");
            assertEquals(1L, pub.publish("small", "still here"));
        }
    }

    private static String line(Jedis j, String name) {
        for (String line : j.clientList().split("\n")) {
            if (line.contains(" name=" + name + " ")) {
                return line;
            }
        }
        return null;
    }

    private static boolean connected(Jedis j, String id) {
        return line(j, id) != null;
    }

    private static long omem(Jedis j, String id) {
        String line = line(j, id);
        int at = line.indexOf(" omem=") + 6;
        return Long.parseLong(line.substring(at, line.indexOf(' ', at)));
    }
}
