package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.MigrateParams;
import redis.clients.jedis.params.RestoreParams;

/**
 * DUMP and RESTORE inside Ebb, with the manual clock: every type and encoding survives a round trip
 * (content, OBJECT ENCODING), RESTORE's TTL, ABSTTL, REPLACE, IDLETIME and FREQ, loaded values take
 * this server's encoding thresholds, and MIGRATE's connection error. Error texts are in the
 * dump-restore conformance transcript; the exchanges with redis-server are in
 * {@link DumpRestoreReferenceTest}.
 */
class DumpRestoreCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port(), 30_000);
    }

    @AfterEach
    void restoreConfig() {
        try (Jedis j = connect()) {
            j.configSet("hash-max-listpack-entries", "128");
            j.configSet("maxmemory-policy", "noeviction");
        }
    }

    @Test
    void everyTypeAndEncodingShouldSurviveDumpAndRestore() {
        try (Jedis j = connect()) {
            KeyspaceSamples.populate(j);
            Map<String, String> before = KeyspaceSamples.snapshot(j);

            for (String dbKey : before.keySet()) {
                int db = Integer.parseInt(dbKey.substring(0, dbKey.indexOf(':')));
                String key = dbKey.substring(dbKey.indexOf(':') + 1);
                j.select(db);
                byte[] payload = j.dump(key);
                long pttl = j.pttl(key);
                j.del(key);
                assertEquals("OK", j.restore(key, Math.max(0, pttl), payload));
            }

            KeyspaceSamples.assertSameKeyspace(before, KeyspaceSamples.snapshot(j));
        }
    }

    @Test
    void dumpOfAMissingKeyShouldBeNil() {
        try (Jedis j = connect()) {
            assertNull(j.dump("missing"));
        }
    }

    @Test
    void restoreShouldSetRelativeAndAbsoluteTtls() {
        try (Jedis j = connect()) {
            j.set("s", "v");
            byte[] payload = j.dump("s");

            j.restore("rel", 5000, payload);
            long relExpiresAt = j.pexpireTime("rel");
            j.restore("abs", relExpiresAt + 2000, payload, RestoreParams.restoreParams().absTtl());

            assertEquals(5000, j.pttl("rel"));
            assertEquals(7000, j.pttl("abs"));
            ebb.advanceClock(5001);
            assertFalse(j.exists("rel"));
            assertTrue(j.exists("abs"));
        }
    }

    @Test
    void restoreReplaceWithAPastAbsoluteTtlShouldOnlyDelete() {
        try (Jedis j = connect()) {
            j.set("s", "new");
            byte[] payload = j.dump("s");
            j.set("k", "old");

            String reply = j.restore("k", 1, payload, RestoreParams.restoreParams().replace().absTtl());

            assertEquals("OK", reply);
            assertFalse(j.exists("k"));
        }
    }

    @Test
    void restoreShouldRefuseAnExistingKeyWithoutReplace() {
        try (Jedis j = connect()) {
            j.set("s", "new");
            byte[] payload = j.dump("s");
            j.set("k", "old");

            String error = assertThrows(JedisDataException.class, () -> j.restore("k", 0, payload)).getMessage();

            assertEquals("BUSYKEY Target key name already exists.", error);
            assertEquals("old", j.get("k"));
            assertEquals("OK", j.restore("k", 0, payload, RestoreParams.restoreParams().replace()));
            assertEquals("new", j.get("k"));
        }
    }

    @Test
    void restoreShouldSetIdleTimeOrFrequency() {
        try (Jedis j = connect()) {
            j.set("s", "v");
            byte[] payload = j.dump("s");

            j.restore("idle", 0, payload, RestoreParams.restoreParams().idleTime(3600));
            assertEquals(3600, j.objectIdletime("idle"));

            j.configSet("maxmemory-policy", "allkeys-lfu");
            j.restore("freq", 0, payload, RestoreParams.restoreParams().frequency(100));
            assertEquals(100, j.objectFreq("freq"));
        }
    }

    @Test
    void restoredValuesShouldTakeThisServersThresholds() {
        try (Jedis j = connect()) {
            j.hset("h", Map.of("a", "1", "b", "2", "c", "3"));
            byte[] payload = j.dump("h");
            j.configSet("hash-max-listpack-entries", "2");

            j.restore("big", 0, payload);

            assertEquals("hashtable", j.objectEncoding("big"));
            assertEquals(Map.of("a", "1", "b", "2", "c", "3"), j.hgetAll("big"));
        }
    }

    @Test
    void restoreShouldServeABlockedClient() throws Exception {
        try (Jedis j = connect(); Jedis blocked = connect()) {
            j.rpush("src", "x");
            byte[] payload = j.dump("src");
            java.util.concurrent.CompletableFuture<List<String>> pop =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> blocked.blpop(0, "dst"));
            ListBlockingTest.awaitBlocked(ebb, 1);

            j.restore("dst", 0, payload);

            assertEquals(List.of("dst", "x"), pop.get(30, java.util.concurrent.TimeUnit.SECONDS));
        }
    }

    @Test
    void dumpShouldBeStableAcrossRestore() {
        try (Jedis j = connect()) {
            j.zadd("z", Map.of("a", 1.5, "b", 2.0));
            byte[] payload = j.dump("z");

            j.restore("z2", 0, payload);

            assertArrayEquals(payload, j.dump("z2"));
        }
    }

    @Test
    void migrateShouldReportAConnectionFailure() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (Jedis j = connect()) {
            j.set("k", "v");

            String error = assertThrows(JedisDataException.class,
                    () -> j.migrate("127.0.0.1", closedPort, "k", 0, 1000)).getMessage();

            assertEquals("IOERR error or timeout connecting to the client", error);
            assertEquals("v", j.get("k"));
            assertEquals("NOKEY", j.migrate("127.0.0.1", closedPort, 0, 1000, new MigrateParams(), "missing"));
        }
    }
}
