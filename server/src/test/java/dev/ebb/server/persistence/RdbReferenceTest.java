package dev.ebb.server.persistence;

import static dev.ebb.server.persistence.RdbRoundTripTest.awaitLoaded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.differential.ReferenceRedis;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * File compatibility with redis-server 7.2.4 in both directions, compared with a SCAN and a
 * per-type read on both servers, and redis-check-rdb's verdict on Ebb's file. Skipped with the
 * reason when the reference binary cannot run here.
 */
class RdbReferenceTest {
    @TempDir
    Path dir;

    private EbbServer startEbb() throws Exception {
        return EbbServer.start(ServerConfig.fromText("port 0\nsave \"\"\ndir " + dir + "\n"));
    }

    private static ReferenceRedis startReference(String... args) {
        ReferenceRedis redis = ReferenceRedis.startOrNull(args);
        Assumptions.assumeTrue(redis != null, () -> "skipped: " + ReferenceRedis.unavailableReason);
        return redis;
    }

    @Test
    void redisShouldLoadEbbsFileWithIdenticalContents() throws Exception {
        Map<String, String> ebbContents;
        try (EbbServer ebb = startEbb(); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            Keyspaces.fill(j, "e");
            ebbContents = Keyspaces.dump(j);
            assertEquals("OK", j.save());
        }

        try (ReferenceRedis redis = startReference("--dir", dir.toString(), "--dbfilename", "dump.rdb");
                Jedis r = new Jedis("127.0.0.1", redis.port())) {
            Keyspaces.assertSame(ebbContents, Keyspaces.dump(r));
        }
    }

    @Test
    void ebbShouldLoadRedisFileWithIdenticalContents() throws Exception {
        Map<String, String> redisContents;
        try (ReferenceRedis redis = startReference(); Jedis r = new Jedis("127.0.0.1", redis.port())) {
            Keyspaces.fill(r, "r");
            redisContents = Keyspaces.dump(r);
            assertEquals("OK", r.save());
            Files.copy(redis.dir().resolve("dump.rdb"), dir.resolve("dump.rdb"), StandardCopyOption.REPLACE_EXISTING);
        }

        try (EbbServer ebb = startEbb(); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            Keyspaces.assertSame(redisContents, Keyspaces.dump(j));
        }
    }

    @Test
    void redisCheckRdbShouldAcceptEbbsFile() throws Exception {
        Path binary = ReferenceRedis.binary();
        Assumptions.assumeTrue(Files.isExecutable(binary), () -> "skipped: no reference redis-server at " + binary);
        try (EbbServer ebb = startEbb(); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            Keyspaces.fill(j, "c");
            assertEquals("OK", j.save());
        }

        // redis-check-rdb is redis-server started under that name.
        Process check = new ProcessBuilder("bash", "-c", "exec -a redis-check-rdb \"$0\" \"$1\"", binary.toString(),
                dir.resolve("dump.rdb").toString()).redirectErrorStream(true).start();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertTrue(check.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, check.exitValue(), output);
        assertTrue(output.contains("RDB looks OK!"), output);
    }
}
