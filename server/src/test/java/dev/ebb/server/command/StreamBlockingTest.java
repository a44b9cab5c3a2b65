package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * XREAD and XREADGROUP with BLOCK over raw RESP: woken by an XADD from another client, FIFO among
 * group readers, timeouts on the manual clock, the immediate null inside MULTI and from scripts,
 * and the errors a waiting XREADGROUP gets when its key is deleted, changes type or loses its
 * group. Replies and error texts as redis-server 7.2.4 gives them.
 */
class StreamBlockingTest {
    private static final String NULL_ARRAY = "*-1\r\n";
    private static final String NOGROUP =
            "-NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option\r\n";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    private static String entry(String key, String id, String field, String value) {
        return "*1\r\n*2\r\n$" + key.length() + "\r\n" + key + "\r\n*1\r\n*2\r\n$" + id.length() + "\r\n" + id
                + "\r\n*2\r\n$" + field.length() + "\r\n" + field + "\r\n$" + value.length() + "\r\n" + value + "\r\n";
    }

    @Test
    void xaddShouldWakeEveryXreadWaitingForNewEntries() throws Exception {
        try (RespTestSocket first = new RespTestSocket(ebb); RespTestSocket second = new RespTestSocket(ebb);
                RespTestSocket other = new RespTestSocket(ebb)) {
            other.call("XADD", "s", "1-1", "a", "1");
            first.send("XREAD", "BLOCK", "0", "STREAMS", "s", "$");
            ListBlockingTest.awaitBlocked(ebb, 1);
            second.send("XREAD", "COUNT", "5", "BLOCK", "0", "STREAMS", "t", "s", "0", "1-1");
            ListBlockingTest.awaitBlocked(ebb, 2);

            other.call("XADD", "s", "2-1", "b", "2");

            assertEquals(entry("s", "2-1", "b", "2"), first.reply());
            assertEquals(entry("s", "2-1", "b", "2"), second.reply());
            ListBlockingTest.awaitBlocked(ebb, 0);
        }
    }

    @Test
    void groupReadersShouldBeServedInArrivalOrderOneEntryEach() throws Exception {
        try (RespTestSocket first = new RespTestSocket(ebb); RespTestSocket second = new RespTestSocket(ebb);
                RespTestSocket other = new RespTestSocket(ebb)) {
            other.call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
            first.send("XREADGROUP", "GROUP", "g", "alice", "BLOCK", "0", "STREAMS", "s", ">");
            ListBlockingTest.awaitBlocked(ebb, 1);
            second.send("XREADGROUP", "GROUP", "g", "bob", "BLOCK", "0", "STREAMS", "s", ">");
            ListBlockingTest.awaitBlocked(ebb, 2);

            other.call("XADD", "s", "1-1", "a", "1");

            assertEquals(entry("s", "1-1", "a", "1"), first.reply());
            ListBlockingTest.awaitBlocked(ebb, 1);
            other.call("XADD", "s", "1-2", "a", "2");
            assertEquals(entry("s", "1-2", "a", "2"), second.reply());
            assertEquals("*4\r\n:2\r\n$3\r\n1-1\r\n$3\r\n1-2\r\n*2\r\n*2\r\n$5\r\nalice\r\n$1\r\n1\r\n"
                    + "*2\r\n$3\r\nbob\r\n$1\r\n1\r\n", other.call("XPENDING", "s", "g"));
        }
    }

    @Test
    void shouldTimeOutWithANullArrayOnTheServerClock() throws Exception {
        try (RespTestSocket waiter = new RespTestSocket(ebb); RespTestSocket other = new RespTestSocket(ebb)) {
            waiter.send("XREAD", "BLOCK", "1500", "STREAMS", "s", "$");
            ListBlockingTest.awaitBlocked(ebb, 1);

            ebb.advanceClock(1499);
            Thread.sleep(100);
            ListBlockingTest.awaitBlocked(ebb, 1);
            ebb.advanceClock(1);

            assertEquals(NULL_ARRAY, waiter.reply());
            assertEquals("$3\r\n1-1\r\n", other.call("XADD", "s", "1-1", "a", "1"));
            assertEquals(entry("s", "1-1", "a", "1"), waiter.call("XREAD", "BLOCK", "10", "STREAMS", "s", "0"));
        }
    }

