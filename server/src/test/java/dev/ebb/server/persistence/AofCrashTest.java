package dev.ebb.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.Main;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * Crash safety: an Ebb JVM killed with SIGKILL in the middle of a write load keeps, after a
 * restart on the same directory, every write it acknowledged (with {@code appendfsync always} the
 * write is on disk before its reply; with {@code everysec} it is at least in the kernel, which
 * survives the process). A file cut inside a command loads up to its last whole command with
 * {@code aof-load-truncated yes} and is refused with Redis's text with {@code no}; an unfinished
 * MULTI at the end is reverted; a file that is not RESP is refused.
 */
class AofCrashTest {
    private static final String INCR = "appendonly.aof.1.incr.aof";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"always", "everysec"})
    void everyAcknowledgedWriteShouldSurviveSigkill(String fsync) throws Exception {
        Process ebb = new ProcessBuilder(javaCommand("--appendfsync", fsync)).redirectErrorStream(true)
                .redirectOutput(dir.resolve("ebb.log").toFile()).start();
        AtomicLong acknowledged = new AtomicLong();
        try {
            int port = awaitPort(ebb);
            Thread writer = new Thread(() -> {
                try (Jedis j = new Jedis("127.0.0.1", port)) {
                    while (true) {
                        long n = j.incr("counter");
                        j.rpush("list", Long.toString(n));
                        acknowledged.set(n);
                    }
                } catch (RuntimeException killed) {
                    // The server died under us: the last acknowledged write is in `acknowledged`.
                }
            });
            writer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (acknowledged.get() < 300 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            ebb.destroyForcibly();
            assertTrue(ebb.waitFor(30, TimeUnit.SECONDS));
            writer.join(30_000);
        } finally {
            ebb.destroyForcibly();
        }
        long acked = acknowledged.get();
        assertTrue(acked >= 300, "only " + acked + " writes before the kill; log: " + log());

        try (EbbServer restarted = AofTesting.start(dir, "appendonly yes");
                Jedis j = new Jedis("127.0.0.1", restarted.port())) {
            long counter = Long.parseLong(j.get("counter"));
            assertTrue(counter >= acked, "counter " + counter + " < acknowledged " + acked);
            List<String> list = j.lrange("list", 0, -1);
            assertTrue(list.size() >= acked, "list has " + list.size() + " < acknowledged " + acked);
            for (int i = 0; i < acked; i++) {
                assertEquals(Long.toString(i + 1), list.get(i));
            }
        }
    }

    @Test
    void aTruncatedTailShouldLoadWithAofLoadTruncatedYesAndBeCutThere() throws Exception {
        long whole = writeThenCut("*3\r\n$3\r\nSET\r\n$1\r\nb\r\n$3\r\nva");

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes", "aof-load-truncated yes");
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals("1", j.get("a"));
            assertEquals(null, j.get("b"));
        }
        assertEquals(whole, Files.size(dir.resolve("appendonlydir").resolve(INCR)));
    }

    @Test
    void aTruncatedTailShouldBeRefusedWithRedisTextWithAofLoadTruncatedNo() throws Exception {
        writeThenCut("*3\r\n$3\r\nSET\r\n$1\r\nb\r\n$3\r\nva");

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> AofTesting.start(dir, "appendonly yes", "aof-load-truncated no").close());

        assertEquals("Unexpected end of file reading the append only file " + INCR + ". You can: "
                + "1) Make a backup of your AOF file, then use ./redis-check-aof --fix <filename.manifest>. "
                + "2) Alternatively you can set the 'aof-load-truncated' configuration option to yes and restart "
                + "the server.", refused.getMessage());
    }

    @Test
    void anUnfinishedMultiAtTheEndShouldBeReverted() throws Exception {
        long whole = writeThenCut("*1\r\n$5\r\nMULTI\r\n*3\r\n$3\r\nSET\r\n$1\r\nb\r\n$1\r\n2\r\n");

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes");
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals("1", j.get("a"));
            assertEquals(null, j.get("b"));
        }
        assertEquals(whole, Files.size(dir.resolve("appendonlydir").resolve(INCR)));
    }

    @Test
    void aFileThatIsNotRespShouldBeRefused() throws Exception {
        writeThenCut("garbage\r\n");

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> AofTesting.start(dir, "appendonly yes").close());

        assertEquals("Bad file format reading the append only file " + INCR + ": make a backup of your AOF file, "
                + "then use ./redis-check-aof --fix <filename.manifest>", refused.getMessage());
    }

    /** Writes SET a 1 through a server, then appends {@code tail} to its incremental file; returns the size before. */
    private long writeThenCut(String tail) throws Exception {
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes");
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            j.set("a", "1");
        }
        Path incr = dir.resolve("appendonlydir").resolve(INCR);
        long whole = Files.size(incr);
        Files.write(incr, tail.getBytes(StandardCharsets.US_ASCII), StandardOpenOption.APPEND);
        return whole;
    }

    private List<String> javaCommand(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(Main.class.getName());
        command.addAll(List.of("--port", "0", "--bind", "127.0.0.1", "--dir", dir.toString(),
                "--appendonly", "yes"));
        command.addAll(List.of(args));
        return command;
    }

    /** The port the separate Ebb chose, from its start-up line ("... started (...): port N, ..."). */
    private int awaitPort(Process ebb) throws Exception {
        Pattern started = Pattern.compile("started \\(Redis [^)]*\\): port (\\d+)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (!ebb.isAlive()) {
                throw new AssertionError("Ebb exited: " + log());
            }
            Matcher m = started.matcher(log());
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("Ebb did not start within 120 s: " + log());
    }

    private String log() throws IOException {
        return Files.readString(dir.resolve("ebb.log"));
    }
}
