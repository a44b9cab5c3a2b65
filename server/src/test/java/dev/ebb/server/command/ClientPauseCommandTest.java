package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * CLIENT PAUSE / UNPAUSE as redis-server 7.2.4 behaves: WRITE holds the commands that may write
 * (and everything the held client sends after them, in order) while reads go through; ALL holds
 * every command, another client's UNPAUSE included, until the timeout; UNPAUSE releases the held
 * clients; active expiry waits while paused. And CLIENT UNBLOCK frees a Jedis BLPOP.
 */
class ClientPauseCommandTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    @Test
    void pauseWriteShouldHoldWritesAndLetReadsThrough() throws Exception {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port(), 30_000); RespTestSocket writer = new RespTestSocket(ebb);
                Jedis reader = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            admin.set("k", "before");
            assertEquals("OK", admin.clientPause(100_000, redis.clients.jedis.args.ClientPauseMode.WRITE));

            writer.send("set", "k", "after");
            writer.send("get", "k");
            writer.send("publish", "ch", "m");

            assertEquals("before", reader.get("k"));
            assertEquals("PONG", reader.ping());
            assertEquals("before", reader.get("k"));
            assertEquals("OK", admin.clientUnpause());
            assertEquals("+OK\r\n", writer.reply());
            assertEquals("$5\r\nafter\r\n", writer.reply());
            assertEquals(":0\r\n", writer.reply());
            assertEquals("after", reader.get("k"));
        }
    }

    @Test
    void pauseWriteShouldHoldAnExecWithWritesButNotAReadOnlyOne() throws Exception {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port(), 30_000); RespTestSocket readOnly = new RespTestSocket(ebb);
                RespTestSocket writing = new RespTestSocket(ebb)) {
            readOnly.call("multi");
            readOnly.call("get", "k");
            writing.call("multi");
            admin.clientPause(100_000, redis.clients.jedis.args.ClientPauseMode.WRITE);

            assertEquals("*1\r\n$-1\r\n", readOnly.call("exec"));
            writing.send("incr", "k");
            writing.send("exec");
            assertNull(admin.get("k"));
            admin.clientUnpause();

            assertEquals("+QUEUED\r\n", writing.reply());
            assertEquals("*1\r\n:1\r\n", writing.reply());
        }
    }

    @Test
    void pauseAllShouldHoldEveryCommandIncludingUnpauseUntilTheTimeout() throws Exception {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port(), 30_000); RespTestSocket reader = new RespTestSocket(ebb);
                RespTestSocket other = new RespTestSocket(ebb)) {
            admin.set("k", "v");
            assertEquals("OK", admin.clientPause(300));

            reader.send("get", "k");
            other.send("client", "unpause");
            ebb.advanceClock(1_000);

            // Released by the timeout (Redis holds UNPAUSE too under ALL), which the manual clock has
            // passed; the pause's timer notices it. reply() waits up to 5 s.
            assertEquals("$1\r\nv\r\n", reader.reply());
            assertEquals("+OK\r\n", other.reply());
            assertEquals("PONG", admin.ping());
        }
    }

    @Test
    void activeExpiryShouldWaitWhilePaused() throws Exception {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            admin.psetex("ttl", 100, "v");
            admin.clientPause(100_000, redis.clients.jedis.args.ClientPauseMode.WRITE);
            ebb.advanceClock(1_000);

            Thread.sleep(300);

            assertEquals(1L, admin.dbSize());
            assertTrue(admin.info("stats").contains("expired_keys:0\r\n"));
            admin.clientUnpause();
        }
    }

    @Test
    void pauseShouldCheckTheModeBeforeTheTimeoutWithRedisErrorTexts() throws Exception {
        try (RespTestSocket admin = new RespTestSocket(ebb)) {
            assertEquals("-ERR CLIENT PAUSE mode must be WRITE or ALL\r\n", admin.call("client", "pause", "x", "some"));
            assertEquals("-ERR timeout is not an integer or out of range\r\n", admin.call("client", "pause", "1.5"));
            assertEquals("-ERR timeout is negative\r\n", admin.call("client", "pause", "-1", "write"));
            assertEquals("-ERR timeout is out of range\r\n", admin.call("client", "pause", "9223372036854775807"));
            assertEquals("-ERR unknown subcommand or wrong number of arguments for 'pause'. Try CLIENT HELP.\r\n",
                    admin.call("client", "pause", "10", "write", "x"));
        }
    }

    @Test
    void unblockShouldFreeAJedisBlpop() throws Exception {
        try (Jedis blocked = new Jedis(ebb.host(), ebb.port(), 30_000); Jedis admin = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            long id = blocked.clientId();
            CompletableFuture<java.util.List<String>> pop = CompletableFuture.supplyAsync(() -> blocked.blpop(0, "q"));
            ListBlockingTest.awaitBlocked(ebb, 1);

            assertEquals(1L, admin.clientUnblock(id));

            assertNull(pop.get(10, TimeUnit.SECONDS));
        }
    }
}
