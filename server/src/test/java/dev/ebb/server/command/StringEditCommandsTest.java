package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static dev.ebb.server.command.StringTestSupport.storeNotAString;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.ebb.server.embedded.EbbExtension;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.util.SafeEncoder;

/** APPEND, STRLEN, GETRANGE, SUBSTR and SETRANGE against Redis 7.2's replies. */
class StringEditCommandsTest {
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
    private static final String NOT_INTEGER = "ERR value is not an integer or out of range";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    @Test
    void appendShouldCreateThenExtendTheString() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(3, j.append("k", "foo"));
            assertEquals(6, j.append("k", "bar"));
            assertEquals(6, j.append("k", ""));
            j.set("n", "123");
            assertEquals(4, j.append("n", "4"));

            assertEquals("foobar", j.get("k"));
            assertEquals("1234", j.get("n"));
            assertEquals(1235, j.incr("n"));
        }
    }

    @Test
    void appendShouldKeepTheTimeToLiveAndRefuseAnotherType() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.setex("k", 100, "a");
            storeNotAString(ebb, "other");

            j.append("k", "b");

            assertEquals(100_000, j.pttl("k"));
            assertError(WRONGTYPE, () -> j.append("other", "x"));
        }
    }

    @Test
    void appendShouldNotChangeAValueReadBefore() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "abc");
            byte[] before = j.get("k".getBytes(StandardCharsets.UTF_8));

            j.append("k", "def");

            assertArrayEquals("abc".getBytes(StandardCharsets.UTF_8), before);
            assertEquals("abcdef", j.get("k"));
        }
    }

    @Test
    void strlenShouldCountBytes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k".getBytes(StandardCharsets.UTF_8), new byte[] {0, 1, (byte) 0xff});
            j.set("e", "");
            storeNotAString(ebb, "other");

            assertEquals(3, j.strlen("k"));
            assertEquals(0, j.strlen("e"));
            assertEquals(0, j.strlen("missing"));
            assertError(WRONGTYPE, () -> j.strlen("other"));
        }
    }

    @ParameterizedTest
    @CsvSource({
        "0, 2, foo", "-3, -1, bar", "0, -1, foobar", "5, 2, ''", "-100, 100, foobar", "10, 20, ''", "6, 6, ''",
        "5, 5, r", "3, -1, bar", "0, -100, f", "-100, -99, f", "-1, -100, ''", "-100, -101, ''",
        "9223372036854775807, -9223372036854775808, ''", "-9223372036854775808, 9223372036854775807, foobar"})
    void getrangeAndSubstrShouldFollowRedisIndexRules(String start, String end, String expected) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("s", "foobar");

            Object getrange = j.sendCommand(Command.GETRANGE, "s", start, end);
            Object substr = j.sendCommand(Command.SUBSTR, "s", start, end);

            assertEquals(expected, SafeEncoder.encode((byte[]) getrange));
            assertEquals(expected, SafeEncoder.encode((byte[]) substr));
        }
    }

    @Test
    void getrangeShouldAnswerAnEmptyStringNotNilForAMissingKey() throws Exception {
        assertEquals("$0\r\n\r\n", StringTestSupport.resp3Reply(ebb, "GETRANGE", "missing", "0", "10"));

        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("e", "");
            assertEquals("", j.getrange("e", 0, -1));
            assertEquals("", j.getrange("e", -1, -1));
        }
    }

    @Test
    void getrangeShouldCheckItsIndexesBeforeTheKey() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertError(NOT_INTEGER, () -> j.sendCommand(Command.GETRANGE, "missing", "x", "1"));
            assertError(NOT_INTEGER, () -> j.sendCommand(Command.GETRANGE, "other", "0", "1.5"));
            assertError(WRONGTYPE, () -> j.sendCommand(Command.GETRANGE, "other", "0", "1"));
            assertError(WRONGTYPE, () -> j.sendCommand(Command.SUBSTR, "other", "0", "1"));
        }
    }

    @Test
    void setrangeShouldOverwriteAndPadWithZeroBytes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(8, j.setrange("k", 5, "abc"));
            assertEquals(8, j.setrange("k", 0, "X"));
            assertEquals(9, j.setrange("k", 7, "yz"));

            assertArrayEquals(new byte[] {'X', 0, 0, 0, 0, 'a', 'b', 'y', 'z'},
                    j.get("k".getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void setrangeWithAnEmptyValueShouldChangeNothing() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("s", "foobar");

            assertEquals(0, j.setrange("missing", 0, ""));
            assertEquals(6, j.setrange("s", 100, ""));

            assertFalse(j.exists("missing"));
            assertEquals("foobar", j.get("s"));
        }
    }

    @Test
    void setrangeShouldKeepTheTimeToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.setex("t", 100, "abc");

            assertEquals(3, j.setrange("t", 1, "Z"));

            assertEquals("aZc", j.get("t"));
            assertEquals(100_000, j.pttl("t"));
        }
    }

    @Test
    void setrangeShouldRefuseBadOffsetsBeforeLookingAtTheKey() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertError("ERR offset is out of range", () -> j.setrange("k", -1, "x"));
            assertError("ERR offset is out of range",
                    () -> j.sendCommand(Command.SETRANGE, "other", "-9223372036854775808", "x"));
            assertError(NOT_INTEGER, () -> j.sendCommand(Command.SETRANGE, "other", "abc", "x"));
            assertError(WRONGTYPE, () -> j.setrange("other", 0, "x"));
            assertError(WRONGTYPE, () -> j.setrange("other", 0, ""));
            assertFalse(j.exists("k"));
        }
    }
}
