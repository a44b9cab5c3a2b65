package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.command.HashCommandsTest.RawCommand;
import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ListDirection;
import redis.clients.jedis.args.ListPosition;
import redis.clients.jedis.params.LPosParams;
import redis.clients.jedis.util.KeyValue;
import redis.clients.jedis.util.SafeEncoder;

/** The non-blocking list commands against the real Jedis client; errors checked against redis-server 7.0. */
class ListCommandsTest {
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void pushPopAndRangesShouldBehaveAsRedis() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(3, j.rpush("l", "a", "b", "c"));
            assertEquals(5, j.lpush("l", "y", "z"));
            assertEquals(0, j.lpushx("none", "a"));
            assertEquals(6, j.rpushx("l", "d"));

            assertEquals(List.of("z", "y", "a", "b", "c", "d"), j.lrange("l", 0, -1));
            assertEquals(List.of("c", "d"), j.lrange("l", -2, 100));
            assertEquals(List.of(), j.lrange("l", 5, 2));
            assertEquals(List.of(), j.lrange("l", 10, 20));
            assertEquals(6, j.llen("l"));
            assertEquals("z", j.lindex("l", 0));
            assertEquals("d", j.lindex("l", -1));
            assertNull(j.lindex("l", 6));
            assertEquals("list", j.type("l"));

