package dev.ebb.server.command;

import static dev.ebb.server.command.StringTestSupport.assertError;
import static dev.ebb.server.command.StringTestSupport.storeNotAString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.params.LCSParams;
import redis.clients.jedis.resps.LCSMatchResult;
import redis.clients.jedis.resps.LCSMatchResult.MatchedPosition;
import redis.clients.jedis.util.SafeEncoder;

/** LCS against Redis 7.2's replies, including the exact IDX reply shape in RESP2 and RESP3. */
class StringLcsCommandTest {
    private static final String IDX_WITHMATCHLEN_RESP3 = "%2\r\n$7\r\nmatches\r\n*2\r\n"
            + "*3\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n:4\r\n"
            + "*3\r\n*2\r\n:2\r\n:3\r\n*2\r\n:0\r\n:1\r\n:2\r\n"
            + "$3\r\nlen\r\n:6\r\n";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void lcsShouldReplyTheSubsequenceOrItsLength() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.mset("key1", "ohmytext", "key2", "mynewtext");

            assertEquals("mytext", SafeEncoder.encode((byte[]) j.sendCommand(Command.LCS, "key1", "key2")));
            assertEquals(6L, j.sendCommand(Command.LCS, "key1", "key2", "LEN"));
            assertEquals(6L, j.sendCommand(Command.LCS, "key1", "key2", "len", "withmatchlen", "minmatchlen", "3"));
        }
    }

    @Test
    void lcsIdxShouldListMatchesFromTheEndWithTheirPositions() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.mset("key1", "ohmytext", "key2", "mynewtext");

            LCSMatchResult all = j.lcs("key1", "key2", LCSParams.LCSParams().idx().withMatchLen());
            LCSMatchResult long4 = j.lcs("key1", "key2", LCSParams.LCSParams().idx().minMatchLen(4));

            assertEquals(6, all.getLen());
            assertEquals(2, all.getMatches().size());
            assertMatch(all.getMatches().get(0), 4, 7, 5, 8, 4);
            assertMatch(all.getMatches().get(1), 2, 3, 0, 1, 2);
            assertEquals(1, long4.getMatches().size());
            assertMatch(long4.getMatches().get(0), 4, 7, 5, 8, 0);
        }
    }

    private static void assertMatch(MatchedPosition m, long aStart, long aEnd, long bStart, long bEnd, long len) {
        assertEquals(List.of(aStart, aEnd, bStart, bEnd, len),
                List.of(m.getA().getStart(), m.getA().getEnd(), m.getB().getStart(), m.getB().getEnd(),
                        m.getMatchLen()));
    }

    @Test
    void lcsIdxShouldBeAFlatArrayInResp2AndAMapInResp3() throws Exception {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.mset("key1", "ohmytext", "key2", "mynewtext");

            List<?> resp2 = (List<?>) j.sendCommand(Command.LCS, "key1", "key2", "IDX", "MINMATCHLEN", "-5");

            assertEquals(4, resp2.size());
            assertEquals("matches", SafeEncoder.encode((byte[]) resp2.get(0)));
            assertEquals(List.of(List.of(List.of(4L, 7L), List.of(5L, 8L)), List.of(List.of(2L, 3L), List.of(0L, 1L))),
                    resp2.get(1));
            assertEquals("len", SafeEncoder.encode((byte[]) resp2.get(2)));
            assertEquals(6L, resp2.get(3));
        }
        assertEquals(IDX_WITHMATCHLEN_RESP3,
                StringTestSupport.resp3Reply(ebb, "LCS", "key1", "key2", "IDX", "WITHMATCHLEN"));
    }

    @Test
    void lcsShouldTreatMissingKeysAsEmptyStrings() throws Exception {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("key1", "ohmytext");

            assertEquals("", SafeEncoder.encode((byte[]) j.sendCommand(Command.LCS, "key1", "missing")));
            assertEquals(0L, j.sendCommand(Command.LCS, "missing", "missing2", "len"));
        }
        assertEquals("%2\r\n$7\r\nmatches\r\n*0\r\n$3\r\nlen\r\n:0\r\n",
                StringTestSupport.resp3Reply(ebb, "LCS", "key1", "missing", "IDX"));
    }

    @Test
    void lcsShouldPickTheSameSubsequenceAsRedisAmongEqualOnes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.mset("a", "abcbdab", "b", "bdcaba", "c", "aaaa", "d", "aa");

            assertEquals("bdab", SafeEncoder.encode((byte[]) j.sendCommand(Command.LCS, "a", "b")));
            assertEquals("aa", SafeEncoder.encode((byte[]) j.sendCommand(Command.LCS, "c", "d")));
            LCSMatchResult idx = j.lcs("c", "d", LCSParams.LCSParams().idx());
            assertEquals(1, idx.getMatches().size());
            assertMatch(idx.getMatches().get(0), 2, 3, 0, 1, 0);
        }
    }

    @Test
    void lcsShouldRefuseAnotherTypeBeforeParsingOptions() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("key1", "x");
            storeNotAString(ebb, "other");

            assertError("ERR The specified keys must contain string values",
                    () -> j.sendCommand(Command.LCS, "key1", "other"));
            assertError("ERR The specified keys must contain string values",
                    () -> j.sendCommand(Command.LCS, "other", "key1", "foo", "len", "idx"));
        }
    }

    @Test
    void lcsShouldRefuseBadOptions() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.mset("key1", "ohmytext", "key2", "mynewtext");

            assertError("ERR If you want both the length and indexes, please just use IDX.",
                    () -> j.sendCommand(Command.LCS, "key1", "key2", "len", "idx"));
            assertError("ERR syntax error", () -> j.sendCommand(Command.LCS, "key1", "key2", "len", "idx", "foo"));
            assertError("ERR syntax error", () -> j.sendCommand(Command.LCS, "key1", "key2", "minmatchlen"));
            assertError("ERR value is not an integer or out of range",
                    () -> j.sendCommand(Command.LCS, "key1", "key2", "idx", "minmatchlen", "abc"));
            assertError("ERR wrong number of arguments for 'lcs' command",
                    () -> j.sendCommand(Command.LCS, "key1"));
        }
    }
}
