package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The CLUSTER subcommands that change a node, on a fresh cluster node (reset hard before each
 * test). Error texts and reply shapes were taken from redis-server 7.2.4 started with
 * {@code --cluster-enabled yes}.
 */
class ClusterAdminCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("cluster-enabled", "yes");

    private static String err(String text) {
        return "-" + text + "\r\n";
    }

    @BeforeEach
    void resetHard() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("CLUSTER", "RESET", "HARD"));
        }
    }

    private static String myid(RespTestSocket s) throws IOException {
        return s.call("CLUSTER", "MYID").substring(5, 45);
    }

    @Test
    void aFreshNodeShouldOwnNoSlotAndBeDown() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String info = s.call("CLUSTER", "INFO");

            assertTrue(info.contains("cluster_state:fail\r\ncluster_slots_assigned:0\r\ncluster_slots_ok:0\r\n"
                    + "cluster_slots_pfail:0\r\ncluster_slots_fail:0\r\ncluster_known_nodes:1\r\ncluster_size:0\r\n"
                    + "cluster_current_epoch:0\r\ncluster_my_epoch:0\r\n"), info);
            assertEquals("*0\r\n", s.call("CLUSTER", "SLOTS"));
            assertEquals(err("CLUSTERDOWN Hash slot not served"), s.call("GET", "foo"));
            assertEquals("+PONG\r\n", s.call("PING"));
        }
    }

    @Test
    void slotCommandsShouldAnswerRedisErrors() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("CLUSTER", "ADDSLOTS", "1", "2", "100"));

            assertEquals(err("ERR Slot 1 is already busy"), s.call("CLUSTER", "ADDSLOTS", "1"));
            assertEquals(err("ERR Invalid or out of range slot"), s.call("CLUSTER", "ADDSLOTS", "70000"));
            assertEquals(err("ERR Invalid or out of range slot"), s.call("CLUSTER", "ADDSLOTS", "007"));
            assertEquals(err("ERR Slot 5 is already unassigned"), s.call("CLUSTER", "DELSLOTS", "5"));
            assertEquals(err("ERR Slot 7 specified multiple times"), s.call("CLUSTER", "ADDSLOTS", "7", "7"));
            assertEquals(err("ERR start slot number 5 is greater than end slot number 3"),
                    s.call("CLUSTER", "ADDSLOTSRANGE", "5", "3"));
            assertEquals(err("ERR wrong number of arguments for 'cluster|addslots' command"),
                    s.call("CLUSTER", "ADDSLOTS"));
            assertEquals(err("ERR wrong number of arguments for 'cluster|addslotsrange' command"),
                    s.call("CLUSTER", "ADDSLOTSRANGE", "1"));
            assertEquals(err("ERR wrong number of arguments for 'cluster|addslotsrange' command"),
                    s.call("CLUSTER", "ADDSLOTSRANGE", "1", "2", "3"));
            assertTrue(s.call("CLUSTER", "INFO").contains("cluster_slots_assigned:3\r\n"));
        }
    }

    @Test
    void addslotsrangeOfEverySlotShouldMakeTheClusterOkAndDelslotsrangeUndoIt() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("CLUSTER", "ADDSLOTSRANGE", "0", "8000", "8001", "16383"));
            assertTrue(s.call("CLUSTER", "INFO").contains("cluster_state:ok\r\n"));
            assertEquals("+OK\r\n", s.call("SET", "foo", "bar"));

            assertEquals("+OK\r\n", s.call("CLUSTER", "DELSLOTSRANGE", "16000", "16383"));

            assertTrue(s.call("CLUSTER", "INFO").contains("cluster_state:fail\r\ncluster_slots_assigned:16000\r\n"));
            assertEquals(err("CLUSTERDOWN The cluster is down"), s.call("GET", "foo"));
            assertEquals(err("ERR DB must be empty to perform CLUSTER FLUSHSLOTS."), s.call("CLUSTER", "FLUSHSLOTS"));
            s.call("FLUSHALL");
            assertEquals("+OK\r\n", s.call("CLUSTER", "FLUSHSLOTS"));
            assertTrue(s.call("CLUSTER", "INFO").contains("cluster_slots_assigned:0\r\n"));
        }
    }

    @Test
    void epochCommandsShouldFollowRedis() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+BUMPED 1\r\n", s.call("CLUSTER", "BUMPEPOCH"));
            assertEquals("+STILL 1\r\n", s.call("CLUSTER", "BUMPEPOCH"));
            assertEquals(err("ERR Node config epoch is already non-zero"), s.call("CLUSTER", "SET-CONFIG-EPOCH", "5"));
            s.call("CLUSTER", "RESET", "HARD");

            assertEquals(err("ERR Invalid config epoch specified: -1"), s.call("CLUSTER", "SET-CONFIG-EPOCH", "-1"));
            assertEquals("+OK\r\n", s.call("CLUSTER", "SET-CONFIG-EPOCH", "5"));

            assertTrue(s.call("CLUSTER", "INFO").contains("cluster_current_epoch:5\r\ncluster_my_epoch:5\r\n"));
        }
    }

    @Test
    void setslotShouldCheckOwnershipAndShowOpenSlotsInClusterNodes() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String id = myid(s);
            s.call("CLUSTER", "ADDSLOTS", "1");

            assertEquals(err("ERR I'm not the owner of hash slot 5"), s.call("CLUSTER", "SETSLOT", "5", "MIGRATING", id));
            assertEquals(err("ERR I'm already the owner of hash slot 1"),
                    s.call("CLUSTER", "SETSLOT", "1", "IMPORTING", id));
            assertEquals(err("ERR Invalid CLUSTER SETSLOT action or number of arguments. Try CLUSTER HELP"),
                    s.call("CLUSTER", "SETSLOT", "1", "foo"));
            assertEquals(err("ERR Unknown node abc"), s.call("CLUSTER", "SETSLOT", "1", "NODE", "abc"));
            assertEquals(err("ERR I don't know about node abc"), s.call("CLUSTER", "SETSLOT", "1", "MIGRATING", "abc"));
            assertEquals("+OK\r\n", s.call("CLUSTER", "SETSLOT", "1", "MIGRATING", id));
            assertTrue(s.call("CLUSTER", "NODES").contains(" 1 [1->-" + id + "]\n"));
            assertEquals("+OK\r\n", s.call("CLUSTER", "SETSLOT", "1", "STABLE"));
            assertEquals("+OK\r\n", s.call("CLUSTER", "SETSLOT", "2", "NODE", id));
            assertTrue(s.call("CLUSTER", "NODES").contains(" connected 1-2\n"));
        }
    }

    @Test
    void nodeCommandsShouldAnswerRedisErrors() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String id = myid(s);

            assertEquals(err("ERR Invalid base port specified: x"), s.call("CLUSTER", "MEET", "1.2.3.4", "x"));
            assertEquals(err("ERR Invalid node address specified: localhost:7000"),
                    s.call("CLUSTER", "MEET", "localhost", "7000"));
            assertEquals(err("ERR Unknown node abc"), s.call("CLUSTER", "FORGET", "abc"));
            assertEquals(err("ERR I tried hard but I can't forget myself..."), s.call("CLUSTER", "FORGET", id));
            assertEquals(err("ERR Unknown node abc"), s.call("CLUSTER", "COUNT-FAILURE-REPORTS", "abc"));
            assertEquals(":0\r\n", s.call("CLUSTER", "COUNT-FAILURE-REPORTS", id));
            assertEquals(err("ERR syntax error"), s.call("CLUSTER", "RESET", "foo"));
            assertEquals("*0\r\n", s.call("CLUSTER", "LINKS"));
        }
    }

    @Test
    void meetShouldAddAHandshakeNodeThatForgetRemoves() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("CLUSTER", "MEET", "127.0.0.1", "1", "2"));

            String nodes = s.call("CLUSTER", "NODES");

            assertTrue(nodes.contains(" 127.0.0.1:1@2 handshake - "), nodes);
            assertTrue(s.call("CLUSTER", "INFO").contains("cluster_known_nodes:2\r\n"));
        }
    }

    @Test
    void resetHardShouldTakeANewIdAndShardIdAndSaveTheConfig() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String before = myid(s);
            String shard = s.call("CLUSTER", "MYSHARDID");
            s.call("CLUSTER", "ADDSLOTS", "9");

            assertEquals("+OK\r\n", s.call("CLUSTER", "RESET", "HARD"));

            assertNotEquals(before, myid(s));
            assertNotEquals(shard, s.call("CLUSTER", "MYSHARDID"));
            assertEquals("+OK\r\n", s.call("CLUSTER", "SAVECONFIG"));
            Path conf = ebb.server().config().dir().resolve("nodes.conf");
            String text = Files.readString(conf);
            assertTrue(text.startsWith(myid(s) + " "), text);
            assertTrue(text.contains(",tls-port=0,shard-id="), text);
            assertTrue(text.endsWith("vars currentEpoch 0 lastVoteEpoch 0\n"), text);
        }
    }

    @Test
    void setslotShouldBeInNodesConfWhenItReplies() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String id = myid(s);
            Path conf = ebb.server().config().dir().resolve("nodes.conf");
            s.call("CLUSTER", "ADDSLOTS", "5");

            assertEquals("+OK\r\n", s.call("CLUSTER", "SETSLOT", "5", "MIGRATING", id));
            assertTrue(Files.readString(conf).contains(" 5 [5->-" + id + "]\n"), Files.readString(conf));
            assertEquals("+OK\r\n", s.call("CLUSTER", "SETSLOT", "5", "STABLE"));
            assertTrue(Files.readString(conf).contains(" 5\n"), Files.readString(conf));
            assertEquals("+OK\r\n", s.call("CLUSTER", "SETSLOT", "6", "IMPORTING", id));
            assertTrue(Files.readString(conf).contains(" 5 [6-<-" + id + "]\n"), Files.readString(conf));
            assertEquals("+OK\r\n", s.call("CLUSTER", "SETSLOT", "6", "NODE", id));
            String text = Files.readString(conf);
            assertTrue(text.contains(" 5-6\n"), text);
            assertTrue(text.endsWith("vars currentEpoch 1 lastVoteEpoch 0\n"), text);
        }
    }

    @Test
    void resetShouldBeRefusedWhileThePrimaryHoldsKeys() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
            s.call("SET", "k", "v");

            assertEquals(err("ERR CLUSTER RESET can't be called with master nodes containing keys"),
                    s.call("CLUSTER", "RESET"));

            s.call("DEL", "k");
        }
    }
}
