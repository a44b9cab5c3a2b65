package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.cluster.HashSlots;
import dev.ebb.server.cluster.OneNodeCluster;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.embedded.EbbExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.RestoreParams;

/**
 * CLUSTER COUNTKEYSINSLOT and GETKEYSINSLOT, answered from database 0's slot index, agree with the
 * keyspace after every way a key comes and goes: writes, deletes, RENAME, COPY, SMOVE, emptied
 * collections, expiry (manual clock), RESTORE, eviction, FLUSHALL, DEBUG RELOAD, and a restart from an
 * RDB file or an AOF.
 */
class ClusterSlotIndexTest {
    private static final long WAIT_MS = 120_000;
    /** The socket timeout: a pipeline of 16384 commands on a busy machine takes seconds. */
    private static final int TIMEOUT_MS = 120_000;

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("cluster-enabled", "yes")
            .config("enable-debug-command", "yes").manualClock();

    @TempDir
    Path dir;

    @BeforeAll
    static void ownEverySlot() {
        OneNodeCluster.ownEverySlot(ebb);
    }

    private static int slot(String key) {
        return HashSlots.slot(key.getBytes(StandardCharsets.UTF_8));
    }

    private static Jedis client() {
        return new Jedis(ebb.host(), ebb.port(), TIMEOUT_MS);
    }

    @Test
    void writesDeletesRenamesAndCopiesShouldKeepTheSlotCountsRight() {
        try (Jedis j = client()) {
            int user = slot("{user}");
            for (int i = 0; i < 100; i++) {
                j.set("{user}:" + i, "v");
                j.set("k" + i, "v");
            }
            assertEquals(100, j.clusterCountKeysInSlot(user));
            List<String> ten = j.clusterGetKeysInSlot(user, 10);
            assertEquals(10, ten.size());
            ten.forEach(k -> assertTrue(k.startsWith("{user}:"), k));
            assertEquals(100, j.clusterGetKeysInSlot(user, 1000).size());

            j.del("{user}:0", "{user}:1", "{user}:2");
            j.unlink("{user}:3", "{user}:4");
            assertEquals(95, j.clusterCountKeysInSlot(user));
            j.rename("{user}:20", "{user}:renamed");
            assertEquals(95, j.clusterCountKeysInSlot(user));
            j.rename("{user}:21", "{user}:22");
            assertEquals(94, j.clusterCountKeysInSlot(user));
            j.copy("{user}:23", "{user}:copy", false);
            assertEquals(95, j.clusterCountKeysInSlot(user));
            j.sadd("{user}:set", "a");
            assertEquals(96, j.clusterCountKeysInSlot(user));
            j.smove("{user}:set", "{user}:set2", "a");
            assertEquals(96, j.clusterCountKeysInSlot(user));
            j.lpush("{user}:list", "x");
            assertEquals(97, j.clusterCountKeysInSlot(user));
            j.lpop("{user}:list");
            assertEquals(96, j.clusterCountKeysInSlot(user));
            j.set("{user}:5", "overwritten");
            assertEquals(96, j.clusterCountKeysInSlot(user));

            assertIndexMatchesKeyspace(j);
        }
    }

    @Test
    void expiredKeysShouldLeaveTheirSlotWhenLazilyOrActivelyDeleted() throws Exception {
        try (Jedis j = client()) {
            int slot = slot("{e}");
            for (int i = 0; i < 50; i++) {
                j.psetex("{e}:v" + i, 1000, "v");
                j.set("{e}:p" + i, "v");
            }
            assertEquals(100, j.clusterCountKeysInSlot(slot));

            ebb.advanceClock(2000);
            assertNull(j.get("{e}:v0"));
            long deadline = System.currentTimeMillis() + WAIT_MS;
            while (j.clusterCountKeysInSlot(slot) != 50) {
                assertTrue(System.currentTimeMillis() < deadline, "the active expire cycle left expired keys");
                Thread.sleep(20);
            }

            Set<String> left = new HashSet<>(j.clusterGetKeysInSlot(slot, 100));
            assertEquals(50, left.size());
            left.forEach(k -> assertTrue(k.startsWith("{e}:p"), k));
            assertIndexMatchesKeyspace(j);
        }
    }

    @Test
    void restoreShouldAddTheKeyOnceAndReplaceShouldNotCountItTwice() {
        try (Jedis j = client()) {
            j.hset("{r}:h", "f", "v");
            byte[] payload = j.dump("{r}:h");
            int slot = slot("{r}");
            j.del("{r}:h");
            assertEquals(0, j.clusterCountKeysInSlot(slot));

            j.restore("{r}:h", 0, payload);
            j.restore("{r}:h", 0, payload, RestoreParams.restoreParams().replace());
            j.restore("{r}:t", 100_000, payload);

            assertEquals(2, j.clusterCountKeysInSlot(slot));
            assertEquals(Set.of("{r}:h", "{r}:t"), new HashSet<>(j.clusterGetKeysInSlot(slot, 10)));
            assertIndexMatchesKeyspace(j);
        }
    }

    @Test
    void flushesShouldEmptyEverySlot() {
        try (Jedis j = client()) {
            for (String flush : new String[] {"FLUSHALL", "FLUSHDB", "FLUSHALL ASYNC", "FLUSHDB ASYNC"}) {
                fill(j, 300);
                assertTrue(j.clusterCountKeysInSlot(slot("{t}")) > 0);

                j.sendCommand(() -> bytes(flush.split(" ")[0]), flush.contains(" ")
                        ? new String[] {"ASYNC"} : new String[0]);

                assertEquals(0, j.clusterCountKeysInSlot(slot("{t}")), flush);
                fill(j, 10);
                assertIndexMatchesKeyspace(j);
            }
        }
    }

