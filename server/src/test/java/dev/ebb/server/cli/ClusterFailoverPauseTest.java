package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import redis.clients.jedis.Jedis;

/**
 * A cluster manual failover pauses the primary's writes for a purpose of its own, apart from CLIENT
 * PAUSE (Redis's PAUSE_DURING_FAILOVER): the failover's end leaves a user's CLIENT PAUSE in force,
 * and CLIENT UNPAUSE does not lift the failover's pause. Three Ebb primaries (A, B, C) and a replica
 * R of A, in-process; PUBLISH (a may-replicate command, held by a WRITE pause, routed to no slot)
 * shows whether writes are held.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFailoverPauseTest {
    private static final long NODE_TIMEOUT = 3000;
    /** Redis's CLUSTER_MF_TIMEOUT: the primary holds writes for a manual failover this long at least. */
    private static final long MF_TIMEOUT_MS = 5000;
    private static final int A = 0;
    private static final int R = 3;

    private static final EbbServer[] nodes = new EbbServer[4];
    private static final int[] ports = new int[4];

    @BeforeAll
    static void startCluster() throws IOException, InterruptedException {
        ClusterNodes.startAndMeet(nodes, ports, 3, NODE_TIMEOUT);
        ClusterNodes.awaitHealthy(ports);
        String aId = id(A);
        assertEquals("OK", ClusterNodes.call(ports[R], "CLUSTER", "REPLICATE", aId));
        ClusterNodes.await("R to replicate A", 120, () -> ClusterNodes.isReplicaOf(ports[R], aId));
    }

    @AfterAll
    static void stopCluster() {
        ClusterNodes.closeAll(nodes);
    }

    private static String id(int i) {
        return ClusterNodes.call(ports[i], "CLUSTER", "MYID");
    }

    /** PUBLISH on {@code port} from a connection of its own, answered whenever the node runs it. */
    private static CompletableFuture<Long> publishLater(int port) {
        return CompletableFuture.supplyAsync(() -> {
            try (Jedis j = new Jedis("127.0.0.1", port, 120_000)) {
                return j.publish("mf-pause", "hello");
            }
        });
    }

    @Test
    @Order(1)
    void aClientPauseSetBeforeAManualFailoverShouldOutliveItsEnd() throws Exception {
        String rId = id(R);
        try (Jedis a = new Jedis("127.0.0.1", ports[A], 10_000)) {
            assertEquals("OK", a.clientPause(600_000, redis.clients.jedis.args.ClientPauseMode.WRITE));

            assertEquals("OK", ClusterNodes.call(ports[R], "CLUSTER", "FAILOVER"));
            ClusterNodes.await("R to be primary", 120,
                    () -> ClusterNodes.call(ports[R], "CLUSTER", "NODES").contains("myself,master"));
            ClusterNodes.await("A to follow R", 120, () -> ClusterNodes.isReplicaOf(ports[A], rId));
            CompletableFuture<Long> held = publishLater(ports[A]);
            Thread.sleep(1000);

            assertFalse(held.isDone(), "the user's CLIENT PAUSE WRITE still holds PUBLISH after the failover");
            assertEquals("OK", a.clientUnpause());
            assertEquals(0L, held.get(60, TimeUnit.SECONDS));
        }
    }

    @Test
    @Order(2)
    void clientUnpauseShouldNotLiftTheManualFailoversPause() throws Exception {
        // R ignores MFSTART from a node it does not yet know as its replica (as Redis does): wait for
        // R's own view, not only A's, or on a busy machine PUBLISH is never held.
        String aId = id(A);
        String rId = id(R);
        ClusterNodes.await("R to see A as its replica", 120, () -> ClusterNodes.call(ports[R], "CLUSTER", "NODES")
                .lines().anyMatch(l -> l.startsWith(aId + " ") && l.contains(" slave " + rId + " ")));
        nodes[1].close();
        nodes[1] = null;
        nodes[2].close();
        nodes[2] = null;
        long start = System.nanoTime();

        assertEquals("OK", ClusterNodes.call(ports[A], "CLUSTER", "FAILOVER"));
        ClusterNodes.await("R to receive MFSTART", 60, () -> ClusterNodes.call(ports[R], "CLUSTER", "INFO")
                .contains("cluster_stats_messages_mfstart_received:1"));
        CompletableFuture<Long> held = publishLater(ports[R]);
        try (Jedis r = new Jedis("127.0.0.1", ports[R], 10_000)) {
            assertEquals("OK", r.clientUnpause());
        }
        long answered = held.get(60, TimeUnit.SECONDS);
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertEquals(0L, answered);
        assertTrue(elapsedMs >= MF_TIMEOUT_MS,
                "PUBLISH was held until the manual failover timed out (B and C are down, A cannot win), not released"
                        + " by CLIENT UNPAUSE; answered after " + elapsedMs + " ms");
        assertTrue(ClusterNodes.call(ports[R], "CLUSTER", "NODES").contains("myself,master"));
    }
}
