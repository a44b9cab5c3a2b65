package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.SafeEncoder;

/** The hash family against the real Jedis client; error texts checked against redis-server 7.0. */
class HashCommandsTest {
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";

    /** Socket timeout for the million-element test: the build machine is shared and may be slow. */
    static final int HUGE_TIMEOUT_MS = 120_000;

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void fieldsShouldBeSetReadAndDeleted() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(2, j.hset("h", Map.of("a", "1", "b", "2")));
            assertEquals(0, j.hset("h", "a", "10"));
            assertEquals("OK", j.hmset("h", Map.of("c", "3")));
            assertEquals(0, j.hsetnx("h", "a", "x"));
            assertEquals(1, j.hsetnx("h", "d", "4"));

            assertEquals("10", j.hget("h", "a"));
            assertNull(j.hget("h", "zz"));
            assertNull(j.hget("nokey", "a"));
            assertEquals(List.of("10", "3"), j.hmget("h", "a", "c"));
            assertEquals(java.util.Arrays.asList("10", null), j.hmget("h", "a", "nope"));
            assertEquals(Map.of("a", "10", "b", "2", "c", "3", "d", "4"), j.hgetAll("h"));
            assertEquals(Set.of("a", "b", "c", "d"), j.hkeys("h"));
            assertEquals(Set.of("10", "2", "3", "4"), new HashSet<>(j.hvals("h")));
            assertEquals(4, j.hlen("h"));
            assertEquals(2, j.hstrlen("h", "a"));
            assertEquals(0, j.hstrlen("h", "none"));
            assertTrue(j.hexists("h", "b"));
            assertFalse(j.hexists("h", "z"));
            assertEquals("hash", j.type("h"));

