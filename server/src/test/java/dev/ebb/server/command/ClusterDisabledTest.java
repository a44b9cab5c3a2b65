package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Without {@code cluster-enabled yes}: every cluster command answers Redis's "cluster support
 * disabled" (CLUSTER KEYSLOT included, as in Redis), the dispatcher still checks subcommand names
 * and arity first, and multi-key commands are not held to one slot. Texts from a real
 * redis-server 7 in standalone mode.
 */
class ClusterDisabledTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void clusterCommandsShouldAnswerThatClusterSupportIsDisabled() throws IOException {
        String disabled = "-ERR This instance has cluster support disabled\r\n";
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            for (String[] command : new String[][] {
                {"CLUSTER", "KEYSLOT", "foo"}, {"CLUSTER", "INFO"}, {"CLUSTER", "COUNTKEYSINSLOT", "1"},
                {"CLUSTER", "GETKEYSINSLOT", "1", "1"}, {"CLUSTER", "MYID"}, {"CLUSTER", "SLOTS"},
                {"CLUSTER", "SHARDS"}, {"CLUSTER", "NODES"}, {"CLUSTER", "HELP"},
                {"READONLY"}, {"READWRITE"}, {"ASKING"},
            }) {
                assertEquals(disabled, s.call(command), String.join(" ", command));
            }
            assertEquals("-ERR unknown subcommand 'foo'. Try CLUSTER HELP.\r\n", s.call("CLUSTER", "foo"));
            assertEquals("-ERR wrong number of arguments for 'cluster|keyslot' command\r\n", s.call("CLUSTER", "KEYSLOT"));
        }
    }

    @Test
    void standaloneModeShouldKeepEveryDatabaseAndAllowKeysAcrossSlots() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("MSET", "a", "1", "b", "2"));
            assertEquals("+OK\r\n", s.call("SELECT", "1"));
            assertTrue(s.call("HELLO", "3").contains("$4\r\nmode\r\n$10\r\nstandalone\r\n"));
            assertTrue(s.call("INFO", "cluster").contains("cluster_enabled:0"));
        }
    }
}
