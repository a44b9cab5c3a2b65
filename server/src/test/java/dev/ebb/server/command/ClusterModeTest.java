package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.cluster.OneNodeCluster;
import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ebb as a one-node cluster ({@code cluster-enabled yes}, every slot added), on the wire. Reply shapes and error
 * texts were recorded from a real redis-server 7 started with {@code --cluster-enabled yes} after
 * {@code CLUSTER ADDSLOTSRANGE 0 16383}; Redis announces an empty ip there (it has not learned its
 * own address), Ebb the address the client connected to.
 */
class ClusterModeTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("cluster-enabled", "yes");

    @BeforeAll
    static void ownEverySlot() {
        OneNodeCluster.ownEverySlot(ebb);
    }

    private static String bulk(String s) {
        return "$" + s.length() + "\r\n" + s + "\r\n";
    }

    private static String myid(RespTestSocket s) throws IOException {
        String reply = s.call("CLUSTER", "MYID");
        assertTrue(reply.matches("\\$40\r\n[0-9a-f]{40}\r\n"), reply);
        return reply.substring(5, 45);
    }

    @Test
    void clusterInfoShouldReportAHealthyOneNodeClusterOwningEverySlot() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String info = s.call("CLUSTER", "INFO");

            assertTrue(info.startsWith("$"), info);
            assertTrue(info.contains("cluster_state:ok\r\ncluster_slots_assigned:16384\r\ncluster_slots_ok:16384\r\n"
                    + "cluster_slots_pfail:0\r\ncluster_slots_fail:0\r\ncluster_known_nodes:1\r\ncluster_size:1\r\n"),
                    info);
        }
    }

    @Test
    void clusterSlotsShouldMapTheWholeRangeToThisNodeInBothProtocols() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String id = myid(s);
            String node = "*4\r\n" + bulk("127.0.0.1") + ":" + ebb.port() + "\r\n" + bulk(id);

            assertEquals("*1\r\n*3\r\n:0\r\n:16383\r\n" + node + "*0\r\n", s.call("CLUSTER", "SLOTS"));
            s.call("HELLO", "3");
            assertEquals("*1\r\n*3\r\n:0\r\n:16383\r\n" + node + "%0\r\n", s.call("CLUSTER", "SLOTS"));
        }
    }

    @Test
    void clusterShardsShouldDescribeOneShardWithThisMaster() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String id = myid(s);
            String nodeFields = bulk("id") + bulk(id) + bulk("port") + ":" + ebb.port() + "\r\n" + bulk("ip")
                    + bulk("127.0.0.1") + bulk("endpoint") + bulk("127.0.0.1") + bulk("role") + bulk("master")
                    + bulk("replication-offset") + ":0\r\n" + bulk("health") + bulk("online");

            assertEquals("*1\r\n*4\r\n" + bulk("slots") + "*2\r\n:0\r\n:16383\r\n" + bulk("nodes") + "*1\r\n*14\r\n"
                    + nodeFields, s.call("CLUSTER", "SHARDS"));
            s.call("HELLO", "3");
            assertEquals("*1\r\n%2\r\n" + bulk("slots") + "*2\r\n:0\r\n:16383\r\n" + bulk("nodes") + "*1\r\n%7\r\n"
                    + nodeFields, s.call("CLUSTER", "SHARDS"));
        }
    }

    @Test
    void clusterNodesShouldShowTheMyselfMasterLineWithTheWholeSlotRange() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String id = myid(s);
            int[] busPort = new int[1];
            ebb.server().runOnLoop(server -> busPort[0] = server.cluster().busPort());
            String line = id + " 127.0.0.1:" + ebb.port() + "@" + busPort[0] + " myself,master - 0 0 0 connected 0-16383\n";

            assertEquals(bulk(line), s.call("CLUSTER", "NODES"));
        }
    }

    @Test
    void keyslotCountkeysinslotAndGetkeysinslotShouldAgree() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("MSET", "{u}a", "1", "{u}b", "2"));
            assertEquals("+OK\r\n", s.call("SET", "{v}c", "3"));

            assertEquals(":11826\r\n", s.call("CLUSTER", "KEYSLOT", "{u}a"));
            assertEquals(":9308\r\n", s.call("CLUSTER", "KEYSLOT", "{user:100}:profile"));
            assertEquals(":2\r\n", s.call("CLUSTER", "COUNTKEYSINSLOT", "11826"));
            assertEquals(":0\r\n", s.call("CLUSTER", "COUNTKEYSINSLOT", "0"));
            String keys = s.call("CLUSTER", "GETKEYSINSLOT", "11826", "10");
            assertTrue(keys.equals("*2\r\n" + bulk("{u}a") + bulk("{u}b")) || keys.equals("*2\r\n" + bulk("{u}b")
                    + bulk("{u}a")), keys);
            assertTrue(s.call("CLUSTER", "GETKEYSINSLOT", "11826", "1").startsWith("*1\r\n"));
            assertEquals("*0\r\n", s.call("CLUSTER", "GETKEYSINSLOT", "11826", "0"));
        }
    }

    @Test
    void badSlotArgumentsShouldGetRedisErrors() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("-ERR Invalid slot\r\n", s.call("CLUSTER", "COUNTKEYSINSLOT", "16384"));
            assertEquals("-ERR Invalid slot\r\n", s.call("CLUSTER", "COUNTKEYSINSLOT", "-1"));
            assertEquals("-ERR value is not an integer or out of range\r\n", s.call("CLUSTER", "COUNTKEYSINSLOT", "x"));
            assertEquals("-ERR value is not an integer or out of range\r\n",
                    s.call("CLUSTER", "COUNTKEYSINSLOT", "00012"));
            assertEquals("-ERR Invalid slot or number of keys\r\n", s.call("CLUSTER", "GETKEYSINSLOT", "16384", "1"));
            assertEquals("-ERR Invalid slot or number of keys\r\n", s.call("CLUSTER", "GETKEYSINSLOT", "1", "-1"));
            assertEquals("-ERR value is not an integer or out of range\r\n",
                    s.call("CLUSTER", "GETKEYSINSLOT", "x", "1"));
            assertEquals("-ERR value is not an integer or out of range\r\n",
                    s.call("CLUSTER", "GETKEYSINSLOT", "1", "x"));
            assertEquals("-ERR wrong number of arguments for 'cluster|keyslot' command\r\n",
                    s.call("CLUSTER", "KEYSLOT", "a", "b"));
            assertTrue(s.call("CLUSTER", "MYSHARDID").matches("\\$40\r\n[0-9a-f]{40}\r\n"));
        }
    }

    @Test
    void multiKeyCommandsShouldNeedACommonSlot() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String crossslot = "-CROSSSLOT Keys in request don't hash to the same slot\r\n";

            assertEquals(crossslot, s.call("MSET", "a", "1", "b", "2"));
            assertEquals(crossslot, s.call("MGET", "a", "b"));
            assertEquals(crossslot, s.call("DEL", "a", "b"));
            assertEquals(crossslot, s.call("EXISTS", "a", "b"));
            assertEquals(crossslot, s.call("RENAME", "a", "b"));
            assertEquals(crossslot, s.call("COPY", "a", "b"));
            assertEquals(crossslot, s.call("WATCH", "a", "b"));
            assertEquals("+OK\r\n", s.call("MSET", "{user:100}:name", "ann", "{user:100}:age", "42"));
            assertEquals("*2\r\n" + bulk("ann") + bulk("42"), s.call("MGET", "{user:100}:name", "{user:100}:age"));
            assertEquals(":0\r\n", s.call("EXISTS", "a"));
        }
    }

    @Test
    void scriptsAndNumkeysCommandsShouldNeedACommonSlotForTheirKeys() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String crossslot = "-CROSSSLOT Keys in request don't hash to the same slot\r\n";
            String script = "return redis.call('set', KEYS[1], ARGV[1])";

            assertEquals(crossslot, s.call("EVAL", script, "2", "a", "b", "v"));
            assertEquals(crossslot, s.call("EVAL_RO", "return 1", "2", "a", "b"));
            assertEquals(crossslot, s.call("ZUNIONSTORE", "dest", "1", "a"));
            assertEquals(crossslot, s.call("LMPOP", "2", "a", "b", "LEFT"));
            assertEquals("+OK\r\n", s.call("EVAL", script, "2", "{user:100}:a", "{user:100}:b", "v"));
            assertEquals(":1\r\n", s.call("EVAL", "return 1", "0"));
            assertEquals(":0\r\n", s.call("ZUNIONSTORE", "{user:100}:dest", "1", "{user:100}:none"));
            assertEquals("$1\r\nv\r\n", s.call("GET", "{user:100}:a"));
        }
    }

    @Test
    void aTransactionWhoseKeysSpanSlotsShouldBeRefusedAtExec() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String crossslot = "-CROSSSLOT Keys in request don't hash to the same slot\r\n";
            s.call("MULTI");
            assertEquals("+QUEUED\r\n", s.call("SET", "a", "1"));
            assertEquals("+QUEUED\r\n", s.call("SET", "b", "1"));

            assertEquals(crossslot, s.call("EXEC"));
            assertEquals("-ERR EXEC without MULTI\r\n", s.call("EXEC"));
            assertEquals(":0\r\n", s.call("EXISTS", "a"));

            s.call("MULTI");
            assertEquals(crossslot, s.call("MSET", "a", "1", "b", "1"));
            assertEquals("+QUEUED\r\n", s.call("SET", "c", "1"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", s.call("EXEC"));

            s.call("MULTI");
            s.call("SET", "{user:100}:a", "1");
            s.call("INCR", "{user:100}:b");
            s.call("PING");
            assertEquals("*3\r\n+OK\r\n:1\r\n+PONG\r\n", s.call("EXEC"));
        }
    }

    @Test
    void onlyDatabaseZeroShouldBeUsable() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("SELECT", "0"));
            assertEquals("-ERR SELECT is not allowed in cluster mode\r\n", s.call("SELECT", "1"));
            assertEquals("-ERR SELECT is not allowed in cluster mode\r\n", s.call("SELECT", "100"));
            assertEquals("-ERR value is not an integer or out of range\r\n", s.call("SELECT", "x"));
            assertEquals("-ERR SWAPDB is not allowed in cluster mode\r\n", s.call("SWAPDB", "0", "1"));
            assertEquals("-ERR MOVE is not allowed in cluster mode\r\n", s.call("MOVE", "a", "1"));
            s.call("SET", "{a}1", "x");
            assertEquals("-ERR Copying to another database is not allowed in cluster mode\r\n",
                    s.call("COPY", "{a}1", "{a}2", "DB", "5"));
            assertEquals(":1\r\n", s.call("COPY", "{a}1", "{a}2", "DB", "0"));
        }
    }

    @Test
    void readonlyReadwriteAskingHelloAndInfoShouldReportClusterMode() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("READONLY"));
            assertEquals("+OK\r\n", s.call("READWRITE"));
            assertEquals("+OK\r\n", s.call("ASKING"));
            assertEquals("-ERR wrong number of arguments for 'readonly' command\r\n", s.call("READONLY", "x"));

            assertTrue(s.call("HELLO", "3").contains(bulk("mode") + bulk("cluster")));
            String info = s.call("INFO");
            assertTrue(info.contains("# Cluster\r\ncluster_enabled:1\r\n"), info);
            assertTrue(info.contains("redis_mode:cluster\r\n"), info);
        }
    }
}
