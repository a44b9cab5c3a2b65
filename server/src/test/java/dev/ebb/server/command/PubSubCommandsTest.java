package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Pub/Sub reply shapes byte for byte over raw sockets, RESP2 and RESP3; every expected reply was
 * captured from a real redis-server.
 */
class PubSubCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static final String ONLY_SUBSCRIBE = "only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are"
            + " allowed in this context\r\n";

    /** Earlier tests' subscribers must be gone before a test counts channels, patterns or clients. */
    @BeforeEach
    void awaitEarlierClientsClosed() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            ClientCommandsTest.waitForClients(j, 1);
        }
    }

    @Test
    void unsubscribeWithoutSubscriptionsShouldReplyNilChannelAndZero() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("*3\r\n$11\r\nunsubscribe\r\n$-1\r\n:0\r\n", s.call("UNSUBSCRIBE"));
            assertEquals("*3\r\n$12\r\npunsubscribe\r\n$-1\r\n:0\r\n", s.call("PUNSUBSCRIBE"));
            assertEquals("*3\r\n$12\r\nsunsubscribe\r\n$-1\r\n:0\r\n", s.call("SUNSUBSCRIBE"));
        }
    }

    @Test
    void resp2SubscribedClientShouldOnlyRunSubscribeFamilyPingQuitReset() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.send("SUBSCRIBE", "a", "b");
            assertEquals("*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n", s.reply());
            assertEquals("*3\r\n$9\r\nsubscribe\r\n$1\r\nb\r\n:2\r\n", s.reply());

            assertEquals("*2\r\n$4\r\npong\r\n$0\r\n\r\n", s.call("PING"));
            assertEquals("*2\r\n$4\r\npong\r\n$1\r\nx\r\n", s.call("PING", "x"));
            assertEquals("-ERR Can't execute 'get': " + ONLY_SUBSCRIBE, s.call("GET", "k"));
            assertEquals("-ERR Can't execute 'client|list': " + ONLY_SUBSCRIBE, s.call("CLIENT", "LIST"));
            s.send("UNSUBSCRIBE");
            assertEquals("*3\r\n$11\r\nunsubscribe\r\n$1\r\na\r\n:1\r\n", s.reply());
            assertEquals("*3\r\n$11\r\nunsubscribe\r\n$1\r\nb\r\n:0\r\n", s.reply());
            assertEquals("$-1\r\n", s.call("GET", "k"));
        }
    }

    @Test
    void resetShouldLeaveSubscribedMode() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb); RespTestSocket pub = new RespTestSocket(ebb)) {
            s.call("SUBSCRIBE", "a");

            assertEquals("+RESET\r\n", s.call("RESET"));

            assertEquals("$-1\r\n", s.call("GET", "k"));
            assertEquals(":0\r\n", pub.call("PUBLISH", "a", "x"));
        }
    }

    @Test
    void publishShouldDeliverMessagesAndPatternMessagesAndCountReceivers() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket pub = new RespTestSocket(ebb)) {
            sub.call("SUBSCRIBE", "news.art");
            assertEquals("*3\r\n$10\r\npsubscribe\r\n$6\r\nnews.*\r\n:2\r\n", sub.call("PSUBSCRIBE", "news.*"));
            sub.call("PSUBSCRIBE", "n[aeiou]ws.?rt");

            assertEquals(":3\r\n", pub.call("PUBLISH", "news.art", "hello"));
            assertEquals(":1\r\n", pub.call("PUBLISH", "news.music", "x"));
            assertEquals(":0\r\n", pub.call("PUBLISH", "other", "x"));

            assertEquals("*3\r\n$7\r\nmessage\r\n$8\r\nnews.art\r\n$5\r\nhello\r\n", sub.reply());
            assertEquals("*4\r\n$8\r\npmessage\r\n$6\r\nnews.*\r\n$8\r\nnews.art\r\n$5\r\nhello\r\n", sub.reply());
            assertEquals("*4\r\n$8\r\npmessage\r\n$14\r\nn[aeiou]ws.?rt\r\n$8\r\nnews.art\r\n$5\r\nhello\r\n",
                    sub.reply());
            assertEquals("*4\r\n$8\r\npmessage\r\n$6\r\nnews.*\r\n$10\r\nnews.music\r\n$1\r\nx\r\n", sub.reply());
        }
    }

    @Test
    void resp3ClientShouldGetPushesAndRunAnyCommand() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("HELLO", "3");
            assertEquals(">3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n", s.call("SUBSCRIBE", "a"));
            assertEquals("+PONG\r\n", s.call("PING"));
            assertEquals("_\r\n", s.call("GET", "k"));
            s.send("UNSUBSCRIBE", "a", "b");
            assertEquals(">3\r\n$11\r\nunsubscribe\r\n$1\r\na\r\n:0\r\n", s.reply());
            assertEquals(">3\r\n$11\r\nunsubscribe\r\n$1\r\nb\r\n:0\r\n", s.reply());
            assertEquals(">3\r\n$10\r\npsubscribe\r\n$2\r\np*\r\n:1\r\n", s.call("PSUBSCRIBE", "p*"));
            assertEquals(":0\r\n", s.call("PUBLISH", "a", "x"));

            // A message to the publishing client itself follows the PUBLISH reply, never splits it.
            assertEquals(":1\r\n", s.call("PUBLISH", "pq", "y"));
            assertEquals(">4\r\n$8\r\npmessage\r\n$2\r\np*\r\n$2\r\npq\r\n$1\r\ny\r\n", s.reply());
            assertEquals(">3\r\n$10\r\nssubscribe\r\n$1\r\ns\r\n:1\r\n", s.call("SSUBSCRIBE", "s"));
            assertEquals(":1\r\n", s.call("SPUBLISH", "s", "z"));
            assertEquals(">3\r\n$8\r\nsmessage\r\n$1\r\ns\r\n$1\r\nz\r\n", s.reply());
            assertEquals(">3\r\n$12\r\nsunsubscribe\r\n$1\r\ns\r\n:0\r\n", s.call("SUNSUBSCRIBE"));
        }
    }

    @Test
    void pubsubIntrospectionShouldCountChannelsAndPatterns() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket other = new RespTestSocket(ebb);
                RespTestSocket q = new RespTestSocket(ebb)) {
            sub.send("SUBSCRIBE", "a", "ab");
            sub.reply();
            sub.reply();
            other.call("SUBSCRIBE", "a");
            other.call("PSUBSCRIBE", "x*");
            sub.call("PSUBSCRIBE", "x*");
            sub.call("SSUBSCRIBE", "s1");

            assertEquals("*4\r\n$1\r\na\r\n:2\r\n$1\r\nz\r\n:0\r\n", q.call("PUBSUB", "NUMSUB", "a", "z"));
            assertEquals("*0\r\n", q.call("PUBSUB", "NUMSUB"));
            assertEquals(":1\r\n", q.call("PUBSUB", "NUMPAT"));
            assertEquals("*1\r\n$2\r\nab\r\n", q.call("PUBSUB", "CHANNELS", "a?"));
            assertTrue(q.call("PUBSUB", "CHANNELS").startsWith("*2\r\n"));
            assertEquals("*1\r\n$2\r\ns1\r\n", q.call("PUBSUB", "SHARDCHANNELS"));
            assertEquals("*2\r\n$2\r\ns1\r\n:1\r\n", q.call("PUBSUB", "SHARDNUMSUB", "s1"));
            assertEquals("-ERR unknown subcommand 'FOO'. Try PUBSUB HELP.\r\n", q.call("PUBSUB", "FOO"));
            assertEquals("-ERR wrong number of arguments for 'pubsub|numpat' command\r\n",
                    q.call("PUBSUB", "NUMPAT", "x"));
            assertEquals("-ERR unknown subcommand or wrong number of arguments for 'channels'. Try PUBSUB HELP.\r\n",
                    q.call("PUBSUB", "channels", "a", "b"));
            assertEquals("-ERR wrong number of arguments for 'subscribe' command\r\n", q.call("SUBSCRIBE"));
            assertTrue(q.call("PUBSUB", "HELP").startsWith("*14\r\n+PUBSUB <subcommand>"));
            String list = q.call("CLIENT", "LIST", "TYPE", "pubsub");
            assertEquals(2, list.split("\nid=").length - 1, list);
            assertTrue(list.contains(" flags=P ") && list.contains(" sub=2 psub=1 ssub=1 "), list);
        }
    }

    @Test
    void clientKillTypePubsubShouldCloseOnlySubscribers() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket plain = new RespTestSocket(ebb);
                RespTestSocket admin = new RespTestSocket(ebb)) {
            sub.call("PSUBSCRIBE", "*");

            assertEquals(":1\r\n", admin.call("CLIENT", "KILL", "TYPE", "pubsub"));

            assertTrue(sub.closedByServer());
            assertEquals("+PONG\r\n", plain.call("PING"));
        }
    }

    @Test
    void disconnectShouldDropSubscriptions() throws Exception {
        try (RespTestSocket q = new RespTestSocket(ebb)) {
            try (RespTestSocket sub = new RespTestSocket(ebb)) {
                sub.call("SUBSCRIBE", "gone");
                assertEquals(":1\r\n", q.call("PUBLISH", "gone", "x"));
            }

            long deadline = System.currentTimeMillis() + 5000;
            String reply = q.call("PUBLISH", "gone", "x");
            while (!reply.equals(":0\r\n") && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
                reply = q.call("PUBLISH", "gone", "x");
            }
            assertEquals(":0\r\n", reply);
            assertEquals("*0\r\n", q.call("PUBSUB", "CHANNELS"));
        }
    }
}
