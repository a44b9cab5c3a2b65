package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol.Command;

/**
 * The string size limit, {@code proto-max-bulk-len}, set here to its minimum (1 MB) so the limits
 * can be reached cheaply: SETRANGE, APPEND, SETBIT/GETBIT offsets and LCS's working memory.
 */
class StringSizeLimitsTest {
    private static final int LIMIT = 1024 * 1024;
    private static final String TOO_LONG = "ERR string exceeds maximum allowed size (proto-max-bulk-len)";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("proto-max-bulk-len", "1mb");

    @Test
    void setrangeShouldBuildStringsUpToTheLimitAndNoFurther() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(LIMIT, j.setrange("k", LIMIT - 1, "x"));

            assertError(TOO_LONG, () -> j.setrange("k", LIMIT - 1, "xy"));
            assertError(TOO_LONG, () -> j.setrange("new", LIMIT, "x"));
            assertError(TOO_LONG, () -> j.sendCommand(Command.SETRANGE, "new", "9223372036854775807", "x"));
            assertEquals(0, j.setrange("new", LIMIT, ""));
            assertEquals(LIMIT, j.strlen("k"));
            assertFalse(j.exists("new"));
        }
    }

    @Test
    void appendShouldRefuseToGrowPastTheLimit() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.setrange("k", LIMIT - 2, "x");

            assertEquals(LIMIT, j.append("k", "y"));
            assertError(TOO_LONG, () -> j.append("k", "z"));

            assertEquals(LIMIT, j.strlen("k"));
        }
    }

    @Test
    void bitOffsetsShouldStayInsideTheLimit() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            long lastBit = LIMIT * 8L - 1;

            j.setbit("b", lastBit, true);

            assertEquals(LIMIT, j.strlen("b"));
            assertEquals(true, j.getbit("b", lastBit));
            assertError("ERR bit offset is not an integer or out of range", () -> j.setbit("b", lastBit + 1, true));
            assertError("ERR bit offset is not an integer or out of range", () -> j.getbit("b", lastBit + 1));
        }
    }

    @Test
    void lcsShouldRefuseWhenRedisTableWouldExceedTheLimit() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            // Redis's table is (511 + 1) x (511 + 1) 4-byte cells: exactly 1 MB, still allowed.
            j.mset("a", "ab".repeat(255) + "a", "b", "ba".repeat(255) + "b", "c", "x".repeat(512));

            assertEquals(510L, j.sendCommand(Command.LCS, "a", "b", "LEN"));
            assertError("ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len",
                    () -> j.sendCommand(Command.LCS, "a", "c"));
            assertError("ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len",
                    () -> j.sendCommand(Command.LCS, "c", "b", "LEN"));
        }
    }
}
