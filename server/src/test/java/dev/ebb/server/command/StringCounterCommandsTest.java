package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static dev.ebb.server.command.StringTestSupport.storeNotAString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.util.SafeEncoder;

/**
 * INCR, DECR, INCRBY, DECRBY and INCRBYFLOAT. The INCRBYFLOAT texts were taken from a real Redis
 * 7 on x86-64, whose long double arithmetic Ebb reproduces.
 */
class StringCounterCommandsTest {
    private static final String NOT_INTEGER = "ERR value is not an integer or out of range";
    private static final String NOT_FLOAT = "ERR value is not a valid float";
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    @Test
    void countersShouldStartFromZeroAndStoreDecimalText() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(1, j.incr("n"));
            assertEquals(11, j.incrBy("n", 10));
            assertEquals(10, j.decr("n"));
            assertEquals(5, j.decrBy("n", 5));
            assertEquals(-5, j.decrBy("m", 5));
            assertEquals(-1, j.decr("o"));

            assertEquals("5", j.get("n"));
            assertEquals("-5", j.get("m"));
        }
    }

    @Test
    void countersShouldKeepTheTimeToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.setex("n", 100, "5");
            j.setex("f", 100, "1.5");

            assertEquals(6, j.incr("n"));
            assertEquals(2.5, j.incrByFloat("f", 1), 0);

            assertEquals(100_000, j.pttl("n"));
            assertEquals(100_000, j.pttl("f"));
            ebb.advanceClock(100_001);
            assertFalse(j.exists("n"));
        }
    }

    @Test
    void countersShouldTreatAnExpiredValueAsMissing() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.psetex("n", 10, "41");
            ebb.advanceClock(11);

            assertEquals(1, j.incr("n"));

            assertEquals(-1, j.pttl("n"));
        }
    }

    @Test
    void countersShouldReachBothEndsOfTheLongRange() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("max", "9223372036854775806");
            j.set("min", "-9223372036854775807");
            j.set("two", "2");

            assertEquals(Long.MAX_VALUE, j.incr("max"));
            assertEquals(Long.MIN_VALUE, j.decr("min"));
            assertEquals(Long.MIN_VALUE + 2, j.incrBy("two", Long.MIN_VALUE));

            assertEquals(Long.MIN_VALUE + 1, j.incr("min"));
        }
    }

    @ParameterizedTest
    @CsvSource({
        "9223372036854775807, incr, ''",
        "-9223372036854775808, decr, ''",
        "1, incrby, 9223372036854775807",
        "-2, decrby, 9223372036854775807",
        "-1, incrby, -9223372036854775808"})
    void countersShouldRefuseToOverflow(String value, String command, String argument) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("n", value);
            String[] args = argument.isEmpty() ? new String[] {"n"} : new String[] {"n", argument};

            assertError("ERR increment or decrement would overflow",
                    () -> j.sendCommand(() -> SafeEncoder.encode(command), args));

            assertEquals(value, j.get("n"));
        }
    }

    @Test
    void decrbyShouldRefuseTheDecrementThatCannotBeNegated() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertError("ERR decrement would overflow", () -> j.decrBy("n", Long.MIN_VALUE));
            assertError("ERR decrement would overflow", () -> j.decrBy("other", Long.MIN_VALUE));

            assertFalse(j.exists("n"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"01", " 1", "1 ", "1.0", "+1", "-0", "", "abc", "12345678901234567890", "0x10",
        "9223372036854775808"})
    void countersShouldRefuseValuesThatAreNotCanonicalIntegers(String value) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("n", value);

            assertError(NOT_INTEGER, () -> j.incr("n"));
            assertError(NOT_INTEGER, () -> j.decrBy("n", 1));

            assertEquals(value, j.get("n"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.5", "abc", "01", "9223372036854775808", ""})
    void incrbyAndDecrbyShouldRefuseBadIncrementsBeforeLookingAtTheKey(String increment) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertError(NOT_INTEGER, () -> j.sendCommand(Command.INCRBY, "other", increment));
            assertError(NOT_INTEGER, () -> j.sendCommand(Command.DECRBY, "other", increment));
        }
    }

    @Test
    void countersShouldRefuseAnotherType() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertError(WRONGTYPE, () -> j.incr("other"));
            assertError(WRONGTYPE, () -> j.decr("other"));
            assertError(WRONGTYPE, () -> j.incrBy("other", 2));
            assertError(WRONGTYPE, () -> j.decrBy("other", 2));
            assertError(WRONGTYPE, () -> j.incrByFloat("other", 1.5));
            assertError(WRONGTYPE, () -> j.sendCommand(Command.INCRBYFLOAT, "other", "abc"));
        }
    }

    @Test
    void incrbyfloatShouldPrintLikeRedisAfterRepeatedSmallIncrements() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            List<String> replies = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                replies.add(SafeEncoder.encode((byte[]) j.sendCommand(Command.INCRBYFLOAT, "f", "0.1")));
            }

            assertEquals(List.of("0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1", "1.1", "1.2"),
                    replies);
            assertEquals("1.2", j.get("f"));
        }
    }

    @ParameterizedTest
    @CsvSource({
        "10, 0.5, 10.5",
        "5.0e3, 0, 5000",
        "3.0, 0, 3",
        "0.1, 0.2, 0.3",
        "1, 1e-20, 1",
        "0, 1e-20, 0",
        "10, -10.0, 0",
        "0, -0.0, 0",
        "1, 0x1p-2, 1.25",
        "6.25, 0x10, 22.25",
        "1, .5, 1.5",
        "1, 5., 6",
        "1, +1, 2",
        "100, 2.5e-5, 100.000025",
        "0, 1.23456789012345678901234, 1.23456789012345679",
        "0, 3.14159265358979323846, 3.14159265358979324",
        "0, 1e30, 1000000000000000000024696061952",
        "9223372036854775807, 1, 9223372036854775808",
        "-1.5, -1.25, -2.75"})
    void incrbyfloatShouldComputeInLongDoublePrecisionAndTrimZeros(String value, String increment, String expected) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("f", value);

            Object reply = j.sendCommand(Command.INCRBYFLOAT, "f", increment);

            assertEquals(expected, SafeEncoder.encode((byte[]) reply));
            assertEquals(expected, j.get("f"));
        }
    }

    @Test
    void incrbyfloatShouldPrintHugeResultsDigitByDigitAsGlibcDoes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("f", "1e300");

            String reply = SafeEncoder.encode((byte[]) j.sendCommand(Command.INCRBYFLOAT, "f", "1"));

            assertEquals(301, reply.length());
            assertTrue(reply.startsWith("1000000000000000000008997324079559193870523944273290747938260082"), reply);
            assertTrue(reply.endsWith("5104006144"), reply);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", " 1", "1 ", "1e", "1.5e+", "nan", "NaN", "", "1e5000", "1e-5000", "0x", "1,5",
        "infin"})
    void incrbyfloatShouldRefuseIncrementsThatAreNotFloats(String increment) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("f", "1");

            assertError(NOT_FLOAT, () -> j.sendCommand(Command.INCRBYFLOAT, "f", increment));

            assertEquals("1", j.get("f"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", " 1", "1 ", "", "1.5.5"})
    void incrbyfloatShouldRefuseStoredValuesThatAreNotFloats(String value) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("f", value);

            assertError(NOT_FLOAT, () -> j.sendCommand(Command.INCRBYFLOAT, "f", "1"));
        }
    }

    @ParameterizedTest
    @CsvSource({"1, inf", "1, -infinity", "1.1e4932, 1.1e4932", "inf, 1", "-inf, inf"})
    void incrbyfloatShouldRefuseResultsThatAreNotFinite(String value, String increment) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("f", value);

            assertError("ERR increment would produce NaN or Infinity",
                    () -> j.sendCommand(Command.INCRBYFLOAT, "f", increment));

            assertEquals(value, j.get("f"));
        }
    }
}
