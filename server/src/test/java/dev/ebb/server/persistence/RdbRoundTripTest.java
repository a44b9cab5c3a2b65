package dev.ebb.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Every type and encoding, with TTLs, survives SAVE + restart, DEBUG RELOAD and BGSAVE + restart;
 * a BGSAVE taken while a client keeps writing saves exactly the keyspace of the BGSAVE instant.
 */
class RdbRoundTripTest {
    static final long WAIT_MS = 120_000;

    @TempDir
    Path dir;

    EbbServer start(String extra) throws Exception {
        return EbbServer.start(ServerConfig.fromText("port 0\nsave \"\"\ndir " + dir + "\n" + extra));
    }

    /** Waits until the server answers commands (not -LOADING). */
    static void awaitLoaded(Jedis j) throws InterruptedException {
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

    static String info(Jedis j, String field) {
        for (String line : j.info("persistence").split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        throw new AssertionError("no INFO field " + field);
    }

    /** Waits for the running BGSAVE to end and returns rdb_last_bgsave_status. */
    static String awaitBgsave(Jedis j) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (info(j, "rdb_bgsave_in_progress").equals("1")) {
            assertTrue(System.currentTimeMillis() < deadline, "BGSAVE still running after " + WAIT_MS + " ms");
            Thread.sleep(10);
        }
        return info(j, "rdb_last_bgsave_status");
    }

    @Test
    void saveAndRestartShouldKeepEveryTypeEncodingAndTtl() throws Exception {
        Map<String, String> before;
        try (EbbServer ebb = start(""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            Keyspaces.fill(j, "k");
            before = Keyspaces.dump(j);

            assertEquals("OK", j.save());
            assertEquals("0", info(j, "rdb_changes_since_last_save"));
            assertEquals("1", info(j, "rdb_saves"));
        }
        assertTrue(Files.exists(dir.resolve("dump.rdb")));

        try (EbbServer ebb = start(""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);

            Keyspaces.assertSame(before, Keyspaces.dump(j));
            assertEquals(String.valueOf(before.size()), info(j, "rdb_last_load_keys_loaded"));
        }
    }

    @Test
    void debugReloadShouldKeepEverything() throws Exception {
        try (EbbServer ebb = start("enable-debug-command yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            Keyspaces.fill(j, "r");
            Map<String, String> before = Keyspaces.dump(j);

            Object reply = j.sendCommand(() -> "DEBUG".getBytes(java.nio.charset.StandardCharsets.US_ASCII), "RELOAD");

            assertEquals("OK", new String((byte[]) reply));
            Keyspaces.assertSame(before, Keyspaces.dump(j));
        }
    }

    static Object debug(Jedis j, String... args) {
        Object reply = j.sendCommand(() -> "DEBUG".getBytes(java.nio.charset.StandardCharsets.US_ASCII), args);
        return reply instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : reply;
    }

    /** As redis-server 7.2.4: the file's keys are added, a duplicate takes the file's value and TTL, the rest stay. */
    @Test
    void debugReloadNoflushMergeShouldAddTheFilesKeysAndLetThemReplaceDuplicates() throws Exception {
        try (EbbServer ebb = start("enable-debug-command yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.set("a", "1");
            j.setex("b", 1000, "2");
            assertEquals("OK", j.save());
            j.set("a", "changed");
            j.persist("b");
            j.set("c", "3");

            assertEquals("OK", debug(j, "RELOAD", "NOFLUSH", "MERGE", "NOSAVE"));

            assertEquals(List.of("1", "2", "3"), j.mget("a", "b", "c"));
            assertTrue(j.ttl("b") > 990, "b has the file's TTL again");
            assertEquals(3, j.dbSize());
        }
    }

    @Test
    void debugReloadNoflushShouldAddTheFilesKeysToTheDataset() throws Exception {
        try (EbbServer ebb = start("enable-debug-command yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.set("a", "1");
            assertEquals("OK", j.save());
            j.del("a");
            j.set("e", "5");

            assertEquals("OK", debug(j, "RELOAD", "NOFLUSH", "NOSAVE"));

            assertEquals(List.of("1", "5"), j.mget("a", "e"));
        }
    }

    /** Redis panics on the duplicate; Ebb refuses the reload and changes nothing. */
    @Test
    void debugReloadNoflushWithoutMergeShouldRefuseADuplicateAndLeaveTheDatasetAlone() throws Exception {
        try (EbbServer ebb = start("enable-debug-command yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.set("a", "1");
            j.set("z", "file only");
            assertEquals("OK", j.save());
            j.set("a", "2");
            j.del("z");
            j.set("d", "4");

            JedisDataException e = org.junit.jupiter.api.Assertions.assertThrows(JedisDataException.class,
                    () -> debug(j, "RELOAD", "NOFLUSH", "NOSAVE"));

            assertEquals("ERR Error trying to load the RDB dump, check server logs.", e.getMessage());
            assertEquals(List.of("2", "4"), j.mget("a", "d"));
            assertFalse(j.exists("z"));
            assertEquals(2, j.dbSize());
        }
    }

    @Test
    void debugReloadMergeAloneShouldReplaceTheDatasetAndAnUnknownOptionBeRefused() throws Exception {
        try (EbbServer ebb = start("enable-debug-command yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.set("a", "1");
            assertEquals("OK", j.save());
            j.set("c", "3");

            assertEquals("OK", debug(j, "RELOAD", "MERGE", "NOSAVE"));
            assertEquals(List.of("a"), new ArrayList<>(j.keys("*")));

            JedisDataException e = org.junit.jupiter.api.Assertions.assertThrows(JedisDataException.class,
                    () -> debug(j, "RELOAD", "FOO"));
            assertEquals("ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.", e.getMessage());
        }
    }

    @Test
    void bgsaveAndRestartShouldKeepEverything() throws Exception {
        Map<String, String> before;
        try (EbbServer ebb = start(""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            Keyspaces.fill(j, "b");
            before = Keyspaces.dump(j);
            long lastsave = j.lastsave();

            assertEquals("Background saving started", j.bgsave());
            assertEquals("ok", awaitBgsave(j));
            assertTrue(j.lastsave() >= lastsave);
        }
        try (EbbServer ebb = start(""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            Keyspaces.assertSame(before, Keyspaces.dump(j));
        }
    }

    /**
     * A writer runs steps n = 1, 2, ... each as one MULTI/EXEC: INCR counter, SET new:n, RPUSH, HSET,
     * ZADD, SADD on shared collections, DEL old:n, SET over:n. Whatever the count c in the file, the
     * file must hold exactly the effects of steps 1..c: nothing later, nothing missing.
     */
    @Test
    void bgsaveUnderConcurrentWritesShouldSaveExactlyTheInstant() throws Exception {
        int prefilled = 60_000;
        try (EbbServer ebb = start(""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            for (int i = 1; i <= prefilled; i += 1000) {
                List<String> kv = new ArrayList<>();
                for (int k = i; k < i + 1000; k++) {
                    kv.add("old:" + k);
                    kv.add("value-" + k);
                    kv.add("over:" + k);
                    kv.add("original");
                }
                j.mset(kv.toArray(new String[0]));
            }
            j.rpush("L", "start");
            j.hset("H", "start", "0");
            j.zadd("Z", 0, "start");
            j.sadd("S", "start");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong steps = new AtomicLong();
            Thread writer = new Thread(() -> {
                try (Jedis w = new Jedis("127.0.0.1", ebb.port())) {
                    for (long n = 1; !stop.get(); n++) {
                        Transaction t = w.multi();
                        t.incr("counter");
                        t.set("new:" + n, "v" + n);
                        t.rpush("L", String.valueOf(n));
                        t.hset("H", String.valueOf(n), String.valueOf(n));
                        t.zadd("Z", n, "m" + n);
                        t.sadd("S", String.valueOf(n));
                        t.del("old:" + n);
                        t.set("over:" + n, "changed");
                        t.exec();
                        steps.set(n);
                    }
                }
            });
            writer.start();
            while (steps.get() < 200) {
                Thread.sleep(5);
            }

            assertEquals("Background saving started", j.bgsave());
            String status = awaitBgsave(j);
            long stepsAfterSave = steps.get();
            stop.set(true);
            writer.join(TimeUnit.SECONDS.toMillis(60));

            assertEquals("ok", status);
            assertTrue(stepsAfterSave > 200);
        }
        try (EbbServer ebb = start(""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            long c = Long.parseLong(j.get("counter"));
            assertTrue(c >= 200 && c < prefilled, "counter in the file: " + c);
            List<String> expectedList = new ArrayList<>();
            expectedList.add("start");
            for (long n = 1; n <= c; n++) {
                expectedList.add(String.valueOf(n));
            }
            assertEquals(expectedList, j.lrange("L", 0, -1));
            assertEquals(c + 1, j.hlen("H"));
            assertEquals(c + 1, j.zcard("Z"));
            assertEquals(c + 1, j.scard("S"));
            assertEquals(String.valueOf(c), j.hget("H", String.valueOf(c)));
            assertNull(j.hget("H", String.valueOf(c + 1)));
            assertEquals("v" + c, j.get("new:" + c));
            assertFalse(j.exists("new:" + (c + 1)));
            for (long n = 1; n <= prefilled; n++) {
                assertEquals(n > c, j.exists("old:" + n), "old:" + n + " with c=" + c);
            }
            for (long n = c - 5; n <= c + 5; n++) {
                assertEquals(n <= c ? "changed" : "original", j.get("over:" + n), "over:" + n + " with c=" + c);
            }
            assertEquals(2L * prefilled - c + 4 + 1 + c, j.dbSize());
        }
    }
}
