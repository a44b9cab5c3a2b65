package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CLUSTER REPLICATE, REPLICAS, SLAVES, FAILOVER, READONLY and READWRITE on a one-node cluster: the
 * errors a lone primary answers, as redis-server 7.2.4 started with {@code --cluster-enabled yes}
 * answers them. The multi-node behaviour is {@code ClusterFailoverTest}'s.
 */
class ClusterReplicaCommandsTest {
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

    @Test
    void replicateAndReplicasShouldAnswerRedisErrors() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String me = s.call("CLUSTER", "MYID").substring(5, 45);

            assertEquals(err("ERR Unknown node abc"), s.call("CLUSTER", "REPLICATE", "abc"));
            assertEquals(err("ERR Can't replicate myself"), s.call("CLUSTER", "REPLICATE", me));
            assertEquals(err("ERR Unknown node abc"), s.call("CLUSTER", "REPLICAS", "abc"));
            assertEquals(err("ERR Unknown node abc"), s.call("CLUSTER", "SLAVES", "abc"));
            assertEquals("*0\r\n", s.call("CLUSTER", "REPLICAS", me));
            assertEquals(err("ERR wrong number of arguments for 'cluster|replicate' command"),
                    s.call("CLUSTER", "REPLICATE"));
        }
    }

    @Test
    void failoverOnAPrimaryShouldAnswerRedisErrors() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals(err("ERR You should send CLUSTER FAILOVER to a replica"), s.call("CLUSTER", "FAILOVER"));
            assertEquals(err("ERR You should send CLUSTER FAILOVER to a replica"),
                    s.call("CLUSTER", "FAILOVER", "TAKEOVER"));
            assertEquals(err("ERR syntax error"), s.call("CLUSTER", "FAILOVER", "bogus"));
            assertEquals(err("ERR unknown subcommand or wrong number of arguments for 'FAILOVER'. Try CLUSTER HELP."),
                    s.call("CLUSTER", "FAILOVER", "a", "b"));
        }
    }

    @Test
    void readonlyShouldFlagTheClientUntilReadwriteOrReset() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("READONLY"));
            assertTrue(s.call("CLIENT", "INFO").contains(" flags=r "));
            assertEquals("+OK\r\n", s.call("READWRITE"));
            assertTrue(s.call("CLIENT", "INFO").contains(" flags=N "));
            s.call("READONLY");
            assertEquals("+RESET\r\n", s.call("RESET"));
            assertTrue(s.call("CLIENT", "INFO").contains(" flags=N "));
        }
    }
}
