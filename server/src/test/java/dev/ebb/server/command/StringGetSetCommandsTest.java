package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static dev.ebb.server.command.StringTestSupport.storeNotAString;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ebb.server.embedded.EbbExtension;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.SafeEncoder;

/** GET, SET and its options, SETNX, SETEX, PSETEX and GETSET against Redis 7.2's replies. */
class StringGetSetCommandsTest {
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    @Test
    void getShouldReturnTheStoredBytesOrNil() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            byte[] binary = {0, (byte) 0xff, '\r', '\n', 'x'};
            j.set("k".getBytes(StandardCharsets.UTF_8), binary);

            assertArrayEquals(binary, j.get("k".getBytes(StandardCharsets.UTF_8)));
            assertNull(j.get("missing"));
        }
    }

    @Test
    void getShouldAnswerNullInResp3AndWrongTypeForAnotherType() throws Exception {
        storeNotAString(ebb, "other");

        assertEquals("_\r\n", StringTestSupport.resp3Reply(ebb, "GET", "missing"));
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertError(WRONGTYPE, () -> j.get("other"));
        }
    }

    @Test
    void setShouldOverwriteAnyTypeAndClearTheTimeToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");
            j.set("ttl", "old", SetParams.setParams().ex(100));

            assertEquals("OK", j.set("other", "v"));
            assertEquals("OK", j.set("ttl", "new"));

            assertEquals("v", j.get("other"));
            assertEquals("new", j.get("ttl"));
            assertEquals(-1, j.pttl("ttl"));
        }
    }

    @Test
    void setNxAndXxShouldDependOnTheKeyExisting() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertNull(j.set("k", "x", SetParams.setParams().xx()));
            assertEquals("OK", j.set("k", "1", SetParams.setParams().nx()));
            assertNull(j.set("k", "2", SetParams.setParams().nx()));
            assertEquals("OK", j.set("k", "3", SetParams.setParams().xx()));

            assertEquals("3", j.get("k"));
        }
    }

    @Test
    void setNxShouldSeeAKeyOfAnotherTypeAsExisting() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertNull(j.set("other", "v", SetParams.setParams().nx()));
            assertEquals(0, j.setnx("other", "v"));
            assertEquals("OK", j.set("other", "v", SetParams.setParams().xx()));
        }
    }

    @Test
    void setGetShouldReplyTheOldValueWhateverNxOrXxDecide() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertNull(j.setGet("k", "1"));
            assertEquals("1", j.setGet("k", "2"));
            assertEquals("2", j.setGet("k", "3", SetParams.setParams().nx()));
            assertNull(j.setGet("missing", "x", SetParams.setParams().xx()));

            assertEquals("2", j.get("k"));
            assertFalse(j.exists("missing"));
        }
    }

    @Test
    void setGetShouldRefuseAnotherTypeAndLeaveIt() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertError(WRONGTYPE, () -> j.setGet("other", "v"));
            assertError(WRONGTYPE, () -> j.setGet("other", "v", SetParams.setParams().nx()));
            assertError(WRONGTYPE, () -> j.sendCommand(Command.GETSET, "other", "v"));
        }
    }

    @Test
    void setExpireOptionsShouldSetTheTimeToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("ex", "v", SetParams.setParams().ex(10));
            j.set("px", "v", SetParams.setParams().px(1500));
            j.set("exat", "v", SetParams.setParams().exAt(4_000_000_000L));
            j.set("pxat", "v", SetParams.setParams().pxAt(4_000_000_000_123L));

            assertEquals(10_000, j.pttl("ex"));
            assertEquals(1500, j.pttl("px"));
            assertEquals(4_000_000_000_000L, j.pexpireTime("exat"));
            assertEquals(4_000_000_000_123L, j.pexpireTime("pxat"));
        }
    }

    @Test
    void setWithTimeToLiveShouldExpireWhenTheClockPassesIt() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "v", SetParams.setParams().px(1000));

            ebb.advanceClock(1000);
            assertEquals("v", j.get("k"));
            ebb.advanceClock(1);
            assertNull(j.get("k"));
        }
    }

    @Test
    void setWithAnAbsoluteTimeInThePastShouldLeaveNoKey() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("OK", j.set("k", "v", SetParams.setParams().exAt(1)));

            assertFalse(j.exists("k"));
        }
    }

    @Test
    void setKeepTtlShouldKeepTheTimeToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "old", SetParams.setParams().px(5000));
            ebb.advanceClock(1000);

            assertEquals("OK", j.set("k", "new", SetParams.setParams().keepTtl()));

            assertEquals("new", j.get("k"));
            assertEquals(4000, j.pttl("k"));
        }
    }

    @Test
    void setShouldAcceptRepeatedOptionsAndUseTheLastExpireValue() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("OK", SafeEncoder.encode((byte[]) j.sendCommand(Command.SET, "k", "v", "nx", "NX")));
            assertEquals("v", SafeEncoder.encode((byte[]) j.sendCommand(Command.SET, "k", "w", "get", "GET")));
            j.sendCommand(Command.SET, "k", "v", "keepttl", "keepttl");
            j.sendCommand(Command.SET, "k", "v", "ex", "10", "ex", "20");
            assertEquals(20_000, j.pttl("k"));
            j.sendCommand(Command.SET, "k", "v", "px", "abc", "PX", "300");
            assertEquals(300, j.pttl("k"));
        }
    }

    @ParameterizedTest
    @CsvSource({
        "nx xx", "xx nx", "ex 10 keepttl", "keepttl ex 10", "ex 10 px 10", "pxat 10 exat 10", "ex", "px",
        "foo", "persist", "ex 10 persist", "ex abc nx xx", "ex 0 foo"})
    void setShouldAnswerSyntaxErrorForBadOptionsBeforeCheckingValues(String options) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            String[] args = ("k v " + options).split(" ");

            assertError("ERR syntax error", () -> j.sendCommand(Command.SET, args));
        }
    }

    @ParameterizedTest
    @CsvSource({
        "ex 0", "ex -1", "px 0", "exat 0", "pxat -5", "px 9223372036854775807", "ex 9223372036854775",
        "ex 9223372036854775807"})
    void setShouldRefuseExpireTimesThatAreNotPositiveOrOverflow(String options) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            String[] args = ("k v " + options).split(" ");

            assertError("ERR invalid expire time in 'set' command", () -> j.sendCommand(Command.SET, args));
            assertFalse(j.exists("k"));
        }
    }

    @Test
    void setShouldAcceptTheLargestAbsoluteTimes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.sendCommand(Command.SET, "exat", "v", "exat", "9223372036854775");
            j.sendCommand(Command.SET, "pxat", "v", "pxat", "9223372036854775807");

            assertEquals(9_223_372_036_854_775_000L, j.pexpireTime("exat"));
            assertEquals(Long.MAX_VALUE, j.pexpireTime("pxat"));
        }
    }

    @Test
    void setShouldParseTheExpireValueBeforeLookingAtTheKey() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertError("ERR value is not an integer or out of range",
                    () -> j.sendCommand(Command.SET, "other", "v", "get", "ex", "abc"));
            assertError("ERR invalid expire time in 'set' command",
                    () -> j.sendCommand(Command.SET, "other", "v", "get", "ex", "0"));
        }
    }

    @Test
    void setnxShouldReplyOneOnlyWhenItCreatedTheKey() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(1, j.setnx("k", "first"));
            assertEquals(0, j.setnx("k", "second"));

            assertEquals("first", j.get("k"));
        }
    }

    @Test
    void setexAndPsetexShouldStoreWithATimeToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertEquals("OK", j.setex("s", 10, "v"));
            assertEquals("OK", j.psetex("p", 1500, "w"));
            assertEquals("OK", j.setex("other", 5, "x"));

            assertEquals(10_000, j.pttl("s"));
            assertEquals(1500, j.pttl("p"));
            assertEquals("x", j.get("other"));
            ebb.advanceClock(1501);
            assertNull(j.get("p"));
            assertEquals("v", j.get("s"));
        }
    }

    @ParameterizedTest
    @CsvSource({"setex, 0", "setex, -5", "setex, 9223372036854775", "psetex, 0", "psetex, 9223372036854775807"})
    void setexAndPsetexShouldNameThemselvesInInvalidExpireErrors(String command, String time) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertError("ERR invalid expire time in '" + command + "' command",
                    () -> j.sendCommand(() -> SafeEncoder.encode(command), "k", time, "v"));
            assertError("ERR value is not an integer or out of range",
                    () -> j.sendCommand(() -> SafeEncoder.encode(command), "k", "1.5", "v"));
            assertFalse(j.exists("k"));
        }
    }

    @Test
    void getsetShouldReplyTheOldValueAndClearTheTimeToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.setex("k", 100, "old");

            assertEquals("old", SafeEncoder.encode((byte[]) j.sendCommand(Command.GETSET, "k", "new")));
            assertNull(j.sendCommand(Command.GETSET, "missing", "v"));

            assertEquals("new", j.get("k"));
            assertEquals(-1, j.pttl("k"));
            assertEquals("v", j.get("missing"));
        }
    }
}
