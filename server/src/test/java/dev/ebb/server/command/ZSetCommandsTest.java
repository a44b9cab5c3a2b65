package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static dev.ebb.server.command.StringTestSupport.resp3Reply;
import static dev.ebb.server.command.ZSetTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ZAddParams;

/**
 * ZADD and its options, ZINCRBY, ZSCORE, ZMSCORE, ZCARD, ZREM, ZRANK and ZREVRANK, with the
 * replies and error texts of a real redis-server 7.
 */
class ZSetCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static Jedis client() {
        return new Jedis(ebb.host(), ebb.port());
    }

    @Test
    void zaddShouldAddNewMembersAndUpdateExistingOnes() {
        try (Jedis j = client()) {
            assertEquals(3, j.zadd("z", Map.of("a", 1.0, "b", 2.0, "c", 3.0)));

            assertEquals(1, j.zadd("z", Map.of("a", 5.0, "d", 4.0)));

            assertEquals("[b, 2, c, 3, d, 4, a, 5]", run(j, "zrange", "z", "0", "-1", "withscores"));
            assertEquals(4, j.zcard("z"));
        }
    }

    @Test
    void zaddNxXxChShouldChangeOnlyWhatTheyAllow() {
        try (Jedis j = client()) {
            j.zadd("z", Map.of("a", 1.0, "b", 2.0));

            assertEquals(":1", run(j, "zadd", "z", "nx", "9", "a", "3", "c"));
            assertEquals(":0", run(j, "zadd", "z", "xx", "7", "a", "4", "new"));
            assertEquals(":2", run(j, "zadd", "z", "ch", "8", "a", "5", "d", "2", "b"));

            assertEquals("[b, 2, c, 3, d, 5, a, 8]", run(j, "zrange", "z", "0", "-1", "withscores"));
        }
    }

    @Test
    void zaddGtLtShouldOnlyMoveScoresOneWayButStillAddNewMembers() {
        try (Jedis j = client()) {
            j.zadd("z", Map.of("a", 5.0, "b", 5.0));

            assertEquals(":1", run(j, "zadd", "z", "gt", "ch", "1", "a", "9", "b"));
            assertEquals(":1", run(j, "zadd", "z", "lt", "ch", "9", "a", "1", "b"));
            assertEquals(":1", run(j, "zadd", "z", "gt", "3", "c"));

            assertEquals("[b, 1, c, 3, a, 5]", run(j, "zrange", "z", "0", "-1", "withscores"));
        }
    }

    @Test
    void zaddIncrShouldReplyTheNewScoreOrNilWhenNothingChanged() {
        try (Jedis j = client()) {
            j.zadd("z", 1.5, "a");

            assertEquals(2.5, j.zaddIncr("z", 1, "a", ZAddParams.zAddParams()));
            assertEquals("2.5", run(j, "zadd", "z", "incr", "0", "a"));
            assertEquals("nil", run(j, "zadd", "z", "nx", "incr", "1", "a"));
            assertEquals("nil", run(j, "zadd", "z", "xx", "incr", "1", "missing"));
            assertEquals("nil", run(j, "zadd", "z", "gt", "incr", "-1", "a"));
            assertEquals("nil", run(j, "zadd", "nokey", "xx", "incr", "1", "a"));

            assertFalse(j.exists("nokey"));
            assertEquals(2.5, j.zscore("z", "a"));
        }
    }

    @Test
    void zaddShouldRejectIncompatibleOptionsAndBadPairsWithRedisErrors() {
        try (Jedis j = client()) {
            assertError("ERR XX and NX options at the same time are not compatible",
                    () -> run(j, "zadd", "z", "nx", "xx", "1", "a"));
            assertError("ERR GT, LT, and/or NX options at the same time are not compatible",
                    () -> run(j, "zadd", "z", "gt", "lt", "1", "a"));
            assertError("ERR GT, LT, and/or NX options at the same time are not compatible",
                    () -> run(j, "zadd", "z", "nx", "gt", "1", "a"));
            assertError("ERR INCR option supports a single increment-element pair",
                    () -> run(j, "zadd", "z", "incr", "1", "a", "2", "b"));
            assertError("ERR syntax error", () -> run(j, "zadd", "z", "1", "a", "2"));
            assertError("ERR wrong number of arguments for 'zadd' command", () -> run(j, "zadd", "z", "1"));

            assertFalse(j.exists("z"));
        }
    }

    @Test
    void badScoresShouldBeRejectedBeforeAnythingChanges() {
        try (Jedis j = client()) {
            j.zadd("z", 1, "a");

            for (String bad : List.of("abc", "nan", "NaN", "1e400", "1e-400", " 1", "1 ", "", "0x", "0x1p", "0x1p1024")) {
                assertError("ERR value is not a valid float", () -> run(j, "zadd", "z", "5", "b", bad, "c"));
            }
            assertError("ERR value is not a valid float", () -> run(j, "zincrby", "z", "abc", "a"));

            assertEquals("[a, 1]", run(j, "zrange", "z", "0", "-1", "withscores"));
        }
    }

    @Test
    void infinitiesShouldBeScoresAndNanResultsShouldBeRefused() {
        try (Jedis j = client()) {
            assertEquals(":4", run(j, "zadd", "z", "inf", "a", "-inf", "b", "+inf", "c", "-Infinity", "d"));

            assertEquals("[b, -inf, d, -inf, a, inf, c, inf]", run(j, "zrange", "z", "0", "-1", "withscores"));
            assertError("ERR resulting score is not a number (NaN)", () -> run(j, "zincrby", "z", "-inf", "a"));
            assertError("ERR resulting score is not a number (NaN)", () -> run(j, "zadd", "z", "incr", "inf", "b"));
            assertEquals("inf", run(j, "zscore", "z", "a"));
            assertEquals("inf", run(j, "zincrby", "z", "1", "a"));
        }
    }

    @Test
    void scoresShouldBePrintedInShortestRoundTripForm() {
        try (Jedis j = client()) {
            run(j, "zadd", "z", "0.1", "a", "1.5e-7", "b", "1e20", "c", "3", "d", "0.30000000000000004", "e",
                    "-0.0", "f");

            assertEquals("[f, 0, b, 1.5e-7, a, 0.1, e, 0.30000000000000004, d, 3, c, 1e+20]",
                    run(j, "zrange", "z", "0", "-1", "withscores"));
        }
    }

    @Test
    void zincrbyShouldCreateTheKeyAndAddToTheScore() {
        try (Jedis j = client()) {
            assertEquals(2.5, j.zincrby("z", 2.5, "a"));

            assertEquals(1.0, j.zincrby("z", -1.5, "a"));
            assertEquals(1.0, j.zscore("z", "a"));
        }
    }

    @Test
    void zscoreAndZmscoreShouldAnswerNilForMissingMembersAndKeys() {
        try (Jedis j = client()) {
            j.zadd("z", Map.of("a", 1.0, "c", 3.0));

            assertNull(j.zscore("z", "b"));
            assertNull(j.zscore("nokey", "a"));
            assertEquals("[1, nil, 3]", run(j, "zmscore", "z", "a", "b", "c"));
            assertEquals("[nil, nil]", run(j, "zmscore", "nokey", "a", "b"));
            assertEquals(0, j.zcard("nokey"));
        }
    }

    @Test
    void zremShouldDeleteTheKeyWithItsLastMember() {
        try (Jedis j = client()) {
            j.zadd("z", Map.of("a", 1.0, "b", 2.0));

            assertEquals(1, j.zrem("z", "a", "nope"));
            assertEquals(1, j.zrem("z", "b", "b"));

            assertFalse(j.exists("z"));
            assertEquals(0, j.zrem("z", "a"));
        }
    }

    @Test
    void zrankShouldCountFromEitherEndAndTakeWithScore() throws IOException {
        try (Jedis j = client()) {
            j.zadd("z", Map.of("a", 1.0, "b", 2.5, "c", 3.0));

            assertEquals(1, j.zrank("z", "b"));
            assertEquals(0, j.zrevrank("z", "c"));
            assertNull(j.zrank("z", "nope"));
            assertEquals("[:1, 2.5]", run(j, "zrank", "z", "b", "withscore"));
            assertEquals("[:2, 1]", run(j, "zrevrank", "z", "a", "WITHSCORE"));
            assertEquals("nil", run(j, "zrank", "z", "nope", "withscore"));
            assertError("ERR syntax error", () -> run(j, "zrank", "z", "a", "withscores"));
            assertError("ERR wrong number of arguments for 'zrank' command",
                    () -> run(j, "zrank", "z", "a", "withscore", "x"));
        }
        assertEquals("*2\r\n:1\r\n,2.5\r\n", resp3Reply(ebb, "zrank", "z", "b", "withscore"));
        assertEquals("_\r\n", resp3Reply(ebb, "zrank", "z", "nope", "withscore"));
    }

    @Test
    void resp3ShouldReplyScoresAsDoublesAndMissingAsNull() throws IOException {
        try (Jedis j = client()) {
            j.zadd("z", Map.of("a", 1.0, "b", 2.5));
        }

        assertEquals(",2.5\r\n", resp3Reply(ebb, "zscore", "z", "b"));
        assertEquals("_\r\n", resp3Reply(ebb, "zscore", "z", "nope"));
        assertEquals("*2\r\n,1\r\n_\r\n", resp3Reply(ebb, "zmscore", "z", "a", "nope"));
        assertEquals(",3.5\r\n", resp3Reply(ebb, "zincrby", "z", "1", "b"));
        assertEquals("_\r\n", resp3Reply(ebb, "zadd", "z", "nx", "incr", "1", "a"));
    }
}
