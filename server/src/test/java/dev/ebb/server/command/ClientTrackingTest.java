package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * CLIENT TRACKING's invalidation messages, byte for byte as redis-server 7.2.4 sends them: default
 * mode (RESP3 pushes), the client's own writes, NOLOOP, OPTIN, flushes, BCAST prefixes, RESP2 with
 * REDIRECT, a broken redirect, every write path (MULTI, scripts, expiry), the table's size limit
 * and the INFO fields. A PING after the expected messages proves nothing else was sent.
 */
class ClientTrackingTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    private static final String PONG = "+PONG\r\n";

    static String invalidate(String... keys) {
        StringBuilder sb = new StringBuilder(">2\r\n$10\r\ninvalidate\r\n*").append(keys.length).append("\r\n");
        for (String key : keys) {
            sb.append('$').append(key.length()).append("\r\n").append(key).append("\r\n");
        }
        return sb.toString();
    }

    private static RespTestSocket resp3Tracking(String... options) throws Exception {
        RespTestSocket s = new RespTestSocket(ebb);
        s.call("hello", "3");
        String[] args = new String[options.length + 3];
        args[0] = "client";
        args[1] = "tracking";
        args[2] = "on";
        System.arraycopy(options, 0, args, 3, options.length);
        assertEquals("+OK\r\n", s.call(args));
        return s;
    }

    @Test
    void writeFromAnotherConnectionShouldInvalidateAReadKeyOnce() throws Exception {
        try (RespTestSocket tracking = resp3Tracking(); Jedis writer = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            tracking.call("get", "k");

            writer.set("k", "1");
            writer.set("k", "2");

            assertEquals(invalidate("k"), tracking.reply());
            assertEquals(PONG, tracking.call("ping"));
        }
    }

    @Test
    void ownWriteShouldBeInvalidatedAfterItsReplyUnlessNoloop() throws Exception {
        try (RespTestSocket tracking = resp3Tracking(); RespTestSocket noloop = resp3Tracking("noloop")) {
            tracking.call("get", "own");
            noloop.call("get", "mine");

            assertEquals("+OK\r\n", tracking.call("set", "own", "1"));
            assertEquals(invalidate("own"), tracking.reply());
            assertEquals("+OK\r\n", noloop.call("set", "mine", "1"));
            assertEquals(PONG, noloop.call("ping"));
        }
    }

    @Test
    void flushShouldSendOneNullInvalidationToEveryTrackingClient() throws Exception {
        try (RespTestSocket tracking = resp3Tracking(); RespTestSocket bcast = resp3Tracking("bcast");
                Jedis writer = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            tracking.call("get", "k");

            writer.flushAll();

            assertEquals(">2\r\n$10\r\ninvalidate\r\n_\r\n", tracking.reply());
            assertEquals(">2\r\n$10\r\ninvalidate\r\n_\r\n", bcast.reply());
            assertEquals(PONG, tracking.call("ping"));
            assertEquals(PONG, bcast.call("ping"));
        }
    }

    @Test
    void bcastShouldSendOnlyMatchingKeysOneMessagePerPrefixInByteOrder() throws Exception {
        try (RespTestSocket bcast = resp3Tracking("bcast", "prefix", "user:", "prefix", "cart:");
                Jedis writer = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            writer.mset("user:2", "a", "other", "b", "user:1", "c", "cart:9", "d");

            assertEquals(invalidate("cart:9"), bcast.reply());
            assertEquals(invalidate("user:1", "user:2"), bcast.reply());
            writer.set("unrelated", "x");
            assertEquals(PONG, bcast.call("ping"));
        }
    }

    @Test
    void resp2ShouldRedirectInvalidationsToASubscriberOfTheInvalidateChannel() throws Exception {
        try (RespTestSocket subscriber = new RespTestSocket(ebb); Jedis tracking = new Jedis(ebb.host(), ebb.port(), 30_000);
                Jedis writer = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            String id = subscriber.call("client", "id").substring(1).trim();
            subscriber.call("subscribe", "__redis__:invalidate");
            tracking.sendCommand(() -> "CLIENT".getBytes(), "TRACKING", "on", "REDIRECT", id);
            tracking.get("k");

            writer.set("k", "v");
            writer.flushDB();

            assertEquals("*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n*1\r\n$1\r\nk\r\n", subscriber.reply());
            assertEquals("*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n$-1\r\n", subscriber.reply());
            assertEquals(Long.parseLong(id), tracking.sendCommand(() -> "CLIENT".getBytes(), "GETREDIR"));
        }
    }

    @Test
    void goneRedirectTargetShouldFlagTheClientAndPushRedirBroken() throws Exception {
        try (RespTestSocket tracking = new RespTestSocket(ebb); Jedis writer = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            tracking.call("hello", "3");
            String targetId;
            try (RespTestSocket target = new RespTestSocket(ebb)) {
                targetId = target.call("client", "id").substring(1).trim();
                assertEquals("+OK\r\n", tracking.call("client", "tracking", "on", "redirect", targetId));
            }
            awaitGone(targetId);
            tracking.call("get", "k");

            writer.set("k", "v");

            assertEquals(">2\r\n$21\r\ntracking-redir-broken\r\n:" + targetId + "\r\n", tracking.reply());
            String info = tracking.call("client", "trackinginfo");
            assertTrue(info.contains("$15\r\nbroken_redirect\r\n"), info);
            assertTrue(tracking.call("client", "info").contains(" flags=tR "));
        }
    }

    @Test
    void optinShouldTrackOnlyTheCommandAfterCachingYes() throws Exception {
        try (RespTestSocket tracking = resp3Tracking("optin"); Jedis writer = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            tracking.call("get", "skipped");
            tracking.call("client", "caching", "yes");
            tracking.call("get", "cached");
            tracking.call("get", "skipped-too");

            writer.mset("skipped", "1", "cached", "2", "skipped-too", "3");

            assertEquals(invalidate("cached"), tracking.reply());
            assertEquals(PONG, tracking.call("ping"));
        }
    }

    @Test
    void transactionsScriptsAndExpiryShouldInvalidate() throws Exception {
        try (RespTestSocket tracking = resp3Tracking(); Jedis writer = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            writer.psetex("ttl", 100, "v");
            tracking.call("mget", "in-multi", "in-script", "ttl");

            redis.clients.jedis.Transaction multi = writer.multi();
            multi.incr("in-multi");
            multi.exec();
            writer.eval("return redis.call('set', KEYS[1], 'x')", 1, "in-script");
            ebb.advanceClock(1000);
            writer.get("ttl");

            assertEquals(invalidate("in-multi"), tracking.reply());
            assertEquals(invalidate("in-script"), tracking.reply());
            assertEquals(invalidate("ttl"), tracking.reply());
        }
    }

    @Test
    void tableOverItsLimitShouldInvalidateKeysBeforeTheNextCommand() throws Exception {
        try (RespTestSocket tracking = resp3Tracking(); Jedis admin = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            admin.configSet("tracking-table-max-keys", "2");
            try {
                tracking.call("mget", "a", "b", "c");

                tracking.send("ping");

                // As Redis: the limit is applied before the next command runs, so the push comes first.
                String pushed = tracking.reply();
                assertTrue(pushed.startsWith(">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\n"), pushed);
                assertEquals(PONG, tracking.reply());
                assertTrue(admin.info("stats").contains("tracking_total_keys:2"));
            } finally {
                admin.configSet("tracking-table-max-keys", "1000000");
            }
        }
    }

    @Test
    void infoShouldCountTrackingClientsKeysItemsAndPrefixes() throws Exception {
        try (RespTestSocket first = resp3Tracking(); RespTestSocket second = resp3Tracking();
                RespTestSocket bcast = resp3Tracking("bcast", "prefix", "p1", "prefix", "p2");
                Jedis admin = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            first.call("mget", "x", "y");
            second.call("get", "x");

            String info = admin.info();

            assertTrue(info.contains("tracking_clients:3\r\n"), info);
            assertTrue(info.contains("tracking_total_keys:2\r\n"), info);
            assertTrue(info.contains("tracking_total_items:3\r\n"), info);
            assertTrue(info.contains("tracking_total_prefixes:2\r\n"), info);
            bcast.call("client", "tracking", "off");
            assertTrue(admin.info("stats").contains("tracking_total_prefixes:0\r\n"));
        }
    }

    /** Waits until the server has noticed that client {@code id} disconnected. */
    private static void awaitGone(String id) throws InterruptedException {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            long deadline = System.currentTimeMillis() + 10_000;
            while (System.currentTimeMillis() < deadline) {
                if (admin.clientList().lines().noneMatch(l -> l.startsWith("id=" + id + " "))) {
                    return;
                }
                Thread.sleep(5);
            }
            throw new AssertionError("client " + id + " still connected");
        }
    }
}
