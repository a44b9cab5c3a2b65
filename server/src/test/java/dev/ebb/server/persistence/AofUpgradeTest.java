package dev.ebb.server.persistence;

import static dev.ebb.server.persistence.AofTesting.awaitRewrite;
import static dev.ebb.server.persistence.AofTesting.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Redis 7's upgrade path for a Redis 6 single-file {@code appendonly.aof} in {@code dir}: with appendonly
 * yes the file moves into {@code appendonlydir} as the base of a new manifest and loads. The expected
 * directory and manifest are what redis-server 7.2.4 made of the same file (2026-12-07): {@code
 * appendonlydir/appendonly.aof}, {@code appendonly.aof.1.incr.aof} and the manifest below, with the log
 * line "Successfully migrated an old-style AOF file (appendonly.aof) into the AOF directory
 * (appendonlydir).".
 */
class AofUpgradeTest {
    private static final String COMMANDS = "*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n1\r\n"
            + "*3\r\n$5\r\nRPUSH\r\n$1\r\nl\r\n$1\r\nx\r\n";

    @TempDir
    Path dir;

    @Test
    void anOldStyleCommandFileShouldMoveIntoTheDirectoryAsItsBaseAndLoad() throws Exception {
        Files.writeString(dir.resolve("appendonly.aof"), COMMANDS, StandardCharsets.US_ASCII);

        try (EbbServer ebb = start(dir, "appendonly yes", "save \"\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals("1", j.get("a"));
            assertEquals(List.of("x"), j.lrange("l", 0, -1));
            j.set("after", "upgrade");
        }

        assertFalse(Files.exists(dir.resolve("appendonly.aof")), "the old file moved");
        Path aofDir = dir.resolve("appendonlydir");
        assertEquals(COMMANDS, Files.readString(aofDir.resolve("appendonly.aof"), StandardCharsets.US_ASCII));
        assertEquals("file appendonly.aof seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n",
                Files.readString(aofDir.resolve("appendonly.aof.manifest"), StandardCharsets.US_ASCII));
        try (EbbServer ebb = start(dir, "appendonly yes", "save \"\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals("1", j.get("a"));
            assertEquals("upgrade", j.get("after"));

            j.bgrewriteaof();
            awaitRewrite(j);
            assertFalse(Files.exists(aofDir.resolve("appendonly.aof")), "the old base is history after a rewrite");
            assertEquals(List.of("x"), j.lrange("l", 0, -1));
        }
    }

    /**
     * A Redis 6 AOF with an RDB preamble (aof-use-rdb-preamble yes) followed by commands: both parts load, as
     * redis-server 7.2.4 loads them ("Reading RDB preamble from AOF file...", "Reading the remaining AOF tail...").
     */
    @Test
    void anOldStyleFileWithAnRdbPreambleShouldLoadToo() throws Exception {
        Path made = Files.createDirectories(dir.resolve("made"));
        try (EbbServer ebb = start(made, "save \"\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.hset("h", "f", "v");
            assertEquals("OK", j.save());
        }
        byte[] rdb = Files.readAllBytes(made.resolve("dump.rdb"));
        byte[] tail = COMMANDS.getBytes(StandardCharsets.US_ASCII);
        byte[] file = new byte[rdb.length + tail.length];
        System.arraycopy(rdb, 0, file, 0, rdb.length);
        System.arraycopy(tail, 0, file, rdb.length, tail.length);
        Files.write(dir.resolve("appendonly.aof"), file);

        try (EbbServer ebb = start(dir, "appendonly yes", "save \"\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals("v", j.hget("h", "f"));
            assertEquals("1", j.get("a"));
        }
        assertTrue(Files.exists(dir.resolve("appendonlydir/appendonly.aof")));
    }

    /** With aof-load-truncated yes, a cut command after the RDB preamble is dropped and the preamble kept. */
    @Test
    void aTruncatedTailShouldBeCutAfterThePreambleNotInIt() throws Exception {
        Path made = Files.createDirectories(dir.resolve("made"));
        try (EbbServer ebb = start(made, "save \"\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.set("kept", "yes");
            assertEquals("OK", j.save());
        }
        byte[] rdb = Files.readAllBytes(made.resolve("dump.rdb"));
        byte[] cut = "*3\r\n$3\r\nSET\r\n$1\r\na".getBytes(StandardCharsets.US_ASCII);
        byte[] file = new byte[rdb.length + cut.length];
        System.arraycopy(rdb, 0, file, 0, rdb.length);
        System.arraycopy(cut, 0, file, rdb.length, cut.length);
        Files.write(dir.resolve("appendonly.aof"), file);

        try (EbbServer ebb = start(dir, "appendonly yes", "aof-load-truncated yes", "save \"\"");
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals("yes", j.get("kept"));
            assertEquals(null, j.get("a"));
        }
        assertEquals(rdb.length, Files.size(dir.resolve("appendonlydir/appendonly.aof")), "cut where the commands start");
    }

    /** Without appendonly the file is left where it is, as Redis leaves it. */
    @Test
    void withAppendonlyOffTheOldFileShouldStayAndNotLoad() throws Exception {
        Files.writeString(dir.resolve("appendonly.aof"), COMMANDS, StandardCharsets.US_ASCII);

        try (EbbServer ebb = start(dir, "appendonly no", "save \"\""); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals(null, j.get("a"));
        }

        assertTrue(Files.exists(dir.resolve("appendonly.aof")));
        assertFalse(Files.exists(dir.resolve("appendonlydir")));
    }
}
