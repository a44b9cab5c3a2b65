package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * Six Ebb nodes started in-process become three primaries with one replica each through
 * {@code redis-cli --cluster create --cluster-replicas 1}; replicas serve READONLY reads; a primary
 * is stopped while JedisCluster and Lettuce write ({@link ClusterLoad}), its replica wins the election
 * and both clients go on (acknowledged writes lost are reported; writes confirmed by WAIT are all
 * kept); the old primary comes back as a replica of the new owner; CLUSTER FAILOVER gives it its
 * slots back without losing a write. {@code redis-cli --cluster check} is clean after each step.
 * The steps share one cluster.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFailoverTest {
    private static final long NODE_TIMEOUT = 3000;
    private static final Duration SLOW = Duration.ofMinutes(5);
    private static final int NODES = 6;

    private static final int[] ports = new int[NODES];
    private static final Path[] dirs = new Path[NODES];
    private static final EbbServer[] nodes = new EbbServer[NODES];
    private static RedisCli cli;
    /** Index of the primary stopped in step 3, and of its replica. */
    private static int victim = -1;
    private static int heir = -1;

    @BeforeAll
    static void startNodes() throws IOException {
        ClusterNodes.startForCli(nodes, ports, dirs, "ebb-failover", NODE_TIMEOUT, "cluster failover test");
        cli = RedisCli.against(ports[0]);
    }

    @AfterAll
    static void stopNodes() {
        ClusterNodes.closeAll(nodes);
    }

    private static String addr(int i) {
        return ClusterNodes.addr(ports[i]);
    }

    private static int live() {
        for (int i = 0; i < NODES; i++) {
            if (nodes[i] != null) {
                return i;
            }
        }
        throw new IllegalStateException("no node");
    }

    private static void assertCheckClean() {
        RedisCli.Result check = cli.runWithInput(null, SLOW, "--cluster", "check", addr(live()));
        assertTrue(check.stdout().contains("[OK] All nodes agree about slots configuration."), check::describe);
        assertTrue(check.stdout().contains("[OK] All 16384 slots covered."), check::describe);
    }

    /** Index of the live node whose id is {@code id}, or -1. */
    private static int indexOf(String id) {
        for (int i = 0; i < NODES; i++) {
            if (nodes[i] != null && ClusterNodes.call(ports[i], "CLUSTER", "MYID").equals(id)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean linkUp(int i) {
        return ClusterNodes.call(ports[i], "INFO", "replication").contains("master_link_status:up");
    }

    /** Every live node sees {@code count} nodes, none failing, and the cluster ok. */
    private static void awaitHealthy(int count, String what) throws InterruptedException {
        for (int i = 0; i < NODES; i++) {
            if (nodes[i] != null) {
                int port = ports[i];
                ClusterNodes.await("node " + port + " " + what, 120, () -> ClusterNodes.sees(port, count));
            }
        }
    }

    @Test
    @Order(1)
    void redisCliShouldCreateThreePrimariesWithOneReplicaEach() throws InterruptedException {
        String[] args = new String[NODES + 5];
        args[0] = "--cluster";
        args[1] = "create";
        for (int i = 0; i < NODES; i++) {
            args[2 + i] = addr(i);
        }
        args[NODES + 2] = "--cluster-replicas";
        args[NODES + 3] = "1";
        args[NODES + 4] = "--cluster-yes";
        RedisCli.Result create = cli.runWithInput(null, SLOW, args);

        assertEquals(0, create.exitCode(), create::describe);
        assertTrue(create.stdout().contains("[OK] All 16384 slots covered."), create::describe);
        awaitHealthy(NODES, "to see six healthy nodes");
        int replicas = 0;
        for (int i = 0; i < NODES; i++) {
            int port = ports[i];
            ClusterNodes.await("node " + port + " to see three replicas", 60, () -> replicasSeen(port) == 3);
            if (ClusterNodes.call(port, "CLUSTER", "NODES").contains("myself,slave")) {
                replicas++;
                int index = i;
                ClusterNodes.await("replica " + ports[i] + " to sync", 120, () -> linkUp(index));
            }
        }
        assertEquals(3, replicas);
        List<String> primaries = new ArrayList<>();
        String replicaId = null;
        for (String line : ClusterNodes.call(ports[0], "CLUSTER", "NODES").split("\n")) {
            String[] f = line.split(" ");
            if (f[2].contains("slave")) {
                replicaId = f[0];
            } else {
                primaries.add(f[0]);
            }
        }
        int primaryPort = ports[indexOf(primaries.get(0))];
        assertEquals("ERR I can only replicate a master, not a replica.",
                errorOf(primaryPort, "CLUSTER", "REPLICATE", replicaId));
        assertEquals("ERR To set a master the node must be empty and without assigned slots.",
                errorOf(primaryPort, "CLUSTER", "REPLICATE", primaries.get(1)));
        assertCheckClean();
    }

    private static String errorOf(int port, String... command) {
        try {
            return ClusterNodes.call(port, command);
        } catch (redis.clients.jedis.exceptions.JedisDataException e) {
            return e.getMessage();
        }
    }

    private static long replicasSeen(int port) {
        return java.util.Arrays.stream(ClusterNodes.call(port, "CLUSTER", "NODES").split("\n"))
                .filter(l -> l.split(" ")[2].contains("slave")).count();
    }

    @Test
    @Order(2)
    void aReplicaShouldServeReadsAfterReadonlyAndRedirectOtherwise() throws InterruptedException {
        try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", ports[0]))) {
            jc.set("{r}key", "value");
        }
        int slot = Integer.parseInt(ClusterNodes.call(ports[0], "CLUSTER", "KEYSLOT", "{r}key"));
        int replica = -1;
        String ownerId = null;
        for (int i = 0; i < NODES && replica < 0; i++) {
            for (String line : ClusterNodes.call(ports[i], "CLUSTER", "NODES").split("\n")) {
                if (line.contains("myself,slave")) {
                    String master = line.split(" ")[3];
                    int owner = indexOf(master);
                    if (ClusterNodes.call(ports[owner], "CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot))
                            .equals("1")) {
                        replica = i;
                        ownerId = master;
                    }
                }
            }
        }
        assertTrue(replica >= 0, "no replica of the owner of slot " + slot);
        int port = ports[replica];
        ClusterNodes.await("the key to reach the replica", 60, () -> ClusterNodes.call(port, "DBSIZE").equals("1"));

        try (Jedis j = new Jedis("127.0.0.1", port, 10_000)) {
            String moved = assertRedirect(j, "{r}key");
            assertTrue(moved.startsWith("MOVED " + slot + " "), moved);
            assertEquals("OK", j.readonly());
            assertEquals("value", j.get("{r}key"));
            String write = assertRedirectSet(j, "{r}key");
            assertTrue(write.startsWith("MOVED " + slot + " "), write);
            assertEquals("OK", j.readwrite());
            assertTrue(assertRedirect(j, "{r}key").startsWith("MOVED"));
        }
        try (Jedis j = new Jedis("127.0.0.1", port, 10_000)) {
            List<String> lines = j.clusterReplicas(ownerId);
            assertEquals(1, lines.size(), lines::toString);
            assertTrue(lines.get(0).contains("myself,slave " + ownerId), lines::toString);
            // SLOTS lists a replica once it announced a replication offset: give every shard a write.
            try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", ports[0]))) {
                for (String key : new String[] {"a", "b", "c"}) {
                    jc.set(key, key);
                }
            }
            ClusterNodes.await("CLUSTER SLOTS to list each range's primary and replica", 60, () -> {
                List<Object> slots = j.clusterSlots();
                return slots.size() == 3 && slots.stream().allMatch(range -> ((List<?>) range).size() == 4);
            });
            List<redis.clients.jedis.resps.ClusterShardInfo> shards = j.clusterShards();
            assertEquals(3, shards.size());
            for (redis.clients.jedis.resps.ClusterShardInfo shard : shards) {
                assertEquals(2, shard.getNodes().size());
                assertEquals(java.util.Set.of("master", "replica"), java.util.Set.of(shard.getNodes().get(0).getRole(),
                        shard.getNodes().get(1).getRole()));
            }
        }
    }

    private static String assertRedirect(Jedis j, String key) {
        try {
            j.get(key);
            return "served";
        } catch (redis.clients.jedis.exceptions.JedisDataException e) {
            return e.getMessage();
        }
    }

    private static String assertRedirectSet(Jedis j, String key) {
        try {
            j.set(key, "other");
            return "served";
        } catch (redis.clients.jedis.exceptions.JedisDataException e) {
            return e.getMessage();
        }
    }

    @Test
    @Order(3)
    void aStoppedPrimaryShouldBeReplacedByItsReplicaWhileJedisClusterAndLettuceWrite() throws Exception {
        String slot0Owner = null;
        for (String line : ClusterNodes.call(ports[0], "CLUSTER", "NODES").split("\n")) {
            String[] f = line.split(" ");
            if (f.length > 8 && f[8].startsWith("0-")) {
                slot0Owner = f[0];
            }
        }
        victim = indexOf(slot0Owner);
        for (int i = 0; i < NODES; i++) {
            if (ClusterNodes.call(ports[i], "CLUSTER", "NODES").contains("myself,slave " + slot0Owner)) {
                heir = i;
            }
        }
        assertTrue(victim >= 0 && heir >= 0);
        // Writes confirmed by WAIT must survive the failover.
        List<String> waited = new ArrayList<>();
        try (Jedis j = new Jedis("127.0.0.1", ports[victim], 10_000)) {
            for (int i = 0; i < 100; i++) {
                String key = "{06S}waited:" + i;
                j.set(key, key);
                waited.add(key);
            }
            assertEquals(1, j.waitReplicas(1, 10_000));
        }
        ClusterLoad.Record record = new ClusterLoad.Record();
        ClusterLoad load = ClusterLoad.start(ports, record);
        long tookMs;
        String clients;
        try {
            load.awaitProgress("before the failover", new long[] {0, 0}, 200);
            long stoppedAt = System.nanoTime();
            nodes[victim].close();
            nodes[victim] = null;
            int heirPort = ports[heir];
            ClusterNodes.await("the replica to take the slots", 120,
                    () -> ClusterNodes.call(heirPort, "CLUSTER", "NODES").contains("myself,master"));
            tookMs = (System.nanoTime() - stoppedAt) / 1_000_000;
            load.awaitProgress("after the failover", load.progress(), 200);
            clients = load.writers().toString();
        } finally {
            load.close();
        }

        List<String> lost = record.lost(ports[heir]);
        try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", ports[heir]))) {
            for (String key : waited) {
                assertEquals(key, jc.get(key), "a write confirmed by WAIT was lost");
            }
        }
        System.out.printf("failover: replica took the slots %d ms after the primary stopped; %d keys written, %d lost"
                + " (asynchronous replication); %s%n", tookMs, record.keys(), lost.size(), clients);
        assertTrue(lost.size() < record.keys() / 10, lost.size() + " of " + record.keys() + " writes lost");
        awaitHealthyWithout(victim);
        RedisCli.Result check = cli.runWithInput(null, SLOW, "--cluster", "check", addr(heir));
        assertTrue(check.stdout().contains("[OK] All 16384 slots covered."), check::describe);
    }

    /** The live nodes see the cluster ok (the stopped node is listed as failing). */
    private static void awaitHealthyWithout(int stopped) throws InterruptedException {
        for (int i = 0; i < NODES; i++) {
            if (nodes[i] != null) {
                int port = ports[i];
                ClusterNodes.await("node " + port + " to see the cluster ok", 120,
                        () -> ClusterNodes.call(port, "CLUSTER", "INFO").contains("cluster_state:ok"));
            }
        }
    }

    @Test
    @Order(4)
    void theOldPrimaryShouldComeBackAsAReplicaOfTheNewOwner() throws InterruptedException {
        String heirId = ClusterNodes.call(ports[heir], "CLUSTER", "MYID");
        nodes[victim] = ClusterNodes.startEbb(ports[victim], dirs[victim], NODE_TIMEOUT);
        int port = ports[victim];

        ClusterNodes.await("the old primary to follow the new owner", 120,
                () -> ClusterNodes.call(port, "CLUSTER", "NODES").contains("myself,slave " + heirId));
        ClusterNodes.await("the old primary to sync", 120, () -> linkUp(victim));
        awaitHealthy(NODES, "to see six healthy nodes again");
        assertEquals(ClusterNodes.call(ports[heir], "DBSIZE"), ClusterNodes.call(port, "DBSIZE"));
        assertCheckClean();
    }

    @Test
    @Order(5)
    void clusterFailoverShouldSwapRolesWithoutLosingAWrite() throws InterruptedException {
        List<String> keys = new ArrayList<>();
        try (Jedis j = new Jedis("127.0.0.1", ports[heir], 10_000)) {
            for (int i = 0; i < 500; i++) {
                String key = "{06S}manual:" + i;
                j.set(key, key);
                keys.add(key);
            }
        }

        assertEquals("OK", ClusterNodes.call(ports[victim], "CLUSTER", "FAILOVER"));

        int port = ports[victim];
        ClusterNodes.await("the replica to become primary", 60,
                () -> ClusterNodes.call(port, "CLUSTER", "NODES").contains("myself,master"));
        int heirPort = ports[heir];
        ClusterNodes.await("the old owner to follow it", 60,
                () -> ClusterNodes.call(heirPort, "CLUSTER", "NODES").contains("myself,slave"));
        try (Jedis j = new Jedis("127.0.0.1", port, 10_000)) {
            for (String key : keys) {
                assertEquals(key, j.get(key));
            }
        }
        awaitHealthy(NODES, "to see six healthy nodes after the manual failover");
        assertCheckClean();
    }
}