    @Test
    void shouldNotBlockInsideMultiOrScripts() throws Exception {
        try (RespTestSocket c = new RespTestSocket(ebb)) {
            c.call("MULTI");
            c.call("XREAD", "BLOCK", "0", "STREAMS", "s", "$");
            c.call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
            c.call("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">");

            assertEquals("*3\r\n*-1\r\n+OK\r\n*-1\r\n", c.call("EXEC"));
            String scripted = c.call("EVAL", "return redis.call('xread', 'block', '0', 'streams', 's', '$')", "0");
            assertTrue(scripted.startsWith("-ERR xread command is not allowed with BLOCK option from scripts"),
                    scripted);
        }
    }

    @Test
    void waitingXreadgroupShouldAnswerNogroupWhenItsKeyIsDeleted() throws Exception {
        try (RespTestSocket waiter = new RespTestSocket(ebb); RespTestSocket other = new RespTestSocket(ebb)) {
            other.call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
            waiter.send("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">");
            ListBlockingTest.awaitBlocked(ebb, 1);

            other.call("DEL", "s");

            assertEquals(NOGROUP, waiter.reply());
            ListBlockingTest.awaitBlocked(ebb, 0);
        }
    }

    @Test
    void waitingXreadgroupShouldAnswerNogroupWhenItsGroupIsDestroyed() throws Exception {
        try (RespTestSocket waiter = new RespTestSocket(ebb); RespTestSocket other = new RespTestSocket(ebb)) {
            other.call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
            waiter.send("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">");
            ListBlockingTest.awaitBlocked(ebb, 1);

            other.call("XGROUP", "DESTROY", "s", "g");

            assertEquals(NOGROUP, waiter.reply());
        }
    }

    @Test
    void waitingXreadgroupShouldAnswerWrongtypeWhenItsKeyBecomesAString() throws Exception {
        try (RespTestSocket waiter = new RespTestSocket(ebb); RespTestSocket other = new RespTestSocket(ebb)) {
            other.call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
            waiter.send("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">");
            ListBlockingTest.awaitBlocked(ebb, 1);

            other.call("SET", "s", "x");

            assertEquals("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n", waiter.reply());
        }
    }

    @Test
    void waitingXreadShouldStayBlockedWhenItsKeyIsDeletedOrFlushed() throws Exception {
        try (RespTestSocket waiter = new RespTestSocket(ebb); RespTestSocket other = new RespTestSocket(ebb)) {
            other.call("XADD", "s", "5-1", "a", "1");
            waiter.send("XREAD", "BLOCK", "0", "STREAMS", "s", "$");
            ListBlockingTest.awaitBlocked(ebb, 1);

            other.call("DEL", "s");
            other.call("FLUSHALL");
            other.call("XADD", "s", "1-1", "a", "1");
            ListBlockingTest.awaitBlocked(ebb, 1);
            other.call("XADD", "s", "6-1", "b", "2");

            assertEquals(entry("s", "6-1", "b", "2"), waiter.reply());
        }
    }

    @Test
    void killedWaiterShouldLeaveNoTrace() throws Exception {
        try (RespTestSocket waiter = new RespTestSocket(ebb); RespTestSocket other = new RespTestSocket(ebb)) {
            other.call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
            waiter.send("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">");
            ListBlockingTest.awaitBlocked(ebb, 1);
            String id = waiter.localAddress();

            assertEquals(":1\r\n", other.call("CLIENT", "KILL", "ADDR", id, "SKIPME", "yes"));
            ListBlockingTest.awaitBlocked(ebb, 0);

            other.call("XADD", "s", "1-1", "a", "1");
            assertEquals("*4\r\n:0\r\n$-1\r\n$-1\r\n*-1\r\n", other.call("XPENDING", "s", "g"));
        }
    }
}