            assertEquals("z", j.lpop("l"));
            assertEquals("d", j.rpop("l"));
            assertEquals(List.of("y", "a"), j.lpop("l", 2));
            assertEquals(List.of("c", "b"), j.rpop("l", 5));
            assertFalse(j.exists("l"));
            assertNull(j.lpop("l"));
            assertNull(j.lpop("l", 2));
            assertEquals(0, j.llen("l"));
        }
    }

    @Test
    void editsShouldBehaveAsRedis() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.rpush("l", "a", "b", "a", "c", "a");

            assertEquals("OK", j.lset("l", 1, "B"));
            assertEquals("OK", j.lset("l", -1, "A"));
            assertEquals(6, j.linsert("l", ListPosition.BEFORE, "c", "x"));
            assertEquals(7, j.linsert("l", ListPosition.AFTER, "c", "y"));
            assertEquals(-1, j.linsert("l", ListPosition.AFTER, "zz", "y"));
            assertEquals(0, j.linsert("none", ListPosition.AFTER, "a", "y"));
            assertEquals(List.of("a", "B", "a", "x", "c", "y", "A"), j.lrange("l", 0, -1));
            assertEquals(2, j.lrem("l", 0, "a"));
            assertEquals(List.of("B", "x", "c", "y", "A"), j.lrange("l", 0, -1));
            j.rpush("l", "x", "x");
            assertEquals(2, j.lrem("l", -2, "x"));
            assertEquals(List.of("B", "x", "c", "y", "A"), j.lrange("l", 0, -1));
            assertEquals(1, j.lrem("l", 1, "x"));
            assertEquals("OK", j.ltrim("l", 1, -2));
            assertEquals(List.of("c", "y"), j.lrange("l", 0, -1));
            assertEquals("OK", j.ltrim("l", 5, 10));
            assertFalse(j.exists("l"));
            assertEquals("OK", j.ltrim("l", 0, 1));
        }
    }

    @Test
    void lposShouldFindRanksCountsAndRespectMaxlen() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.rpush("l", "a", "b", "c", "1", "2", "3", "c", "c");

            assertEquals(2, j.lpos("l", "c"));
            assertEquals(6, j.lpos("l", "c", LPosParams.lPosParams().rank(2)));
            assertEquals(7, j.lpos("l", "c", LPosParams.lPosParams().rank(-1)));
            assertEquals(List.of(2L, 6L), j.lpos("l", "c", LPosParams.lPosParams(), 2));
            assertEquals(List.of(2L, 6L, 7L), j.lpos("l", "c", LPosParams.lPosParams(), 0));
            assertEquals(List.of(7L, 6L), j.lpos("l", "c", LPosParams.lPosParams().rank(-1), 2));
            assertEquals(List.of(2L), j.lpos("l", "c", LPosParams.lPosParams().maxlen(6), 0));
            assertNull(j.lpos("l", "zz"));
            assertNull(j.lpos("none", "a"));
            assertEquals(List.of(), j.lpos("none", "a", LPosParams.lPosParams(), 1));

            assertError("ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use"
                    + " negative to start from the end of the list", () -> send(j, "lpos", "l", "a", "rank", "0"));
            assertError("ERR COUNT can't be negative", () -> send(j, "lpos", "l", "a", "count", "-1"));
            assertError("ERR MAXLEN can't be negative", () -> send(j, "lpos", "l", "a", "maxlen", "-1"));
            assertError("ERR syntax error", () -> send(j, "lpos", "l", "a", "foo"));
            assertError("ERR value is not an integer or out of range", () -> send(j, "lpos", "l", "a", "rank", "x"));
        }
    }

    @Test
    void movesShouldTakeFromOneEndAndPushToTheOther() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.rpush("src", "1", "2", "3");

            assertEquals("3", j.rpoplpush("src", "dst"));
            assertEquals("1", j.lmove("src", "dst", ListDirection.LEFT, ListDirection.RIGHT));
            assertEquals("2", j.lmove("src", "src", ListDirection.LEFT, ListDirection.RIGHT));
            assertEquals("2", j.lmove("src", "dst", ListDirection.RIGHT, ListDirection.LEFT));
            assertNull(j.rpoplpush("src", "dst"));
            assertFalse(j.exists("src"));
            assertEquals(List.of("2", "3", "1"), j.lrange("dst", 0, -1));

            j.rpush("rot", "a", "b", "c");
            assertEquals("c", j.rpoplpush("rot", "rot"));
            assertEquals(List.of("c", "a", "b"), j.lrange("rot", 0, -1));
        }
    }

    @Test
    void lmpopShouldPopFromTheFirstNonEmptyList() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.rpush("b", "1", "2", "3");

            KeyValue<String, List<String>> popped = j.lmpop(ListDirection.RIGHT, 2, "a", "b");
            assertEquals("b", popped.getKey());
            assertEquals(List.of("3", "2"), popped.getValue());
            assertEquals(List.of("1"), j.lmpop(ListDirection.LEFT, 5, "b").getValue());
            assertNull(j.lmpop(ListDirection.LEFT, "a", "b"));

            assertError("ERR numkeys should be greater than 0", () -> send(j, "lmpop", "0", "l", "left"));
            assertError("ERR syntax error", () -> send(j, "lmpop", "1", "l", "middle"));
            assertError("ERR count should be greater than 0", () -> send(j, "lmpop", "1", "l", "left", "count", "0"));
            assertError("ERR count should be greater than 0", () -> send(j, "lmpop", "1", "l", "left", "count", "x"));
            assertError("ERR syntax error",
                    () -> send(j, "lmpop", "1", "l", "left", "count", "1", "count", "2"));
            assertError("ERR syntax error", () -> send(j, "lmpop", "2", "l", "left"));
            assertError("ERR syntax error", () -> send(j, "lmpop", "3", "l", "left"));
        }
    }

    @Test
    void badArgumentsShouldGetRedisErrorsAndChangeNothing() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.rpush("l", "a", "b", "c");

            assertError("ERR value is out of range, must be positive", () -> send(j, "lpop", "l", "-1"));
            assertError("ERR value is out of range, must be positive", () -> send(j, "rpop", "l", "x"));
            assertError("ERR wrong number of arguments for 'lpop' command", () -> send(j, "lpop", "l", "1", "2"));
            assertError("ERR value is not an integer or out of range", () -> send(j, "lindex", "l", "x"));
            assertError("ERR index out of range", () -> send(j, "lset", "l", "9", "x"));
            assertError("ERR no such key", () -> send(j, "lset", "none", "0", "x"));
            assertError("ERR syntax error", () -> send(j, "linsert", "l", "middle", "a", "x"));
            assertError("ERR syntax error", () -> send(j, "lmove", "l", "d", "up", "left"));
            assertError("ERR value is not an integer or out of range", () -> send(j, "lrange", "l", "x", "1"));
            assertError("ERR value is not an integer or out of range", () -> send(j, "ltrim", "l", "0", "x"));
            assertError("ERR value is not an integer or out of range", () -> send(j, "lrem", "l", "x", "a"));
            assertError("ERR wrong number of arguments for 'lpush' command", () -> send(j, "lpush", "l"));
            assertEquals(List.of("a", "b", "c"), j.lrange("l", 0, -1));
        }
    }

    @Test
    void everyListCommandShouldAnswerWrongTypeAndChangeNothing() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("s", "text");
            j.rpush("l", "a");
            String[][] calls = {
                {"lpush", "s", "a"}, {"rpush", "s", "a"}, {"lpushx", "s", "a"}, {"rpushx", "s", "a"}, {"lpop", "s"},
                {"rpop", "s", "2"}, {"llen", "s"}, {"lrange", "s", "0", "1"}, {"lindex", "s", "0"},
                {"lset", "s", "0", "a"}, {"linsert", "s", "before", "a", "b"}, {"lrem", "s", "0", "a"},
                {"ltrim", "s", "0", "1"}, {"lpos", "s", "a"}, {"lmove", "s", "l", "left", "left"},
                {"lmove", "l", "s", "left", "left"}, {"rpoplpush", "l", "s"}, {"lmpop", "1", "s", "left"},
                {"blpop", "s", "0"}, {"brpop", "s", "0"}, {"blmove", "l", "s", "left", "left", "0"},
                {"brpoplpush", "s", "l", "0"}, {"blmpop", "0", "1", "s", "left"},
            };
            for (String[] call : calls) {
                assertError(WRONGTYPE, () -> send(j, call));
            }
            assertEquals("text", j.get("s"));
            assertEquals(List.of("a"), j.lrange("l", 0, -1));
        }
    }

    @Test
    void encodingShouldBeListpackUntilTheSizeLimitAndQuicklistBeyond() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.rpush("l", "a", "b");
            assertEquals("listpack", j.objectEncoding("l"));
            j.rpush("l", "x".repeat(9000));
            assertEquals("quicklist", j.objectEncoding("l"));
            j.rpop("l");
            assertEquals("listpack", j.objectEncoding("l"));

            j.configSet("list-max-listpack-size", "4");
            j.rpush("n", "1", "2", "3", "4");
            assertEquals("listpack", j.objectEncoding("n"));
            j.rpush("n", "5");
            assertEquals("quicklist", j.objectEncoding("n"));
            j.rpop("n");
            assertEquals("quicklist", j.objectEncoding("n"));
            j.rpop("n", 2);
            assertEquals("listpack", j.objectEncoding("n"));
            j.configSet("list-max-listpack-size", "-2");
        }
    }

    @Test
    void millionElementListShouldWork() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port(), HashCommandsTest.HUGE_TIMEOUT_MS)) {
            int batch = 10_000;
            for (int b = 0; b < 100; b++) {
                String[] elements = new String[batch];
                for (int i = 0; i < batch; i++) {
                    elements[i] = String.valueOf(b * batch + i);
                }
                j.rpush("huge", elements);
            }

            assertEquals(1_000_000, j.llen("huge"));
            assertEquals("500000", j.lindex("huge", 500_000));
            assertEquals(List.of("999998", "999999"), j.lrange("huge", -2, -1));
            assertEquals("quicklist", j.objectEncoding("huge"));
            assertTrue(j.memoryUsage("huge") > 4_000_000);
            assertEquals("OK", j.ltrim("huge", 0, 9));
            assertEquals(10, j.llen("huge"));
            assertEquals("listpack", j.objectEncoding("huge"));
        }
    }

    @Test
    void emptyElementsShouldBeStored() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.rpush("l", "", "");

            assertEquals(List.of("", ""), j.lrange("l", 0, -1));
            assertEquals(0, j.lpos("l", ""));
        }
    }

    static Object send(Jedis j, String... args) {
        byte[][] rest = new byte[args.length - 1][];
        for (int i = 1; i < args.length; i++) {
            rest[i - 1] = SafeEncoder.encode(args[i]);
        }
        return j.sendCommand(new RawCommand(args[0]), rest);
    }
}
