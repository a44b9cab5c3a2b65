package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.EbbServer;
import dev.ebb.server.differential.ReferenceRedis;
import java.io.IOException;
import java.nio.file.Path;
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
 * Three Ebb primaries and three redis-server 7.2.4 replicas in one cluster ({@code redis-cli --cluster
 * create --cluster-replicas 1}): each redis-server replicates an Ebb primary; when an Ebb primary
 * stops, its redis-server replica is elected by the votes of the Ebb primaries; the Ebb node comes
 * back as a replica of that redis-server, and CLUSTER FAILOVER on it (MFSTART to a redis-server
 * primary, which pauses and sends its offset) makes it primary again. Skipped when the reference
 * redis-server or redis-cli cannot run.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MixedClusterFailoverTest {
    private static final long NODE_TIMEOUT = 3000;

    private static final EbbServer[] ebb = new EbbServer[3];
    private static final Path[] ebbDirs = new Path[3];
    private static final ReferenceRedis[] redis = new ReferenceRedis[3];
    /** Ebb nodes at 0-2, redis-servers at 3-5. */
    private static final int[] ports = new int[6];
    private static int victim;
    private static int heir;

    @BeforeAll
    static void startNodes() throws IOException {
        ClusterNodes.startMixed(redis, ebb, ebbDirs, ports, false, NODE_TIMEOUT);
    }

    @AfterAll
    static void stopNodes() {
        ClusterNodes.closeAll(ebb);
        ClusterNodes.closeAll(redis);
    }

    private static String id(int i) {
        return ClusterNodes.call(ports[i], "CLUSTER", "MYID");
    }

    private static boolean isReplicaOf(int node, String masterId) {
        return ClusterNodes.isReplicaOf(ports[node], masterId);
    }

    @Test
    @Order(1)
    void redisServerReplicasShouldFollowEbbPrimaries() throws InterruptedException {
        ClusterNodes.createThreeByThree(ports);

        ClusterNodes.awaitHealthy(ports);
        ClusterNodes.awaitReplicasLinked(ports);
        int[] pair = ClusterNodes.slot0PrimaryAndReplica(ports);
        victim = pair[0];
        heir = pair[1];
        ClusterNodes.assertCheckClean(ports[3]);
    }

    @Test
    @Order(2)
    void aRedisServerReplicaShouldBeElectedByEbbPrimaries() throws InterruptedException {
        try (Jedis j = new Jedis("127.0.0.1", ports[victim], 10_000)) {
            for (int i = 0; i < 100; i++) {
                j.set("{06S}mixed:" + i, "v" + i);
            }
            assertEquals(1, j.waitReplicas(1, 10_000));
        }

        ebb[victim].close();
        ebb[victim] = null;

        int heirPort = ports[heir];
        ClusterNodes.await("the redis-server replica to win the election", 120,
                () -> ClusterNodes.call(heirPort, "CLUSTER", "NODES").contains("myself,master"));
        int other = victim == 0 ? 1 : 0;
        ClusterNodes.await("the Ebb primaries to see the new owner", 60,
                () -> ClusterNodes.call(ports[other], "CLUSTER", "INFO").contains("cluster_state:ok"));
        try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", ports[other]))) {
            for (int i = 0; i < 100; i++) {
                assertEquals("v" + i, jc.get("{06S}mixed:" + i));
            }
            jc.set("{06S}after", "failover");
        }
        ClusterNodes.assertCheckClean(ports[heir]);
    }

    @Test
    @Order(3)
    void theEbbNodeShouldComeBackAsAReplicaOfTheRedisServerAndTakeItsSlotsBackWithClusterFailover()
            throws InterruptedException {
        String heirId = id(heir);
        ebb[victim] = ClusterNodes.startEbb(ports[victim], ebbDirs[victim], NODE_TIMEOUT);

        ClusterNodes.await("the Ebb node to replicate the redis-server", 120, () -> isReplicaOf(victim, heirId));
        ClusterNodes.await("the Ebb replica to hold the keys", 60,
                () -> ClusterNodes.call(ports[victim], "DBSIZE").equals(ClusterNodes.call(ports[heir], "DBSIZE")));

        assertEquals("OK", ClusterNodes.call(ports[victim], "CLUSTER", "FAILOVER"));

        String victimId = id(victim);
        ClusterNodes.await("the Ebb node to be primary again", 60,
                () -> ClusterNodes.call(ports[victim], "CLUSTER", "NODES").contains("myself,master"));
        ClusterNodes.await("the redis-server to follow it", 60, () -> isReplicaOf(heir, victimId));
        try (Jedis j = new Jedis("127.0.0.1", ports[victim], 10_000)) {
            assertEquals("failover", j.get("{06S}after"));
            assertEquals("v7", j.get("{06S}mixed:7"));
        }
        for (int i = 0; i < 6; i++) {
            int port = ports[i];
            ClusterNodes.await("node " + port + " to see a healthy 6-node cluster", 120, () -> ClusterNodes.sees(port, 6));
        }
        ClusterNodes.assertCheckClean(ports[victim]);
    }
}
