package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.cluster.OneNodeCluster;
import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SORT in cluster mode, replies recorded from a real redis-server 7.2.4 started with
 * {@code --cluster-enabled yes} owning every slot: BY and GET patterns are refused (their keys
 * could live on any node) while BY without {@code *} is not, and STORE's destination is a key
 * of the command, so a destination in another slot is CROSSSLOT.
 */
class SortClusterModeTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("cluster-enabled", "yes");

    @BeforeAll
    static void ownEverySlot() {
        OneNodeCluster.ownEverySlot(ebb);
    }

    @Test
    void sortShouldRefuseByAndGetPatternsInClusterMode() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("RPUSH", "{t}l", "3", "1", "2");

            assertEquals("-ERR BY option of SORT denied in Cluster mode.\r\n", s.call("SORT", "{t}l", "BY", "w_*"));
            assertEquals("-ERR BY option of SORT denied in Cluster mode.\r\n", s.call("SORT_RO", "{t}l", "BY", "w_*"));
            assertEquals("-ERR GET option of SORT denied in Cluster mode.\r\n", s.call("SORT", "{t}l", "GET", "#"));
            assertEquals("-ERR GET option of SORT denied in Cluster mode.\r\n",
                    s.call("SORT", "{t}l", "BY", "nosort", "GET", "x*"));
            assertEquals("-ERR syntax error\r\n", s.call("SORT", "{t}l", "foo", "BY", "w_*"));
            assertEquals("*3\r\n$1\r\n3\r\n$1\r\n1\r\n$1\r\n2\r\n", s.call("SORT", "{t}l", "BY", "nosort"));
        }
    }

    @Test
    void sortStoreShouldBeCrossSlotUnlessTheDestinationSharesTheSlot() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("RPUSH", "{t}l", "3", "1", "2");

            assertEquals("-CROSSSLOT Keys in request don't hash to the same slot\r\n",
                    s.call("SORT", "{t}l", "STORE", "other"));
            assertEquals("-CROSSSLOT Keys in request don't hash to the same slot\r\n",
                    s.call("SORT", "{t}l", "LIMIT", "0", "1", "STORE", "{t}d", "STORE", "other"));
            assertEquals(":3\r\n", s.call("SORT", "{t}l", "STORE", "{t}d"));
            assertEquals("*3\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n", s.call("SORT_RO", "{t}l"));
        }
    }
}
