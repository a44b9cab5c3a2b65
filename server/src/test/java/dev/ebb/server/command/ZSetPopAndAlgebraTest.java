package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static dev.ebb.server.command.StringTestSupport.resp3Reply;
import static dev.ebb.server.command.ZSetTestSupport.cmd;
import static dev.ebb.server.command.ZSetTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** ZPOPMIN, ZPOPMAX, ZMPOP, ZRANDMEMBER, and ZUNION/ZINTER/ZDIFF (STORE forms), ZINTERCARD. */
class ZSetPopAndAlgebraTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static Jedis client() {
        return new Jedis(ebb.host(), ebb.port());
    }

    @Test
    void popsShouldTakeFromEitherEndAndDeleteTheEmptiedKey() {
        try (Jedis j = client()) {
            run(j, "zadd", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e");

            assertEquals("[a, 1]", run(j, "zpopmin", "z"));
            assertEquals("[b, 2, c, 3]", run(j, "zpopmin", "z", "2"));
            assertEquals("[e, 5]", run(j, "zpopmax", "z"));
            assertEquals("[]", run(j, "zpopmax", "z", "0"));
            assertEquals("[d, 4]", run(j, "zpopmax", "z", "10"));

            assertFalse(j.exists("z"));
            assertEquals("[]", run(j, "zpopmin", "z"));
            assertEquals("[]", run(j, "zpopmin", "z", "3"));
        }
    }

    @Test
    void popCountsShouldBePositive() {
        try (Jedis j = client()) {
            assertError("ERR value is out of range, must be positive", () -> run(j, "zpopmin", "z", "-1"));
            assertError("ERR value is out of range, must be positive", () -> run(j, "zpopmax", "z", "abc"));
            assertError("ERR syntax error", () -> run(j, "zpopmax", "z", "1", "2"));
        }
    }

    @Test
    void zmpopShouldPopFromTheFirstNonEmptyKey() {
        try (Jedis j = client()) {
            run(j, "zadd", "z", "1", "a", "2", "b", "3", "c");

            assertEquals("[z, [[c, 3], [b, 2]]]", run(j, "zmpop", "2", "nokey", "z", "max", "count", "2"));
            assertEquals("[z, [[a, 1]]]", run(j, "zmpop", "1", "z", "MIN"));
            assertEquals("nil", run(j, "zmpop", "2", "z", "nokey", "min"));

            assertFalse(j.exists("z"));
        }
    }

    @Test
    void zmpopArgumentErrorsShouldMatchRedis() {
        try (Jedis j = client()) {
            assertError("ERR numkeys should be greater than 0", () -> run(j, "zmpop", "0", "z", "min"));
            assertError("ERR numkeys should be greater than 0", () -> run(j, "zmpop", "abc", "z", "min"));
            assertError("ERR syntax error", () -> run(j, "zmpop", "3", "z", "min"));
            assertError("ERR syntax error", () -> run(j, "zmpop", "1", "z", "foo"));
            assertError("ERR count should be greater than 0", () -> run(j, "zmpop", "1", "z", "min", "count", "0"));
            assertError("ERR syntax error", () -> run(j, "zmpop", "1", "z", "min", "count", "1", "count", "2"));
        }
    }

    @Test
    void resp3PopRepliesShouldHaveRedisShapes() throws IOException {
        try (Jedis j = client()) {
            run(j, "zadd", "z", "1", "a", "2", "b", "3", "c", "4", "d");
        }

        assertEquals("*2\r\n$1\r\na\r\n,1\r\n", resp3Reply(ebb, "zpopmin", "z"));
        assertEquals("*1\r\n*2\r\n$1\r\nb\r\n,2\r\n", resp3Reply(ebb, "zpopmin", "z", "1"));
        assertEquals("*2\r\n$1\r\nz\r\n*1\r\n*2\r\n$1\r\nd\r\n,4\r\n", resp3Reply(ebb, "zmpop", "1", "z", "max"));
        assertEquals("_\r\n", resp3Reply(ebb, "zmpop", "1", "nokey", "max"));
    }

    @Test
    void zrandmemberShouldGiveDistinctMembersForPositiveCountsAndRepeatsForNegative() {
        try (Jedis j = client()) {
            run(j, "zadd", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e");

            @SuppressWarnings("unchecked")
            List<byte[]> three = (List<byte[]>) cmd(j, "zrandmember", "z", "3");
            Set<String> distinct = new HashSet<>();
            three.forEach(m -> distinct.add(new String(m)));
            assertEquals(3, distinct.size());
            assertTrue(Set.of("a", "b", "c", "d", "e").containsAll(distinct));

            assertEquals(20, ((List<?>) cmd(j, "zrandmember", "z", "-20")).size());
            assertEquals(10, ((List<?>) cmd(j, "zrandmember", "z", "10", "withscores")).size());
            assertTrue(Set.of("a", "b", "c", "d", "e").contains(run(j, "zrandmember", "z")));
            assertEquals("nil", run(j, "zrandmember", "nokey"));
            assertEquals("[]", run(j, "zrandmember", "nokey", "3"));
            assertEquals("[]", run(j, "zrandmember", "z", "0"));
        }
    }

    @Test
    void zrandmemberWithScoresShouldPairEachMemberWithItsScore() {
        try (Jedis j = client()) {
            run(j, "zadd", "z", "1", "a", "2", "b", "3", "c");

            List<?> reply = (List<?>) cmd(j, "zrandmember", "z", "-30", "withscores");

            for (int i = 0; i < reply.size(); i += 2) {
                String member = new String((byte[]) reply.get(i));
                String score = new String((byte[]) reply.get(i + 1));
                assertEquals(String.valueOf(member.charAt(0) - 'a' + 1), score);
            }
        }
    }

    @Test
    void zrandmemberCountErrorsShouldMatchRedis() {
        try (Jedis j = client()) {
            run(j, "zadd", "z", "1", "a");

            assertError("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807",
                    () -> run(j, "zrandmember", "z", "-9223372036854775808"));
            assertError("ERR value is out of range",
                    () -> run(j, "zrandmember", "z", "9223372036854775807", "withscores"));
            assertError("ERR value is not an integer or out of range", () -> run(j, "zrandmember", "z", "abc"));
            assertError("ERR syntax error", () -> run(j, "zrandmember", "z", "1", "foo"));
        }
    }

    @Test
    void unionInterDiffShouldWeightAndAggregate() {
        try (Jedis j = client()) {
            run(j, "zadd", "z", "1", "a", "2", "b", "3", "c");
            run(j, "zadd", "s", "10", "b", "20", "c", "30", "x");

            assertEquals("[a, 1, b, 12, c, 23, x, 30]", run(j, "zunion", "2", "z", "s", "withscores"));
            assertEquals("[a, 2, b, 5, c, 10, x, 15]",
                    run(j, "zunion", "2", "z", "s", "weights", "2", "0.5", "aggregate", "max", "withscores"));
            assertEquals("[a, 1, b, 2, c, 3, x, 30]",
                    run(j, "zunion", "2", "z", "s", "aggregate", "min", "withscores"));
            assertEquals("[b, 12, c, 23]", run(j, "zinter", "2", "z", "s", "withscores"));
            assertEquals("[c, -17, b, -8]",
                    run(j, "zinter", "2", "z", "s", "weights", "1", "-1", "withscores"));
            assertEquals("[]", run(j, "zinter", "2", "z", "nokey"));
            assertEquals("[a, 1]", run(j, "zdiff", "2", "z", "s", "withscores"));
            assertEquals("[x]", run(j, "zdiff", "2", "s", "z"));
        }
    }

    @Test
    void storeFormsShouldReplaceOrDeleteTheDestination() {
        try (Jedis j = client()) {
            run(j, "zadd", "z", "1", "a", "2", "b");
            run(j, "zadd", "s", "5", "b");
            run(j, "set", "d", "string");

            assertEquals(":2", run(j, "zunionstore", "d", "2", "z", "s"));
            assertEquals("[a, 1, b, 7]", run(j, "zrange", "d", "0", "-1", "withscores"));
            assertEquals(":1", run(j, "zinterstore", "d", "2", "z", "s", "aggregate", "max"));
            assertEquals("[b, 5]", run(j, "zrange", "d", "0", "-1", "withscores"));
            assertEquals(":1", run(j, "zdiffstore", "d", "2", "z", "s"));
            assertEquals("[a, 1]", run(j, "zrange", "d", "0", "-1", "withscores"));
            assertEquals(":0", run(j, "zinterstore", "d", "2", "z", "nokey"));
            assertFalse(j.exists("d"));
        }
    }

    @Test
    void nanFromInfiniteWeightsShouldBecomeZero() {
        try (Jedis j = client()) {
            run(j, "zadd", "inf", "inf", "a", "0", "b");

            assertEquals(":2", run(j, "zunionstore", "d", "2", "inf", "inf", "weights", "1", "-1"));

            assertEquals("[a, 0, b, 0]", run(j, "zrange", "d", "0", "-1", "withscores"));
        }
    }

    @Test
    void zintercardShouldCountUpToTheLimit() {
        try (Jedis j = client()) {
            run(j, "zadd", "z", "1", "a", "2", "b", "3", "c");
            run(j, "zadd", "s", "1", "b", "2", "c", "3", "d");

            assertEquals(":2", run(j, "zintercard", "2", "z", "s"));
            assertEquals(":1", run(j, "zintercard", "2", "z", "s", "limit", "1"));
            assertEquals(":3", run(j, "zintercard", "1", "z", "limit", "0"));
            assertEquals(":0", run(j, "zintercard", "2", "z", "nokey"));
        }
    }

    @Test
    void algebraArgumentErrorsShouldMatchRedis() {
        try (Jedis j = client()) {
            run(j, "zadd", "z", "1", "a");

            assertError("ERR at least 1 input key is needed for 'zunionstore' command",
                    () -> run(j, "zunionstore", "d", "0", "z"));
            assertError("ERR at least 1 input key is needed for 'zunion' command", () -> run(j, "zunion", "-1", "z"));
            assertError("ERR at least 1 input key is needed for 'zintercard' command",
                    () -> run(j, "zintercard", "0", "z"));
            assertError("ERR syntax error", () -> run(j, "zunionstore", "d", "2", "z"));
            assertError("ERR value is not an integer or out of range", () -> run(j, "zinter", "x", "z"));
            assertError("ERR weight value is not a float", () -> run(j, "zunion", "1", "z", "weights", "nan"));
            assertError("ERR syntax error", () -> run(j, "zunion", "1", "z", "weights", "1", "2"));
            assertError("ERR syntax error", () -> run(j, "zunion", "1", "z", "aggregate", "avg"));
            assertError("ERR syntax error", () -> run(j, "zdiff", "1", "z", "weights", "1"));
            assertError("ERR syntax error", () -> run(j, "zunionstore", "d", "1", "z", "withscores"));
            assertError("ERR LIMIT can't be negative", () -> run(j, "zintercard", "1", "z", "limit", "-1"));
        }
    }
}
