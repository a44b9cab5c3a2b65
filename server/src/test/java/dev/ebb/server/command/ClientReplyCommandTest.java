package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * CLIENT REPLY ON|OFF|SKIP through a raw socket, as Redis 7.2.4 answers: a muted reply that leaked
 * would be read in place of the marker reply each test reads next.
 */
class ClientReplyCommandTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void offShouldDropEveryReplyErrorsIncludedUntilOn() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.send("client", "reply", "off");
            s.send("set", "off-k", "v");
            s.send("get", "off-k");
            s.send("nosuchcommand");
            s.send("get");
            s.send("client", "reply", "bad");

            assertEquals("+OK\r\n", s.call("client", "reply", "on"));
            assertEquals("$1\r\nv\r\n", s.call("get", "off-k"));
        }
    }

    @Test
    void protocolErrorUnderOffShouldCloseWithoutAnErrorReply() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.send("client", "reply", "off");
            s.sendRaw("*1\r\n$abc\r\n");

            assertTrue(s.closedByServer());
        }
    }

    @Test
    void skipShouldDropOnlyTheNextCommandsReply() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.send("client", "reply", "skip");
            s.send("ping", "dropped");
            assertEquals("$4\r\nsent\r\n", s.call("ping", "sent"));

            s.send("client", "reply", "skip");
            s.send("nosuchcommand");
            assertEquals("+PONG\r\n", s.call("ping"));
        }
    }

    @Test
    void skipUnderOffShouldLeaveRepliesOffAndOnShouldClearBoth() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.send("client", "reply", "off");
            s.send("client", "reply", "skip");
            s.send("ping", "dropped");
            s.send("ping", "dropped too");

            assertEquals("+OK\r\n", s.call("client", "reply", "on"));
            assertEquals("+PONG\r\n", s.call("ping"));
        }
    }

    @Test
    void subscribeConfirmationsAndMessagesShouldStillArriveUnderOff() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb); Jedis publisher = new Jedis(ebb.host(), ebb.port())) {
            s.send("client", "reply", "off");
            s.send("ping", "dropped");
            s.send("subscribe", "reply-off-ch");
            assertEquals("*3\r\n$9\r\nsubscribe\r\n$12\r\nreply-off-ch\r\n:1\r\n", s.reply());

            assertEquals(1, publisher.publish("reply-off-ch", "hi"));
            assertEquals("*3\r\n$7\r\nmessage\r\n$12\r\nreply-off-ch\r\n$2\r\nhi\r\n", s.reply());
        }
    }

    @Test
    void resp3MessagesToItselfShouldArriveUnderOffWithoutThePublishReply() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("hello", "3");
            assertEquals(">3\r\n$9\r\nsubscribe\r\n$7\r\nself-ch\r\n:1\r\n", s.call("subscribe", "self-ch"));
            s.send("client", "reply", "off");

            s.send("publish", "self-ch", "me");

            assertEquals(">3\r\n$7\r\nmessage\r\n$7\r\nself-ch\r\n$2\r\nme\r\n", s.reply());
            assertEquals("+OK\r\n", s.call("client", "reply", "on"));
        }
    }

    @Test
    void skippedBlockingCommandShouldBeServedWithoutAReply() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb); Jedis producer = new Jedis(ebb.host(), ebb.port())) {
            s.send("client", "reply", "skip");
            s.send("blpop", "skip-list", "0");
            ListBlockingTest.awaitBlocked(ebb, 1);

            producer.rpush("skip-list", "x");
            ListBlockingTest.awaitBlocked(ebb, 0);

            assertEquals("+PONG\r\n", s.call("ping"));
            assertEquals(0, producer.llen("skip-list"));
        }
    }
}
