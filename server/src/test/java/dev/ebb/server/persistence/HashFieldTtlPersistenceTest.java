package dev.ebb.server.persistence;

import static dev.ebb.server.persistence.AofTesting.cmd;
import static dev.ebb.server.persistence.RdbRoundTripTest.awaitLoaded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.differential.ReferenceRedis;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Hash field TTLs survive SAVE + restart, DEBUG RELOAD and BGREWRITEAOF + appendonly restart, and
 * the RDB file goes both ways with redis-server 7.4.1 (skipped with the reason when it cannot run):
 * every field's value and HPEXPIRETIME compared.
 */
class HashFieldTtlPersistenceTest {
    /** 2100-01-01: far enough that no field expires during a test. */
    private static final long T = 4_102_444_800_000L;

    @TempDir
    Path dir;

    /** A listpack hash and a hashtable hash with volatile and persistent fields, and a plain hash. */
    static void fill(Jedis j) {
        j.hset("hl", Map.of("a", "1", "b", "2", "c", "3"));
        cmd(j, "HPEXPIREAT", "hl", Long.toString(T), "FIELDS", "1", "a");
        cmd(j, "HPEXPIREAT", "hl", Long.toString(T + 7), "FIELDS", "1", "b");
        for (int i = 0; i < 300; i++) {
            j.hset("ht", "f" + i, "v" + i);
            if (i % 3 == 0) {
                cmd(j, "HPEXPIREAT", "ht", Long.toString(T + i), "FIELDS", "1", "f" + i);
            }
        }
        j.hset("plain", "x", "y");
    }

    /** Every field of every hash as key/field → value@HPEXPIRETIME. */
    static Map<String, String> contents(Jedis j) {
        Map<String, String> out = new TreeMap<>();
        for (String key : j.keys("*")) {
            for (Map.Entry<String, String> e : j.hgetAll(key).entrySet()) {
                Object ttl = ((List<?>) cmd(j, "HPEXPIRETIME", key, "FIELDS", "1", e.getKey())).get(0);
                out.put(key + "/" + e.getKey(), e.getValue() + "@" + ttl);
            }
        }
        return out;
    }

    private static void assertFilled(Map<String, String> contents) {
        assertEquals(304, contents.size(), contents.toString());
        assertEquals("1@" + T, contents.get("hl/a"));
        assertEquals("2@" + (T + 7), contents.get("hl/b"));
        assertEquals("3@-1", contents.get("hl/c"));
        assertEquals("v3@" + (T + 3), contents.get("ht/f3"));
        assertEquals("v4@-1", contents.get("ht/f4"));
    }

    @Test
    void saveAndRestartShouldKeepFieldTtls() throws Exception {
        Map<String, String> before;
        try (EbbServer ebb = AofTesting.start(dir, "save \"\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            fill(j);
            before = contents(j);
            assertEquals("OK", j.save());
        }
        assertFilled(before);
        byte[] file = Files.readAllBytes(dir.resolve("dump.rdb"));
        assertEquals("REDIS0012", new String(file, 0, 9, StandardCharsets.US_ASCII));
        try (EbbServer ebb = AofTesting.start(dir, "save \"\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            assertEquals(before, contents(j));
            assertEquals(1L, ((List<?>) cmd(j, "HPERSIST", "hl", "FIELDS", "1", "a")).get(0));
            assertEquals(1L, ((List<?>) cmd(j, "HPERSIST", "ht", "FIELDS", "1", "f0")).get(0));
        }
    }

    @Test
    void fileWithoutFieldTtlsShouldStayVersion11() throws Exception {
        try (EbbServer ebb = AofTesting.start(dir, "save \"\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.hset("plain", "x", "y");
            assertEquals("OK", j.save());
        }
        byte[] file = Files.readAllBytes(dir.resolve("dump.rdb"));
        assertEquals("REDIS0011", new String(file, 0, 9, StandardCharsets.US_ASCII));
    }

    @Test
    void debugReloadShouldKeepFieldTtls() throws Exception {
        try (EbbServer ebb = AofTesting.start(dir, "save \"\"", "enable-debug-command yes");
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            fill(j);
            Map<String, String> before = contents(j);
            assertEquals("OK", new String((byte[]) cmd(j, "DEBUG", "RELOAD"), StandardCharsets.US_ASCII));
            assertEquals(before, contents(j));
        }
    }

    @Test
    void aofRewriteAndRestartShouldKeepFieldTtls() throws Exception {
        Map<String, String> before;
        try (EbbServer ebb = AofTesting.start(dir, "save \"\"", "appendonly yes");
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            fill(j);
            j.bgrewriteaof();
            long deadline = System.currentTimeMillis() + RdbRoundTripTest.WAIT_MS;
            while (!j.info("persistence").contains("aof_rewrite_in_progress:0")
                    || j.info("persistence").contains("aof_rewrite_scheduled:1")) {
                assertTrue(System.currentTimeMillis() < deadline, "BGREWRITEAOF still running");
                Thread.sleep(10);
            }
            cmd(j, "HPEXPIREAT", "hl", Long.toString(T + 9), "FIELDS", "1", "c");
            before = contents(j);
        }
        assertEquals("3@" + (T + 9), before.get("hl/c"));
        try (EbbServer ebb = AofTesting.start(dir, "save \"\"", "appendonly yes");
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            assertEquals(before, contents(j));
        }
    }

    private static ReferenceRedis startRedis74(String... args) {
        ReferenceRedis redis = ReferenceRedis.startVersionOrNull("7.4.1", args);
        Assumptions.assumeTrue(redis != null, () -> "skipped: " + ReferenceRedis.unavailableReason);
        return redis;
    }

    @Test
    void redis74ShouldLoadEbbsFieldTtls() throws Exception {
        Map<String, String> before;
        try (EbbServer ebb = AofTesting.start(dir, "save \"\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            fill(j);
            before = contents(j);
            assertEquals("OK", j.save());
        }
        try (ReferenceRedis redis = startRedis74("--dir", dir.toString(), "--dbfilename", "dump.rdb");
                Jedis r = new Jedis("127.0.0.1", redis.port())) {
            assertEquals(before, contents(r));
        }
    }

    @Test
    void ebbShouldLoadRedis74sFieldTtls() throws Exception {
        Map<String, String> before;
        try (ReferenceRedis redis = startRedis74(); Jedis r = new Jedis("127.0.0.1", redis.port())) {
            fill(r);
            before = contents(r);
            assertEquals("OK", r.save());
            Files.copy(redis.dir().resolve("dump.rdb"), dir.resolve("dump.rdb"), StandardCopyOption.REPLACE_EXISTING);
        }
        assertFilled(before);
        try (EbbServer ebb = AofTesting.start(dir, "save \"\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            assertEquals(before, contents(j));
        }
    }
}
