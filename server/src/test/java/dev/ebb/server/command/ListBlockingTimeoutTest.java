package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ebb.server.embedded.EbbExtension;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.KeyValue;

/** Blocking timeouts on the server clock, driven by the manual clock: no sleeping for the timeout. */
class ListBlockingTimeoutTest {
    private static final ExecutorService POOL = Executors.newCachedThreadPool();

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    @Test
    void blpopShouldTimeOutOnlyOnceTheServerClockPassesTheDeadline() throws Exception {
        try (Jedis waiter = new Jedis(ebb.host(), ebb.port(), 30_000);
                Jedis other = new Jedis(ebb.host(), ebb.port())) {
            Future<KeyValue<String, String>> result = POOL.submit(() -> waiter.blpop(1.5, "q"));
            ListBlockingTest.awaitBlocked(ebb, 1);

            ebb.advanceClock(1499);
            Thread.sleep(300);
            assertFalse(result.isDone());
            ebb.advanceClock(1);

            assertNull(result.get(10, TimeUnit.SECONDS));
            ListBlockingTest.awaitBlocked(ebb, 0);
            other.rpush("q", "later");
            assertEquals(1, other.llen("q"));
        }
    }

    @Test
    void zeroTimeoutShouldWaitForeverAndStillBeServed() throws Exception {
        try (Jedis waiter = new Jedis(ebb.host(), ebb.port(), 30_000);
                Jedis producer = new Jedis(ebb.host(), ebb.port())) {
            Future<KeyValue<String, String>> result = POOL.submit(() -> waiter.brpop(0.0, "q"));
            ListBlockingTest.awaitBlocked(ebb, 1);

            ebb.advanceClock(TimeUnit.DAYS.toMillis(365));
            Thread.sleep(300);
            assertFalse(result.isDone());
            producer.rpush("q", "v");

            assertEquals(new KeyValue<>("q", "v"), result.get(10, TimeUnit.SECONDS));
        }
    }
}
