package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** CLIENT UNBLOCK id [TIMEOUT|ERROR] on clients blocked in BLPOP and friends, as Redis 7.2.4 answers. */
class ClientUnblockCommandTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void unblockShouldAnswerTheBlockedClientAsIfItTimedOut() throws Exception {
        try (RespTestSocket blocked = new RespTestSocket(ebb); Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            long id = Long.parseLong(blocked.call("client", "id").substring(1).trim());
            blocked.send("blpop", "unblock-timeout", "0");
            ListBlockingTest.awaitBlocked(ebb, 1);

            assertEquals(1L, admin.sendCommand(() -> "CLIENT".getBytes(), "UNBLOCK", Long.toString(id), "TIMEOUT"));

            assertEquals("*-1\r\n", blocked.reply());
            ListBlockingTest.awaitBlocked(ebb, 0);
            admin.rpush("unblock-timeout", "stays");
            assertEquals(1, admin.llen("unblock-timeout"));
        }
    }

    @Test
    void unblockErrorShouldAnswerUnblockedAndRunTheInputHeldMeanwhile() throws Exception {
        try (RespTestSocket blocked = new RespTestSocket(ebb); Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            long id = Long.parseLong(blocked.call("client", "id").substring(1).trim());
            blocked.send("brpop", "unblock-error", "0");
            ListBlockingTest.awaitBlocked(ebb, 1);
            blocked.send("ping", "held");

            assertEquals(1L, admin.sendCommand(() -> "CLIENT".getBytes(), "unblock", Long.toString(id), "error"));

            assertEquals("-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n", blocked.reply());
            assertEquals("$4\r\nheld\r\n", blocked.reply());
        }
    }

    @Test
    void unblockWithoutReasonShouldAnswerAResp3ClientWithNull() throws Exception {
        try (RespTestSocket blocked = new RespTestSocket(ebb); Jedis admin = new Jedis(ebb.host(), ebb.port())) {
            blocked.call("hello", "3");
            long id = Long.parseLong(blocked.call("client", "id").substring(1).trim());
            blocked.send("bzpopmin", "unblock-zset", "0");
            ListBlockingTest.awaitBlocked(ebb, 1);

            assertEquals(1L, admin.sendCommand(() -> "CLIENT".getBytes(), "UNBLOCK", Long.toString(id)));

            assertEquals("_\r\n", blocked.reply());
        }
    }

    @Test
    void unblockShouldAnswerZeroForAClientThatIsNotBlockedOrDoesNotExist() throws Exception {
        try (RespTestSocket idle = new RespTestSocket(ebb); RespTestSocket admin = new RespTestSocket(ebb)) {
            String id = idle.call("client", "id").substring(1).trim();

            assertEquals(":0\r\n", admin.call("client", "unblock", id));
            assertEquals(":0\r\n", admin.call("client", "unblock", "987654321", "error"));
            assertEquals("+PONG\r\n", idle.call("ping"));
        }
    }

    @Test
    void unblockShouldCheckTheReasonBeforeTheIdAndRefuseAFifthArgument() throws Exception {
        try (RespTestSocket admin = new RespTestSocket(ebb)) {
            assertEquals("-ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR\r\n",
                    admin.call("client", "unblock", "abc", "later"));
            assertEquals("-ERR value is not an integer or out of range\r\n", admin.call("client", "unblock", "abc"));
            assertEquals("-ERR unknown subcommand or wrong number of arguments for 'unblock'. Try CLIENT HELP.\r\n",
                    admin.call("client", "unblock", "1", "timeout", "x"));
        }
    }
}
