package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.differential.ReferenceRedis;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;

/**
 * The reverse of {@link MixedClusterFailoverTest}: three redis-server 7.2.4 primaries and three Ebb
 * replicas ({@code redis-cli --cluster create --cluster-replicas 1}). Each Ebb node syncs from a
 * redis-server primary and serves its keys after READONLY; when a redis-server primary is killed
 * with SIGKILL, its Ebb replica is elected by the votes of the two redis-server primaries left and
 * serves the slots to JedisCluster. Skipped when the reference redis-server or redis-cli cannot run.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReverseMixedClusterTest {
    private static final long NODE_TIMEOUT = 3000;
    private static final String TAG = "{06S}";

    private static final ReferenceRedis[] redis = new ReferenceRedis[3];
    private static final EbbServer[] ebb = new EbbServer[3];
    /** redis-servers at 0-2 (the primaries), Ebb nodes at 3-5 (the replicas). */
    private static final int[] ports = new int[6];
    private static int victim;
    private static int heir;

    @BeforeAll
    static void startNodes() throws IOException {
        ClusterNodes.startMixed(redis, ebb, new Path[3], ports, true, NODE_TIMEOUT);
    }

    @AfterAll
    static void stopNodes() {
        ClusterNodes.closeAll(ebb);
        ClusterNodes.closeAll(redis);
    }

    private static String id(int i) {
        return ClusterNodes.call(ports[i], "CLUSTER", "MYID");
    }

    @Test
    @Order(1)
    void ebbReplicasShouldFollowRedisServerPrimaries() throws InterruptedException {
        ClusterNodes.createThreeByThree(ports);

        pairEachEbbNodeWithARedisServer();
        ClusterNodes.awaitHealthy(ports);
        int[] pair = ClusterNodes.slot0PrimaryAndReplica(ports);
        victim = pair[0];
        heir = pair[1];
        ClusterNodes.assertCheckClean(ports[heir]);
    }

    /**
     * redis-cli picks the first three nodes as primaries here (one host, listed first); should it
     * pair them otherwise, CLUSTER REPLICATE makes each Ebb node the replica of its own redis-server.
     */
    private static void pairEachEbbNodeWithARedisServer() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            int ebbPort = ports[3 + i];
            String primaryId = id(i);
            ClusterNodes.await("Ebb node " + ebbPort + " to know redis-server " + ports[i], 120,
                    () -> ClusterNodes.call(ebbPort, "CLUSTER", "NODES").contains(primaryId));
            if (!ClusterNodes.call(ebbPort, "CLUSTER", "NODES").contains("myself,slave ")) {
                assertEquals("OK", ClusterNodes.call(ebbPort, "CLUSTER", "REPLICATE", primaryId));
            }
        }
        ClusterNodes.awaitReplicasLinked(ports);
        assertEquals(Set.of(0, 1, 2), Set.of(primaryOf(3), primaryOf(4), primaryOf(5)),
                "each redis-server primary has one Ebb replica");
    }

    /** The index of the redis-server that the Ebb node at {@code ebbIndex} replicates. */
    private static int primaryOf(int ebbIndex) {
        String nodes = ClusterNodes.call(ports[ebbIndex], "CLUSTER", "NODES");
        for (int r = 0; r < 3; r++) {
            if (nodes.contains("myself,slave " + id(r))) {
                return r;
            }
        }
        throw new AssertionError("Ebb node " + ports[ebbIndex] + " replicates no redis-server:\n" + nodes);
    }

    @Test
    @Order(2)
    void keysWrittenThroughTheRedisServerPrimariesShouldBeReadableOnTheEbbReplicas() throws InterruptedException {
        try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", ports[0]))) {
            for (int i = 0; i < 300; i++) {
                jc.set("reverse:" + i, "v" + i);
            }
            for (int i = 0; i < 100; i++) {
                jc.set(TAG + "reverse:" + i, "v" + i);
            }
        }
        for (int i = 0; i < 3; i++) {
            try (Jedis j = new Jedis("127.0.0.1", ports[i], 10_000)) {
                assertEquals(1, j.waitReplicas(1, 10_000));
            }
        }

        try (Jedis replica = new Jedis("127.0.0.1", ports[heir], 10_000)) {
            assertEquals("OK", replica.readonly());
            for (int i = 0; i < 100; i++) {
                assertEquals("v" + i, replica.get(TAG + "reverse:" + i));
            }
        }
        for (int i = 3; i < 6; i++) {
            int replica = ports[i];
            int primary = ports[primaryOf(i)];
            long primaryKeys = Long.parseLong(ClusterNodes.call(primary, "DBSIZE"));
            ClusterNodes.await("the Ebb replica " + replica + " to hold its primary's keys", 60,
                    () -> ClusterNodes.call(primary, "DBSIZE").equals(ClusterNodes.call(replica, "DBSIZE")));
            assertTrue(primaryKeys > 0, "every primary holds some of the 400 keys");
        }
    }

    @Test
    @Order(3)
    void anEbbReplicaShouldBeElectedByTheRedisServerPrimariesWhenItsPrimaryIsKilled() throws InterruptedException {
        redis[victim].kill();

        int heirPort = ports[heir];
        ClusterNodes.await("the Ebb replica to win the election", 120,
                () -> ClusterNodes.call(heirPort, "CLUSTER", "NODES").contains("myself,master"));
        for (int i = 0; i < 3; i++) {
            int other = ports[i];
            if (i != victim) {
                ClusterNodes.await("redis-server " + other + " to see the Ebb node own slot 0", 60,
                        () -> id(heir).equals(ClusterNodes.slot0Owner(other))
                                && ClusterNodes.call(other, "CLUSTER", "INFO").contains("cluster_state:ok"));
            }
        }
        int entry = ports[victim == 0 ? 1 : 0];
        try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", entry))) {
            for (int i = 0; i < 100; i++) {
                assertEquals("v" + i, jc.get(TAG + "reverse:" + i));
            }
            for (int i = 0; i < 300; i++) {
                jc.set("after:" + i, "w" + i);
            }
            for (int i = 0; i < 300; i++) {
                assertEquals("w" + i, jc.get("after:" + i));
            }
            jc.set(TAG + "after", "failover");
        }
        try (Jedis j = new Jedis("127.0.0.1", heirPort, 10_000)) {
            assertEquals("failover", j.get(TAG + "after"));
        }
        ClusterNodes.assertCheckClean(heirPort);
    }
}
