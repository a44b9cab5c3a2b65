package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.SafeEncoder;

/** SCAN (cursor, MATCH, COUNT, TYPE, changes during an iteration) and KEYS. */
class ScanCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    /** Upper bound on SCAN calls in one iteration, so a broken cursor fails instead of looping. */
    private static final int MAX_SCAN_CALLS = 100_000;

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static Object raw(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        return j.sendCommand(command, Arrays.copyOfRange(args, 1, args.length));
    }

    private static String error(Jedis j, String... args) {
        return assertThrows(JedisDataException.class, () -> raw(j, args)).getMessage();
    }

    /** Sets {@code prefix0 .. prefix(n-1)} to "v" in one pipeline; returns the names. */
    private static Set<String> populate(Jedis j, String prefix, int n) {
        Set<String> keys = new HashSet<>();
        Pipeline p = j.pipelined();
        for (int i = 0; i < n; i++) {
            p.set(prefix + i, "v");
            keys.add(prefix + i);
        }
        p.sync();
        return keys;
    }

    /** Runs a SCAN iteration to its end and returns every key replied, duplicates included. */
    private static List<String> scanAll(Jedis j, ScanParams params, String type) {
        List<String> keys = new ArrayList<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        int calls = 0;
        do {
            ScanResult<String> r = type == null ? j.scan(cursor, params) : j.scan(cursor, params, type);
            keys.addAll(r.getResult());
            cursor = r.getCursor();
            assertTrue(++calls < MAX_SCAN_CALLS, "SCAN did not finish");
        } while (!cursor.equals("0"));
        return keys;
    }

    @Test
    void scanShouldReturnEveryKeyAtLeastOnceForAnyCount() {
        try (Jedis j = connect()) {
            Set<String> expected = populate(j, "key:", 3000);

            for (int count : new int[] {3, 10, 97, 1000, 5000}) {
                List<String> replied = scanAll(j, new ScanParams().count(count), null);

                assertEquals(expected, new HashSet<>(replied), "COUNT " + count);
                assertTrue(replied.size() >= expected.size());
            }
        }
    }

    @Test
    void countOneShouldStillCompleteTheIteration() {
        try (Jedis j = connect()) {
            Set<String> expected = populate(j, "key:", 300);

            List<String> replied = scanAll(j, new ScanParams().count(1), null);

            assertEquals(expected, new HashSet<>(replied));
        }
    }

    @Test
    void countShouldBoundTheWorkOfOneCall() {
        try (Jedis j = connect()) {
            populate(j, "key:", 3000);

            ScanResult<String> first = j.scan("0");
            ScanResult<String> large = j.scan("0", new ScanParams().count(1000));
            ScanResult<String> all = j.scan("0", new ScanParams().count(5000));

            assertTrue(first.getResult().size() >= 10 && first.getResult().size() < 100, "default COUNT 10");
            assertTrue(large.getResult().size() >= 1000 && large.getResult().size() < 3000, "COUNT 1000");
            assertEquals(3000, all.getResult().size());
            assertEquals("0", all.getCursor());
        }
    }

    @Test
    void matchShouldFilterTheKeysOfTheWholeIteration() {
        try (Jedis j = connect()) {
            Set<String> users = populate(j, "user:", 1000);
            populate(j, "order:", 1000);

            List<String> replied = scanAll(j, new ScanParams().match("user:*").count(50), null);
            List<String> one = scanAll(j, new ScanParams().match("order:1?").count(200), null);

            assertEquals(users, new HashSet<>(replied));
            assertEquals(Set.of("order:10", "order:11", "order:12", "order:13", "order:14", "order:15",
                    "order:16", "order:17", "order:18", "order:19"), new HashSet<>(one));
        }
    }

    @Test
    void typeShouldFilterByTypeNameIgnoringCase() {
        try (Jedis j = connect()) {
            Set<String> expected = populate(j, "s:", 1000);

            assertEquals(expected, new HashSet<>(scanAll(j, new ScanParams().count(100), "string")));
            assertEquals(expected, new HashSet<>(scanAll(j, new ScanParams().count(100), "STRING")));
            assertTrue(scanAll(j, new ScanParams().count(100), "list").isEmpty());
            assertTrue(scanAll(j, new ScanParams().count(100), "nosuchtype").isEmpty());
        }
    }

    @Test
    void matchTypeAndCountShouldCombine() {
        try (Jedis j = connect()) {
            populate(j, "a:", 500);
            Set<String> b = populate(j, "b:", 500);

            List<String> replied = scanAll(j, new ScanParams().match("b:*").count(33), "String");

            assertEquals(b, new HashSet<>(replied));
        }
    }

    @Test
    void scanShouldReturnEveryKeyPresentThroughoutWhileKeysAreAddedAndRemoved() {
        try (Jedis j = connect()) {
            Set<String> stable = populate(j, "stable:", 300);
            populate(j, "churn:", 200);
            List<String> replied = new ArrayList<>();
            String cursor = "0";
            int calls = 0;
            int added = 0;
            int removed = 0;

            do {
                ScanResult<String> r = j.scan(cursor, new ScanParams().count(5));
                replied.addAll(r.getResult());
                cursor = r.getCursor();
                Pipeline p = j.pipelined();
                if (calls < 50) {
                    // grow the table several times over: 3,000 new keys in the first 50 calls
                    for (int i = 0; i < 60; i++) {
                        p.set("new:" + added++, "v");
                    }
                    p.del("churn:" + calls * 2);
                } else {
                    // then delete all but the stable keys: the table ends under 1/10 full and shrinks
                    for (int i = 0; i < 150 && removed < added; i++) {
                        p.del("new:" + removed++);
                    }
                    p.del("churn:" + (calls % 200));
                }
                p.sync();
                assertTrue(++calls < MAX_SCAN_CALLS, "SCAN did not finish");
            } while (!cursor.equals("0"));

            Set<String> seen = new HashSet<>(replied);
            for (String key : stable) {
                assertTrue(seen.contains(key), "missing " + key);
            }
            assertTrue(calls > 50, "the iteration should span both phases, calls=" + calls);
        }
    }

    @Test
    void scanShouldNotReturnExpiredKeys() {
        try (Jedis j = connect()) {
            Set<String> live = populate(j, "live:", 500);
            Pipeline p = j.pipelined();
            for (int i = 0; i < 500; i++) {
                p.set("temp:" + i, "v", SetParams.setParams().px(100));
            }
            p.sync();
            ebb.advanceClock(101);

            assertEquals(live, new HashSet<>(scanAll(j, new ScanParams().count(10), null)));
            assertEquals(live, new HashSet<>(scanAll(j, new ScanParams().count(10), "string")));
        }
    }

    @Test
    void theCursorShouldBeABulkString() throws IOException {
        try (Socket socket = new Socket(ebb.host(), ebb.port())) {
            OutputStream out = socket.getOutputStream();
            out.write("*2\r\n$4\r\nSCAN\r\n$1\r\n0\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();

            String expected = "*2\r\n$1\r\n0\r\n*0\r\n";
            byte[] reply = socket.getInputStream().readNBytes(expected.length());

            assertEquals(expected, new String(reply, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void cursorsShouldBeParsedAsRedisDoes() {
        try (Jedis j = connect()) {
            j.set("a", "1");

            for (String ok : new String[] {"", "0", "-0", "+0", "007", "-1", "18446744073709551615"}) {
                Object reply = raw(j, "SCAN", ok, "COUNT", "100");
                assertInstanceOf(List.class, reply, "cursor '" + ok + "'");
            }
            for (String bad : new String[] {"abc", " 1", "1 ", "-", "+", "0x1", "1.0", "18446744073709551616"}) {
                assertEquals("ERR invalid cursor", error(j, "SCAN", bad), "cursor '" + bad + "'");
            }
        }
    }

    @Test
    void badOptionsShouldGetRedisErrors() {
        try (Jedis j = connect()) {
            assertEquals("ERR syntax error", error(j, "SCAN", "0", "COUNT", "0"));
            assertEquals("ERR syntax error", error(j, "SCAN", "0", "COUNT", "-1"));
            assertEquals("ERR value is not an integer or out of range", error(j, "SCAN", "0", "COUNT", "x"));
            assertEquals("ERR value is not an integer or out of range",
                    error(j, "SCAN", "0", "count", "99999999999999999999"));
            assertEquals("ERR syntax error", error(j, "SCAN", "0", "MATCH"));
            assertEquals("ERR syntax error", error(j, "SCAN", "0", "TYPE"));
            assertEquals("ERR syntax error", error(j, "SCAN", "0", "foo", "bar"));
            assertEquals("ERR invalid cursor", error(j, "SCAN", "x", "COUNT", "0"));
            assertEquals("ERR wrong number of arguments for 'scan' command", error(j, "SCAN"));
        }
    }

    @Test
    void laterOptionsShouldOverrideEarlierOnes() {
        try (Jedis j = connect()) {
            j.set("a", "1");
            j.set("b", "1");

            Object reply = raw(j, "SCAN", "0", "MATCH", "a", "MATCH", "b", "COUNT", "1", "COUNT", "100");

            List<?> parts = (List<?>) reply;
            List<?> keys = (List<?>) parts.get(1);
            assertEquals(1, keys.size());
            assertEquals("b", SafeEncoder.encode((byte[]) keys.get(0)));
        }
    }

    @Test
    void typeFilterShouldCountAKeyspaceHitPerMatchingKey() {
        try (Jedis j = connect()) {
            j.set("a", "1");
            j.set("b", "1");
            j.set("c", "1");
            long before = keyspaceHits();

            raw(j, "SCAN", "0", "TYPE", "string", "MATCH", "[ab]", "COUNT", "100");
            raw(j, "SCAN", "0", "COUNT", "100");

            assertEquals(2, keyspaceHits() - before);
        }
    }

    private static long keyspaceHits() {
        long[] out = new long[1];
        ebb.server().runOnLoop(s -> out[0] = s.stats().keyspaceHits());
        return out[0];
    }

    @Test
    void keysShouldReturnExactlyTheMatchingKeysOnce() {
        try (Jedis j = connect()) {
            Set<String> users = populate(j, "user:", 1000);
            Set<String> all = new HashSet<>(users);
            all.addAll(populate(j, "item:", 300));

            List<?> everything = (List<?>) raw(j, "KEYS", "*");

            assertEquals(1300, everything.size());
            assertEquals(all, j.keys("*"));
            assertEquals(users, j.keys("user:*"));
            assertEquals(Set.of("item:7", "item:8"), j.keys("item:[78]"));
            assertEquals(Set.of("item:1", "item:2", "item:3", "item:4", "item:5", "item:6", "item:7", "item:8",
                    "item:9", "item:0"), j.keys("item:?"));
            assertTrue(j.keys("nothing*").isEmpty());
        }
    }

    @Test
    void keysShouldHandleSpecialKeysAndEscapes() {
        try (Jedis j = connect()) {
            j.set("", "empty");
            j.set("a*b", "1");
            j.set("axb", "1");
            j.set("A", "1");

            assertEquals(Set.of("", "a*b", "axb", "A"), j.keys("*"));
            assertEquals(Set.of("a*b"), j.keys("a\\*b"));
            assertEquals(Set.of("a*b", "axb"), j.keys("a*b"));
            assertEquals(Set.of("A"), j.keys("A"));
            assertFalse(j.keys("a").contains("A"));
        }
    }

    @Test
    void keysShouldSkipExpiredKeysEvenWhenTheirRemovalShrinksTheTable() {
        try (Jedis j = connect()) {
            Set<String> live = populate(j, "live:", 100);
            Pipeline p = j.pipelined();
            for (int i = 0; i < 2000; i++) {
                p.set("temp:" + i, "v", SetParams.setParams().px(50));
            }
            p.sync();
            ebb.advanceClock(51);

            List<?> replied = (List<?>) raw(j, "KEYS", "*");

            assertEquals(live.size(), replied.size());
            assertEquals(live, j.keys("*"));
        }
    }

    @Test
    void keysShouldCheckArity() {
        try (Jedis j = connect()) {
            assertEquals("ERR wrong number of arguments for 'keys' command", error(j, "KEYS"));
            assertEquals("ERR wrong number of arguments for 'keys' command", error(j, "KEYS", "*", "x"));
        }
    }
}
