package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ExpiryOption;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.SafeEncoder;

/**
 * EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT (with NX/XX/GT/LT), TTL, PTTL, EXPIRETIME, PEXPIRETIME and
 * PERSIST, driven by a manual clock.
 */
class ExpireCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static Object raw(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        return j.sendCommand(command, Arrays.copyOfRange(args, 1, args.length));
    }

    private static String error(Jedis j, String... args) {
        return assertThrows(JedisDataException.class, () -> raw(j, args)).getMessage();
    }

    /** The server's current time in ms, read through the protocol: PEXPIRETIME of a fresh PEXPIRE. */
    private static long serverNowMs(Jedis j) {
        j.set("__clock", "1");
        j.pexpire("__clock", 1_000_000);
        long now = j.pexpireTime("__clock") - 1_000_000;
        j.del("__clock");
        return now;
    }

    @Test
    void expireShouldSetATtlThatRemovesTheKeyOnlyAfterItPasses() {
        try (Jedis j = connect()) {
            j.set("k", "v");

            assertEquals(1, j.expire("k", 10));
            assertEquals(10, j.ttl("k"));
            assertEquals(10_000, j.pttl("k"));
            ebb.advanceClock(10_000);

            assertEquals("v", j.get("k"));
            assertEquals(0, j.pttl("k"));
            ebb.advanceClock(1);
            assertNull(j.get("k"));
            assertEquals(-2, j.ttl("k"));
        }
    }

    @Test
    void ttlShouldRoundToTheNearestSecond() {
        try (Jedis j = connect()) {
            j.set("k", "v");
            j.pexpire("k", 2500);

            assertEquals(3, j.ttl("k"));
            ebb.advanceClock(1);
            assertEquals(2, j.ttl("k"));
            ebb.advanceClock(2000);
            assertEquals(0, j.ttl("k"));
            assertEquals(499, j.pttl("k"));
        }
    }

    @Test
    void ttlCommandsShouldAnswerMinusTwoForMissingAndMinusOneForPersistentKeys() {
        try (Jedis j = connect()) {
            j.set("k", "v");

            assertEquals(-2, j.ttl("missing"));
            assertEquals(-2, j.pttl("missing"));
            assertEquals(-2, j.expireTime("missing"));
            assertEquals(-2, j.pexpireTime("missing"));
            assertEquals(-1, j.ttl("k"));
            assertEquals(-1, j.pttl("k"));
            assertEquals(-1, j.expireTime("k"));
            assertEquals(-1, j.pexpireTime("k"));
        }
    }

    @Test
    void absoluteFormsShouldSetAndReportUnixTimes() {
        try (Jedis j = connect()) {
            long now = serverNowMs(j);
            long at = now / 1000 + 100;
            j.set("s", "v");
            j.set("ms", "v");

            assertEquals(1, j.expireAt("s", at));
            assertEquals(1, j.pexpireAt("ms", now + 1234));

            assertEquals(at, j.expireTime("s"));
            assertEquals(at * 1000, j.pexpireTime("s"));
            assertEquals(now + 1234, j.pexpireTime("ms"));
            assertEquals((now + 1234 + 500) / 1000, j.expireTime("ms"));
            assertEquals(1234, j.pttl("ms"));
        }
    }

    @Test
    void aTimeNotInTheFutureShouldDeleteTheKeyAndReplyOne() {
        try (Jedis j = connect()) {
            long now = serverNowMs(j);
            for (String k : new String[] {"a", "b", "c", "d", "e"}) {
                j.set(k, "v");
            }

            assertEquals(1, j.expire("a", 0));
            assertEquals(1, j.pexpire("b", -5));
            assertEquals(1, j.expireAt("c", 1));
            assertEquals(1, j.pexpireAt("d", now));
            assertEquals(1L, raw(j, "PEXPIRE", "e", "-9223372036854775808"));

            assertEquals(0, j.exists("a", "b", "c", "d", "e"));
            assertEquals(0, j.dbSize());
        }
    }

    @Test
    void expireOfAMissingKeyShouldReplyZero() {
        try (Jedis j = connect()) {
            assertEquals(0, j.expire("missing", 10));
            assertEquals(0, j.pexpire("missing", 10));
            assertEquals(0, j.expireAt("missing", 1));
            assertEquals(0, j.pexpireAt("missing", 1));
            assertEquals(0, j.dbSize());
        }
    }

    @Test
    void nxAndXxShouldDependOnWhetherTheKeyHasATtl() {
        try (Jedis j = connect()) {
            j.set("k", "v");

            assertEquals(0, j.expire("k", 10, ExpiryOption.XX));
            assertEquals(-1, j.ttl("k"));
            assertEquals(1, j.expire("k", 10, ExpiryOption.NX));
            assertEquals(0, j.expire("k", 20, ExpiryOption.NX));
            assertEquals(10, j.ttl("k"));
            assertEquals(1, j.expire("k", 30, ExpiryOption.XX));
            assertEquals(30, j.ttl("k"));
        }
    }

    @Test
    void gtAndLtShouldTreatNoTtlAsInfinite() {
        try (Jedis j = connect()) {
            j.set("k", "v");

            assertEquals(0, j.expire("k", 100, ExpiryOption.GT));
            assertEquals(-1, j.ttl("k"));
            assertEquals(1, j.expire("k", 100, ExpiryOption.LT));
            assertEquals(100, j.ttl("k"));
            assertEquals(0, j.expire("k", 200, ExpiryOption.LT));
            assertEquals(0, j.expire("k", 100, ExpiryOption.LT));
            assertEquals(1, j.expire("k", 50, ExpiryOption.LT));
            assertEquals(0, j.expire("k", 50, ExpiryOption.GT));
            assertEquals(0, j.expire("k", 10, ExpiryOption.GT));
            assertEquals(1, j.pexpire("k", 60_000, ExpiryOption.GT));
            assertEquals(60, j.ttl("k"));
        }
    }

    @Test
    void optionsShouldBeCaseInsensitiveAndMayRepeat() {
        try (Jedis j = connect()) {
            j.set("k", "v");

            assertEquals(1L, raw(j, "EXPIRE", "k", "10", "nx", "NX"));
            assertEquals(1L, raw(j, "EXPIRE", "k", "20", "xx", "Xx", "gT"));
            assertEquals(20, j.ttl("k"));
        }
    }

    @Test
    void incompatibleOrUnknownOptionsShouldBeRejectedBeforeTheNumber() {
        try (Jedis j = connect()) {
            j.set("k", "v");

            String nx = "ERR NX and XX, GT or LT options at the same time are not compatible";
            assertEquals(nx, error(j, "EXPIRE", "k", "10", "NX", "XX"));
            assertEquals(nx, error(j, "PEXPIRE", "k", "10", "gt", "nx"));
            assertEquals(nx, error(j, "EXPIREAT", "k", "abc", "nx", "lt"));
            assertEquals("ERR GT and LT options at the same time are not compatible",
                    error(j, "PEXPIREAT", "k", "abc", "GT", "LT"));
            assertEquals("ERR Unsupported option foo", error(j, "EXPIRE", "k", "abc", "foo", "bar"));
            assertEquals("ERR Unsupported option bar", error(j, "EXPIRE", "k", "10", "nx", "bar"));
            assertEquals(-1, j.ttl("k"));
        }
    }

    @Test
    void nonIntegersShouldGetTheIntegerError() {
        try (Jedis j = connect()) {
            j.set("k", "v");

            for (String cmd : new String[] {"EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT"}) {
                assertEquals("ERR value is not an integer or out of range", error(j, cmd, "k", "abc"));
                assertEquals("ERR value is not an integer or out of range", error(j, cmd, "k", "1.5"));
                assertEquals("ERR value is not an integer or out of range", error(j, cmd, "k", " 1"));
                assertEquals("ERR value is not an integer or out of range",
                        error(j, cmd, "k", "9223372036854775808"));
            }
            assertEquals(-1, j.ttl("k"));
        }
    }

    @Test
    void overflowingTimesShouldGetTheInvalidExpireTimeError() {
        try (Jedis j = connect()) {
            j.set("k", "v");

            assertEquals("ERR invalid expire time in 'expire' command",
                    error(j, "EXPIRE", "k", "9223372036854775807"));
            assertEquals("ERR invalid expire time in 'expire' command",
                    error(j, "EXPIRE", "k", "9223372036854774"));
            assertEquals("ERR invalid expire time in 'expire' command",
                    error(j, "EXPIRE", "k", "-9223372036854776"));
            assertEquals("ERR invalid expire time in 'pexpire' command",
                    error(j, "PEXPIRE", "k", "9223372036854775807"));
            assertEquals("ERR invalid expire time in 'expireat' command",
                    error(j, "EXPIREAT", "k", "9223372036854776"));
            assertEquals(-1, j.ttl("k"));
        }
    }

    @Test
    void absoluteTimesUpToTheLimitShouldBeAccepted() {
        try (Jedis j = connect()) {
            j.set("a", "v");
            j.set("b", "v");

            assertEquals(1L, raw(j, "EXPIREAT", "a", "9223372036854775"));
            assertEquals(1L, raw(j, "PEXPIREAT", "b", "9223372036854775807"));

            assertEquals(9223372036854775L, j.expireTime("a"));
            assertEquals(Long.MAX_VALUE, j.pexpireTime("b"));
        }
    }

    @Test
    void persistShouldRemoveATtlOnlyIfThereIsOne() {
        try (Jedis j = connect()) {
            j.set("k", "v", SetParams.setParams().ex(10));

            assertEquals(1, j.persist("k"));
            assertEquals(-1, j.ttl("k"));
            assertEquals(0, j.persist("k"));
            assertEquals(0, j.persist("missing"));
            ebb.advanceClock(20_000);
            assertEquals("v", j.get("k"));
        }
    }

    @Test
    void persistOfAnExpiredKeyShouldReplyZero() {
        try (Jedis j = connect()) {
            j.set("k", "v", SetParams.setParams().px(10));
            ebb.advanceClock(11);

            assertEquals(0, j.persist("k"));
            assertFalse(j.exists("k"));
        }
    }

    @Test
    void expireOfAnExpiredKeyShouldReplyZero() {
        try (Jedis j = connect()) {
            j.set("k", "v", SetParams.setParams().px(10));
            ebb.advanceClock(11);

            assertEquals(0, j.expire("k", 100));
            assertEquals(-2, j.ttl("k"));
        }
    }

    @Test
    void ttlLookupsShouldCountKeyspaceHitsAndMisses() {
        try (Jedis j = connect()) {
            j.set("k", "v", SetParams.setParams().ex(10));
            long[] before = keyspaceStats();

            j.ttl("k");
            j.pttl("missing");
            j.expireTime("k");
            j.pexpireTime("missing");
            j.expire("k", 5);
            j.persist("k");

            long[] after = keyspaceStats();
            assertEquals(2, after[0] - before[0], "hits");
            assertEquals(2, after[1] - before[1], "misses");
        }
    }

    private static long[] keyspaceStats() {
        long[] out = new long[2];
        ebb.server().runOnLoop(s -> {
            out[0] = s.stats().keyspaceHits();
            out[1] = s.stats().keyspaceMisses();
        });
        return out;
    }

    @Test
    void expireShouldCheckArity() {
        try (Jedis j = connect()) {
            assertEquals("ERR wrong number of arguments for 'expire' command", error(j, "EXPIRE", "k"));
            assertEquals("ERR wrong number of arguments for 'pexpireat' command", error(j, "PEXPIREAT", "k"));
            assertEquals("ERR wrong number of arguments for 'ttl' command", error(j, "TTL", "k", "x"));
            assertEquals("ERR wrong number of arguments for 'pexpiretime' command", error(j, "PEXPIRETIME"));
            assertEquals("ERR wrong number of arguments for 'persist' command", error(j, "PERSIST"));
        }
    }

    @Test
    void aKeyWithATtlShouldSurviveUntilItsLastMillisecond() {
        try (Jedis j = connect()) {
            j.set("k", "v");
            j.pexpire("k", 1);

            assertTrue(j.exists("k"));
            ebb.advanceClock(1);
            assertTrue(j.exists("k"));
            ebb.advanceClock(1);
            assertFalse(j.exists("k"));
        }
    }
}
