package dev.ebb.server.persistence;

import static dev.ebb.server.persistence.AofTesting.awaitRewrite;
import static dev.ebb.server.persistence.RdbRoundTripTest.info;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.command.RespTestSocket;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * The append-only file loads once the server listens, as in Redis: meanwhile commands are answered
 * {@code -LOADING} (INFO reports the progress), no key expires, a SHUTDOWN stops the load and the server, and DEBUG
 * LOADAOF replaces the dataset with what the files hold. Replies and behaviour as redis-server 7.2.4's,
 * checked by hand against it ({@code debug loadaof} after {@code config set appendonly no}, on a server
 * that never had an AOF). {@code key-load-delay} slows the RDB base down so that the load is seen.
 */
class AofLoadingTest {
    private static final String LOADING = "-LOADING Redis is loading the dataset in memory\r\n";
    private static final int KEYS = 500;

    @TempDir
    Path dir;

    /** An appendonly directory: {@link #KEYS} keys in the RDB base, one more key in the incremental file. */
    private void writeAof() throws Exception {
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes");
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            for (int i = 0; i < KEYS; i++) {
                j.set("key:" + i, "value:" + i);
            }
            j.bgrewriteaof();
            awaitRewrite(j);
            j.set("after", "rewrite");
        }
    }

    private CompletableFuture<EbbServer> startInBackground(int port, String keyLoadDelay) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return EbbServer.start(dev.ebb.server.config.ServerConfig.fromText("port " + port
                        + "\nbind 127.0.0.1\nsave \"\"\ndir " + dir + "\nappendonly yes\nkey-load-delay "
                        + keyLoadDelay + "\n"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Connects as soon as the server listens (it does before the load starts). */
    private static RespTestSocket connect(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return new RespTestSocket("127.0.0.1", port);
            } catch (ConnectException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(5);
            }
        }
    }

    @Test
    void commandsShouldGetLoadingWhileTheAofLoadsAndTheDataAfterwards() throws Exception {
        writeAof();
        int port = freePort();

        CompletableFuture<EbbServer> starting = startInBackground(port, "4000");
        try (RespTestSocket s = connect(port)) {
            assertEquals(LOADING, s.call("GET", "key:1"));
            assertEquals(LOADING, s.call("PING"));
            String persistence = s.call("INFO", "persistence");
            assertTrue(persistence.contains("loading:1\r\n"), persistence);
            assertTrue(persistence.contains("loading_total_bytes:"), persistence);

            try (EbbServer ebb = starting.get(60, TimeUnit.SECONDS);
                    Jedis j = new Jedis("127.0.0.1", ebb.port())) {
                assertEquals(KEYS + 1, j.dbSize());
                assertEquals("value:1", j.get("key:1"));
                assertEquals("rewrite", j.get("after"));
                assertEquals("0", info(j, "loading"));
                assertEquals("+PONG\r\n", s.call("PING"));
            }
        }
    }

    @Test
    void aShutdownWhileTheAofLoadsShouldStopTheServerAndLeaveTheFiles() throws Exception {
        writeAof();
        Path aofDir = dir.resolve("appendonlydir");
        byte[] manifest = Files.readAllBytes(aofDir.resolve("appendonly.aof.manifest"));
        int port = freePort();

        // 500 keys at 20 ms each: the whole load would take 10 s.
        CompletableFuture<EbbServer> starting = startInBackground(port, "20000");
        try (RespTestSocket s = connect(port)) {
            assertEquals(LOADING, s.call("GET", "key:1"));
            s.send("SHUTDOWN");

            EbbServer ebb = starting.get(5, TimeUnit.SECONDS);
            assertTrue(ebb.stoppedWhileLoading());
            ebb.awaitTermination();
            assertEquals(0, ebb.exitCode());
        }
        assertArrayEquals(manifest, Files.readAllBytes(aofDir.resolve("appendonly.aof.manifest")));
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes");
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals(KEYS + 1, j.dbSize());
        }
    }

    @Test
    void debugLoadaofShouldReplaceTheDatasetWithTheFilesAndAnswerLoadingMeanwhile() throws Exception {
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes", "enable-debug-command yes");
                Jedis j = new Jedis("127.0.0.1", ebb.port());
                Jedis other = new Jedis("127.0.0.1", ebb.port())) {
            for (int i = 0; i < KEYS; i++) {
                j.set("key:" + i, "value:" + i);
            }
            j.bgrewriteaof();
            awaitRewrite(j);
            j.set("a", "1");
            String incr = AofTesting.aofText(dir, ".incr.aof");

            assertEquals("OK", new String((byte[]) AofTesting.cmd(j, "DEBUG", "LOADAOF"), StandardCharsets.US_ASCII));
            assertEquals(KEYS + 1, j.dbSize());
            assertEquals("0", info(j, "rdb_changes_since_last_save"));
            // Nothing of the reload is logged: neither the replayed commands nor DEBUG LOADAOF itself.
            assertEquals(incr, AofTesting.aofText(dir, ".incr.aof"));

            // Appendonly off: the files stay as they were, so a key written since is gone after the reload.
            j.configSet("appendonly", "no");
            j.set("b", "2");
            j.configSet("key-load-delay", "4000");
            try (RespTestSocket s = new RespTestSocket("127.0.0.1", ebb.port())) {
                CompletableFuture<String> reload = CompletableFuture.supplyAsync(() -> {
                    try {
                        return s.call("DEBUG", "LOADAOF");
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                awaitLoadingSeen(other);
                assertEquals("+OK\r\n", reload.get(60, TimeUnit.SECONDS));
            }
            assertEquals("0", info(other, "loading"));
            assertEquals("1", other.get("a"));
            assertNull(other.get("b"));
            assertEquals(KEYS + 1, other.dbSize());
        }
    }

    /** Polls with GET until the load in progress answers {@code -LOADING}. */
    private static void awaitLoadingSeen(Jedis j) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                j.get("key:1");
            } catch (redis.clients.jedis.exceptions.JedisDataException e) {
                assertEquals("LOADING Redis is loading the dataset in memory", e.getMessage());
                return;
            }
            assertTrue(System.nanoTime() < deadline, "DEBUG LOADAOF never answered -LOADING");
            Thread.sleep(2);
        }
    }

    /**
     * A command of the file ran on the key as it was then: nothing expires during the replay (Redis's keyIsExpired
     * while loading). redis-server 7.2.4 loads this file with {@code k} gone and {@code k2} = v, persistent.
     */
    @Test
    void keysWhoseTimePassedShouldNotExpireWhileTheAofReplays() throws Exception {
        Path aofDir = Files.createDirectories(dir.resolve("appendonlydir"));
        Files.writeString(aofDir.resolve("appendonly.aof.manifest"), "file appendonly.aof.1.incr.aof seq 1 type i\n");
        String past = Long.toString(System.currentTimeMillis() - 5000);
        Files.writeString(aofDir.resolve("appendonly.aof.1.incr.aof"), resp("SELECT", "0")
                + resp("SET", "k", "5", "PXAT", past) + resp("INCR", "k")
                + resp("SET", "k2", "v", "PXAT", past) + resp("PERSIST", "k2"), StandardCharsets.ISO_8859_1);

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes");
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertNull(j.get("k"), "INCR ran on the old value, whose time has passed: not a new key 1");
            assertEquals("v", j.get("k2"));
            assertEquals(-1, j.ttl("k2"));
        }
    }

    private static String resp(String... args) {
        StringBuilder sb = new StringBuilder().append('*').append(args.length).append("\r\n");
        for (String a : args) {
            sb.append('$').append(a.length()).append("\r\n").append(a).append("\r\n");
        }
        return sb.toString();
    }

    @Test
    void debugLoadaofWithoutAnyAofShouldEmptyTheDatasetAndFailAsRedis() throws Exception {
        try (EbbServer ebb = AofTesting.start(dir, "enable-debug-command yes");
                RespTestSocket s = new RespTestSocket("127.0.0.1", ebb.port());
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.set("x", "1");

            assertEquals("-ERR Error trying to load the AOF files, check server logs.\r\n", s.call("DEBUG", "LOADAOF"));
            assertEquals(0, j.dbSize());
            assertEquals("PONG", j.ping());
        }
    }
}
