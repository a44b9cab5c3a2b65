package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MULTI, EXEC, DISCARD, WATCH and UNWATCH on the wire: queueing, queue-time refusals, EXECABORT,
 * run-time errors inside EXEC, and the exact reply bytes. Every expected reply was recorded from a
 * real redis-server 7.
 */
class TransactionCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void execShouldRunTheQueuedCommandsAndReplyTheirRepliesInOneArray() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("MULTI"));
            assertEquals("+QUEUED\r\n", s.call("SET", "a", "1"));
            assertEquals("+QUEUED\r\n", s.call("INCR", "a"));
            assertEquals("+QUEUED\r\n", s.call("GET", "a"));
            assertEquals("+QUEUED\r\n", s.call("PING"));

            assertEquals("*4\r\n+OK\r\n:2\r\n$1\r\n2\r\n+PONG\r\n", s.call("EXEC"));
            assertEquals("$1\r\n2\r\n", s.call("GET", "a"));
        }
    }

    @Test
    void anEmptyTransactionShouldReplyAnEmptyArray() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("MULTI");

            assertEquals("*0\r\n", s.call("EXEC"));
        }
    }

    @Test
    void runTimeErrorsShouldBeRepliedInPlaceWithoutRollingBackTheOtherCommands() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("SET", "s", "text");
            s.call("MULTI");
            s.call("SET", "a", "1");
            s.call("INCR", "s");
            s.call("SET", "b", "2");

            String reply = s.call("EXEC");

            assertEquals("*3\r\n+OK\r\n-ERR value is not an integer or out of range\r\n+OK\r\n", reply);
            assertEquals("$1\r\n1\r\n", s.call("GET", "a"));
            assertEquals("$1\r\n2\r\n", s.call("GET", "b"));
        }
    }

    @Test
    void queueTimeErrorsShouldAbortExecAndRunNothing() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("MULTI");
            assertEquals("+QUEUED\r\n", s.call("SET", "a", "1"));
            assertEquals("-ERR unknown command 'FOO', with args beginning with: 'x' \r\n", s.call("FOO", "x"));
            assertEquals("-ERR wrong number of arguments for 'get' command\r\n", s.call("GET"));
            assertEquals("-ERR Command not allowed inside a transaction\r\n", s.call("SHUTDOWN"));
            assertEquals("+QUEUED\r\n", s.call("SET", "b", "2"));

            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", s.call("EXEC"));
            assertEquals(":0\r\n", s.call("EXISTS", "a", "b"));
            assertEquals("-ERR EXEC without MULTI\r\n", s.call("EXEC"));
        }
    }

    @Test
    void wrongArityOfExecShouldDiscardTheTransactionWithTheReasonInTheAbort() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("MULTI");
            s.call("SET", "a", "1");

            String reply = s.call("EXEC", "x");

            assertEquals("-EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command\r\n",
                    reply);
            assertEquals("-ERR EXEC without MULTI\r\n", s.call("EXEC"));
            assertEquals(":0\r\n", s.call("EXISTS", "a"));
        }
    }

    @Test
    void wrongArityOfDiscardInsideMultiShouldOnlyFlagTheTransaction() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("MULTI");

            assertEquals("-ERR wrong number of arguments for 'discard' command\r\n", s.call("DISCARD", "x"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", s.call("EXEC"));
        }
    }

    @Test
    void nestedMultiAndWatchInsideMultiShouldBeRefusedWithoutAbortingTheTransaction() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("MULTI");

            assertEquals("-ERR MULTI calls can not be nested\r\n", s.call("MULTI"));
            assertEquals("-ERR WATCH inside MULTI is not allowed\r\n", s.call("WATCH", "x"));
            s.call("SET", "a", "1");
            assertEquals("*1\r\n+OK\r\n", s.call("EXEC"));
        }
    }

    @Test
    void execAndDiscardWithoutMultiShouldBeErrors() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("-ERR EXEC without MULTI\r\n", s.call("EXEC"));
            assertEquals("-ERR DISCARD without MULTI\r\n", s.call("DISCARD"));
            assertEquals("-ERR wrong number of arguments for 'watch' command\r\n", s.call("WATCH"));
            assertEquals("-ERR wrong number of arguments for 'unwatch' command\r\n", s.call("UNWATCH", "x"));
            assertEquals("+OK\r\n", s.call("UNWATCH"));
        }
    }

    @Test
    void discardShouldDropTheQueue() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("MULTI");
            s.call("SET", "a", "1");

            assertEquals("+OK\r\n", s.call("DISCARD"));
            assertEquals(":0\r\n", s.call("EXISTS", "a"));
            assertEquals("-ERR EXEC without MULTI\r\n", s.call("EXEC"));
        }
    }

    @Test
    void resetShouldEndTheTransactionAndQuitShouldNotBeQueued() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("MULTI");
            s.call("SET", "a", "1");

            assertEquals("+RESET\r\n", s.call("RESET"));
            assertEquals("-ERR EXEC without MULTI\r\n", s.call("EXEC"));

            s.call("MULTI");
            assertEquals("+OK\r\n", s.call("QUIT"));
            assertTrue(s.closedByServer());
        }
    }

    @Test
    void aTouchedWatchShouldMakeExecReplyANullArrayInBothProtocols() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb); RespTestSocket other = new RespTestSocket(ebb)) {
            s.call("WATCH", "a");
            other.call("SET", "a", "1");
            s.call("MULTI");
            s.call("SET", "a", "2");
            assertEquals("*-1\r\n", s.call("EXEC"));

            s.call("HELLO", "3");
            s.call("WATCH", "a");
            other.call("DEL", "a");
            s.call("MULTI");
            assertEquals("_\r\n", s.call("EXEC"));
            assertEquals("$-1\r\n", other.call("GET", "a"));
        }
    }

    @Test
    void queuedSelectAndHelloShouldTakeEffectInsideExec() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("MULTI");
            s.call("SELECT", "1");
            s.call("SET", "k", "in-db-1");

            assertEquals("*2\r\n+OK\r\n+OK\r\n", s.call("EXEC"));
            assertEquals("$7\r\nin-db-1\r\n", s.call("GET", "k"));
        }
    }

    @Test
    void errorsInsideExecShouldEachBeCountedOnceInTotalErrorReplies() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            long before = totalErrorReplies(s);
            s.call("SET", "s", "text");
            s.call("MULTI");
            s.call("INCR", "s");
            s.call("INCR", "s");
            s.call("EXEC");

            assertEquals(before + 2, totalErrorReplies(s));
        }
    }

    private static long totalErrorReplies(RespTestSocket s) throws IOException {
        String info = s.call("INFO", "stats");
        AtomicLong value = new AtomicLong(-1);
        info.lines().filter(l -> l.startsWith("total_error_replies:"))
                .forEach(l -> value.set(Long.parseLong(l.substring(l.indexOf(':') + 1).trim())));
        return value.get();
    }
}
