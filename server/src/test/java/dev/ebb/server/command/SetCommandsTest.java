package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.command.HashCommandsTest.RawCommand;
import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.SafeEncoder;

/** The set family against the real Jedis client; error texts checked against redis-server 7.0. */
class SetCommandsTest {
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void membersShouldBeAddedTestedAndRemoved() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(3, j.sadd("s", "a", "b", "c"));
            assertEquals(1, j.sadd("s", "a", "d"));

            assertEquals(Set.of("a", "b", "c", "d"), j.smembers("s"));
            assertTrue(j.sismember("s", "a"));
            assertFalse(j.sismember("s", "z"));
            assertEquals(List.of(true, false), j.smismember("s", "b", "z"));
            assertEquals(List.of(false), j.smismember("nokey", "b"));
            assertEquals(4, j.scard("s"));
            assertEquals(0, j.scard("nokey"));
            assertEquals("set", j.type("s"));
            assertEquals(2, j.srem("s", "a", "b", "zz"));
            assertEquals(2, j.srem("s", "c", "d"));
            assertFalse(j.exists("s"));
            assertEquals(Set.of(), j.smembers("s"));
        }
    }

    @Test
    void everySetCommandShouldAnswerWrongTypeAndChangeNothing() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("str", "text");
            j.sadd("s", "1");
            String[][] calls = {
                {"sadd", "str", "m"}, {"srem", "str", "m"}, {"smembers", "str"}, {"sismember", "str", "m"},
                {"smismember", "str", "m"}, {"scard", "str"}, {"spop", "str"}, {"spop", "str", "2"},
                {"srandmember", "str"}, {"srandmember", "str", "2"}, {"smove", "str", "s", "m"},
                {"smove", "s", "str", "1"}, {"sinter", "s", "str"}, {"sinter", "nokey", "str"},
                {"sunion", "str"}, {"sdiff", "nokey", "str"}, {"sinterstore", "d", "s", "str"},
                {"sunionstore", "d", "str"}, {"sdiffstore", "d", "s", "str"}, {"sintercard", "2", "s", "str"},
                {"sscan", "str", "0"},
            };
            for (String[] call : calls) {
                assertError(WRONGTYPE, () -> send(j, call));
            }
            assertEquals("text", j.get("str"));
            assertEquals(Set.of("1"), j.smembers("s"));
            assertFalse(j.exists("d"));
        }
    }

    @Test
    void badArgumentsShouldGetRedisErrors() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.sadd("s", "1", "2", "3");

            assertError("ERR wrong number of arguments for 'sadd' command", () -> send(j, "sadd", "s"));
            assertError("ERR wrong number of arguments for 'smove' command", () -> send(j, "smove", "s", "d"));
            assertError("ERR value is out of range, must be positive", () -> send(j, "spop", "s", "-1"));
            assertError("ERR value is out of range, must be positive", () -> send(j, "spop", "s", "x"));
            assertError("ERR syntax error", () -> send(j, "spop", "s", "1", "2"));
            assertError("ERR syntax error", () -> send(j, "srandmember", "s", "1", "2"));
            assertError("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807",
                    () -> send(j, "srandmember", "s", "-9223372036854775808"));
            assertError("ERR numkeys should be greater than 0", () -> send(j, "sintercard", "0", "s"));
            assertError("ERR numkeys should be greater than 0", () -> send(j, "sintercard", "x", "s"));
            assertError("ERR Number of keys can't be greater than number of args", () -> send(j, "sintercard", "2", "s"));
            assertError("ERR LIMIT can't be negative", () -> send(j, "sintercard", "1", "s", "limit", "-1"));
            assertError("ERR LIMIT can't be negative", () -> send(j, "sintercard", "1", "s", "limit", "x"));
            assertError("ERR syntax error", () -> send(j, "sintercard", "1", "s", "foo", "1"));
            assertEquals(3, j.scard("s"));
        }
    }

    @Test
    void popAndRandomMemberShouldFollowRedisCountRules() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            Set<String> all = new HashSet<>();
            for (int i = 0; i < 30; i++) {
                all.add("m" + i);
            }
            j.sadd("s", all.toArray(new String[0]));

            assertTrue(all.contains(j.srandmember("s")));
            assertNull(j.srandmember("nokey"));
            assertEquals(List.of(), j.srandmember("nokey", 5));
            assertEquals(all, new HashSet<>(j.srandmember("s", 100)));
            assertEquals(5, new HashSet<>(j.srandmember("s", 5)).size());
            assertEquals(20, new HashSet<>(j.srandmember("s", 20)).size());
            List<String> repeated = j.srandmember("s", -100);
            assertEquals(100, repeated.size());
            assertTrue(all.containsAll(repeated));

            String one = j.spop("s");
            assertTrue(all.contains(one));
            Set<String> popped = j.spop("s", 10);
            assertEquals(10, popped.size());
            assertFalse(popped.contains(one));
            assertEquals(19, j.scard("s"));
            assertEquals(Set.of(), j.spop("s", 0));
            assertEquals(19, j.spop("s", 100).size());
            assertFalse(j.exists("s"));
            assertNull(j.spop("s"));
            assertEquals(Set.of(), j.spop("s", 3));
        }
    }

    @Test
    void smoveShouldMoveOnceAndCreateOrDeleteKeys() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.sadd("a", "x", "y");

            assertEquals(1, j.smove("a", "b", "x"));
            assertEquals(0, j.smove("a", "b", "nope"));
            assertEquals(0, j.smove("nokey", "b", "x"));
            assertEquals(1, j.smove("a", "a", "y"));
            assertEquals(1, j.smove("a", "b", "y"));

            assertFalse(j.exists("a"));
            assertEquals(Set.of("x", "y"), j.smembers("b"));
        }
    }

    @Test
    void algebraShouldMatchRedis() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.sadd("a", "1", "2", "3", "x");
            j.sadd("b", "2", "3", "4");
            j.sadd("c", "3", "5");
            j.set("dst", "old");
            j.expire("dst", 100);

            assertEquals(Set.of("3"), j.sinter("a", "b", "c"));
            assertEquals(Set.of(), j.sinter("a", "nokey"));
            assertEquals(Set.of("1", "2", "3", "4", "5", "x"), j.sunion("a", "b", "c", "nokey"));
            assertEquals(Set.of("1", "x"), j.sdiff("a", "b", "c"));
            assertEquals(Set.of(), j.sdiff("nokey", "a"));
            assertEquals(Set.of(), j.sdiff("a", "a"));
            assertEquals(2, j.sintercard("a", "b"));
            assertEquals(1, j.sintercard(1, "a", "b"));
            assertEquals(2, j.sintercard(0, "a", "b"));

            assertEquals(2, j.sinterstore("dst", "a", "b"));
            assertEquals(Set.of("2", "3"), j.smembers("dst"));
            assertEquals(-1, j.ttl("dst"));
            assertEquals(6, j.sunionstore("dst", "a", "b", "c"));
            assertEquals(2, j.sdiffstore("dst", "a", "b"));
            assertEquals(Set.of("1", "x"), j.smembers("dst"));
            assertEquals(0, j.sinterstore("dst", "a", "nokey"));
            assertFalse(j.exists("dst"));
        }
    }

    @Test
    void encodingShouldFollowRedis72Conversions() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            for (int i = 0; i < 512; i++) {
                j.sadd("ints", String.valueOf(i));
            }
            assertEquals("intset", j.objectEncoding("ints"));
            j.sadd("ints", "512");
            assertEquals("hashtable", j.objectEncoding("ints"));

            j.sadd("mixed", "1", "2");
            assertEquals("intset", j.objectEncoding("mixed"));
            j.sadd("mixed", "abc");
            assertEquals("listpack", j.objectEncoding("mixed"));
            for (int i = 0; i < 125; i++) {
                j.sadd("mixed", "m" + i);
            }
            assertEquals(128, j.scard("mixed"));
            assertEquals("listpack", j.objectEncoding("mixed"));
            j.sadd("mixed", "one-more");
            assertEquals("hashtable", j.objectEncoding("mixed"));
            assertTrue(j.sismember("mixed", "1"));

            j.sadd("long", "x".repeat(64));
            assertEquals("listpack", j.objectEncoding("long"));
            j.sadd("long", "y".repeat(65));
            assertEquals("hashtable", j.objectEncoding("long"));

            j.sadd("notcanonical", "01", "+1");
            assertEquals("listpack", j.objectEncoding("notcanonical"));
            assertEquals(Set.of("01", "+1"), j.smembers("notcanonical"));
        }
    }

    @Test
    void sscanShouldReturnEveryMemberOfLargeSets() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            List<String> members = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                members.add("member:" + i);
            }
            j.sadd("big", members.toArray(new String[0]));
            j.sadd("small", "1", "2", "3");

            Set<String> seen = new HashSet<>();
            String cursor = "0";
            do {
                ScanResult<String> page = j.sscan("big", cursor, new ScanParams().count(100));
                seen.addAll(page.getResult());
                cursor = page.getCursor();
            } while (!cursor.equals("0"));
            assertEquals(new HashSet<>(members), seen);
            ScanResult<String> small = j.sscan("small", "0", new ScanParams().match("[12]"));
            assertEquals("0", small.getCursor());
            assertEquals(Set.of("1", "2"), new HashSet<>(small.getResult()));
            assertError("ERR invalid cursor", () -> send(j, "sscan", "big", "-x"));
        }
    }

    @Test
    void millionMemberSetShouldWork() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port(), HashCommandsTest.HUGE_TIMEOUT_MS)) {
            int batch = 10_000;
            for (int b = 0; b < 100; b++) {
                String[] members = new String[batch];
                for (int i = 0; i < batch; i++) {
                    members[i] = String.valueOf(b * batch + i);
                }
                j.sadd("huge", members);
            }

            assertEquals(1_000_000, j.scard("huge"));
            assertTrue(j.sismember("huge", "999999"));
            assertEquals("hashtable", j.objectEncoding("huge"));
            assertTrue(j.memoryUsage("huge") > 20_000_000);
            assertEquals(1, j.del("huge"));
        }
    }

    @Test
    void emptyMemberShouldBeStored() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(1, j.sadd("s", ""));

            assertTrue(j.sismember("s", ""));
            assertEquals(1, j.scard("s"));
        }
    }

    private static Object send(Jedis j, String... args) {
        byte[][] rest = new byte[args.length - 1][];
        for (int i = 1; i < args.length; i++) {
            rest[i - 1] = SafeEncoder.encode(args[i]);
        }
        return j.sendCommand(new RawCommand(args[0]), rest);
    }
}