    @Test
    void debugReloadShouldLoadTheKeysIntoTheirSlots() {
        try (Jedis j = client()) {
            fill(j, 2000);
            Map<Integer, Set<String>> before = bySlot(j);

            assertEquals("OK", new String((byte[]) j.sendCommand(() -> bytes("DEBUG"), "RELOAD"),
                    StandardCharsets.US_ASCII));

            assertEquals(before, bySlot(j));
            assertIndexMatchesKeyspace(j);
        }
    }

    @Test
    void evictionShouldTakeTheEvictedKeysOutOfTheirSlots() {
        try (Jedis j = client()) {
            long used = Long.parseLong(infoField(j.info("memory"), "used_memory"));
            j.configSet("maxmemory-policy", "allkeys-random");
            j.configSet("maxmemory", Long.toString(used + 300_000));
            try {
                String value = "x".repeat(1000);
                for (int i = 0; i < 2000; i++) {
                    j.set("{ev" + (i % 7) + "}:" + i, value);
                }
                assertTrue(j.dbSize() < 2000, "some keys were evicted");

                assertIndexMatchesKeyspace(j);
            } finally {
                j.configSet("maxmemory", "0");
                j.configSet("maxmemory-policy", "noeviction");
            }
        }
    }

    @Test
    void restartFromAnRdbFileOrAnAofShouldIndexTheLoadedKeys() throws Exception {
        for (String persistence : new String[] {"save \"\"", "save \"\"\nappendonly yes"}) {
            Map<Integer, Set<String>> before;
            try (EbbServer server = start(persistence); Jedis j = new Jedis("127.0.0.1", server.port(), TIMEOUT_MS)) {
                // A fresh node owns no slot (as in Redis); a restarted one keeps them from nodes.conf.
                if (j.clusterInfo().contains("cluster_slots_assigned:0\r\n")) {
                    assertEquals("OK", j.clusterAddSlotsRange(0, 16383));
                }
                fill(j, 3000);
                before = bySlot(j);
                if (!persistence.contains("appendonly")) {
                    assertEquals("OK", j.save());
                }
            }
            try (EbbServer server = start(persistence); Jedis j = new Jedis("127.0.0.1", server.port(), TIMEOUT_MS)) {
                awaitLoaded(j);

                assertEquals(before, bySlot(j), persistence);
                assertIndexMatchesKeyspace(j);
                j.flushAll();
            }
        }
    }

    private EbbServer start(String persistence) throws Exception {
        return EbbServer.start(ServerConfig.fromText("port 0\ncluster-enabled yes\ndir \"" + dir + "\"\n"
                + persistence + "\n"));
    }

    private static void awaitLoaded(Jedis j) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (true) {
            try {
                j.ping();
                return;
            } catch (JedisDataException e) {
                if (!e.getMessage().startsWith("LOADING") || System.currentTimeMillis() > deadline) {
                    throw e;
                }
                Thread.sleep(10);
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code n} keys of several types, some sharing hash tags, with and without a (distant) TTL. */
    private static void fill(Jedis j, int n) {
        Pipeline p = j.pipelined();
        for (int i = 0; i < n; i++) {
            switch (i % 4) {
                case 0 -> p.set("s" + i, "v" + i);
                case 1 -> p.hset("{t}:h" + i, "f", "v");
                case 2 -> p.rpush("l" + i, "a", "b");
                default -> p.setex("{u" + (i % 13) + "}:x" + i, 100_000, "v");
            }
        }
        p.sync();
    }

    private static String infoField(String info, String field) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        throw new AssertionError("no INFO field " + field);
    }

    /** The keyspace (KEYS *) grouped by the slot CLUSTER KEYSLOT gives. */
    private static Map<Integer, Set<String>> bySlot(Jedis j) {
        Map<Integer, Set<String>> slots = new HashMap<>();
        for (String key : j.keys("*")) {
            slots.computeIfAbsent(slot(key), s -> new HashSet<>()).add(key);
        }
        return slots;
    }

    /**
     * Every slot's COUNTKEYSINSLOT equals the number of keys KEYS lists in it, and GETKEYSINSLOT lists
     * exactly those keys. The keyspace must hold no expired key that is still stored.
     */
    private static void assertIndexMatchesKeyspace(Jedis j) {
        Map<Integer, Set<String>> expected = bySlot(j);
        Pipeline p = j.pipelined();
        List<Response<Object>> counts = new ArrayList<>(HashSlots.SLOTS);
        for (int slot = 0; slot < HashSlots.SLOTS; slot++) {
            counts.add(p.sendCommand(Protocol.Command.CLUSTER, "COUNTKEYSINSLOT", Integer.toString(slot)));
        }
        p.sync();
        for (int slot = 0; slot < HashSlots.SLOTS; slot++) {
            Set<String> keys = expected.getOrDefault(slot, Set.of());
            assertEquals((long) keys.size(), counts.get(slot).get(), "COUNTKEYSINSLOT " + slot);
        }
        for (Map.Entry<Integer, Set<String>> e : expected.entrySet()) {
            int size = e.getValue().size();
            assertEquals(e.getValue(), new HashSet<>(j.clusterGetKeysInSlot(e.getKey(), size + 1)),
                    "GETKEYSINSLOT " + e.getKey());
        }
    }
}
