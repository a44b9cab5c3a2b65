package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static dev.ebb.server.command.StringTestSupport.storeNotAString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.params.GetExParams;
import redis.clients.jedis.util.SafeEncoder;

/** GETEX, GETDEL, MGET, MSET and MSETNX against Redis 7.2's replies. */
class StringGetExCommandsTest {
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    @Test
    void getexWithoutOptionsShouldLeaveTheTimeToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.psetex("k", 5000, "v");

            assertEquals("v", j.getEx("k", GetExParams.getExParams()));
            assertNull(j.getEx("missing", GetExParams.getExParams()));

            assertEquals(5000, j.pttl("k"));
        }
    }

    @Test
    void getexShouldSetTheTimeToLiveInEachUnit() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.mset("ex", "1", "px", "2", "exat", "3", "pxat", "4");

            assertEquals("1", j.getEx("ex", GetExParams.getExParams().ex(50)));
            assertEquals("2", j.getEx("px", GetExParams.getExParams().px(1234)));
            assertEquals("3", j.getEx("exat", GetExParams.getExParams().exAt(4_000_000_000L)));
            assertEquals("4", j.getEx("pxat", GetExParams.getExParams().pxAt(4_000_000_000_321L)));

            assertEquals(50_000, j.pttl("ex"));
            assertEquals(1234, j.pttl("px"));
            assertEquals(4_000_000_000_000L, j.pexpireTime("exat"));
            assertEquals(4_000_000_000_321L, j.pexpireTime("pxat"));
        }
    }

    @Test
    void getexPersistShouldRemoveTheTimeToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.setex("k", 100, "v");

            assertEquals("v", j.getEx("k", GetExParams.getExParams().persist()));

            assertEquals(-1, j.pttl("k"));
            ebb.advanceClock(200_000);
            assertEquals("v", j.get("k"));
        }
    }

    @Test
    void getexWithATimeAlreadyPastShouldReplyTheValueAndDeleteTheKey() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "v");

            assertEquals("v", j.getEx("k", GetExParams.getExParams().exAt(1)));

            assertFalse(j.exists("k"));
        }
    }

    @Test
    void getexShouldExpireTheKeyWhenTheClockPassesTheNewTime() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "v");
            j.getEx("k", GetExParams.getExParams().px(100));

            ebb.advanceClock(101);

            assertNull(j.getEx("k", GetExParams.getExParams()));
        }
    }

    @Test
    void getexShouldAcceptRepeatedOptionsAndUseTheLastValue() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "v");

            j.sendCommand(Command.GETEX, "k", "ex", "5", "EX", "6");
            assertEquals(6000, j.pttl("k"));
            j.sendCommand(Command.GETEX, "k", "persist", "PERSIST");
            assertEquals(-1, j.pttl("k"));
        }
    }

    @ParameterizedTest
    @CsvSource({"ex 5 px 5", "persist ex 5", "ex 5 persist", "foo", "ex", "nx", "get", "keepttl"})
    void getexShouldAnswerSyntaxErrorForBadOptions(String options) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "v");
            String[] args = ("k " + options).split(" ");

            assertError("ERR syntax error", () -> j.sendCommand(Command.GETEX, args));
        }
    }

    @Test
    void getexShouldCheckTheKeyBeforeTheExpireValue() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "v");
            storeNotAString(ebb, "other");

            assertNull(j.sendCommand(Command.GETEX, "missing", "ex", "abc"));
            assertError(WRONGTYPE, () -> j.sendCommand(Command.GETEX, "other", "ex", "abc"));
            assertError(WRONGTYPE, () -> j.sendCommand(Command.GETEX, "other"));
            assertError("ERR value is not an integer or out of range",
                    () -> j.sendCommand(Command.GETEX, "k", "ex", "abc"));
            assertError("ERR invalid expire time in 'getex' command",
                    () -> j.sendCommand(Command.GETEX, "k", "px", "0"));
            assertEquals(-1, j.pttl("k"));
        }
    }

    @Test
    void getdelShouldReplyTheValueAndRemoveTheKey() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "v");
            storeNotAString(ebb, "other");

            assertEquals("v", j.getDel("k"));
            assertNull(j.getDel("k"));
            assertError(WRONGTYPE, () -> j.getDel("other"));

            assertFalse(j.exists("k"));
            assertTrue(j.exists("other"));
        }
    }

    @Test
    void mgetShouldAnswerNilForMissingKeysAndOtherTypes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("a", "1");
            storeNotAString(ebb, "other");

            List<String> values = j.mget("a", "missing", "other", "a");

            assertEquals(Arrays.asList("1", null, null, "1"), values);
        }
    }

    @Test
    void mgetShouldAnswerResp3Nulls() throws Exception {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("a", "1");
        }

        assertEquals("*2\r\n$1\r\n1\r\n_\r\n", StringTestSupport.resp3Reply(ebb, "MGET", "a", "missing"));
    }

    @Test
    void msetShouldSetEveryPairTheLastOneWinningAndClearTimesToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.setex("t", 100, "old");
            storeNotAString(ebb, "other");

            assertEquals("OK", j.mset("a", "1", "a", "2", "t", "x", "other", "y"));

            assertEquals(Arrays.asList("2", "x", "y"), j.mget("a", "t", "other"));
            assertEquals(-1, j.pttl("t"));
        }
    }

    @Test
    void msetnxShouldSetAllPairsOrNone() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertEquals(1, j.msetnx("a", "1", "b", "2", "b", "3"));
            assertEquals(0, j.msetnx("c", "1", "a", "9"));
            assertEquals(0, j.msetnx("d", "1", "other", "9"));

            assertEquals(Arrays.asList("1", "3", null, null), j.mget("a", "b", "c", "d"));
        }
    }

    @Test
    void msetnxShouldTreatAnExpiredKeyAsAbsent() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.psetex("a", 10, "old");
            ebb.advanceClock(11);

            assertEquals(1, j.msetnx("a", "new"));

            assertEquals("new", j.get("a"));
        }
    }

    @ParameterizedTest
    @CsvSource({"mset", "msetnx"})
    void msetAndMsetnxShouldNameThemselvesForAnOddArgumentCount(String command) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertError("ERR wrong number of arguments for '" + command + "' command",
                    () -> j.sendCommand(() -> SafeEncoder.encode(command), "a", "1", "b"));
            assertError("ERR wrong number of arguments for '" + command + "' command",
                    () -> j.sendCommand(() -> SafeEncoder.encode(command), "a"));

            assertFalse(j.exists("a"));
        }
    }
}
