package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A server whose JVM heap runs out, without maxmemory: it must refuse with Redis's OOM error, keep
 * the connection and its data, and accept writes again once memory is free. The server runs in a
 * child JVM with a {@value #HEAP_MB} MB heap (the test JVM's own heap is far larger), started from
 * the test class path, with the heap safety net's line at 50%; each test takes a few seconds.
 */
class HeapExhaustionTest {
    private static final int HEAP_MB = 128;
    private static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";
    private static final Pattern STARTED = Pattern.compile("started \\(Redis [^)]*\\): port (\\d+)");

    private static Process child;
    private static Path log;
    private static int port;

    @BeforeAll
    static void startServerWithSmallHeap() throws Exception {
        log = Files.createTempFile("ebb-small-heap", ".log");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        // The safety net's line is lowered from 90% to 50%: a heap this small thrashes and can raise
        // OutOfMemoryError while decoding a request before its after-GC occupancy reaches 90%.
        ProcessBuilder builder = new ProcessBuilder(List.of(java, "-Xmx" + HEAP_MB + "m", "-XX:+UseG1GC",
                "-Debb.heapShortPercent=50",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "--port", "0", "--save", ""));
        child = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (port == 0) {
            Matcher m = STARTED.matcher(logText());
            if (m.find()) {
                port = Integer.parseInt(m.group(1));
            } else if (!child.isAlive() || System.nanoTime() > deadline) {
                fail("the child server did not start:\n" + logText());
            } else {
                Thread.sleep(20);
            }
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (child != null) {
            child.destroy();
            if (!child.waitFor(20, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
            String text = logText();
            if (text.contains("ERROR")) {
                System.out.println("--- child server log:\n" + text.substring(text.indexOf("ERROR")));
            }
        }
    }

    private static String logText() {
        try {
            return Files.readString(log, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + log, e);
        }
    }

    private static Jedis client() {
        return new Jedis("127.0.0.1", port, 60_000);
    }

    @Test
    void writesShouldBeAcceptedAgainSoonAfterFlushallFreesTheHeap() throws Exception {
        try (Jedis j = client()) {
            j.flushAll();
            byte[] value = new byte[64 * 1024];
            String refusal = null;
            int written = 0;
            while (refusal == null && written < 10_000) {
                try {
                    j.set(("k" + written).getBytes(StandardCharsets.UTF_8), value);
                    written++;
                } catch (JedisDataException e) {
                    refusal = e.getMessage();
                }
            }
            assertEquals(OOM, refusal, "after " + written + " values of 64 KB");

            j.flushAll();

            String reply = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (reply == null && System.nanoTime() < deadline) {
                try {
                    reply = j.set("after", "flush");
                } catch (JedisDataException e) {
                    assertEquals(OOM, e.getMessage());
                    Thread.sleep(50);
                }
            }
            assertEquals("OK", reply, "writes still refused 15 s after FLUSHALL");
            assertEquals(1, j.dbSize());
        }
    }

    @Test
    void setrangeToALegalLengthTheHeapCannotHoldShouldBeRefusedWithOom() {
        try (Jedis j = client()) {
            j.flushAll();
            j.set("kept", "value");

            JedisDataException e = assertThrows(JedisDataException.class,
                    () -> j.setrange("big", 256L * 1024 * 1024 - 1, "x"));

            assertEquals(OOM, e.getMessage());
            assertEquals("PONG", j.ping());
            assertEquals("value", j.get("kept"));
            assertFalse(j.exists("big"));
            assertEquals(5, j.setrange("kept", 0, "V"));
            assertEquals("Value", j.get("kept"));
        }
    }

    @Test
    void luaStringTheHeapCannotHoldShouldBeRefusedWithOomEvenUnderPcall() {
        try (Jedis j = client()) {
            j.flushAll();

            JedisDataException direct = assertThrows(JedisDataException.class,
                    () -> j.eval("return string.rep('x', 1024*1024*1024)"));
            JedisDataException caught = assertThrows(JedisDataException.class,
                    () -> j.eval("local ok = pcall(string.rep, 'x', 1024*1024*1024) return tostring(ok)"));
            JedisDataException stored = assertThrows(JedisDataException.class,
                    () -> j.eval("return redis.call('set', 'k', string.rep('ab', 256*1024*1024))"));

            assertEquals(OOM, direct.getMessage());
            assertEquals(OOM, caught.getMessage());
            assertEquals(OOM, stored.getMessage());
            assertEquals("PONG", j.ping());
            assertFalse(j.exists("k"));
        }
    }

    @Test
    void luaRepeatCountShouldWrapAsACIntAsInRedis() {
        try (Jedis j = client()) {
            Object twoGiB = j.eval("return string.rep('x', 2*1024*1024*1024)");
            Object fourGiBPlusTwo = j.eval("return string.rep('ab', 4*1024*1024*1024 + 2)");
            Object negative = j.eval("return string.rep('x', -1)");

            assertNotNull(twoGiB);
            assertEquals("", twoGiB);
            assertEquals("abab", fourGiBPlusTwo);
            assertEquals("", negative);
        }
    }
}
