package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redirections between two Ebb primaries joined by CLUSTER MEET, each owning half of the slots:
 * MOVED, ASK and TRYAGAIN while a slot migrates, ASKING on the importing side, redirections inside
 * MULTI, and the errors a script gets for a key of another node. Replies as redis-server 7.2.4 sends
 * them.
 */
class ClusterRoutingTest {
    @RegisterExtension
    static final EbbExtension a = new EbbExtension().config("cluster-enabled", "yes").keepDataBetweenTests();
    @RegisterExtension
    static final EbbExtension b = new EbbExtension().config("cluster-enabled", "yes").keepDataBetweenTests();

    /** Slot of "{b}…" keys (owned by A) and of "foo" (owned by B). */
    private static final int T_SLOT = 3300;
    private static final int FOO_SLOT = 12182;
    private static String idA;
    private static String idB;

    @BeforeAll
    static void joinTheTwoNodes() throws Exception {
        int[] busB = new int[1];
        b.server().runOnLoop(s -> busB[0] = s.cluster().busPort());
        try (RespTestSocket sa = new RespTestSocket(a); RespTestSocket sb = new RespTestSocket(b)) {
            assertEquals("+OK\r\n", sa.call("CLUSTER", "ADDSLOTSRANGE", "0", "8191"));
            assertEquals("+OK\r\n", sb.call("CLUSTER", "ADDSLOTSRANGE", "8192", "16383"));
            assertEquals("+OK\r\n", sa.call("CLUSTER", "MEET", "127.0.0.1", String.valueOf(b.port()),
                    String.valueOf(busB[0])));
            idA = sa.call("CLUSTER", "MYID").substring(5, 45);
            idB = sb.call("CLUSTER", "MYID").substring(5, 45);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!(healthy(sa) && healthy(sb))) {
                assertTrue(System.nanoTime() < deadline, "the two nodes did not join within 60 s");
                Thread.sleep(100);
            }
        }
    }

    private static boolean healthy(RespTestSocket s) throws IOException {
        String info = s.call("CLUSTER", "INFO");
        return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:2")
                && !s.call("CLUSTER", "NODES").contains("handshake");
    }

    @Test
    void aKeyOfTheOtherNodeShouldBeMovedThereAndTheOtherWay() throws IOException {
        try (RespTestSocket sa = new RespTestSocket(a); RespTestSocket sb = new RespTestSocket(b)) {
            assertEquals("-MOVED " + FOO_SLOT + " 127.0.0.1:" + b.port() + "\r\n", sa.call("GET", "foo"));
            assertEquals("-MOVED " + T_SLOT + " 127.0.0.1:" + a.port() + "\r\n", sb.call("SET", "{b}a", "1"));
            assertEquals("$-1\r\n", sb.call("GET", "foo"));
            assertEquals("+PONG\r\n", sb.call("PING"));
        }
    }

    @Test
    void aMigratingSlotShouldServePresentKeysAskForMissingOnesAndTryAgainForAMix() throws IOException {
        try (RespTestSocket sa = new RespTestSocket(a); RespTestSocket sb = new RespTestSocket(b)) {
            sa.call("SET", "{b}here", "v");
            assertEquals("+OK\r\n", sb.call("CLUSTER", "SETSLOT", String.valueOf(T_SLOT), "IMPORTING", idA));
            assertEquals("+OK\r\n", sa.call("CLUSTER", "SETSLOT", String.valueOf(T_SLOT), "MIGRATING", idB));
            try {
                String ask = "-ASK " + T_SLOT + " 127.0.0.1:" + b.port() + "\r\n";

                assertEquals("$1\r\nv\r\n", sa.call("GET", "{b}here"));
                assertEquals(ask, sa.call("GET", "{b}gone"));
                assertEquals("-TRYAGAIN Multiple keys request during rehashing of slot\r\n",
                        sa.call("MGET", "{b}here", "{b}gone"));
                assertEquals("-MOVED " + T_SLOT + " 127.0.0.1:" + a.port() + "\r\n", sb.call("GET", "{b}gone"));
                assertEquals("+OK\r\n", sb.call("ASKING"));
                assertEquals("$-1\r\n", sb.call("GET", "{b}gone"));
                assertEquals("-MOVED " + T_SLOT + " 127.0.0.1:" + a.port() + "\r\n", sb.call("GET", "{b}gone"));
                sb.call("ASKING");
                assertEquals("-TRYAGAIN Multiple keys request during rehashing of slot\r\n",
                        sb.call("MGET", "{b}x", "{b}y"));
                assertTrue(sa.call("CLUSTER", "NODES").contains("[" + T_SLOT + "->-" + idB + "]"));
                assertTrue(sb.call("CLUSTER", "NODES").contains("[" + T_SLOT + "-<-" + idA + "]"));
            } finally {
                sa.call("CLUSTER", "SETSLOT", String.valueOf(T_SLOT), "STABLE");
                sb.call("CLUSTER", "SETSLOT", String.valueOf(T_SLOT), "STABLE");
                sa.call("DEL", "{b}here");
            }
        }
    }

    @Test
    void askingShouldNotMakeTheClientLookLikeAPrimaryLink() throws IOException {
        try (RespTestSocket sb = new RespTestSocket(b)) {
            assertEquals("+OK\r\n", sb.call("ASKING"));
            assertTrue(sb.call("CLIENT", "INFO").contains(" flags=N "), "ASKING has no CLIENT LIST flag");
            assertEquals("$0\r\n\r\n", sb.call("CLIENT", "LIST", "TYPE", "master"));
        }
    }

    @Test
    void aRedirectionInsideMultiShouldAbortTheTransaction() throws IOException {
        try (RespTestSocket sa = new RespTestSocket(a)) {
            assertEquals("+OK\r\n", sa.call("MULTI"));
            assertEquals("+QUEUED\r\n", sa.call("SET", "{b}a", "1"));
            assertEquals("-MOVED " + FOO_SLOT + " 127.0.0.1:" + b.port() + "\r\n", sa.call("GET", "foo"));

            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", sa.call("EXEC"));
            assertEquals("$-1\r\n", sa.call("GET", "{b}a"));
        }
    }

    @Test
    void aScriptShouldBeRedirectedByItsKeysAndRefusedANonLocalKey() throws IOException {
        try (RespTestSocket sa = new RespTestSocket(a)) {
            assertEquals("-MOVED " + FOO_SLOT + " 127.0.0.1:" + b.port() + "\r\n",
                    sa.call("EVAL", "return redis.call('get', KEYS[1])", "1", "foo"));

            String refused = sa.call("EVAL", "return redis.call('get', 'foo')", "0");

            assertTrue(refused.startsWith("-ERR Script attempted to access a non local key in a cluster node script:"),
                    refused);
        }
    }

    @Test
    void publishShouldReachSubscribersOfTheOtherNode() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(b); RespTestSocket pub = new RespTestSocket(a)) {
            sub.call("SUBSCRIBE", "news");

            assertEquals(":0\r\n", pub.call("PUBLISH", "news", "hello"));

            String message = sub.reply();
            assertEquals("*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$5\r\nhello\r\n", message);
        }
    }
}
