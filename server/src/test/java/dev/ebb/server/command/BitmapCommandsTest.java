package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static dev.ebb.server.command.StringTestSupport.storeNotAString;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.args.BitOP;
import redis.clients.jedis.util.SafeEncoder;

/**
 * SETBIT, GETBIT, BITCOUNT, BITPOS and BITOP. The BITCOUNT/BITPOS table was recorded from a real
 * Redis 7 (values in hex, bit 0 is the most significant bit of the first byte).
 */
class BitmapCommandsTest {
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
    private static final String NOT_INTEGER = "ERR value is not an integer or out of range";
    private static final String BIT_OFFSET = "ERR bit offset is not an integer or out of range";
    private static final String BIT_VALUE = "ERR bit is not an integer or out of range";
    private static final HexFormat HEX = HexFormat.of();

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static long integer(Jedis j, Command command, String... args) {
        return (Long) j.sendCommand(command, args);
    }

    @Test
    void setbitShouldGrowTheStringAndReplyThePreviousBit() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertFalse(j.setbit("b", 7, true));
            assertTrue(j.setbit("b", 7, false));
            assertFalse(j.setbit("b", 7, true));
            assertFalse(j.setbit("b", 20, false));

            assertArrayEquals(new byte[] {1, 0, 0}, j.get(bytes("b")));
            assertTrue(j.getbit("b", 7));
            assertFalse(j.getbit("b", 6));
            assertFalse(j.getbit("b", 99_999));
            assertFalse(j.getbit("missing", 0));
        }
    }

    @Test
    void setbitShouldKeepTheTimeToLiveAndNotChangeAValueReadBefore() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.setex("t", 100, "a");
            byte[] before = j.get(bytes("t"));

            j.setbit("t", 0, true);

            assertArrayEquals(bytes("a"), before);
            assertArrayEquals(new byte[] {(byte) 0xe1}, j.get(bytes("t")));
            assertEquals(100_000, j.pttl("t"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "abc", "1.5", "4294967296", "-9223372036854775808", "01"})
    void bitOffsetsShouldBeNonNegativeIntegersWithinTheStringLimit(String offset) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertError(BIT_OFFSET, () -> j.sendCommand(Command.SETBIT, "b", offset, "1"));
            assertError(BIT_OFFSET, () -> j.sendCommand(Command.GETBIT, "b", offset));
            assertError(BIT_OFFSET, () -> j.sendCommand(Command.SETBIT, "other", offset, "1"));
            assertFalse(j.exists("b"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"2", "-1", "x", "01", "", "1.0"})
    void setbitShouldRefuseBitValuesOtherThanZeroAndOne(String value) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            storeNotAString(ebb, "other");

            assertError(BIT_VALUE, () -> j.sendCommand(Command.SETBIT, "b", "0", value));
            assertError(BIT_VALUE, () -> j.sendCommand(Command.SETBIT, "other", "0", value));
            assertFalse(j.exists("b"));
        }
    }

    @Test
    void bitCommandsShouldRefuseAnotherType() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("s", "x");
            storeNotAString(ebb, "other");

            assertError(WRONGTYPE, () -> j.setbit("other", 0, true));
            assertError(WRONGTYPE, () -> j.getbit("other", 0));
            assertError(WRONGTYPE, () -> j.bitcount("other"));
            assertError(WRONGTYPE, () -> j.sendCommand(Command.BITCOUNT, "other", "0", "x"));
            assertError(WRONGTYPE, () -> j.sendCommand(Command.BITPOS, "other", "1", "a"));
            assertError(WRONGTYPE, () -> j.bitop(BitOP.AND, "dest", "s", "other"));
            assertFalse(j.exists("dest"));
        }
    }

    @ParameterizedTest(name = "{0} [{1}]: bitpos 0 = {2}, bitpos 1 = {3}, bitcount = {4}")
    @CsvSource({
        "fff000, '', 12, 0, 12",
        "fff000, 1, 12, 8, -",
        "fff000, -1, 16, -1, -",
        "fff000, 0 -1, 12, 0, 12",
        "fff000, 2 2, 16, -1, 0",
        "fff000, -50 -100, -1, 0, 0",
        "fff000, 5 2, -1, -1, 0",
        "fff000, 4 10 bit, -1, 4, 7",
        "fff000, 12 23 bit, 12, -1, 0",
        "fff000, 9 12 bit, 12, 9, 3",
        "fff000, 100, -1, -1, -",
        "ffffff, '', 24, 0, 24",
        "ffffff, 1, 24, 8, -",
        "ffffff, 0 -1, -1, 0, 24",
        "ffffff, -1 -1 bit, -1, 23, 1",
        "ffffff, 0 16 BIT, -1, 0, 17",
        "000000, '', 0, -1, 0",
        "000000, 1, 8, -1, -",
        "000000, 0 -1, 0, -1, 0",
        "00ff0f81, '', 0, 8, 14",
        "00ff0f81, 1 1 byte, -1, 8, 8",
        "00ff0f81, 7 200 bit, 7, 8, 14",
        "00ff0f81, -1 -1 bit, -1, 31, 1",
        "00ff0f81, -3 -2, 16, 8, 12",
        "0102030405060708090a0b0c0d0e0f10ff, '', 0, 7, 41",
        "0102030405060708090a0b0c0d0e0f10ff, 1, 8, 14, -",
        "0102030405060708090a0b0c0d0e0f10ff, 3 -1, 24, 29, 37",
        "0102030405060708090a0b0c0d0e0f10ff, 9 135 bit, 9, 14, 40",
        "0102030405060708090a0b0c0d0e0f10ff, 130 135 bit, -1, 130, 6",
        "ffffffffffffffffffffffffffffffffffffffff7f, '', 160, 0, 167",
        "ffffffffffffffffffffffffffffffffffffffff7f, 3 150 bit, -1, 3, 148",
        "ffffffffffffffffffffffffffffffffffffffff7f, 3 160 bit, 160, 3, 157",
        "ffffffffffffffffffffffffffffffffffffffff7f, 2 -2, -1, 16, 144",
        "ffffffffffffffffffffffffffffffffffffffff7f, -9 -1 bit, 160, 159, 8",
        "000000000000000000000000000000000000000001, '', 0, 167, 1",
        "000000000000000000000000000000000000000001, 3 150 bit, 3, -1, 0",
        "000000000000000000000000000000000000000001, -9 -1 bit, 159, 167, 1"})
    void bitposAndBitcountShouldMatchRedis(String hex, String range, long zero, long one, String count) {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set(bytes("b"), HEX.parseHex(hex));
            String[] args = range.isEmpty() ? new String[0] : range.split(" ");

            assertEquals(zero, integer(j, Command.BITPOS, concat("b", "0", args)));
            assertEquals(one, integer(j, Command.BITPOS, concat("b", "1", args)));
            if (!count.equals("-")) {
                assertEquals(Long.parseLong(count), integer(j, Command.BITCOUNT, concat("b", null, args)));
            }
        }
    }

    private static String[] concat(String key, String bit, String[] rest) {
        int head = bit == null ? 1 : 2;
        String[] all = new String[head + rest.length];
        all[0] = key;
        if (bit != null) {
            all[1] = bit;
        }
        System.arraycopy(rest, 0, all, head, rest.length);
        return all;
    }

    @Test
    void bitposAndBitcountShouldAnswerAnEmptyString() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("e", "");

            assertEquals(-1, integer(j, Command.BITPOS, "e", "0"));
            assertEquals(-1, integer(j, Command.BITPOS, "e", "1"));
            assertEquals(0, integer(j, Command.BITCOUNT, "e"));
            assertEquals(0, integer(j, Command.BITCOUNT, "e", "0", "-1", "bit"));
        }
    }

    @Test
    void aMissingKeyShouldAnswerBeforeTheRangeArgumentsAreChecked() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(0, integer(j, Command.BITCOUNT, "missing"));
            assertEquals(0, integer(j, Command.BITCOUNT, "missing", "0"));
            assertEquals(0, integer(j, Command.BITCOUNT, "missing", "a", "b", "c", "d"));
            assertEquals(0, integer(j, Command.BITPOS, "missing", "0"));
            assertEquals(-1, integer(j, Command.BITPOS, "missing", "1"));
            assertEquals(0, integer(j, Command.BITPOS, "missing", "0", "5", "6"));
            assertEquals(-1, integer(j, Command.BITPOS, "missing", "1", "a", "0", "1", "2", "3"));
        }
    }

    @Test
    void bitcountShouldRefuseBadRanges() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("s", "foobar");

            assertError("ERR syntax error", () -> j.sendCommand(Command.BITCOUNT, "s", "0"));
            assertError("ERR syntax error", () -> j.sendCommand(Command.BITCOUNT, "s", "0", "1", "2"));
            assertError("ERR syntax error", () -> j.sendCommand(Command.BITCOUNT, "s", "0", "1", "bit", "x"));
            assertError(NOT_INTEGER, () -> j.sendCommand(Command.BITCOUNT, "s", "a", "1", "foo"));
            assertError(NOT_INTEGER, () -> j.sendCommand(Command.BITCOUNT, "s", "0", "1.5"));
            assertEquals(0, integer(j, Command.BITCOUNT, "s", "-1", "-3", "foo"));
        }
    }

    @Test
    void bitposShouldRefuseBadArgumentsInRedisOrder() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("s", "foobar");
            storeNotAString(ebb, "other");

            assertError("ERR The bit argument must be 1 or 0.", () -> j.sendCommand(Command.BITPOS, "s", "2"));
            assertError("ERR The bit argument must be 1 or 0.", () -> j.sendCommand(Command.BITPOS, "other", "-1"));
            assertError(NOT_INTEGER, () -> j.sendCommand(Command.BITPOS, "s", "01"));
            assertError(NOT_INTEGER, () -> j.sendCommand(Command.BITPOS, "s", "1", "a"));
            assertError(NOT_INTEGER, () -> j.sendCommand(Command.BITPOS, "s", "1", "0", "a"));
            assertError(NOT_INTEGER, () -> j.sendCommand(Command.BITPOS, "s", "1", "0", "bit"));
            assertError("ERR syntax error", () -> j.sendCommand(Command.BITPOS, "s", "1", "0", "a", "foo"));
            assertError("ERR syntax error", () -> j.sendCommand(Command.BITPOS, "s", "1", "0", "1", "bit", "x"));
        }
    }

    @Test
    void bitcountAndBitposShouldAcceptTheWholeLongRange() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("s", "foobar");

            assertEquals(26, integer(j, Command.BITCOUNT, "s", "-9223372036854775808", "-1", "bit"));
            assertEquals(0, integer(j, Command.BITCOUNT, "s", "9223372036854775807", "9223372036854775807", "bit"));
            assertEquals(1, integer(j, Command.BITPOS, "s", "1", "-9223372036854775808", "9223372036854775807"));
        }
    }

    @Test
    void bitopShouldCombineBytesPaddingShortSourcesWithZeros() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("a", "abc");
            j.set("b", "ab");

            assertEquals(3, j.bitop(BitOP.AND, "and", "a", "b"));
            assertEquals(3, j.bitop(BitOP.OR, "or", "a", "b"));
            assertEquals(3, j.bitop(BitOP.XOR, "xor", "a", "b"));
            assertEquals(3, j.bitop(BitOP.NOT, "not", "a"));
            assertEquals(3, j.bitop(BitOP.AND, "andMissing", "a", "missing"));

            assertArrayEquals(new byte[] {'a', 'b', 0}, j.get(bytes("and")));
            assertEquals("abc", j.get("or"));
            assertArrayEquals(new byte[] {0, 0, 'c'}, j.get(bytes("xor")));
            assertArrayEquals(new byte[] {(byte) 0x9e, (byte) 0x9d, (byte) 0x9c}, j.get(bytes("not")));
            assertArrayEquals(new byte[] {0, 0, 0}, j.get(bytes("andMissing")));
        }
    }

    @Test
    void bitopShouldHandleManySourcesAndLongValues() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set(bytes("x"), HEX.parseHex("0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f"));
            j.set(bytes("y"), HEX.parseHex("ff00ff00ff00ff00ff00ff00ff00ff00ff"));
            j.set(bytes("z"), HEX.parseHex("01"));

            assertEquals(17, j.bitop(BitOP.XOR, "d", "x", "y", "z", "x"));

            assertEquals("fe00ff00ff00ff00ff00ff00ff00ff00ff", HEX.formatHex(j.get(bytes("d"))));
        }
    }

    @Test
    void bitopShouldReplaceTheDestinationAndDropItsTimeToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("a", "abc");
            j.setex("d", 100, "x");
            storeNotAString(ebb, "other");

            assertEquals(3, j.bitop(BitOP.OR, "d", "a"));
            assertEquals(3, j.bitop(BitOP.AND, "other", "a", "a"));

            assertEquals("abc", j.get("d"));
            assertEquals(-1, j.pttl("d"));
            assertEquals("abc", j.get("other"));
        }
    }

    @Test
    void bitopWithAnEmptyResultShouldDeleteTheDestination() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("d", "old");
            j.set("e", "");

            assertEquals(0, j.bitop(BitOP.AND, "d", "missing", "missing2"));
            j.set("d2", "old");
            assertEquals(0, j.bitop(BitOP.NOT, "d2", "e"));

            assertFalse(j.exists("d"));
            assertFalse(j.exists("d2"));
        }
    }

    @Test
    void bitopShouldRefuseUnknownOperationsAndNotWithSeveralKeys() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("a", "abc");
            storeNotAString(ebb, "other");

            assertError("ERR syntax error", () -> j.sendCommand(Command.BITOP, "foo", "d", "other"));
            assertError("ERR BITOP NOT must be called with a single source key.",
                    () -> j.sendCommand(Command.BITOP, "not", "d", "other", "a"));
            assertEquals(3, integer(j, Command.BITOP, "AnD", "d", "a"));
        }
    }
}
