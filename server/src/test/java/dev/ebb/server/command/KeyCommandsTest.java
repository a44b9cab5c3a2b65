package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.FlushMode;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.SafeEncoder;

/**
 * DEL, UNLINK, EXISTS, TYPE, RENAME, RENAMENX, COPY, MOVE, TOUCH, RANDOMKEY, DBSIZE, FLUSHDB,
 * FLUSHALL and WAIT through Jedis; error texts as the real Redis 7 sends them.
 */
class KeyCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    /** Sends a command as is and returns Jedis's raw reply. */
    private static Object raw(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        return j.sendCommand(command, Arrays.copyOfRange(args, 1, args.length));
    }

    /** The error a command gets, without the leading '-'. */
    private static String error(Jedis j, String... args) {
        return assertThrows(JedisDataException.class, () -> raw(j, args)).getMessage();
    }

    @Test
    void delShouldCountEachExistingKeyOnce() {
        try (Jedis j = connect()) {
            j.set("a", "1");
            j.set("b", "2");

            long deleted = j.del("a", "a", "b", "missing");

            assertEquals(2, deleted);
            assertEquals(0, j.exists("a", "b"));
            assertEquals(0, j.del("a"));
        }
    }

    @Test
    void unlinkShouldBehaveAsDel() {
        try (Jedis j = connect()) {
            j.set("a", "1");
            j.set("b", "2");

            assertEquals(2, j.unlink("a", "b", "c", "a"));

            assertEquals(0, j.dbSize());
            assertEquals(0, j.unlink("a"));
        }
    }

    @Test
    void delShouldNotCountAKeyThatHasAlreadyExpired() {
        try (Jedis j = connect()) {
            j.set("gone", "1", SetParams.setParams().px(100));
            j.set("live", "1");
            ebb.advanceClock(101);

            assertEquals(1, j.del("gone", "live"));
            assertEquals(0, j.dbSize());
        }
    }

    @Test
    void existsShouldCountDuplicates() {
        try (Jedis j = connect()) {
            j.set("a", "1");

            assertEquals(3, j.exists("a", "a", "b", "a"));
            assertFalse(j.exists("b"));
            assertTrue(j.exists("a"));
        }
    }

    @Test
    void typeShouldBeAStatusReplyOfStringOrNone() {
        try (Jedis j = connect()) {
            j.set("s", "v");

            assertEquals("string", j.type("s"));
            assertEquals("none", j.type("missing"));
        }
    }

    @Test
    void typeShouldReplyWithASimpleStringOnTheWire() throws IOException {
        try (Jedis j = connect()) {
            j.set("s", "v");
        }
        try (Socket socket = new Socket(ebb.host(), ebb.port())) {
            socket.getOutputStream().write("TYPE s\r\nTYPE missing\r\n".getBytes(StandardCharsets.US_ASCII));

            String expected = "+string\r\n+none\r\n";
            byte[] reply = socket.getInputStream().readNBytes(expected.length());

            assertEquals(expected, new String(reply, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void existsAndTypeShouldCountKeyspaceHitsAndMisses() {
        try (Jedis j = connect()) {
            j.set("a", "1");
            long[] before = keyspaceStats();

            j.exists("a", "b", "a");
            j.type("a");
            j.type("b");
            j.del("b");
            j.rename("a", "c");

            long[] after = keyspaceStats();
            assertEquals(3, after[0] - before[0], "hits");
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
    void renameShouldMoveValueAndTtlAndReplaceTheDestination() {
        try (Jedis j = connect()) {
            j.set("src", "v", SetParams.setParams().px(5000));
            j.set("dst", "old", SetParams.setParams().px(100_000));

            assertEquals("OK", j.rename("src", "dst"));

            assertEquals("v", j.get("dst"));
            assertEquals(5000, j.pttl("dst"));
            assertFalse(j.exists("src"));
        }
    }

    @Test
    void renameOfAKeyWithoutTtlShouldDropTheDestinationsTtl() {
        try (Jedis j = connect()) {
            j.set("src", "v");
            j.set("dst", "old", SetParams.setParams().ex(100));

            j.rename("src", "dst");

            assertEquals(-1, j.ttl("dst"));
        }
    }

    @Test
    void renameOntoItselfShouldSucceedOnlyIfTheKeyExists() {
        try (Jedis j = connect()) {
            j.set("a", "1");

            assertEquals("OK", j.rename("a", "a"));
            assertEquals("1", j.get("a"));
            assertEquals("ERR no such key", error(j, "RENAME", "missing", "missing"));
            assertEquals("ERR no such key", error(j, "RENAME", "missing", "b"));
        }
    }

    @Test
    void renamenxShouldOnlyRenameOntoAMissingKey() {
        try (Jedis j = connect()) {
            j.set("a", "1");
            j.set("b", "2");

            assertEquals(0, j.renamenx("a", "b"));
            assertEquals("2", j.get("b"));
            assertEquals(1, j.renamenx("a", "c"));
            assertEquals("1", j.get("c"));
            assertFalse(j.exists("a"));
            assertEquals(0, j.renamenx("c", "c"));
            assertEquals("ERR no such key", error(j, "RENAMENX", "missing", "d"));
        }
    }

    @Test
    void copyShouldDuplicateTheValueAndKeepTheTtl() {
        try (Jedis j = connect()) {
            j.set("src", "v", SetParams.setParams().px(7000));

            assertTrue(j.copy("src", "dst", false));
            j.set("src", "changed", SetParams.setParams().keepTtl());

            assertEquals("v", j.get("dst"));
            assertEquals(7000, j.pttl("dst"));
            assertEquals("changed", j.get("src"));
        }
    }

    @Test
    void copyShouldReplaceOnlyWithReplace() {
        try (Jedis j = connect()) {
            j.set("src", "new");
            j.set("dst", "old", SetParams.setParams().ex(100));

            assertFalse(j.copy("src", "dst", false));
            assertEquals("old", j.get("dst"));
            assertTrue(j.copy("src", "dst", true));

            assertEquals("new", j.get("dst"));
            assertEquals(-1, j.ttl("dst"));
            assertFalse(j.copy("missing", "dst", true));
        }
    }

    @Test
    void copyToAnotherDatabaseShouldKeepTheTtl() {
        try (Jedis j = connect()) {
            j.set("k", "v", SetParams.setParams().px(9000));

            assertTrue(j.copy("k", "k", 3, false));
            assertEquals(1L, raw(j, "COPY", "k", "k2", "db", "3", "REPLACE", "replace"));
            j.select(3);

            assertEquals("v", j.get("k"));
            assertEquals(9000, j.pttl("k"));
            assertEquals(9000, j.pttl("k2"));
            ebb.advanceClock(9001);
            assertFalse(j.exists("k"));
        }
    }

    @Test
    void copyShouldRejectBadArgumentsWithRedisErrors() {
        try (Jedis j = connect()) {
            j.set("b", "1");

            assertEquals("ERR source and destination objects are the same", error(j, "COPY", "b", "b"));
            assertEquals("ERR source and destination objects are the same", error(j, "COPY", "b", "b", "DB", "0"));
            assertEquals("ERR syntax error", error(j, "COPY", "b", "c", "db"));
            assertEquals("ERR syntax error", error(j, "COPY", "b", "c", "foo"));
            assertEquals("ERR value is not an integer or out of range", error(j, "COPY", "b", "c", "db", "x"));
            assertEquals("ERR DB index is out of range", error(j, "COPY", "b", "c", "db", "99"));
            assertEquals("ERR DB index is out of range", error(j, "COPY", "b", "c", "db", "-1"));
            assertEquals("ERR value is out of range, value must between -2147483648 and 2147483647",
                    error(j, "COPY", "b", "c", "db", "99999999999"));
            assertEquals("ERR wrong number of arguments for 'copy' command", error(j, "COPY", "b"));
            assertFalse(j.exists("c"));
        }
    }

    @Test
    void moveShouldMoveTheKeyWithItsTtl() {
        try (Jedis j = connect()) {
            j.set("k", "v", SetParams.setParams().px(4000));

            assertEquals(1, j.move("k", 2));

            assertFalse(j.exists("k"));
            j.select(2);
            assertEquals("v", j.get("k"));
            assertEquals(4000, j.pttl("k"));
        }
    }

    @Test
    void moveShouldNotOverwriteAKeyInTheTargetDatabase() {
        try (Jedis j = connect()) {
            j.set("k", "here");
            j.select(1);
            j.set("k", "there");
            j.select(0);

            assertEquals(0, j.move("k", 1));
            assertEquals(0, j.move("missing", 1));

            assertEquals("here", j.get("k"));
            j.select(1);
            assertEquals("there", j.get("k"));
        }
    }

    @Test
    void moveShouldRejectBadDatabasesWithRedisErrors() {
        try (Jedis j = connect()) {
            j.set("k", "v");

            assertEquals("ERR source and destination objects are the same", error(j, "MOVE", "k", "0"));
            assertEquals("ERR source and destination objects are the same", error(j, "MOVE", "missing", "0"));
            assertEquals("ERR DB index is out of range", error(j, "MOVE", "k", "16"));
            assertEquals("ERR DB index is out of range", error(j, "MOVE", "k", "-1"));
            assertEquals("ERR value is not an integer or out of range", error(j, "MOVE", "k", "x"));
            assertEquals("ERR value is not an integer or out of range", error(j, "MOVE", "k", "01"));
            assertEquals("ERR value is out of range, value must between -2147483648 and 2147483647",
                    error(j, "MOVE", "k", "2147483648"));
            assertEquals("ERR wrong number of arguments for 'move' command", error(j, "MOVE", "k"));
            assertEquals("v", j.get("k"));
        }
    }

    @Test
    void touchShouldCountExistingKeysWithDuplicates() {
        try (Jedis j = connect()) {
            j.set("a", "1");
            j.set("b", "2");

            assertEquals(3, j.touch("a", "b", "missing", "a"));
            assertEquals(0, j.touch("missing"));
        }
    }

    @Test
    void randomkeyShouldReturnAnExistingKeyOrNil() {
        try (Jedis j = connect()) {
            assertNull(j.randomKey());
            Set<String> keys = new HashSet<>(Arrays.asList("a", "b", "c"));
            for (String k : keys) {
                j.set(k, k);
            }

            for (int i = 0; i < 20; i++) {
                assertTrue(keys.contains(j.randomKey()));
            }
        }
    }

    @Test
    void randomkeyShouldSkipExpiredKeys() {
        try (Jedis j = connect()) {
            for (int i = 0; i < 50; i++) {
                j.set("old" + i, "v", SetParams.setParams().px(10));
            }
            j.set("live", "v");
            ebb.advanceClock(11);

            assertEquals("live", j.randomKey());
        }
    }

    @Test
    void dbsizeShouldCountTheSelectedDatabaseOnly() {
        try (Jedis j = connect()) {
            j.set("a", "1");
            j.set("b", "1");
            j.select(5);
            j.set("c", "1");

            assertEquals(1, j.dbSize());
            j.select(0);
            assertEquals(2, j.dbSize());
        }
    }

    @Test
    void flushdbShouldEmptyOnlyTheSelectedDatabase() {
        try (Jedis j = connect()) {
            j.set("a", "1");
            j.select(1);
            j.set("b", "1", SetParams.setParams().ex(10));

            assertEquals("OK", j.flushDB());
            assertEquals(0, j.dbSize());
            j.set("b", "2");
            assertEquals(-1, j.ttl("b"));
            assertEquals("OK", j.flushDB(FlushMode.ASYNC));
            assertEquals(0, j.dbSize());
            j.select(0);
            assertEquals("OK", j.flushDB(FlushMode.SYNC));

            assertEquals(0, j.dbSize());
        }
    }

    @Test
    void flushallShouldEmptyEveryDatabase() {
        try (Jedis j = connect()) {
            for (int db = 0; db < 16; db++) {
                j.select(db);
                j.set("k" + db, "v");
            }

            assertEquals("OK", j.flushAll(FlushMode.SYNC));

            for (int db = 0; db < 16; db++) {
                j.select(db);
                assertEquals(0, j.dbSize());
            }
            j.set("again", "1");
            assertEquals("OK", j.flushAll());
            assertEquals(0, j.dbSize());
        }
    }

    @Test
    void flushShouldRejectUnknownOptionsWithoutFlushing() {
        try (Jedis j = connect()) {
            j.set("a", "1");

            assertEquals("ERR syntax error", error(j, "FLUSHALL", "foo"));
            assertEquals("ERR syntax error", error(j, "FLUSHALL", "async", "sync"));
            assertEquals("ERR syntax error", error(j, "FLUSHDB", "1"));
            assertEquals("ERR syntax error", error(j, "FLUSHDB", "ASYNC", "ASYNC"));

            assertEquals(1, j.dbSize());
            assertEquals("OK", SafeEncoder.encode((byte[]) raw(j, "flushdb", "AsYnC")));
            assertEquals(0, j.dbSize());
        }
    }

    @Test
    void waitShouldCountNoReplicasWithoutReplicas() {
        try (Jedis j = connect()) {
            j.set("a", "1");

            assertEquals(0, j.waitReplicas(0, 0));
            assertEquals(0L, raw(j, "WAIT", "-1", "0"));
        }
    }

    @Test
    void waitShouldRejectBadNumbersWithRedisErrors() {
        try (Jedis j = connect()) {
            assertEquals("ERR value is not an integer or out of range", error(j, "WAIT", "a", "0"));
            assertEquals("ERR value is not an integer or out of range",
                    error(j, "WAIT", "9999999999999999999999", "0"));
            assertEquals("ERR timeout is not an integer or out of range", error(j, "WAIT", "0", "a"));
            assertEquals("ERR timeout is not an integer or out of range",
                    error(j, "WAIT", "0", "99999999999999999999"));
            assertEquals("ERR timeout is negative", error(j, "WAIT", "0", "-1"));
            assertEquals("ERR wrong number of arguments for 'wait' command", error(j, "WAIT", "0"));
        }
    }

    @Test
    void commandsShouldCheckArityWithRedisErrors() {
        try (Jedis j = connect()) {
            assertEquals("ERR wrong number of arguments for 'del' command", error(j, "DEL"));
            assertEquals("ERR wrong number of arguments for 'unlink' command", error(j, "UNLINK"));
            assertEquals("ERR wrong number of arguments for 'exists' command", error(j, "EXISTS"));
            assertEquals("ERR wrong number of arguments for 'type' command", error(j, "TYPE", "a", "b"));
            assertEquals("ERR wrong number of arguments for 'rename' command", error(j, "RENAME", "a"));
            assertEquals("ERR wrong number of arguments for 'renamenx' command", error(j, "RENAMENX", "a", "b", "c"));
            assertEquals("ERR wrong number of arguments for 'touch' command", error(j, "TOUCH"));
            assertEquals("ERR wrong number of arguments for 'randomkey' command", error(j, "RANDOMKEY", "x"));
            assertEquals("ERR wrong number of arguments for 'dbsize' command", error(j, "DBSIZE", "x"));
        }
    }
}
