package dev.ebb.server.persistence;

import static dev.ebb.server.persistence.RdbRoundTripTest.WAIT_MS;
import static dev.ebb.server.persistence.RdbRoundTripTest.awaitBgsave;
import static dev.ebb.server.persistence.RdbRoundTripTest.awaitLoaded;
import static dev.ebb.server.persistence.RdbRoundTripTest.info;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.LogCapture;
import dev.ebb.server.command.RespTestSocket;
import dev.ebb.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The rules around saving and loading, with Redis 7.2.4's replies: -LOADING while the file loads,
 * a corrupt file stops the server with Redis's error (nothing served, nothing half loaded), MISCONF
 * after a failed BGSAVE, save points start a BGSAVE, BGSAVE's argument and MULTI rules.
 */
class PersistencePolicyTest {
    static final String MISCONF = "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to "
            + "persist to disk. Commands that may modify the data set are disabled, because this instance is "
            + "configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error "
            + "option). Please check the Redis logs for details about the RDB error.";

    @TempDir
    Path dir;

    EbbServer start(Path in, String extra) throws Exception {
        return EbbServer.start(ServerConfig.fromText("port 0\nsave \"\"\ndir " + in + "\n" + extra));
    }

    private void writeDump(int keys) throws Exception {
        try (EbbServer ebb = start(dir, ""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            for (int i = 0; i < keys; i++) {
                j.set("key:" + i, "value:" + i);
            }
            assertEquals("OK", j.save());
        }
    }

    @Test
    void commandsShouldGetLoadingWhileTheFileLoads() throws Exception {
        writeDump(1000);

        try (EbbServer ebb = start(dir, "key-load-delay 5000");
                RespTestSocket s = new RespTestSocket("127.0.0.1", ebb.port());
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {

            assertEquals("-LOADING Redis is loading the dataset in memory\r\n", s.call("GET", "key:1"));
            assertEquals("-LOADING Redis is loading the dataset in memory\r\n", s.call("PING"));
            assertEquals("1", info(j, "loading"));
            assertTrue(j.lastsave() > 0);
            awaitLoaded(j);
            assertEquals(1000, j.dbSize());
            assertEquals("value:1", j.get("key:1"));
            assertEquals("0", info(j, "loading"));
        }
    }

    @Test
    void aTruncatedFileShouldStopTheServerWithRedisErrorAndServeNothing() throws Exception {
        writeDump(200);
        Path dump = dir.resolve("dump.rdb");
        byte[] whole = Files.readAllBytes(dump);
        Files.write(dump, Arrays.copyOf(whole, whole.length / 2));

        try (LogCapture log = new LogCapture(Persistence.class); EbbServer ebb = start(dir, "")) {
            assertTimeoutPreemptively(Duration.ofMillis(WAIT_MS), ebb::awaitTermination);

            assertEquals(1, ebb.exitCode());
            List<String> lines = log.lines();
            assertTrue(lines.contains("WARN Short read or OOM loading DB. Unrecoverable error, aborting now."), lines.toString());
            assertTrue(lines.contains("WARN Fatal error loading the DB, check server logs. Exiting."), lines.toString());
        }
    }

    @Test
    void aFileWithAWrongSignatureShouldBeRefusedAsRedisDoes() throws Exception {
        Files.write(dir.resolve("dump.rdb"), "XEDIS0011\u00ff\0\0\0\0\0\0\0\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));

        try (LogCapture log = new LogCapture(Persistence.class); EbbServer ebb = start(dir, "")) {
            assertTimeoutPreemptively(Duration.ofMillis(WAIT_MS), ebb::awaitTermination);

            assertEquals(1, ebb.exitCode());
            assertEquals(List.of("WARN Wrong signature trying to load DB from file",
                    "WARN Fatal error loading the DB, check server logs. Exiting."), log.lines());
        }
    }

    @Test
    void aFailedBgsaveShouldRefuseWritesWithMisconfUntilASaveSucceeds() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        try (EbbServer ebb = start(data, "save 3600 1"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.set("before", "1");
            Files.delete(data);

            assertEquals("Background saving started", j.bgsave());
            assertEquals("err", awaitBgsave(j));

            assertEquals(MISCONF, assertThrows(JedisDataException.class, () -> j.set("k", "v")).getMessage());
            assertEquals(MISCONF, assertThrows(JedisDataException.class, j::ping).getMessage());
            assertEquals("1", j.get("before"));
            Transaction t = j.multi();
            t.set("k", "v");
            assertEquals("EXECABORT Transaction discarded because of previous errors.",
                    assertThrows(JedisDataException.class, t::exec).getMessage());
            j.configSet("stop-writes-on-bgsave-error", "no");
            assertEquals("OK", j.set("k", "v"));
            j.configSet("stop-writes-on-bgsave-error", "yes");
            assertThrows(JedisDataException.class, () -> j.set("k", "v2"));

            Files.createDirectories(data);
            assertEquals("Background saving started", j.bgsave());
            assertEquals("ok", awaitBgsave(j));
            assertEquals("OK", j.set("k", "v3"));
        }
    }

    @Test
    void aSavePointShouldStartABgsave() throws Exception {
        try (EbbServer ebb = start(dir, "save \"1 1\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.set("k", "v");

            long deadline = System.currentTimeMillis() + WAIT_MS;
            while (!Files.exists(dir.resolve("dump.rdb")) || !info(j, "rdb_changes_since_last_save").equals("0")) {
                assertTrue(System.currentTimeMillis() < deadline, "no save point save within " + WAIT_MS + " ms");
                Thread.sleep(50);
            }
            assertEquals("ok", awaitBgsave(j));
            assertEquals("1", info(j, "rdb_saves"));
        }
    }

    @Test
    void bgsaveShouldAnswerAsRedis() throws Exception {
        try (EbbServer ebb = start(dir, ""); RespTestSocket s = new RespTestSocket("127.0.0.1", ebb.port());
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals("-ERR syntax error\r\n", s.call("BGSAVE", "NOW"));
            assertEquals("-ERR syntax error\r\n", s.call("BGSAVE", "SCHEDULE", "x"));
            assertEquals("+OK\r\n", s.call("MULTI"));
            assertEquals("-ERR Command not allowed inside a transaction\r\n", s.call("SAVE"));
            assertEquals("+OK\r\n", s.call("DISCARD"));
            assertEquals("+OK\r\n", s.call("MULTI"));
            assertEquals("+QUEUED\r\n", s.call("BGSAVE"));
            assertEquals("*1\r\n+Background saving scheduled\r\n", s.call("EXEC"));

            long deadline = System.currentTimeMillis() + WAIT_MS;
            while (!Files.exists(dir.resolve("dump.rdb"))) {
                assertTrue(System.currentTimeMillis() < deadline, "the scheduled BGSAVE never ran");
                Thread.sleep(50);
            }
            assertEquals("ok", awaitBgsave(j));
        }
    }

    @Test
    void flushallShouldSaveTheEmptyDatasetWhenSavePointsAreConfigured() throws Exception {
        writeDump(100);
        try (EbbServer ebb = start(dir, "save \"3600 1000000\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            assertEquals(100, j.dbSize());
            long saves = Long.parseLong(info(j, "rdb_saves"));
            assertEquals("OK", j.flushAll());
            assertEquals(saves + 1, Long.parseLong(info(j, "rdb_saves")), "FLUSHALL saved at once");
        }
        try (EbbServer ebb = start(dir, ""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            assertEquals(0, j.dbSize(), "the flushed keys must not come back from the old dump");
        }
    }

    @Test
    void flushallWithoutSavePointsShouldLeaveTheLastDumpAsRedisDoes() throws Exception {
        writeDump(100);
        try (EbbServer ebb = start(dir, ""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            assertEquals("OK", j.flushAll());
        }
        try (EbbServer ebb = start(dir, ""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            assertEquals(100, j.dbSize());
        }
    }

    @Test
    void idleTimesAndFrequenciesShouldSurviveARestartUnderTheirPolicies() throws Exception {
        try (EbbServer ebb = start(dir, "maxmemory-policy allkeys-lru"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.set("k", "v");
            byte[] dump = j.dump("k");
            j.del("k");
            assertEquals("OK", j.restore("k".getBytes(), 0, dump, new redis.clients.jedis.params.RestoreParams().idleTime(5000)));
            assertEquals("OK", j.save());
        }
        try (EbbServer ebb = start(dir, "maxmemory-policy allkeys-lru"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            long idle = j.objectIdletime("k");
            assertTrue(idle >= 5000 && idle < 5600, "idle time from the file: " + idle);
        }
        try (EbbServer ebb = start(dir, "maxmemory-policy allkeys-lfu"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            byte[] dump = j.dump("k");
            j.del("k");
            assertEquals("OK", j.restore("k".getBytes(), 0, dump, new redis.clients.jedis.params.RestoreParams().frequency(100)));
            assertEquals("OK", j.save());
        }
        try (EbbServer ebb = start(dir, "maxmemory-policy allkeys-lfu"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            assertEquals(100, j.objectFreq("k"));
        }
    }
}
