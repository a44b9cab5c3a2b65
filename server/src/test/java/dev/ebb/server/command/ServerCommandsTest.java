package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.SafeEncoder;

/**
 * CONFIG GET/SET/RESETSTAT/REWRITE/HELP, DEBUG, LASTSAVE and SHUTDOWN's refusals (a SHUTDOWN that
 * succeeds is in {@link ServerShutdownCommandTest}). Error texts as redis-server sends them.
 */
class ServerCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock().config("enable-debug-command", "yes");

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static Object raw(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        return j.sendCommand(command, Arrays.copyOfRange(args, 1, args.length));
    }

    private static String status(Jedis j, String... args) {
        return SafeEncoder.encode((byte[]) raw(j, args));
    }

    private static String error(Jedis j, String... args) {
        return assertThrows(JedisDataException.class, () -> raw(j, args)).getMessage();
    }

    private static List<String> lines(Object reply) {
        List<String> out = new ArrayList<>();
        for (Object line : (List<?>) reply) {
            out.add(SafeEncoder.encode((byte[]) line));
        }
        return out;
    }

    @Test
    void configGetShouldReturnMatchingDirectivesOnce() {
        try (Jedis j = connect()) {
            assertEquals(Map.of("hz", "10"), j.configGet("hz"));
            assertEquals(Map.of("maxmemory", "0", "hz", "10"), j.configGet("maxmemory", "hz", "HZ"));
            assertEquals(Map.of(), j.configGet("nosuch"));
            Map<String, String> maxmemory = j.configGet("maxmemory*");
            assertEquals("noeviction", maxmemory.get("maxmemory-policy"));
            assertEquals("ERR wrong number of arguments for 'config|get' command", error(j, "CONFIG", "GET"));
        }
    }

    @Test
    void configGetShouldBeAMapInResp3() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("HELLO", "3");

            assertEquals("%1\r\n$2\r\nhz\r\n$2\r\n10\r\n", s.call("CONFIG", "GET", "hz"));
        }
    }

    @Test
    void configSetShouldChangeValuesAllOrNothing() {
        try (Jedis j = connect()) {
            try {
                assertEquals("OK", j.configSet("hz", "20", "maxmemory-samples", "7"));
                assertEquals(Map.of("hz", "20", "maxmemory-samples", "7"), j.configGet("hz", "maxmemory-samples"));

                assertEquals("ERR CONFIG SET failed (possibly related to argument 'hz') - argument couldn't be parsed"
                        + " into an integer", error(j, "CONFIG", "SET", "maxmemory-samples", "9", "hz", "abc"));
                assertEquals("7", j.configGet("maxmemory-samples").get("maxmemory-samples"));
            } finally {
                j.configSet("hz", "10", "maxmemory-samples", "5");
            }
        }
    }

    @Test
    void configSetShouldRejectBadRequestsWithRedisTexts() {
        try (Jedis j = connect()) {
            assertEquals("ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'",
                    error(j, "CONFIG", "SET", "nosuch", "1"));
            assertEquals("ERR CONFIG SET failed (possibly related to argument 'hz') - duplicate parameter",
                    error(j, "CONFIG", "SET", "hz", "10", "hz", "11"));
            assertEquals("ERR syntax error", error(j, "CONFIG", "SET", "hz", "10", "maxmemory"));
            assertEquals("ERR wrong number of arguments for 'config|set' command", error(j, "CONFIG", "SET", "hz"));
        }
    }

    @Test
    void configResetstatShouldZeroTheInfoCounters() {
        try (Jedis j = connect()) {
            j.set("k", "v");
            j.get("k");
            j.get("missing");
            assertTrue(j.info("stats").contains("keyspace_hits:1\r\n"));

            assertEquals("OK", j.configResetStat());

            String stats = j.info("stats");
            assertTrue(stats.contains("keyspace_hits:0\r\n"), stats);
            assertTrue(stats.contains("keyspace_misses:0\r\n"), stats);
            assertTrue(stats.contains("expired_keys:0\r\n"), stats);
            assertTrue(stats.contains("total_commands_processed:1\r\n"), "RESETSTAT counts itself, as in Redis");
            assertEquals("ERR wrong number of arguments for 'config|resetstat' command",
                    error(j, "CONFIG", "RESETSTAT", "x"));
        }
    }

    @Test
    void configRewriteShouldRefuseWithoutAConfigFile() {
        try (Jedis j = connect()) {
            assertEquals("ERR The server is running without a config file", error(j, "CONFIG", "REWRITE"));
        }
    }

    @Test
    void configHelpAndUnknownSubcommands() {
        try (Jedis j = connect()) {
            List<String> help = lines(raw(j, "CONFIG", "HELP"));

            assertEquals(List.of("CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
                    "GET <pattern>",
                    "    Return parameters matching the glob-like <pattern> and their values.",
                    "SET <directive> <value>",
                    "    Set the configuration <directive> to <value>.",
                    "RESETSTAT",
                    "    Reset statistics reported by the INFO command.",
                    "REWRITE",
                    "    Rewrite the configuration file.",
                    "HELP",
                    "    Print this help."), help);
            assertEquals("ERR unknown subcommand 'foo'. Try CONFIG HELP.", error(j, "CONFIG", "foo"));
            assertEquals("ERR wrong number of arguments for 'config' command", error(j, "CONFIG"));
        }
    }

    @Test
    void lastsaveShouldBeTheStartTimeBeforeAnySave() {
        try (Jedis j = connect()) {
            long lastsave = j.lastsave();

            assertEquals(startSeconds(), lastsave);
            ebb.advanceClock(5_000);
            assertEquals(lastsave, j.lastsave());
            assertEquals("ERR wrong number of arguments for 'lastsave' command", error(j, "LASTSAVE", "x"));
        }
    }

    private static long startSeconds() {
        long[] start = new long[1];
        ebb.server().runOnLoop(s -> start[0] = s.startMs() / 1000);
        return start[0];
    }

    @Test
    void debugSleepShouldBlockTheServerForThatLong() {
        try (Jedis j = connect()) {
            long begin = System.nanoTime();

            assertEquals("OK", status(j, "DEBUG", "SLEEP", "0.05"));

            assertTrue(System.nanoTime() - begin >= 50_000_000L);
            assertEquals("OK", status(j, "DEBUG", "SLEEP", "0"));
            assertEquals("OK", status(j, "DEBUG", "sleep", "abc"), "strtod reads no number: 0 seconds");
        }
    }

    @Test
    void debugPopulateShouldCreateMissingKeysAsRedisDoes() {
        // Replies recorded from redis-server 7.2.4 (DEBUG POPULATE with the same arguments).
        try (Jedis j = connect()) {
            j.select(5);
            j.set("key:5", "mine");
            assertEquals("OK", status(j, "DEBUG", "POPULATE", "10"));
            assertEquals(10, j.dbSize());
            assertEquals("mine", j.get("key:5"), "an existing key is left alone");
            assertEquals("value:9", j.get("key:9"));
            assertEquals("OK", status(j, "DEBUG", "POPULATE", "3", "foo", "10"));
            assertEquals("value:0\0\0\0", j.get("foo:0"), "padded with zero bytes to the size");
            assertEquals("OK", status(j, "DEBUG", "POPULATE", "2", "x", "3"));
            assertEquals("val", j.get("x:1"), "cut to the size");
            assertEquals("OK", status(j, "DEBUG", "POPULATE", "0"));
            assertEquals(15, j.dbSize());
            assertEquals("ERR value is out of range, must be positive", error(j, "DEBUG", "POPULATE", "-1"));
            assertEquals("ERR value is out of range, must be positive", error(j, "DEBUG", "POPULATE", "abc"));
            assertEquals("ERR value is out of range, must be positive", error(j, "DEBUG", "POPULATE", "3", "p", "-1"));
            assertEquals("ERR unknown subcommand or wrong number of arguments for 'POPULATE'. Try DEBUG HELP.",
                    error(j, "DEBUG", "POPULATE", "1", "a", "b", "c"));
            assertEquals("ERR unknown subcommand or wrong number of arguments for 'POPULATE'. Try DEBUG HELP.",
                    error(j, "DEBUG", "POPULATE"));
            assertTrue(lines(raw(j, "DEBUG", "HELP")).contains("POPULATE <count> [<prefix>] [<size>]"));
            j.flushDB();
            j.configResetStat(); // the counters other tests of this shared server read

        }
    }

    @Test
    void debugShouldNameUnknownSubcommandsAndWrongArities() {
        try (Jedis j = connect()) {
            assertEquals("ERR unknown subcommand or wrong number of arguments for 'nosuch'. Try DEBUG HELP.",
                    error(j, "DEBUG", "nosuch"));
            assertEquals("ERR unknown subcommand or wrong number of arguments for 'sleep'. Try DEBUG HELP.",
                    error(j, "DEBUG", "sleep"));
            assertEquals("ERR wrong number of arguments for 'debug' command", error(j, "DEBUG"));
            List<String> help = lines(raw(j, "DEBUG", "HELP"));
            assertEquals("DEBUG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", help.get(0));
            assertTrue(help.contains("SLEEP <seconds>"));
        }
    }

    @Test
    void shutdownShouldRefuseBadFlagsAndAbortAndKeepServing() {
        try (Jedis j = connect()) {
            assertEquals("ERR syntax error", error(j, "SHUTDOWN", "foo"));
            assertEquals("ERR syntax error", error(j, "SHUTDOWN", "ABORT", "NOW"));
            assertEquals("ERR syntax error", error(j, "SHUTDOWN", "SAVE", "NOSAVE"));
            assertEquals("ERR No shutdown in progress.", error(j, "SHUTDOWN", "ABORT"));

            assertEquals("PONG", j.ping());
        }
    }

    @Test
    void roleShouldBeAMasterWithoutReplicas() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("*3\r\n$6\r\nmaster\r\n:0\r\n*0\r\n", s.call("ROLE"));
            assertEquals("-ERR wrong number of arguments for 'role' command\r\n", s.call("ROLE", "x"));
        }
    }
}