            assertEquals(2, j.hdel("h", "a", "b", "zz"));
            assertEquals(2, j.hdel("h", "c", "d"));
            assertFalse(j.exists("h"));
            assertEquals(0, j.hdel("h", "a"));
            assertEquals(Map.of(), j.hgetAll("h"));
            assertEquals(0, j.hlen("h"));
        }
    }

    @Test
    void fieldOrderOfSmallHashShouldBeInsertionOrderAsInRedis() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.hset("h", "z", "1");
            j.hset("h", "a", "2");
            j.hset("h", "m", "3");
            j.hdel("h", "a");

            assertEquals(List.of("z", "m"), new ArrayList<>(j.hkeys("h")));
        }
    }

    @Test
    void everyHashCommandShouldAnswerWrongTypeAndChangeNothing() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("s", "text");
            String[][] calls = {
                {"hset", "s", "f", "v"}, {"hsetnx", "s", "f", "v"}, {"hmset", "s", "f", "v"}, {"hget", "s", "f"},
                {"hmget", "s", "f"}, {"hgetall", "s"}, {"hdel", "s", "f"}, {"hexists", "s", "f"}, {"hlen", "s"},
                {"hstrlen", "s", "f"}, {"hkeys", "s"}, {"hvals", "s"}, {"hincrby", "s", "f", "1"},
                {"hincrbyfloat", "s", "f", "1"}, {"hrandfield", "s"}, {"hrandfield", "s", "2"},
                {"hscan", "s", "0"},
            };
            for (String[] call : calls) {
                assertError(WRONGTYPE, () -> send(j, call));
            }
            assertEquals("text", j.get("s"));
        }
    }

    @Test
    void wrongArityShouldBeRefusedWithRedisText() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertError("ERR wrong number of arguments for 'hset' command", () -> send(j, "hset", "h", "f", "v", "g"));
            assertError("ERR wrong number of arguments for 'hmset' command", () -> send(j, "hmset", "h", "f"));
            assertError("ERR wrong number of arguments for 'hget' command", () -> send(j, "hget", "h"));
            assertError("ERR wrong number of arguments for 'hdel' command", () -> send(j, "hdel", "h"));
            assertError("ERR wrong number of arguments for 'hscan' command", () -> send(j, "hscan", "h"));
            assertFalse(j.exists("h"));
        }
    }

    @Test
    void hincrbyShouldCheckNumbersAndOverflow() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(5, j.hincrBy("h", "n", 5));
            assertEquals(-1, j.hincrBy("h", "n", -6));
            j.hset("h", "s", "abc");
            j.hset("h", "sp", " 1");
            j.hset("h", "max", String.valueOf(Long.MAX_VALUE));

            assertError("ERR hash value is not an integer", () -> j.hincrBy("h", "s", 1));
            assertError("ERR hash value is not an integer", () -> j.hincrBy("h", "sp", 1));
            assertError("ERR value is not an integer or out of range", () -> send(j, "hincrby", "h", "n", "x"));
            assertError("ERR increment or decrement would overflow", () -> j.hincrBy("h", "max", 1));
            assertError("ERR value is not an integer or out of range", () -> send(j, "hincrby", "str", "n", "x"));
            assertEquals("-1", j.hget("h", "n"));
            assertEquals(String.valueOf(Long.MAX_VALUE), j.hget("h", "max"));
        }
    }

    @Test
    void hincrbyfloatShouldPrintAsRedisAndRejectBadNumbers() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.hset("h", "fl", "1e3");
            j.hset("h", "s", "abc");

            assertEquals("1001", SafeEncoder.encode((byte[]) send(j, "hincrbyfloat", "h", "fl", "1")));
            assertEquals("10.5", SafeEncoder.encode((byte[]) send(j, "hincrbyfloat", "h", "new", "10.5")));
            send(j, "hincrbyfloat", "h", "z", "0.1");
            assertEquals("0.3", SafeEncoder.encode((byte[]) send(j, "hincrbyfloat", "h", "z", "0.2")));
            assertError("ERR hash value is not a float", () -> send(j, "hincrbyfloat", "h", "s", "1"));
            assertError("ERR value is not a valid float", () -> send(j, "hincrbyfloat", "h", "fl", "x"));
            assertError("ERR value is NaN or Infinity", () -> send(j, "hincrbyfloat", "h", "fl", "inf"));
            assertEquals("1001", j.hget("h", "fl"));
        }
    }

    @Test
    void encodingShouldConvertPastEntryAndValueThresholds() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            for (int i = 0; i < 512; i++) {
                j.hset("small", "f" + i, "v");
            }
            assertEquals("listpack", j.objectEncoding("small"));
            j.hset("small", "f512", "v");
            assertEquals("hashtable", j.objectEncoding("small"));

            j.hset("wide", "f", "x".repeat(64));
            assertEquals("listpack", j.objectEncoding("wide"));
            j.hset("wide", "g", "x".repeat(65));
            assertEquals("hashtable", j.objectEncoding("wide"));
            assertEquals("x".repeat(64), j.hget("wide", "f"));

            j.configSet("hash-max-listpack-entries", "2");
            j.hset("cfg", Map.of("a", "1", "b", "2"));
            assertEquals("listpack", j.objectEncoding("cfg"));
            j.hset("cfg", "c", "3");
            assertEquals("hashtable", j.objectEncoding("cfg"));
            assertEquals(Map.of("a", "1", "b", "2", "c", "3"), j.hgetAll("cfg"));
            j.configSet("hash-max-listpack-entries", "512");
        }
    }

    @Test
    void hrandfieldShouldFollowRedisCountRules() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            Map<String, String> all = new HashMap<>();
            for (int i = 0; i < 20; i++) {
                all.put("f" + i, "v" + i);
            }
            j.hset("h", all);

            assertTrue(all.containsKey(j.hrandfield("h")));
            assertNull(j.hrandfield("nokey"));
            assertEquals(List.of(), j.hrandfield("nokey", 3));
            assertEquals(List.of(), j.hrandfield("h", 0));
            assertEquals(all.keySet(), new HashSet<>(j.hrandfield("h", 100)));
            List<String> five = j.hrandfield("h", 5);
            assertEquals(5, new HashSet<>(five).size());
            List<String> fifteen = j.hrandfield("h", 15);
            assertEquals(15, new HashSet<>(fifteen).size());
            List<String> repeated = j.hrandfield("h", -50);
            assertEquals(50, repeated.size());
            assertTrue(all.keySet().containsAll(repeated));
            List<Map.Entry<String, String>> pairs = j.hrandfieldWithValues("h", -7);
            assertEquals(7, pairs.size());
            for (Map.Entry<String, String> e : pairs) {
                assertEquals(all.get(e.getKey()), e.getValue());
            }

            assertError("ERR syntax error", () -> send(j, "hrandfield", "h", "1", "withvalue"));
            assertError("ERR syntax error", () -> send(j, "hrandfield", "h", "1", "withvalues", "x"));
            assertError("ERR value is not an integer or out of range", () -> send(j, "hrandfield", "h", "x"));
            assertError("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807",
                    () -> send(j, "hrandfield", "h", "-9223372036854775808"));
            assertError("ERR value is out of range",
                    () -> send(j, "hrandfield", "h", "-4611686018427387904", "withvalues"));
        }
    }

    @Test
    void hscanShouldReturnEveryFieldOfSmallAndLargeHashes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.hset("small", Map.of("a", "1", "b", "2"));
            Map<String, String> big = new HashMap<>();
            for (int i = 0; i < 1000; i++) {
                big.put("field:" + i, "v" + i);
            }
            j.hset("big", big);

            ScanResult<Map.Entry<String, String>> small = j.hscan("small", "0");
            assertEquals("0", small.getCursor());
            assertEquals(2, small.getResult().size());
            Map<String, String> seen = new HashMap<>();
            String cursor = "0";
            int calls = 0;
            do {
                ScanResult<Map.Entry<String, String>> page = j.hscan("big", cursor, new ScanParams().count(50));
                page.getResult().forEach(e -> seen.put(e.getKey(), e.getValue()));
                cursor = page.getCursor();
                calls++;
            } while (!cursor.equals("0"));
            assertEquals(big, seen);
            assertTrue(calls > 1);
            List<Map.Entry<String, String>> matched = new ArrayList<>();
            cursor = "0";
            do {
                ScanResult<Map.Entry<String, String>> page =
                        j.hscan("big", cursor, new ScanParams().match("field:99*").count(100));
                matched.addAll(page.getResult());
                cursor = page.getCursor();
            } while (!cursor.equals("0"));
            assertEquals(11, new HashSet<>(matched).size());

            assertError("ERR invalid cursor", () -> send(j, "hscan", "big", "x"));
            assertError("ERR syntax error", () -> send(j, "hscan", "big", "0", "count", "0"));
            assertError("ERR syntax error", () -> send(j, "hscan", "big", "0", "foo"));
            assertEquals("0", j.hscan("nokey", "0", new ScanParams().count(5)).getCursor());
        }
    }

    @Test
    void emptyFieldsAndValuesShouldBeStored() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.hset("h", "", "");

            assertEquals("", j.hget("h", ""));
            assertEquals(1, j.hlen("h"));
            assertEquals(0, j.hstrlen("h", ""));
        }
    }

    @Test
    void millionFieldHashShouldWorkAndReportItsMemory() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port(), HUGE_TIMEOUT_MS)) {
            int batch = 10_000;
            for (int b = 0; b < 100; b++) {
                Map<String, String> fields = new HashMap<>();
                for (int i = 0; i < batch; i++) {
                    fields.put("f" + (b * batch + i), "v");
                }
                j.hset("huge", fields);
            }

            assertEquals(1_000_000, j.hlen("huge"));
            assertEquals("v", j.hget("huge", "f999999"));
            assertEquals("hashtable", j.objectEncoding("huge"));
            long usage = j.memoryUsage("huge");
            assertTrue(usage > 40_000_000 && usage < 120_000_000, "memory usage " + usage);
            assertEquals(1, j.del("huge"));
        }
    }

    @Test
    void memoryUsageShouldTrackFieldChanges() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.hset("h", "f", "v");
            long small = j.memoryUsage("h");
            j.hset("h", "f", "v".repeat(50));
            long bigger = j.memoryUsage("h");
            j.hdel("h", "f");

            assertTrue(bigger > small);
            assertEquals(j.dbSize(), 0);
        }
    }

    private static Object send(Jedis j, String... args) {
        byte[][] rest = new byte[args.length - 1][];
        for (int i = 1; i < args.length; i++) {
            rest[i - 1] = SafeEncoder.encode(args[i]);
        }
        return j.sendCommand(new RawCommand(args[0]), rest);
    }

    /** Any command by name, so error paths Jedis's typed API cannot express can be sent. */
    record RawCommand(String name) implements redis.clients.jedis.commands.ProtocolCommand {
        @Override
        public byte[] getRaw() {
            return SafeEncoder.encode(name);
        }
    }
}
