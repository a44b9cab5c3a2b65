package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * BZPOPMIN, BZPOPMAX and BZMPOP over raw RESP: serving at once, waking when another client
 * creates the sorted set (ZADD, ZINCRBY, ZUNIONSTORE), timeouts on the manual clock, the
 * immediate null inside MULTI, WRONGTYPE and argument errors. Replies and error texts as
 * redis-server 7.0.15 gives them.
 */
class ZSetBlockingTest {
    private static final String NULL_ARRAY = "*-1\r\n";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    @Test
    void shouldServeAtOnceWhenASortedSetIsThere() throws Exception {
        try (RespTestSocket c = new RespTestSocket(ebb)) {
            c.call("ZADD", "z", "1", "a", "2", "b", "3", "c");

            assertEquals("*3\r\n$1\r\nz\r\n$1\r\nc\r\n$1\r\n3\r\n", c.call("BZPOPMAX", "missing", "z", "0"));
            assertEquals("*3\r\n$1\r\nz\r\n$1\r\na\r\n$1\r\n1\r\n", c.call("BZPOPMIN", "z", "1"));
            assertEquals("*2\r\n$1\r\nz\r\n*1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n",
                    c.call("BZMPOP", "0", "2", "missing", "z", "MAX", "COUNT", "5"));
            assertEquals(":0\r\n", c.call("EXISTS", "z"));
        }
    }

    @Test
    void zaddFromAnotherClientShouldWakeTheWaiter() throws Exception {
        try (RespTestSocket waiter = new RespTestSocket(ebb); RespTestSocket other = new RespTestSocket(ebb)) {
            waiter.send("BZPOPMIN", "z1", "z2", "0");
            ListBlockingTest.awaitBlocked(ebb, 1);

            other.call("ZADD", "z2", "2", "b", "1", "a");

            assertEquals("*3\r\n$2\r\nz2\r\n$1\r\na\r\n$1\r\n1\r\n", waiter.reply());
            assertEquals(":1\r\n", other.call("ZCARD", "z2"));
            ListBlockingTest.awaitBlocked(ebb, 0);
        }
    }

    @Test
    void zincrbyAndZunionstoreShouldWakeWaitersInArrivalOrder() throws Exception {
        try (RespTestSocket first = new RespTestSocket(ebb); RespTestSocket second = new RespTestSocket(ebb);
                RespTestSocket other = new RespTestSocket(ebb)) {
            first.send("BZPOPMAX", "z", "0");
            ListBlockingTest.awaitBlocked(ebb, 1);
            second.send("BZMPOP", "0", "1", "dst", "MIN", "COUNT", "2");
            ListBlockingTest.awaitBlocked(ebb, 2);

            other.call("ZINCRBY", "z", "5", "m");
            assertEquals("*3\r\n$1\r\nz\r\n$1\r\nm\r\n$1\r\n5\r\n", first.reply());
            other.call("ZADD", "src", "1", "x", "2", "y", "3", "w");
            other.call("ZUNIONSTORE", "dst", "1", "src");

            assertEquals("*2\r\n$3\r\ndst\r\n*2\r\n*2\r\n$1\r\nx\r\n$1\r\n1\r\n*2\r\n$1\r\ny\r\n$1\r\n2\r\n",
                    second.reply());
            assertEquals(":1\r\n", other.call("ZCARD", "dst"));
        }
    }

    @Test
    void shouldTimeOutWithANullArrayOnTheServerClock() throws Exception {
        try (RespTestSocket waiter = new RespTestSocket(ebb); RespTestSocket other = new RespTestSocket(ebb)) {
            waiter.send("BZMPOP", "1.5", "1", "z", "MIN");
            ListBlockingTest.awaitBlocked(ebb, 1);

            ebb.advanceClock(1499);
            Thread.sleep(100);
            ListBlockingTest.awaitBlocked(ebb, 1);
            ebb.advanceClock(1);

            assertEquals(NULL_ARRAY, waiter.reply());
            waiter.send("BZPOPMIN", "z", "0.25");
            ListBlockingTest.awaitBlocked(ebb, 1);
            ebb.advanceClock(250);
            assertEquals(NULL_ARRAY, waiter.reply());
            other.call("ZADD", "z", "1", "a");
            assertEquals(":1\r\n", other.call("ZCARD", "z"));
        }
    }

    @Test
    void insideMultiShouldAnswerNullAtOnce() throws Exception {
        try (RespTestSocket c = new RespTestSocket(ebb)) {
            c.call("MULTI");
            c.call("BZPOPMIN", "z", "0");
            c.call("BZPOPMAX", "z", "0");
            c.call("BZMPOP", "0", "1", "z", "MIN");

            assertEquals("*3\r\n" + NULL_ARRAY + NULL_ARRAY + NULL_ARRAY, c.call("EXEC"));
        }
    }

    @Test
    void wrongTypeAndBadArgumentsShouldGetRedisErrors() throws Exception {
        try (RespTestSocket c = new RespTestSocket(ebb)) {
            c.call("SET", "str", "x");
            String wrongType = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";

            assertEquals(wrongType, c.call("BZPOPMIN", "missing", "str", "0"));
            assertEquals(wrongType, c.call("BZMPOP", "0", "2", "missing", "str", "MIN"));
            assertEquals("-ERR numkeys should be greater than 0\r\n", c.call("BZMPOP", "abc", "0", "z", "MIN"));
            assertEquals("-ERR timeout is not a float or out of range\r\n", c.call("BZMPOP", "abc", "1", "z", "MIN"));
            assertEquals("-ERR syntax error\r\n", c.call("BZMPOP", "0", "1", "z", "FOO"));
            assertEquals("-ERR timeout is negative\r\n", c.call("BZPOPMIN", "z", "-1"));
            assertEquals("-ERR wrong number of arguments for 'bzpopmax' command\r\n", c.call("BZPOPMAX", "z"));
            assertEquals(":0\r\n", c.call("EXISTS", "z"));
        }
    }
}
