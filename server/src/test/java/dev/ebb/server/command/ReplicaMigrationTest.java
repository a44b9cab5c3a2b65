package dev.ebb.server.command;

import static dev.ebb.server.command.EbbReplicaOfRedisTest.info;
import static dev.ebb.server.command.EbbReplicaOfRedisTest.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.differential.ReferenceRedis;
import dev.ebb.server.embedded.EbbExtension;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The migration path: a redis-server 7.2.4 holding many keys (loaded with {@code redis-cli --pipe}) keeps
 * taking writes while Ebb becomes its replica, syncs and catches up (equal offsets); then Ebb is
 * promoted with REPLICAOF NO ONE and holds the same data: same DBSIZE, a random sample of 10k keys
 * (values and TTLs), then every key's value compared by a full SCAN.
 *
 * <p><b>Size.</b> 100k keys by default, so that the suite stays quick on a shared machine; the
 * acceptance run is {@code -Debb.migration.keys=1000000} (see the README for its figures).
 */
class ReplicaMigrationTest {
    private static final int KEYS = Integer.getInteger("ebb.migration.keys", 100_000);

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @TempDir
    Path tmp;

    @Test
    void ebbShouldTakeOverAMillionKeysFromARunningRedis() throws Exception {
        ReferenceRedis primary = ReferenceRedis.startOrNull();
        assumeTrue(primary != null, () -> "reference redis-server 7.2.4 cannot run: " + ReferenceRedis.unavailableReason);
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/redis-cli")), "redis-cli not found at /usr/bin/redis-cli");
        AtomicBoolean loading = new AtomicBoolean(true);
        AtomicLong written = new AtomicLong();
        Thread load = null;
        try (Jedis p = new Jedis("127.0.0.1", primary.port(), 60_000);
                Jedis r = new Jedis("127.0.0.1", ebb.port(), 60_000)) {
            pipeKeys(primary.port());
            assertEquals(KEYS, p.dbSize());
            load = new Thread(() -> writeLoad(primary.port(), loading, written), "primary-write-load");
            load.start();

            r.replicaof("127.0.0.1", primary.port());
            waitFor(() -> info(r, "master_link_status").equals("up"), "link up");
            long waitUntil = written.get() + 2000;
            waitFor(() -> written.get() >= waitUntil, "writes during the stream");
            loading.set(false);
            load.join(TimeUnit.SECONDS.toMillis(60));
            waitFor(() -> info(p, "master_repl_offset").equals(info(r, "slave_repl_offset")), "equal offsets");
            assertEquals("OK", r.replicaofNoOne());

            assertEquals(p.dbSize(), r.dbSize());
            assertSample(p, r);
            assertEveryKey(p, r);
        } finally {
            loading.set(false);
            if (load != null) {
                load.join(TimeUnit.SECONDS.toMillis(60));
            }
            primary.close();
        }
    }

    /** {@code KEYS} SETs as RESP, fed to {@code redis-cli --pipe}. */
    private void pipeKeys(int port) throws IOException, InterruptedException {
        Path file = tmp.resolve("keys.resp");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (int i = 0; i < KEYS; i++) {
                String key = "key:" + i;
                String value = "value:" + i;
                out.write(("*3\r\n$3\r\nSET\r\n$" + key.length() + "\r\n" + key + "\r\n$" + value.length() + "\r\n"
                        + value + "\r\n").getBytes(StandardCharsets.US_ASCII));
            }
        }
        Process cli = new ProcessBuilder("/usr/bin/redis-cli", "-p", Integer.toString(port), "--pipe")
                .redirectInput(file.toFile()).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("pipe.log").toFile()).start();
        assertTrue(cli.waitFor(300, TimeUnit.SECONDS), "redis-cli --pipe did not finish");
        assertEquals(0, cli.exitValue(), () -> readQuietly(tmp.resolve("pipe.log")));
    }

    /** Overwrites, new keys, deletions, counters and expiring keys until told to stop. */
    private static void writeLoad(int port, AtomicBoolean running, AtomicLong written) {
        Random random = new Random(20);
        try (Jedis w = new Jedis("127.0.0.1", port, 60_000)) {
            while (running.get()) {
                Pipeline pipe = w.pipelined();
                for (int i = 0; i < 100; i++) {
                    int k = random.nextInt(KEYS);
                    switch (i % 5) {
                        case 0 -> pipe.set("key:" + k, "updated:" + k);
                        case 1 -> pipe.set("new:" + written.get() + ":" + i, "n");
                        case 2 -> pipe.del("key:" + k);
                        case 3 -> pipe.incr("counter:" + (k % 100));
                        default -> pipe.setex("volatile:" + k, 3600, "v");
                    }
                }
                pipe.sync();
                written.addAndGet(100);
            }
        }
    }

    private static void assertSample(Jedis p, Jedis r) {
        Random random = new Random(7);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            keys.add("key:" + random.nextInt(KEYS));
        }
        assertEquals(valuesAndTtls(p, keys), valuesAndTtls(r, keys));
    }

    private static void assertEveryKey(Jedis p, Jedis r) {
        String cursor = ScanParams.SCAN_POINTER_START;
        long compared = 0;
        do {
            ScanResult<String> page = p.scan(cursor, new ScanParams().count(5000));
            List<String> keys = page.getResult();
            if (!keys.isEmpty()) {
                assertEquals(mget(p, keys), mget(r, keys));
                compared += keys.size();
            }
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        assertTrue(compared >= p.dbSize(), "compared " + compared + " keys");
    }

    private static List<String> mget(Jedis j, List<String> keys) {
        return j.mget(keys.toArray(new String[0]));
    }

    /** Values and whether each key has a TTL, in one round trip. */
    private static List<String> valuesAndTtls(Jedis j, List<String> keys) {
        Pipeline pipe = j.pipelined();
        Response<List<String>> values = pipe.mget(keys.toArray(new String[0]));
        List<Response<Long>> ttls = new ArrayList<>();
        for (String key : keys) {
            ttls.add(pipe.ttl(key));
        }
        pipe.sync();
        List<String> out = new ArrayList<>(values.get());
        for (Response<Long> ttl : ttls) {
            out.add(ttl.get() > 0 ? "ttl" : Long.toString(ttl.get()));
        }
        return out;
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
