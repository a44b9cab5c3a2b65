package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.differential.ReferenceRedis;
import dev.ebb.storage.rdb.RdbLimits;
import dev.ebb.storage.rdb.RdbOptions;
import dev.ebb.storage.rdb.RdbReader;
import dev.ebb.storage.rdb.RdbVisitor;
import dev.ebb.storage.rdb.RdbWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * RDB files between Ebb's codec and redis-server 7.2.4, with every type and encoding
 * ({@link KeyspaceSamples}), rdbcompression on and off:
 *
 * <ol>
 *   <li>the reference SAVEs; {@link RdbReader} reads its dump.rdb (checksum verified);</li>
 *   <li>{@link RdbWriter} writes what was read (with the expiries and both databases) to a new
 *       file, which {@code redis-check-rdb} accepts;</li>
 *   <li>a second reference started on that file has exactly the first one's keyspace: content,
 *       OBJECT ENCODING and TTLs.</li>
 * </ol>
 * Skipped, saying why, when the reference binaries cannot run.
 */
class RdbFileReferenceTest {
    private static ReferenceRedis reference;
    private static String skipReason;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startReference() {
        reference = ReferenceRedis.startOrNull();
        skipReason = reference == null ? ReferenceRedis.unavailableReason : null;
    }

    @BeforeEach
    void requireReference() {
        assumeTrue(skipReason == null, () -> skipReason);
    }

    @AfterAll
    static void stopReference() {
        if (reference != null) {
            reference.close();
        }
    }

    /** A key read from a file, with what came with it. */
    private record Entry(int db, byte[] key, Object value, long expireAtMs) {
    }

    @Test
    void filesShouldGoBothWaysWithCompression() throws Exception {
        roundTrip(true);
    }

    @Test
    void filesShouldGoBothWaysWithoutCompression() throws Exception {
        roundTrip(false);
    }

    private void roundTrip(boolean compression) throws Exception {
        Map<String, String> expected;
        try (Jedis r = new Jedis("127.0.0.1", reference.port(), 30_000)) {
            r.flushAll();
            r.configSet("rdbcompression", compression ? "yes" : "no");
            KeyspaceSamples.populate(r);
            expected = KeyspaceSamples.snapshot(r);
            assertEquals("OK", r.save());
        }
        Map<String, String> aux = new LinkedHashMap<>();
        List<Entry> entries = new ArrayList<>();
        try (InputStream in = Files.newInputStream(reference.dir().resolve("dump.rdb"))) {
            new RdbReader(RdbLimits.DEFAULTS, true).read(in, new RdbVisitor() {
                @Override
                public void aux(byte[] key, byte[] value) {
                    aux.put(new String(key, StandardCharsets.UTF_8), new String(value, StandardCharsets.UTF_8));
                }

                @Override
                public void entry(int db, byte[] key, Object value, long expireAtMs, long idle, int freq) {
                    entries.add(new Entry(db, key, value, expireAtMs));
                }
            });
        }
        assertEquals("7.2.4", aux.get("redis-ver"));
        assertEquals(expected.size(), entries.size());

        Path file = tmp.resolve("ebb.rdb");
        writeFile(file, entries, new RdbOptions(compression, true));

        assertCheckRdbAccepts(file);
        ReferenceRedis loaded = ReferenceRedis.startOrNull("--dir", tmp.toString(), "--dbfilename", "ebb.rdb");
        assumeTrue(loaded != null, () -> ReferenceRedis.unavailableReason);
        try (Jedis second = new Jedis("127.0.0.1", loaded.port(), 30_000)) {
            KeyspaceSamples.assertSameKeyspace(expected, KeyspaceSamples.snapshot(second));
        } finally {
            loaded.close();
        }
    }

    private static void writeFile(Path file, List<Entry> entries, RdbOptions options) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            RdbWriter w = new RdbWriter(out, options);
            Map<String, byte[]> aux = new LinkedHashMap<>();
            aux.put("redis-ver", "7.2.4".getBytes(StandardCharsets.US_ASCII));
            aux.put("redis-bits", "64".getBytes(StandardCharsets.US_ASCII));
            aux.put("ctime", Long.toString(System.currentTimeMillis() / 1000).getBytes(StandardCharsets.US_ASCII));
            aux.put("used-mem", "1000000".getBytes(StandardCharsets.US_ASCII));
            aux.put("aof-base", "0".getBytes(StandardCharsets.US_ASCII));
            w.header(aux);
            for (int db : KeyspaceSamples.DATABASES) {
                List<Entry> inDb = entries.stream().filter(e -> e.db() == db).toList();
                w.selectDb(db, inDb.size(), inDb.stream().filter(e -> e.expireAtMs() >= 0).count());
                for (Entry e : inDb) {
                    w.entry(e.key(), e.value(), e.expireAtMs(), -1, -1);
                }
            }
            w.finish();
        }
    }

    private static void assertCheckRdbAccepts(Path file) throws Exception {
        // redis-check-rdb is redis-server started under that name (the reference ships it as a note naming the binary).
        Path server = ReferenceRedis.binary();
        assumeTrue(Files.isExecutable(server), () -> "reference redis-server not found at " + server);
        Process p = new ProcessBuilder("bash", "-c", "exec -a redis-check-rdb \"$0\" \"$1\"", server.toString(),
                file.toString()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "redis-check-rdb did not finish");
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.contains("RDB looks OK!"), output);
    }
}
