package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.util.SafeEncoder;

/**
 * The server-side life of transaction state: WATCHed keys leave the index on RESET and on
 * disconnect, and CLIENT LIST shows the MULTI state (flags {@code x} and {@code d}, {@code multi=}).
 */
class TransactionStateTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static int watchedKeys() {
        AtomicInteger n = new AtomicInteger();
        ebb.server().runOnLoop(s -> n.set(s.watches().watchedKeys()));
        return n.get();
    }

    /** An earlier test's closed connection may still be unregistering, with its WATCHed keys. */
    @BeforeEach
    void awaitEarlierWatchesGone() throws InterruptedException {
        for (int i = 0; i < 500 && watchedKeys() != 0; i++) {
            Thread.sleep(10);
        }
        assertEquals(0, watchedKeys(), "WATCHed keys left by an earlier test");
    }

    @Test
    void disconnectShouldUnwatchEveryKeyAndEndTheTransaction() throws InterruptedException {
        Jedis j = new Jedis(ebb.host(), ebb.port());
        j.watch("a", "b");
        j.sendCommand(Protocol.Command.MULTI);
        assertEquals(2, watchedKeys());

        j.close();

        for (int i = 0; i < 100 && watchedKeys() != 0; i++) {
            Thread.sleep(10);
        }
        assertEquals(0, watchedKeys());
    }

    @Test
    void watchingAKeyTwiceShouldWatchItOnceAndOneUnwatchShouldForgetIt() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.watch("a", "a");
            j.watch("a", "b");
            j.select(1);
            j.watch("a");
            assertEquals(3, watchedKeys());

            j.unwatch();

            assertEquals(0, watchedKeys());
        }
    }

    @Test
    void resetShouldUnwatchEveryKey() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port()); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            j.watch("a");
            other.watch("a", "c");
            assertEquals(2, watchedKeys());

            j.sendCommand(Protocol.Command.RESET);

            assertEquals(2, watchedKeys());
            other.unwatch();
            assertEquals(0, watchedKeys());
        }
    }

    @Test
    void clientListShouldShowTheTransactionState() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port()); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            j.clientSetname("tx");
            j.watch("x");
            j.sendCommand(Protocol.Command.MULTI);
            assertEquals("QUEUED", SafeEncoder.encode((byte[]) j.sendCommand(Protocol.Command.GET, "x")));
            String line = other.clientList().lines().filter(l -> l.contains(" name=tx ")).findFirst().orElseThrow();
            assertTrue(line.contains(" flags=x "), line);
            assertTrue(line.contains(" multi=1 "), line);
            assertTrue(line.contains(" cmd=get "), line);

            other.set("x", "1");

            line = other.clientList().lines().filter(l -> l.contains(" name=tx ")).findFirst().orElseThrow();
            assertTrue(line.contains(" flags=xd "), line);
        }
    }
}
