package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** The {@code timeout} directive, driven by the manual clock (the cron runs at hz 100). */
class IdleTimeoutTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock().config("timeout", "10").config("hz", "100");

    @Test
    void aClientIdleLongerThanTheTimeoutShouldBeClosedByTheCron() throws Exception {
        try (Socket idle = new Socket(ebb.host(), ebb.port()); Jedis active = new Jedis(ebb.host(), ebb.port())) {
            idle.setSoTimeout(5000);
            assertEquals("PONG", active.ping());
            ebb.advanceClock(9_000);
            assertEquals("PONG", active.ping());
            Thread.sleep(100);

            ebb.advanceClock(2_000);

            assertEquals("", ConnectionLimitsTest.readAll(idle.getInputStream()));
            assertEquals("PONG", active.ping());
        }
    }

    @Test
    void anExemptClientShouldSurviveTheTimeout() throws Exception {
        try (Socket exempt = new Socket(ebb.host(), ebb.port())) {
            exempt.setSoTimeout(5000);
            exempt.getOutputStream().write("CLIENT SETNAME exempt\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals('+', exempt.getInputStream().read());
            exempt.getInputStream().skip(4);
            ebb.server().runOnLoop(s -> s.clients().stream()
                    .filter(c -> c.name() != null && new String(c.name(), StandardCharsets.UTF_8).equals("exempt"))
                    .forEach(c -> c.setFlag(Client.FLAG_IDLE_TIMEOUT_EXEMPT, true)));

            ebb.advanceClock(60_000);
            Thread.sleep(200);

            exempt.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] pong = exempt.getInputStream().readNBytes(7);
            assertTrue(new String(pong, StandardCharsets.US_ASCII).startsWith("+PONG"));
        }
    }

    @Test
    void aSubscriberShouldSurviveTheTimeoutAsInRedis() throws Exception {
        try (Socket subscriber = new Socket(ebb.host(), ebb.port()); Jedis publisher = new Jedis(ebb.host(), ebb.port())) {
            subscriber.setSoTimeout(5000);
            subscriber.getOutputStream().write("SUBSCRIBE news\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] confirmation = "*3\r\n$9\r\nsubscribe\r\n$4\r\nnews\r\n:1\r\n".getBytes(StandardCharsets.US_ASCII);
            assertEquals(new String(confirmation, StandardCharsets.US_ASCII),
                    new String(subscriber.getInputStream().readNBytes(confirmation.length), StandardCharsets.US_ASCII));

            ebb.advanceClock(60_000);
            Thread.sleep(200);

            assertEquals(1L, publisher.publish("news", "still here"));
            byte[] message = "*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$10\r\nstill here\r\n"
                    .getBytes(StandardCharsets.US_ASCII);
            assertEquals(new String(message, StandardCharsets.US_ASCII),
                    new String(subscriber.getInputStream().readNBytes(message.length), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void aClientBlockedInBlpopShouldSurviveTheTimeoutAsInRedis() throws Exception {
        try (Socket blocked = new Socket(ebb.host(), ebb.port())) {
            blocked.setSoTimeout(5000);
            blocked.getOutputStream().write("BLPOP jobs 0\r\n".getBytes(StandardCharsets.US_ASCII));
            try (Jedis observer = new Jedis(ebb.host(), ebb.port())) {
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (!observer.info("clients").contains("blocked_clients:1") && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
            }

            ebb.advanceClock(60_000);
            Thread.sleep(200);

            try (Jedis pusher = new Jedis(ebb.host(), ebb.port())) {
                assertEquals(1L, pusher.rpush("jobs", "j1"));
            }
            String reply = "*2\r\n$4\r\njobs\r\n$2\r\nj1\r\n";
            assertEquals(reply, new String(blocked.getInputStream().readNBytes(reply.length()), StandardCharsets.US_ASCII));
        }
    }
}
