package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static dev.ebb.server.command.StringTestSupport.resp3Reply;
import static dev.ebb.server.command.ZSetTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * ZRANGE in all its forms, the older range commands, ZRANGESTORE, ZCOUNT, ZLEXCOUNT and the
 * ZREMRANGEBY* commands, on a set {@code z} of a=1 b=2 c=3 d=4 e=5 and a set {@code lex} of
 * a..e (and the empty member) all at score 0.
 */
class ZSetRangeCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private Jedis j;

    @BeforeEach
    void fill() {
        j = new Jedis(ebb.host(), ebb.port());
        run(j, "zadd", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e");
        run(j, "zadd", "lex", "0", "a", "0", "b", "0", "c", "0", "d", "0", "e", "0", "");
    }

    @org.junit.jupiter.api.AfterEach
    void close() {
        j.close();
    }

    @Test
    void rankRangesShouldTakeNegativeIndexesAndClamp() {
        assertEquals("[d, e]", run(j, "zrange", "z", "-2", "-1"));
        assertEquals("[a, b, c, d, e]", run(j, "zrange", "z", "-100", "100"));
        assertEquals("[]", run(j, "zrange", "z", "3", "1"));
        assertEquals("[]", run(j, "zrange", "z", "5", "10"));
        assertEquals("[e, 5, d, 4]", run(j, "zrange", "z", "0", "1", "rev", "withscores"));
        assertEquals("[e, 5, d, 4]", run(j, "zrevrange", "z", "0", "1", "withscores"));
        assertEquals("[]", run(j, "zrange", "nokey", "0", "-1"));
    }

    @Test
    void scoreRangesShouldHonourExclusiveBoundsLimitAndReverse() {
        assertEquals("[c, d, e]", run(j, "zrangebyscore", "z", "(2", "+inf"));
        assertEquals("[b, 2, c, 3]", run(j, "zrangebyscore", "z", "2", "(4", "withscores"));
        assertEquals("[c, d]", run(j, "zrangebyscore", "z", "-inf", "+inf", "limit", "2", "2"));
        assertEquals("[b, c, d, e]", run(j, "zrangebyscore", "z", "-inf", "+inf", "limit", "1", "-5"));
        assertEquals("[]", run(j, "zrangebyscore", "z", "-inf", "+inf", "limit", "-1", "1"));
        assertEquals("[d, 4, c, 3]", run(j, "zrevrangebyscore", "z", "(5", "-inf", "withscores", "limit", "0", "2"));
        assertEquals("[e, d]", run(j, "zrange", "z", "+inf", "(3", "byscore", "rev"));
        assertEquals("[]", run(j, "zrange", "z", "(3", "+inf", "byscore", "rev"));
        assertEquals("[b, c]", run(j, "zrange", "z", "(1", "3", "byscore", "limit", "0", "10"));
        assertEquals("[a, b]", run(j, "zrangebyscore", "z", "(", "2"));
        assertEquals("[]", run(j, "zrangebyscore", "z", "1e400", "+inf"));
    }

    @Test
    void lexRangesShouldHonourBoundsLimitAndReverse() {
        assertEquals("[, a, b, c, d, e]", run(j, "zrangebylex", "lex", "-", "+"));
        assertEquals("[a, b]", run(j, "zrangebylex", "lex", "[a", "(c"));
        assertEquals("[c, d]", run(j, "zrangebylex", "lex", "(a", "[e", "limit", "1", "2"));
        assertEquals("[, a, b]", run(j, "zrangebylex", "lex", "[", "[b"));
        assertEquals("[e, d]", run(j, "zrevrangebylex", "lex", "+", "-", "limit", "0", "2"));
        assertEquals("[d, c, b]", run(j, "zrange", "lex", "[d", "(a", "bylex", "rev"));
        assertEquals("[]", run(j, "zrangebylex", "lex", "+", "-"));
        assertEquals(":3", run(j, "zlexcount", "lex", "[b", "[d"));
        assertEquals(":6", run(j, "zlexcount", "lex", "-", "+"));
    }

    @Test
    void rangeSyntaxErrorsShouldMatchRedis() {
        assertError("ERR min or max not valid string range item", () -> run(j, "zrangebylex", "lex", "a", "b"));
        assertError("ERR min or max not valid string range item", () -> run(j, "zlexcount", "lex", "[a", "b"));
        assertError("ERR min or max not valid string range item", () -> run(j, "zremrangebylex", "lex", "--", "+"));
        assertError("ERR min or max is not a float", () -> run(j, "zrangebyscore", "z", "(1", "abc"));
        assertError("ERR min or max is not a float", () -> run(j, "zcount", "z", "nan", "1"));
        assertError("ERR min or max is not a float", () -> run(j, "zremrangebyscore", "z", "((1", "2"));
        assertError("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX",
                () -> run(j, "zrange", "z", "0", "-1", "limit", "0", "1"));
        assertError("ERR syntax error, WITHSCORES not supported in combination with BYLEX",
                () -> run(j, "zrange", "lex", "-", "+", "bylex", "withscores"));
        assertError("ERR syntax error, WITHSCORES not supported in combination with BYLEX",
                () -> run(j, "zrangebylex", "lex", "-", "+", "withscores"));
        assertError("ERR syntax error", () -> run(j, "zrange", "z", "0", "-1", "byscore", "bylex"));
        assertError("ERR syntax error", () -> run(j, "zrange", "z", "0", "-1", "rev", "rev"));
        assertError("ERR syntax error", () -> run(j, "zrangebyscore", "z", "1", "2", "limit", "0"));
        assertError("ERR syntax error", () -> run(j, "zrangestore", "d", "z", "0", "-1", "withscores"));
        assertError("ERR value is not an integer or out of range", () -> run(j, "zrange", "z", "0", "abc"));
        assertError("ERR value is not an integer or out of range",
                () -> run(j, "zrangebyscore", "z", "-inf", "+inf", "limit", "x", "1"));
        assertError("ERR value is not an integer or out of range", () -> run(j, "zremrangebyrank", "z", "a", "1"));
    }

    @Test
    void zrangestoreShouldStoreTheRangeOrDeleteTheDestination() {
        run(j, "set", "d", "old");

        assertEquals(":2", run(j, "zrangestore", "d", "z", "(1", "+inf", "byscore", "limit", "0", "2"));
        assertEquals("[b, 2, c, 3]", run(j, "zrange", "d", "0", "-1", "withscores"));
        assertEquals(":3", run(j, "zrangestore", "d", "lex", "[a", "[c", "bylex"));
        assertEquals(":0", run(j, "zrangestore", "d", "nokey", "0", "-1"));
        assertFalse(j.exists("d"));
    }

    @Test
    void countsShouldCountInclusiveAndExclusiveBounds() {
        assertEquals(":5", run(j, "zcount", "z", "-inf", "+inf"));
        assertEquals(":2", run(j, "zcount", "z", "(1", "3"));
        assertEquals(":0", run(j, "zcount", "z", "(3", "(3"));
        assertEquals(":0", run(j, "zcount", "nokey", "0", "1"));
    }

    @Test
    void removalByRangeShouldRemoveAndDeleteTheEmptiedKey() {
        assertEquals(":2", run(j, "zremrangebyscore", "z", "(1", "3"));
        assertEquals(":1", run(j, "zremrangebyrank", "z", "-1", "-1"));
        assertEquals(":0", run(j, "zremrangebyrank", "z", "5", "10"));
        assertEquals("[a, d]", run(j, "zrange", "z", "0", "-1"));
        assertEquals(":2", run(j, "zremrangebylex", "lex", "(a", "[c"));
        assertEquals("[, a, d, e]", run(j, "zrange", "lex", "0", "-1"));

        assertEquals(":2", run(j, "zremrangebyrank", "z", "0", "-1"));
        assertFalse(j.exists("z"));
        assertEquals(":0", run(j, "zremrangebyscore", "z", "-inf", "+inf"));
    }

    @Test
    void resp3RangesWithScoresShouldBePairsWithDoubles() throws IOException {
        assertEquals("*2\r\n*2\r\n$1\r\na\r\n,1\r\n*2\r\n$1\r\nb\r\n,2\r\n",
                resp3Reply(ebb, "zrange", "z", "0", "1", "withscores"));
        assertEquals("*1\r\n$1\r\ne\r\n", resp3Reply(ebb, "zrangebyscore", "z", "5", "5"));
    }
}
