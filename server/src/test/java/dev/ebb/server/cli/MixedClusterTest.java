package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.differential.ReferenceRedis;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.exceptions.JedisMovedDataException;

/**
 * Two Ebb primaries and one redis-server 7.2.4 primary in one cluster, built by
 * {@code redis-cli --cluster create}: the bus messages of each are accepted by the other, gossip
 * converges to the same CLUSTER NODES view everywhere, JedisCluster and Lettuce's cluster client read
 * and write keys of every slot, and each kind of node redirects to the other with MOVED. Skipped when the reference
 * redis-server or redis-cli cannot run.
 */
class MixedClusterTest {
    private static final Duration SLOW = Duration.ofMinutes(5);

    private static ReferenceRedis redis;
    private static final EbbServer[] ebb = new EbbServer[2];
    private static final int[] ports = new int[3];

    @BeforeAll
    static void startNodes() throws IOException, InterruptedException {
        Assumptions.assumeTrue(new File("/usr/bin/redis-cli").canExecute() || System.getenv("REDIS_CLI") != null,
                "redis-cli is not installed (apt-get install redis-tools): skipping the mixed cluster test");
        int redisBus;
        try (ServerSocket s = new ServerSocket(0)) {
            redisBus = s.getLocalPort();
        }
        redis = ReferenceRedis.startOrNull("--cluster-enabled", "yes", "--cluster-port", String.valueOf(redisBus),
                "--cluster-node-timeout", "3000");
        Assumptions.assumeTrue(redis != null, () -> "reference redis-server cannot run: " + ReferenceRedis.unavailableReason);
        for (int i = 0; i < 2; i++) {
            ports[i] = ClusterNodes.freePortWithBusPort();
            Path dir = Files.createTempDirectory("ebb-mixed-" + i + "-");
            ebb[i] = ClusterNodes.startEbb(ports[i], dir, 3000);
        }
        ports[2] = redis.port();
        RedisCli cli = RedisCli.against(ports[0]);
        RedisCli.Result create = cli.runWithInput(null, SLOW, "--cluster", "create", "127.0.0.1:" + ports[0],
                "127.0.0.1:" + ports[1], "127.0.0.1:" + ports[2], "--cluster-yes");
        assertEquals(0, create.exitCode(), create::describe);
        for (int port : ports) {
            ClusterNodes.await("node " + port + " to see a healthy 3-node cluster", 60, () -> ClusterNodes.sees(port, 3));
        }
    }

    @AfterAll
    static void stopNodes() {
        for (EbbServer e : ebb) {
            if (e != null) {
                e.close();
            }
        }
        if (redis != null) {
            redis.close();
        }
    }

    /** Each node's CLUSTER NODES as "id slots…" lines, whatever the flags and times. */
    private static Set<String> view(int port) {
        Set<String> lines = new TreeSet<>();
        for (String line : ClusterNodes.call(port, "CLUSTER", "NODES").split("\n")) {
            String[] f = line.split(" ");
            StringBuilder sb = new StringBuilder(f[0]).append(' ').append(f[1]);
            for (int i = 8; i < f.length; i++) {
                sb.append(' ').append(f[i]);
            }
            lines.add(sb.toString());
        }
        return lines;
    }

    @Test
    void everyNodeShouldSeeTheSameNodesAndSlotsAndTheCheckShouldPass() {
        Set<String> ebbView = view(ports[0]);

        assertEquals(ebbView, view(ports[1]));
        assertEquals(ebbView, view(ports[2]));
        RedisCli.Result check = RedisCli.against(ports[2]).runWithInput(null, SLOW, "--cluster", "check",
                "127.0.0.1:" + ports[2]);
        assertTrue(check.stdout().contains("[OK] All nodes agree about slots configuration."), check::describe);
        assertTrue(check.stdout().contains("[OK] All 16384 slots covered."), check::describe);
    }

    @Test
    void jedisClusterShouldServeKeysOfEverySlotOnBothKindsOfNode() {
        try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", ports[0]))) {
            for (int i = 0; i < 3000; i++) {
                jc.set("mixed:" + i, "v" + i);
            }

            for (int i = 0; i < 3000; i++) {
                assertEquals("v" + i, jc.get("mixed:" + i));
            }
        }
        for (int port : ports) {
            assertTrue(Long.parseLong(ClusterNodes.call(port, "DBSIZE")) > 500, "node " + port);
        }
    }

    @Test
    void lettuceClusterClientShouldSeeThreeMastersAndServeEverySlot() {
        ClientResources resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(1)
                .build();
        RedisClusterClient client = RedisClusterClient.create(resources, RedisURI.create("127.0.0.1", ports[2]));
        try (StatefulRedisClusterConnection<String, String> conn = client.connect()) {
            for (int i = 0; i < 1000; i++) {
                conn.sync().set("lettuce:" + i, "v" + i);
            }

            for (int i = 0; i < 1000; i++) {
                assertEquals("v" + i, conn.sync().get("lettuce:" + i));
            }
            assertEquals(3, conn.getPartitions().size());
        } finally {
            client.shutdown(0, 1, TimeUnit.SECONDS);
            resources.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }

    @Test
    void eachKindOfNodeShouldRedirectToTheOtherWithMoved() {
        String redisKey = keyOwnedBy(ports[2]);
        String ebbKey = keyOwnedBy(ports[0]);

        String fromEbb = movedError(ports[0], redisKey);
        String fromRedis = movedError(ports[2], ebbKey);

        assertEquals("MOVED " + slot(redisKey) + " 127.0.0.1:" + ports[2], fromEbb);
        assertEquals("MOVED " + slot(ebbKey) + " 127.0.0.1:" + ports[0], fromRedis);
    }

    private static long slot(String key) {
        return Long.parseLong(ClusterNodes.call(ports[0], "CLUSTER", "KEYSLOT", key));
    }

    /** A key whose slot the node on {@code port} owns (CLUSTER NODES of that node, its myself line). */
    private static String keyOwnedBy(int port) {
        for (int i = 0;; i++) {
            String key = "probe:" + i;
            try (Jedis j = new Jedis("127.0.0.1", port)) {
                j.get(key);
                return key;
            } catch (JedisMovedDataException moved) {
                // owned elsewhere: try the next
            }
        }
    }

    private static String movedError(int port, String key) {
        try (Jedis j = new Jedis("127.0.0.1", port)) {
            return assertThrows(JedisMovedDataException.class, () -> j.get(key)).getMessage();
        }
    }
}
