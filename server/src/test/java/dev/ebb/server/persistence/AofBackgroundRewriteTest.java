package dev.ebb.server.persistence;

import static dev.ebb.server.persistence.AofTesting.awaitRewrite;
import static dev.ebb.server.persistence.AofTesting.cmd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.LogCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * BGREWRITEAOF writes the base from a point-in-time snapshot while the loop keeps serving: a write load
 * running through the rewrite, keys deleted, expired and overwritten during it, a PING answered while it
 * runs, Redis's exclusion with BGSAVE, and a failed rewrite leaving the files as they were. Every case
 * ends with a restart from the directory and a comparison of the whole dataset; both base forms
 * ({@code aof-use-rdb-preamble yes|no}). {@code rdb-key-save-delay} makes a rewrite observably long (a
 * running one keeps the delay it started with, as Redis's child keeps its copy of the config).
 */
class AofBackgroundRewriteTest {
    private static final int KEYS = 200_000;
    /** Generous: the machine may be slow and shared, and a pipeline of thousands of writes waits for all. */
    private static final int TIMEOUT_MS = 120_000;

    private static ResourceLeakDetector.Level leakLevel;

    @TempDir
    Path dir;

    /** Paranoid leak tracking (the suite's default) costs more per read than these hundred thousand writes can wait. */
    @BeforeAll
    static void simpleLeakDetection() {
        leakLevel = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
    }

    @AfterAll
    static void restoreLeakDetection() {
        ResourceLeakDetector.setLevel(leakLevel);
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "no"})
    void aWriteLoadDuringTheRewriteShouldSurviveARestart(String preamble) throws Exception {
        Map<String, String> before;
        AtomicLong writesDuringRewrite = new AtomicLong();
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes", "aof-use-rdb-preamble " + preamble);
                Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            BulkKeyspace.fill(j, KEYS, true);
            j.configSet("rdb-key-save-delay", "-20");
            AtomicBoolean stop = new AtomicBoolean();
            CompletableFuture<Void> load = CompletableFuture.runAsync(() -> writeLoad(ebb.port(), stop,
                    writesDuringRewrite));

            assertEquals("Background append only file rewriting started", j.bgrewriteaof());
            awaitRewrite(j);
            stop.set(true);
            load.get(120, TimeUnit.SECONDS);
            before = BulkKeyspace.dump(j);
            String info = j.info("persistence");
            assertTrue(info.contains("aof_rewrites:1"), info);
            assertTrue(info.contains("aof_last_bgrewrite_status:ok"), info);
        }
        assertTrue(writesDuringRewrite.get() > 0);
        assertEquals(List.of(preamble.equals("yes") ? "appendonly.aof.2.base.rdb" : "appendonly.aof.2.base.aof",
                "appendonly.aof.2.incr.aof", "appendonly.aof.manifest"), files());

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            Keyspaces.assertSame(before, BulkKeyspace.dump(j));
        }
        assertTrue(before.size() > KEYS / 2, "only " + before.size() + " keys");
    }

    /** Random writes to the filled keys (and new ones) until {@code stop}: overwrites, deletes, TTLs, appends. */
    private static void writeLoad(int port, AtomicBoolean stop, AtomicLong writes) {
        SplittableRandom random = new SplittableRandom(19);
        try (Jedis w = new Jedis("127.0.0.1", port, TIMEOUT_MS)) {
            while (!stop.get()) {
                int i = random.nextInt(KEYS * 3 / 4);
                String key = "k:" + i;
                switch (random.nextInt(6)) {
                    case 0 -> w.set(key, "overwritten-" + writes.get());
                    case 1 -> w.del(key);
                    case 2 -> w.pexpireAt(key, Keyspaces.FAR_EXPIRY_MS + 7);
                    case 3 -> w.set("new:" + i, "born during the rewrite");
                    case 4 -> w.rpush("load:list", String.valueOf(i));
                    default -> w.hset("load:hash", "f" + (i % 500), String.valueOf(i));
                }
                writes.incrementAndGet();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "no"})
    void keysDeletedExpiredOrOverwrittenDuringTheRewriteShouldBeAsAfterwards(String preamble) throws Exception {
        Map<String, String> before;
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes", "aof-use-rdb-preamble " + preamble);
                Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            BulkKeyspace.fill(j, 10_000, false);
            for (int i = 0; i < 100; i++) {
                j.set("short-lived:" + i, "x", new redis.clients.jedis.params.SetParams().px(200));
            }
            j.configSet("rdb-key-save-delay", "1000");

            assertEquals("Background append only file rewriting started", j.bgrewriteaof());
            for (int i = 0; i < 300; i++) {
                j.del("k:" + i);
                j.set("k:" + (1000 + i), "overwritten");
                j.rpush("k:" + (2001 + i * 50), "appended");
                j.pexpireAt("k:" + (5000 + i), 1);
                j.hset("k:" + (3008 + i * 50), "new", "field");
            }
            waitUntilGone(j, "short-lived:");
            String during = j.info("persistence");
            awaitRewrite(j);
            before = BulkKeyspace.dump(j);

            assertTrue(during.contains("aof_rewrite_in_progress:1"), during);
        }
        assertFalse(before.containsKey("0/k:0"));
        assertEquals("string overwritten pexpiretime=-1", before.get("0/k:1000"));

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            Keyspaces.assertSame(before, BulkKeyspace.dump(j));
        }
    }

    private static void waitUntilGone(Jedis j, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!j.keys(prefix + "*").isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "keys " + prefix + "* did not expire");
            Thread.sleep(20);
        }
    }

    @Test
    void pingShouldBeAnsweredWhileTheRewriteRuns() throws Exception {
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS);
                Jedis other = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            BulkKeyspace.fill(j, 5_000, true);
            j.configSet("rdb-key-save-delay", "1000");

            assertEquals("Background append only file rewriting started", j.bgrewriteaof());
            String pong = other.ping();
            String info = other.info("persistence");
            awaitRewrite(j);

            assertEquals("PONG", pong);
            // Answered before the rewrite ended: it was still running after the reply.
            assertTrue(info.contains("aof_rewrite_in_progress:1"), info);
            assertTrue(info.contains("current_save_keys_total:5000"), info);
            assertTrue(info.matches("(?s).*aof_current_rewrite_time_sec:\\d+.*"), info);
            assertTrue(j.info("persistence").contains("aof_current_rewrite_time_sec:-1"));
        }
    }

    @Test
    void bgsaveAndTheRewriteShouldExcludeEachOtherAsInRedis() throws Exception {
        try (LogCapture log = new LogCapture(AppendOnlyFile.class);
                EbbServer ebb = AofTesting.start(dir, "appendonly yes", "save \"\"");
                Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            BulkKeyspace.fill(j, 2_000, true);
            j.configSet("rdb-key-save-delay", "2000");

            assertEquals("Background append only file rewriting started", j.bgrewriteaof());
            assertError("ERR Background append only file rewriting already in progress", () -> j.bgrewriteaof());
            assertError("ERR Another child process is active (AOF?): can't BGSAVE right now. Use BGSAVE SCHEDULE in"
                    + " order to schedule a BGSAVE whenever possible.", () -> j.bgsave());
            assertEquals("Background saving scheduled", cmd(j, "BGSAVE", "SCHEDULE") instanceof byte[] b
                    ? new String(b) : "?");
            assertEquals("OK", j.save());
            assertTrue(j.info("persistence").contains("aof_rewrite_in_progress:1"));
            awaitRewrite(j);
            awaitInfo(j, "rdb_bgsave_in_progress:0", "rdb_saves:2");

            assertEquals("Background saving started", j.bgsave());
            assertEquals("Background append only file rewriting scheduled", j.bgrewriteaof());
            assertTrue(j.info("persistence").contains("aof_rewrite_scheduled:1"));
            assertError("ERR Background save already in progress", () -> j.save());
            awaitInfo(j, "aof_rewrites:2");
            awaitRewrite(j);

            String info = j.info("persistence");
            assertTrue(info.contains("aof_last_bgrewrite_status:ok"), info);
            assertTrue(info.contains("rdb_last_bgsave_status:ok"), info);
            List<String> lines = log.lines();
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("INFO Background append only file rewriting started by pid")),
                    lines.toString());
            assertTrue(lines.contains("INFO Background AOF rewrite terminated with success"), lines.toString());
            assertTrue(lines.contains("INFO Background AOF rewrite finished successfully"), lines.toString());
        }
    }

    @Test
    void aFailedRewriteShouldLeaveTheFilesIntactAndALaterOneSucceed() throws Exception {
        Path obstacle = dir.resolve("temp-rewriteaof-bg-" + ProcessHandle.current().pid() + ".aof");
        Map<String, String> before;
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            j.set("a", "1");
            j.rpush("list", "x", "y");
            // The temporary base cannot be created: a directory stands where it would go.
            Files.createDirectories(obstacle.resolve("full"));

            assertEquals("Background append only file rewriting started", j.bgrewriteaof());
            awaitRewrite(j);
            j.set("b", "written after the failure");
            String failed = j.info("persistence");
            String manifest = Files.readString(dir.resolve("appendonlydir").resolve("appendonly.aof.manifest"));
            Files.delete(obstacle.resolve("full"));
            Files.delete(obstacle);
            assertEquals("Background append only file rewriting started", j.bgrewriteaof());
            awaitRewrite(j);
            before = BulkKeyspace.dump(j);

            assertTrue(failed.contains("aof_last_bgrewrite_status:err"), failed);
            assertTrue(failed.contains("aof_rewrites_consecutive_failures:1"), failed);
            assertEquals("file appendonly.aof.1.base.rdb seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n"
                    + "file appendonly.aof.2.incr.aof seq 2 type i\n", manifest);
            String info = j.info("persistence");
            assertTrue(info.contains("aof_last_bgrewrite_status:ok"), info);
            assertTrue(info.contains("aof_rewrites_consecutive_failures:0"), info);
        }
        assertEquals(List.of("appendonly.aof.2.base.rdb", "appendonly.aof.3.incr.aof", "appendonly.aof.manifest"),
                files());

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            Keyspaces.assertSame(before, BulkKeyspace.dump(j));
        }
    }

    @Test
    void repeatedAutomaticFailuresShouldBackOffAsRedis() throws Exception {
        Path obstacle = dir.resolve("temp-rewriteaof-bg-" + ProcessHandle.current().pid() + ".aof");
        try (LogCapture log = new LogCapture(AppendOnlyFile.class);
                EbbServer ebb = AofTesting.start(dir, "appendonly yes", "auto-aof-rewrite-percentage 1",
                        "auto-aof-rewrite-min-size 1");
                Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            Files.createDirectories(obstacle.resolve("full"));

            j.set("grow", "x".repeat(1000));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (log.lines().stream().noneMatch(l -> l.contains("triggered the limit"))) {
                assertTrue(System.nanoTime() < deadline, log.lines().toString());
                Thread.sleep(20);
            }
            String info = j.info("persistence");

            assertTrue(info.contains("aof_rewrites_consecutive_failures:3"), info);
            assertTrue(log.lines().contains("WARN Background AOF rewrite has repeatedly failed and triggered the limit,"
                    + " will retry in 1 minutes"), log.lines().toString());
            assertTrue(log.lines().stream().anyMatch(l -> l.startsWith("INFO Starting automatic rewriting of AOF on")));
            Files.delete(obstacle.resolve("full"));
            Files.delete(obstacle);
        }
    }

    @Test
    void configSetAppendonlyShouldCollectWritesMadeDuringTheFirstRewrite() throws Exception {
        Map<String, String> before;
        try (EbbServer ebb = AofTesting.start(dir); Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            BulkKeyspace.fill(j, 3_000, true);
            j.configSet("rdb-key-save-delay", "1000");

            assertEquals("OK", j.configSet("appendonly", "yes"));
            j.set("during", "the first rewrite");
            j.del("k:1");
            String during = j.info("persistence");
            awaitRewrite(j);
            before = BulkKeyspace.dump(j);

            assertTrue(during.contains("aof_rewrite_in_progress:1"), during);
            assertFalse(Files.exists(dir.resolve("appendonlydir").resolve("temp-appendonly.aof.incr")));
        }
        assertEquals(List.of("appendonly.aof.1.base.rdb", "appendonly.aof.1.incr.aof", "appendonly.aof.manifest"),
                files());

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            Keyspaces.assertSame(before, BulkKeyspace.dump(j));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "no"})
    void streamsWithGroupsShouldSurviveARewrite(String preamble) throws Exception {
        List<Object> before;
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes", "aof-use-rdb-preamble " + preamble);
                Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            for (int i = 1; i <= 5; i++) {
                cmd(j, "XADD", "s", i + "-1", "f", "v" + i, "n", String.valueOf(i * 100));
            }
            cmd(j, "XDEL", "s", "2-1");
            cmd(j, "XGROUP", "CREATE", "s", "g1", "0", "ENTRIESREAD", "0");
            cmd(j, "XREADGROUP", "GROUP", "g1", "alice", "COUNT", "2", "STREAMS", "s", ">");
            cmd(j, "XREADGROUP", "GROUP", "g1", "bob", "COUNT", "1", "STREAMS", "s", ">");
            cmd(j, "XGROUP", "CREATECONSUMER", "s", "g1", "carol");
            cmd(j, "XGROUP", "CREATE", "s", "g2", "$");
            cmd(j, "XADD", "empty", "MAXLEN", "0", "7-7", "x", "y");

            assertEquals("Background append only file rewriting started", j.bgrewriteaof());
            awaitRewrite(j);
            before = streamState(j);
        }

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port(), TIMEOUT_MS)) {
            assertEquals(before, streamState(j));
        }
    }

    /** What a stream keeps, less the times that move: entries, counters, groups, consumers and pending entries. */
    private static List<Object> streamState(Jedis j) {
        List<Object> state = new java.util.ArrayList<>();
        for (String key : new String[] {"s", "empty"}) {
            state.add(decode(cmd(j, "XRANGE", key, "-", "+")));
            List<?> info = (List<?>) decode(cmd(j, "XINFO", "STREAM", key));
            for (int i = 0; i < info.size(); i += 2) {
                String field = String.valueOf(info.get(i));
                if (List.of("length", "last-generated-id", "max-deleted-entry-id", "entries-added", "groups")
                        .contains(field)) {
                    state.add(field + "=" + info.get(i + 1));
                }
            }
        }
        state.add(decode(cmd(j, "XINFO", "GROUPS", "s")));
        for (String group : new String[] {"g1", "g2"}) {
            for (Object consumer : (List<?>) decode(cmd(j, "XINFO", "CONSUMERS", "s", group))) {
                List<?> c = (List<?>) consumer;
                state.add(group + ":" + c.get(1) + " pending=" + c.get(3));
            }
            for (Object pending : (List<?>) decode(cmd(j, "XPENDING", "s", group, "-", "+", "10"))) {
                List<?> p = (List<?>) pending;
                state.add(group + ":" + p.get(0) + " " + p.get(1) + " deliveries=" + p.get(3));
            }
        }
        return state;
    }

    private static Object decode(Object reply) {
        if (reply instanceof byte[] b) {
            return new String(b, java.nio.charset.StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> list) {
            return list.stream().map(AofBackgroundRewriteTest::decode).toList();
        }
        return reply;
    }

    private List<String> files() throws Exception {
        try (var list = Files.list(dir.resolve("appendonlydir"))) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static void awaitInfo(Jedis j, String... fields) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            String info = j.info("persistence");
            boolean all = true;
            for (String f : fields) {
                all &= info.contains(f);
            }
            if (all) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, info);
            Thread.sleep(20);
        }
    }

    private static void assertError(String expected, Runnable command) {
        try {
            command.run();
        } catch (JedisDataException e) {
            assertEquals(expected, e.getMessage());
            return;
        }
        throw new AssertionError("no error, expected " + expected);
    }
}
