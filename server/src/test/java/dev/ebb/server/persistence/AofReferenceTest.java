package dev.ebb.server.persistence;

import static dev.ebb.server.persistence.AofTesting.dump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.differential.ReferenceRedis;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * The append-only directory is interchangeable with redis-server 7.2.4's: the reference
 * {@code redis-check-aof} accepts Ebb's manifest and files, the reference server loads Ebb's
 * directory (RDB base, Redis's default) with identical contents, and Ebb loads one the reference
 * wrote, with an RDB base and with an AOF base ({@code aof-use-rdb-preamble no}). Each test is
 * skipped, saying why, where the reference binary cannot run.
 */
class AofReferenceTest {
    @TempDir
    Path dir;

    /** Ebb's directory after the workload, a background rewrite, and writes during and after it in its new incremental file. */
    private Map<String, String> writeWithEbb() throws Exception {
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            AofRestartTest.workload(j, ebb.port());
            j.configSet("rdb-key-save-delay", "2000");
            j.bgrewriteaof();
            // Written while the base is being written: in the incremental file opened at the rewrite's start.
            j.select(4);
            j.rpush("after-rewrite", "a", "b");
            j.incrByFloat("float-after", 2.5);
            j.select(0);
            j.del("s:plain", "geo");
            j.set("m1", "overwritten during the rewrite");
            AofTesting.awaitRewrite(j);
            j.hset("after-the-rewrite", "f", "v");
            return dump(j, 16);
        }
    }

    @Test
    void redisCheckAofShouldAcceptEbbsManifestAndFiles() throws Exception {
        writeWithEbb();
        Path checker = checkerOrSkip();

        Process p = new ProcessBuilder(checker.toString(),
                dir.resolve("appendonlydir").resolve("appendonly.aof.manifest").toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));

        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("All AOF files and manifest are valid"), out);
    }

    @Test
    void referenceServerShouldLoadEbbsDirectoryWithTheSameContents() throws Exception {
        Map<String, String> ebbData = writeWithEbb();

        try (ReferenceRedis redis = referenceOrSkip("--dir", dir.toString(), "--appendonly", "yes");
                Jedis j = new Jedis("127.0.0.1", redis.port())) {
            awaitLoaded(j);
            assertEquals(ebbData, dump(j, 16));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "no"})
    void ebbShouldLoadADirectoryTheReferenceWrote(String preamble) throws Exception {
        Map<String, String> redisData;
        try (ReferenceRedis redis = referenceOrSkip("--dir", dir.toString(), "--appendonly", "yes",
                "--aof-use-rdb-preamble", preamble); Jedis j = new Jedis("127.0.0.1", redis.port())) {
            AofRestartTest.workload(j, redis.port());
            j.bgrewriteaof();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!j.info("persistence").contains("aof_rewrites:1") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            while (j.info("persistence").contains("aof_rewrite_in_progress:1") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            j.hset("after-rewrite", "f", "v");
            redisData = dump(j, 16);
        }
        assertTrue(Files.exists(dir.resolve("appendonlydir")
                .resolve(preamble.equals("yes") ? "appendonly.aof.2.base.rdb" : "appendonly.aof.2.base.aof")));

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals(redisData, dump(j, 16));
        }
    }

    /** The reference answers -LOADING while it replays the directory; wait (generously) until it is done. */
    private static void awaitLoaded(Jedis j) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (j.info("persistence").contains("loading:1")) {
            assertTrue(System.nanoTime() < deadline, "the reference is still loading");
            Thread.sleep(20);
        }
    }

    private static ReferenceRedis referenceOrSkip(String... args) {
        ReferenceRedis redis = ReferenceRedis.startOrNull(args);
        assumeTrue(redis != null, "reference redis-server unavailable: " + ReferenceRedis.unavailableReason);
        return redis;
    }

    /**
     * The reference redis-check-aof: redis-server run under that name (the shipped
     * {@code redis-check-aof} names the binary it is), through a symbolic link.
     */
    private Path checkerOrSkip() throws Exception {
        Path server = ReferenceRedis.binary();
        assumeTrue(Files.isExecutable(server), "reference redis-server not found at " + server);
        Path link = Files.createTempDirectory("ebb-check-aof").resolve("redis-check-aof");
        Files.createSymbolicLink(link, server);
        return link;
    }
}
