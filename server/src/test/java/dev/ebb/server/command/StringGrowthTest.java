package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.BitPosParams;
import redis.clients.jedis.util.SafeEncoder;

/**
 * Strings grown in place by APPEND, SETRANGE and SETBIT (a RawString with spare capacity): every
 * reader sees exactly the string, never the spare bytes; values read or copied before a change keep
 * their bytes; OBJECT ENCODING is "raw" and MEMORY USAGE counts the capacity, as in Redis 7.2.
 */
class StringGrowthTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void manySmallAppendsShouldBuildTheWholeStringForEveryReader() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.del("k");
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (int i = 0; i < 2000; i++) {
                byte[] piece = b(i + ",");
                expected.write(piece, 0, piece.length);
                assertEquals(expected.size(), j.append(b("k"), piece));
            }
            byte[] whole = expected.toByteArray();

            assertArrayEquals(whole, j.get(b("k")));
            assertEquals(whole.length, j.strlen("k"));
            assertArrayEquals(Arrays.copyOfRange(whole, 5, 11), j.getrange(b("k"), 5, 10));
            assertArrayEquals(Arrays.copyOfRange(whole, whole.length - 3, whole.length),
                    j.getrange(b("k"), -3, -1));
            assertEquals(bitCount(whole), j.bitcount("k"));
            assertArrayEquals(whole, j.mget(b("k")).get(0));
            assertEquals("string", j.type("k"));
            assertArrayEquals(whole, (byte[]) j.eval(b("return redis.call('get', KEYS[1])"), 1, b("k")));
        }
    }

    @Test
    void appendAndSetrangeShouldReportRawEncodingAsRedisDoes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("a", "12");
            j.set("s", "x");

            j.append("a", "3");
            j.setrange("s", 0, "y");
            j.setbit("b", 3, true);

            assertEquals("raw", SafeEncoder.encode(j.objectEncoding(b("a"))));
            assertEquals("raw", SafeEncoder.encode(j.objectEncoding(b("s"))));
            assertEquals("raw", SafeEncoder.encode(j.objectEncoding(b("b"))));
            assertEquals(124, j.incr("a"));
            assertEquals("int", SafeEncoder.encode(j.objectEncoding(b("a"))));
        }
    }

    @Test
    void memoryUsageShouldCountTheSpareCapacityAppendLeaves() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            byte[] chunk = new byte[100_000];
            j.set(b("exact"), new byte[200_000]);
            j.set(b("grown"), chunk);

            j.append(b("grown"), chunk);

            long exact = j.memoryUsage("exact");
            long grown = j.memoryUsage("grown");
            assertEquals(200_000, j.strlen("grown"));
            assertTrue(grown >= exact + 200_000, "doubled below 1 MB: exact " + exact + ", grown " + grown);
        }
    }

    @Test
    void valuesReadOrCopiedBeforeAChangeShouldKeepTheirBytes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "hello");
            j.append("k", " world");
            j.copy("k", "c", true);
            byte[] old = j.getSet(b("k"), b("reset"));
            j.set("k2", "abc");
            j.append("k2", "def");

            j.append("c", "!");
            j.setrange("k2", 0, "X");
            j.append("k2", "ghi");
            j.setbit("k2", 7, true);

            assertEquals("hello world", SafeEncoder.encode(old));
            assertEquals("hello world!", j.get("c"));
            assertEquals("reset", j.get("k"));
            assertEquals("Ybcdefghi", j.get("k2"));
        }
    }

    @Test
    void setrangeAndSetbitPastTheEndShouldPadWithZerosInTheSpareCapacity() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "ab");
            j.append("k", "cd");

            assertEquals(8, j.setrange("k", 7, "z"));
            assertEquals(false, j.setbit("k", 8 * 9 + 1, true));
            assertEquals(10, j.append("k", ""));

            assertArrayEquals(new byte[] {'a', 'b', 'c', 'd', 0, 0, 0, 'z', 0, 0x40}, j.get(b("k")));
            assertEquals(true, j.getbit("k", 8 * 9 + 1));
            assertEquals(-1, j.bitpos("k", true, new BitPosParams(4, 6)));
        }
    }

    private static long bitCount(byte[] bytes) {
        long n = 0;
        for (byte x : bytes) {
            n += Integer.bitCount(x & 0xff);
        }
        return n;
    }
}
