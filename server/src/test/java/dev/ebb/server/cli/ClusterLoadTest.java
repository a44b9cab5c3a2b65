package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Issue #21's load acceptance: six Ebb nodes, each a JVM of its own, made three primaries with one
 * replica each by {@code redis-cli --cluster create --cluster-replicas 1}; JedisCluster and Lettuce's
 * cluster client write and read back keys of every slot ({@link ClusterLoad}) while (a) {@code
 * redis-cli --cluster reshard} moves 1000 slots between two primaries — no acknowledged write may be
 * lost — and (b) a primary's JVM is SIGKILLed — its replica takes over, both clients go on, the
 * acknowledged writes lost to asynchronous replication are counted and printed, and writes confirmed
 * by WAIT must all survive. {@code redis-cli --cluster check} covers all slots after each step. The
 * steps share one cluster and one record of acknowledged writes.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterLoadTest {
    private static final long NODE_TIMEOUT = 3000;
    private static final int NODES = 6;
    private static final int MOVED_SLOTS = 1000;

    private static final int[] ports = new int[NODES];
    private static final Process[] nodes = new Process[NODES];
    private static final ClusterLoad.Record record = new ClusterLoad.Record();
    private static RedisCli cli;
    private static ClusterLoad load;

    @BeforeAll
    static void startNodes() throws IOException, InterruptedException {
        Assumptions.assumeTrue(new File("/usr/bin/redis-cli").canExecute() || System.getenv("REDIS_CLI") != null,
                "redis-cli is not installed (apt-get install redis-tools): skipping the cluster load test");
        for (int i = 0; i < NODES; i++) {
            ports[i] = ClusterNodes.freePortWithBusPort();
            nodes[i] = ClusterNodes.startEbbProcess(ports[i], Files.createTempDirectory("ebb-load-" + i + "-"),
                    NODE_TIMEOUT);
        }
        cli = RedisCli.against(ports[0]);
    }

    @AfterAll
    static void stopNodes() throws InterruptedException {
        if (load != null) {
            load.close();
        }
        for (Process node : nodes) {
            if (node != null) {
                node.destroyForcibly();
                node.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private static int live() {
        for (int i = 0; i < NODES; i++) {
            if (nodes[i] != null) {
                return i;
            }
        }
        throw new IllegalStateException("no node");
    }

    private static void assertSlotsCovered() {
        RedisCli.Result check = cli.runWithInput(null, ClusterNodes.SLOW, "--cluster", "check",
                ClusterNodes.addr(ports[live()]));
        assertTrue(check.stdout().contains("[OK] All 16384 slots covered."), check::describe);
    }

    /** Every live node answers {@code cluster_state:ok}. */
    private static void awaitClusterOk(String what) throws InterruptedException {
        for (int i = 0; i < NODES; i++) {
            if (nodes[i] != null) {
                int port = ports[i];
                ClusterNodes.await("node " + port + " " + what, 120,
                        () -> ClusterNodes.call(port, "CLUSTER", "INFO").contains("cluster_state:ok"));
            }
        }
    }

    /** Slots per primary id in {@code port}'s CLUSTER NODES (open-slot entries {@code [..]} skipped). */
    private static Map<String, BitSet> slotsByPrimary(int port) {
        Map<String, BitSet> slots = new HashMap<>();
        for (String line : ClusterNodes.call(port, "CLUSTER", "NODES").split("\n")) {
            String[] f = line.split(" ");
            if (!f[2].contains("master")) {
                continue;
            }
            BitSet owned = slots.computeIfAbsent(f[0], id -> new BitSet());
            for (int k = 8; k < f.length; k++) {
                if (f[k].startsWith("[")) {
                    continue;
                }
                String[] range = f[k].split("-");
                owned.set(Integer.parseInt(range[0]), Integer.parseInt(range[range.length - 1]) + 1);
            }
        }
        return slots;
    }

    private static int indexOf(String id) {
        for (int i = 0; i < NODES; i++) {
            if (nodes[i] != null && ClusterNodes.call(ports[i], "CLUSTER", "MYID").equals(id)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    @Order(1)
    void sixNodeJvmsShouldBecomeThreePrimariesWithOneReplicaEach() throws InterruptedException {
        ClusterNodes.createThreeByThree(ports);

        ClusterNodes.awaitHealthy(ports);
        ClusterNodes.awaitReplicasLinked(ports);
        assertEquals(3, slotsByPrimary(ports[0]).size());
        assertSlotsCovered();
    }

    @Test
    @Order(2)
    void resharding1000SlotsUnderLoadShouldLoseNoAcknowledgedWrite() throws InterruptedException {
        load = ClusterLoad.start(ports, record);
        load.awaitProgress("before the reshard", new long[] {0, 0}, 2000);
        Map<String, BitSet> before = slotsByPrimary(ports[0]);
        List<String> primaries = new ArrayList<>(before.keySet());
        primaries.sort(null);
        String from = primaries.get(0);
        String to = primaries.get(1);

        long[] atStart = load.progress();
        RedisCli.Result reshard = cli.runWithInput(null, ClusterNodes.SLOW, "--cluster", "reshard",
                ClusterNodes.addr(ports[0]), "--cluster-from", from, "--cluster-to", to, "--cluster-slots",
                Integer.toString(MOVED_SLOTS), "--cluster-yes");
        long[] atEnd = load.progress();

        assertEquals(0, reshard.exitCode(), reshard::describe);
        for (int i = 0; i < NODES; i++) {
            int port = ports[i];
            ClusterNodes.await("node " + port + " to see " + MOVED_SLOTS + " slots moved", 120, () -> {
                Map<String, BitSet> now = slotsByPrimary(port);
                return now.get(from).cardinality() == before.get(from).cardinality() - MOVED_SLOTS
                        && now.get(to).cardinality() == before.get(to).cardinality() + MOVED_SLOTS;
            });
        }
        for (int c = 0; c < atStart.length; c++) {
            assertTrue(atEnd[c] > atStart[c], load.writers().get(c) + " made no progress during the reshard");
        }
        load.awaitProgress("after the reshard", atEnd, 1000);
        List<ClusterLoad.Writer> clients = load.writers();
        load.close();
        load = null;

        BitSet moved = (BitSet) slotsByPrimary(ports[0]).get(to).clone();
        moved.andNot(before.get(to));
        assertEquals(MOVED_SLOTS, moved.cardinality());
        long keysMoved = 0;
        try (Jedis j = new Jedis("127.0.0.1", ports[indexOf(to)], 10_000)) {
            for (int slot = moved.nextSetBit(0); slot >= 0; slot = moved.nextSetBit(slot + 1)) {
                keysMoved += j.clusterCountKeysInSlot(slot);
            }
        }
        List<String> lost = record.lost(ports[live()]);
        System.out.printf("reshard: %d slots moved in %d ms under load (%d keys in them afterwards); writes during it"
                + " %d / %d; %d keys checked, %d acknowledged writes lost; %s%n", MOVED_SLOTS,
                reshard.took().toMillis(), keysMoved, atEnd[0] - atStart[0], atEnd[1] - atStart[1], record.keys(),
                lost.size(), clients);
        for (ClusterLoad.Writer w : clients) {
            assertEquals(0, w.staleReads.get(), w + ": a GET right after an acknowledged SET missed it");
        }
        assertEquals(List.of(), lost.subList(0, Math.min(10, lost.size())), lost.size() + " acknowledged writes lost");
        assertTrue(keysMoved > 0, "no key in the moved slots");
        assertSlotsCovered();
    }

    @Test
    @Order(3)
    void aSigkilledPrimaryShouldBeReplacedByItsReplicaWhileBothClientsWrite() throws InterruptedException {
        load = ClusterLoad.start(ports, record);
        load.awaitProgress("before the kill", load.progress(), 1000);
        Map<String, BitSet> owners = slotsByPrimary(ports[0]);
        String victimId = owners.entrySet().stream().max(Map.Entry.comparingByValue(
                java.util.Comparator.comparingInt(BitSet::cardinality))).orElseThrow().getKey();
        int victim = indexOf(victimId);
        int heir = -1;
        for (int i = 0; i < NODES; i++) {
            if (ClusterNodes.call(ports[i], "CLUSTER", "NODES").contains("myself,slave " + victimId)) {
                heir = i;
            }
        }
        assertTrue(victim >= 0 && heir >= 0, "no primary with a replica");
        String tag = null;
        for (int t = 0; tag == null; t++) {
            if (owners.get(victimId).get(JedisClusterCRC16.getSlot("{w" + t + "}"))) {
                tag = "{w" + t + "}";
            }
        }
        List<String> waited = new ArrayList<>();
        try (Jedis j = new Jedis("127.0.0.1", ports[victim], 10_000)) {
            for (int i = 0; i < 100; i++) {
                String key = tag + "waited:" + i;
                j.set(key, key);
                waited.add(key);
            }
            assertEquals(1, j.waitReplicas(1, 30_000), "WAIT 1: the replica did not confirm");
        }

        long[] atKill = load.progress();
        long killedAt = System.nanoTime();
        nodes[victim].destroyForcibly();
        assertTrue(nodes[victim].waitFor(30, TimeUnit.SECONDS));
        nodes[victim] = null;
        int heirPort = ports[heir];
        String probe = waited.get(0);
        ClusterNodes.await("the replica to serve the killed primary's slots", 120, () -> {
            try (Jedis j = new Jedis("127.0.0.1", heirPort, 10_000)) {
                return probe.equals(j.get(probe));
            }
        });
        long tookMs = (System.nanoTime() - killedAt) / 1_000_000;
        awaitClusterOk("to see the cluster ok after the failover");
        long[] atFailover = load.progress();
        load.awaitProgress("after the failover", atFailover, 1000);
        String clients = load.writers().toString();
        load.close();
        load = null;

        List<String> lost = record.lost(ports[live()]);
        try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", heirPort))) {
            for (String key : waited) {
                assertEquals(key, jc.get(key), "a write confirmed by WAIT was lost");
            }
        }
        System.out.printf("failover: replica served %d ms after SIGKILL of the primary; %d keys checked,"
                + " %d acknowledged writes lost (asynchronous replication)%s; writes from the kill to the failover"
                + " %d / %d; %s%n",
                tookMs, record.keys(), lost.size(), lost.isEmpty() ? "" : " e.g. " + lost.get(0),
                atFailover[0] - atKill[0], atFailover[1] - atKill[1], clients);
        assertTrue(lost.size() < record.keys() / 10, lost.size() + " of " + record.keys() + " lost");
        assertSlotsCovered();
    }
}
