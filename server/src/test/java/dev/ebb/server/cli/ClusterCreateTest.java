package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;

/**
 * Three Ebb primaries started in-process become one cluster through {@code redis-cli --cluster
 * create}, as redis-server nodes do: the tool's check passes, JedisCluster spreads 10k keys over
 * every slot, {@code --cluster reshard} moves 1000 slots while JedisCluster keeps writing (no error,
 * every acknowledged write readable), a node restarted from its nodes.conf rejoins, and a node shut
 * down is flagged FAIL by the others. The steps share one cluster and run in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterCreateTest {
    private static final long NODE_TIMEOUT = 3000;
    private static final Duration SLOW = Duration.ofMinutes(5);

    private static final int[] ports = new int[3];
    private static final Path[] dirs = new Path[3];
    private static final EbbServer[] nodes = new EbbServer[3];
    private static RedisCli cli;

    @BeforeAll
    static void startNodes() throws IOException {
        ClusterNodes.startForCli(nodes, ports, dirs, "ebb-cluster", NODE_TIMEOUT, "cluster create test");
        cli = RedisCli.against(ports[0]);
    }

    @AfterAll
    static void stopNodes() {
        ClusterNodes.closeAll(nodes);
    }

    private static String addr(int i) {
        return ClusterNodes.addr(ports[i]);
    }

    private static RedisCli.Result check() {
        return cli.runWithInput(null, SLOW, "--cluster", "check", addr(0));
    }

    @Test
    @Order(1)
    void redisCliClusterCreateShouldBuildAClusterThatChecksOk() throws InterruptedException {
        RedisCli.Result create = cli.runWithInput(null, SLOW, "--cluster", "create", addr(0), addr(1), addr(2),
                "--cluster-yes");

        assertEquals(0, create.exitCode(), create::describe);
        assertTrue(create.stdout().contains("[OK] All 16384 slots covered."), create::describe);
        for (int port : ports) {
            ClusterNodes.await("node " + port + " to see a healthy 3-node cluster", 60, () -> ClusterNodes.sees(port, 3));
        }
        RedisCli.Result check = check();
        assertTrue(check.stdout().contains("[OK] All nodes agree about slots configuration."), check::describe);
        assertTrue(check.stdout().contains("[OK] All 16384 slots covered."), check::describe);
    }

    @Test
    @Order(2)
    void jedisClusterShouldWriteAndReadKeysAcrossEverySlot() {
        try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", ports[0]))) {
            for (int i = 0; i < 10_000; i++) {
                jc.set("key:" + i, "v" + i);
            }

            for (int i = 0; i < 10_000; i++) {
                assertEquals("v" + i, jc.get("key:" + i));
            }
        }
        long total = 0;
        for (int port : ports) {
            long n = Long.parseLong(ClusterNodes.call(port, "DBSIZE"));
            assertTrue(n > 2000, "node " + port + " holds only " + n + " keys");
            total += n;
        }
        assertEquals(10_000, total);
    }

    @Test
    @Order(3)
    void reshardingWhileJedisClusterWritesShouldLoseNothing() throws InterruptedException {
        String from = ClusterNodes.call(ports[0], "CLUSTER", "MYID");
        String to = ClusterNodes.call(ports[1], "CLUSTER", "MYID");
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", ports[2]))) {
                for (int i = 0; !stop.get(); i++) {
                    String key = "during:" + i;
                    jc.set(key, key);
                    acknowledged.add(key);
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "reshard-writer");
        writer.start();

        RedisCli.Result reshard = cli.runWithInput(null, SLOW, "--cluster", "reshard", addr(0), "--cluster-from", from,
                "--cluster-to", to, "--cluster-slots", "1000", "--cluster-yes");
        stop.set(true);
        writer.join(60_000);

        assertEquals(0, reshard.exitCode(), reshard::describe);
        assertEquals(null, failure.get(), () -> "the writer failed: " + failure.get());
        assertTrue(acknowledged.size() > 0);
        try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", ports[1]))) {
            for (String key : acknowledged) {
                assertEquals(key, jc.get(key), key);
            }
            for (int i = 0; i < 10_000; i += 7) {
                assertEquals("v" + i, jc.get("key:" + i));
            }
        }
        String nodesLine = ClusterNodes.call(ports[1], "CLUSTER", "NODES");
        assertTrue(nodesLine.contains("myself,master - "), nodesLine);
        RedisCli.Result check = check();
        assertTrue(check.stdout().contains("[OK] All 16384 slots covered."), check::describe);
        assertTrue(check.stdout().contains("(6462 slots) master"), check::describe);
    }

    @Test
    @Order(4)
    void aNodeRestartedFromItsNodesConfShouldRejoinWithItsIdAndSlots() throws InterruptedException {
        String id = ClusterNodes.call(ports[2], "CLUSTER", "MYID");
        String slotsBefore = ClusterNodes.call(ports[0], "CLUSTER", "NODES");
        nodes[2].close();

        nodes[2] = ClusterNodes.startEbb(ports[2], dirs[2], NODE_TIMEOUT);

        assertEquals(id, ClusterNodes.call(ports[2], "CLUSTER", "MYID"));
        for (int port : ports) {
            ClusterNodes.await("node " + port + " to see the restarted node back", 60, () -> ClusterNodes.sees(port, 3));
        }
        List<String> lines = new ArrayList<>();
        for (String line : ClusterNodes.call(ports[2], "CLUSTER", "NODES").split("\n")) {
            lines.add(line.split(" ")[0] + " " + line.substring(line.indexOf("connected") + 9));
        }
        for (String line : lines) {
            assertTrue(slotsBefore.contains(line.split(" ")[0]), line);
        }
        RedisCli.Result check = check();
        assertTrue(check.stdout().contains("[OK] All 16384 slots covered."), check::describe);
    }

    @Test
    @Order(5)
    void aNodeThatStopsShouldBeMarkedFailByTheOthers() throws InterruptedException {
        String id = ClusterNodes.call(ports[2], "CLUSTER", "MYID");

        nodes[2].close();
        nodes[2] = null;

        for (int i = 0; i < 2; i++) {
            int port = ports[i];
            ClusterNodes.await("node " + port + " to flag the stopped node FAIL", 120, () -> {
                for (String line : ClusterNodes.call(port, "CLUSTER", "NODES").split("\n")) {
                    if (line.startsWith(id) && line.contains("master,fail ")) {
                        return true;
                    }
                }
                return false;
            });
            assertTrue(ClusterNodes.call(port, "CLUSTER", "INFO").contains("cluster_state:fail"));
        }
    }
}
