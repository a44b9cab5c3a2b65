package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * INFO commandstats, errorstats and total_error_replies: which command a call, a rejection or a
 * failure is counted against, and each error counted once. The cases and expected counts are those
 * of Redis's own tests (tests/unit/info.tcl), checked against redis-server 7.0.15; usec figures
 * vary and are only checked for shape.
 */
class CommandStatsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("enable-debug-command", "yes");

    private static final String STATS = "calls=(\\d+),usec=(\\d+),usec_per_call=(\\d+\\.\\d\\d),"
            + "rejected_calls=(\\d+),failed_calls=(\\d+)";

    private static final Pattern STATS_PATTERN = Pattern.compile(STATS);

    @BeforeEach
    void resetStats() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("CONFIG", "RESETSTAT"));
        }
    }

    @Test
    void callsShouldBeCountedPerCommandAndSubcommandWithTheirTime() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("SET", "k", "v");
            s.call("SET", "k", "w");
            s.call("GET", "k");
            s.call("CONFIG", "GET", "maxmemory");

            Map<String, String> stats = info(s, "commandstats");

            assertTrue(STATS_PATTERN.matcher(stats.get("cmdstat_set")).matches(), stats.get("cmdstat_set"));
            assertEquals("2/0/0", counts(stats, "set"));
            assertEquals("1/0/0", counts(stats, "get"));
            assertEquals("1/0/0", counts(stats, "config|get"));
            assertNull(stats.get("cmdstat_info"), "INFO is counted after it has answered");
            String[] set = stats.get("cmdstat_set").split("[=,]");
            assertEquals(String.format(Locale.ROOT, "%.2f", Long.parseLong(set[3]) / 2.0), set[5]);
            assertEquals(0, info(s, "errorstats").size());
        }
    }

    @Test
    void aFailedCallShouldCountAgainstTheCommandAndByErrorCode() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertTrue(s.call("AUTH", "k").startsWith("-ERR AUTH <password> called without any password"));
            s.call("SET", "s", "text");
            assertTrue(s.call("LPUSH", "s", "x").startsWith("-WRONGTYPE "));

            assertEquals("1/0/1", counts(info(s, "commandstats"), "auth"));
            assertEquals("1/0/1", counts(info(s, "commandstats"), "lpush"));
            assertEquals(Map.of("errorstat_ERR", "count=1", "errorstat_WRONGTYPE", "count=1"), info(s, "errorstats"));
            assertEquals("2", info(s, "stats").get("total_error_replies"));
        }
    }

    @Test
    void rejectedCallsShouldCountAgainstTheCommandButUnknownOnesAgainstNone() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertTrue(s.call("SET", "k").startsWith("-ERR wrong number of arguments for 'set' command"));
            s.call("SET", "k1", "v1");
            s.call("SET", "k2", "v2");
            assertTrue(s.call("ASDF").startsWith("-ERR unknown command 'ASDF'"));
            assertTrue(s.call("CONFIG", "NOSUCH").startsWith("-ERR unknown subcommand 'NOSUCH'"));

            Map<String, String> stats = info(s, "commandstats");
            assertEquals("2/1/0", counts(stats, "set"));
            assertEquals(Set.of("cmdstat_set", "cmdstat_config|resetstat"), stats.keySet(),
                    "RESETSTAT counts itself after resetting, as in Redis; nothing for the unknown ones");
            assertEquals(Map.of("errorstat_ERR", "count=3"), info(s, "errorstats"));
            assertEquals("3", info(s, "stats").get("total_error_replies"));
        }
    }

    @Test
    void aWriteRefusedUnderMaxmemoryShouldBeARejectedCall() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("CONFIG", "SET", "maxmemory", "1");
            try {
                assertTrue(s.call("SET", "a", "b").startsWith("-OOM "));
            } finally {
                s.call("CONFIG", "SET", "maxmemory", "0");
            }

            assertEquals("0/1/0", counts(info(s, "commandstats"), "set"));
            assertEquals(Map.of("errorstat_OOM", "count=1"), info(s, "errorstats"));
        }
    }

    @Test
    void errorsInsideExecShouldBeTheirCommandsAndExecsOwnErrorsExecs() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("SET", "s", "text");
            s.call("MULTI");
            s.call("SET", "a", "b");
            s.call("LPUSH", "s", "x");
            assertTrue(s.call("EXEC").contains("-WRONGTYPE "));

            Map<String, String> stats = info(s, "commandstats");
            assertEquals("2/0/0", counts(stats, "set"));
            assertEquals("1/0/1", counts(stats, "lpush"));
            assertEquals("1/0/0", counts(stats, "exec"));
            assertEquals("1", info(s, "stats").get("total_error_replies"));

            assertEquals("-ERR EXEC without MULTI\r\n", s.call("EXEC"));
            assertEquals("2/0/1", counts(info(s, "commandstats"), "exec"));
            assertEquals(Map.of("errorstat_ERR", "count=1", "errorstat_WRONGTYPE", "count=1"), info(s, "errorstats"));
        }
    }

    @Test
    void aCommandRejectedInsideMultiShouldMakeExecFailWithExecabort() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("MULTI");
            assertTrue(s.call("SET").startsWith("-ERR wrong number of arguments for 'set' command"));
            assertTrue(s.call("EXEC").startsWith("-EXECABORT "));

            Map<String, String> stats = info(s, "commandstats");
            assertEquals("0/1/0", counts(stats, "set"));
            assertEquals("1/0/0", counts(stats, "multi"));
            assertEquals("1/0/1", counts(stats, "exec"));
            assertEquals(Map.of("errorstat_ERR", "count=1", "errorstat_EXECABORT", "count=1"), info(s, "errorstats"));
            assertEquals("2", info(s, "stats").get("total_error_replies"));
        }
    }

    @Test
    void aScriptsCommandErrorShouldCountOnceAgainstTheCommandAndFailTheScriptOnlyIfPassedOn()
            throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("SET", "s", "text");
            // Caught by pcall and dropped: the command failed, the script did not.
            assertEquals("$-1\r\n", s.call("EVAL", "redis.pcall('lpush', 's', 'x') return nil", "0"));
            Map<String, String> stats = info(s, "commandstats");
            assertEquals("1/0/1", counts(stats, "lpush"));
            assertEquals("1/0/0", counts(stats, "eval"));
            assertEquals(Map.of("errorstat_WRONGTYPE", "count=1"), info(s, "errorstats"));

            // Raised by redis.call, and returned by pcall: both fail the script, neither counts twice.
            assertTrue(s.call("EVAL", "return redis.call('lpush', 's', 'x')", "0").startsWith("-WRONGTYPE "));
            assertTrue(s.call("EVAL", "return redis.pcall('lpush', 's', 'x')", "0").startsWith("-WRONGTYPE "));
            stats = info(s, "commandstats");
            assertEquals("3/0/3", counts(stats, "lpush"));
            assertEquals("3/0/2", counts(stats, "eval"));
            assertEquals(Map.of("errorstat_WRONGTYPE", "count=3"), info(s, "errorstats"));
            assertEquals("3", info(s, "stats").get("total_error_replies"));

            // The script's own errors are counted when they reach the caller.
            assertEquals("-MYERR boom\r\n", s.call("EVAL", "return redis.error_reply('MYERR boom')", "0"));
            assertTrue(s.call("EVAL", "error('plain')", "0").startsWith("-ERR user_script:1: plain script: "));
            assertTrue(s.call("EVAL", "x").startsWith("-ERR wrong number of arguments for 'eval' command"));
            assertEquals("5/1/4", counts(info(s, "commandstats"), "eval"));
            assertEquals(Map.of("errorstat_ERR", "count=2", "errorstat_MYERR", "count=1",
                    "errorstat_WRONGTYPE", "count=3"), info(s, "errorstats"));
            assertEquals("6", info(s, "stats").get("total_error_replies"));
        }
    }

    @Test
    void aBlockingCommandShouldBeCountedWhenServedNotWhenItBlocks() throws IOException {
        try (RespTestSocket waiter = new RespTestSocket(ebb); RespTestSocket s = new RespTestSocket(ebb)) {
            waiter.send("BLPOP", "q", "0");
            awaitBlockedClients(s, 1);
            assertNull(info(s, "commandstats").get("cmdstat_blpop"), "not yet served");

            s.call("RPUSH", "q", "job");

            assertEquals("*2\r\n$1\r\nq\r\n$3\r\njob\r\n", waiter.reply());
            assertEquals("1/0/0", counts(info(s, "commandstats"), "blpop"));
        }
    }

    @Test
    void errorCodesShouldBeTheFirstWordWithin32BytesAndStopAt128Kinds() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("EVAL", "return redis.error_reply(ARGV[1])", "0", "A:B#C bad");
            s.call("EVAL", "return redis.error_reply(ARGV[1])", "0", "X".repeat(40) + " too long for a code");
            assertEquals("-ERR NOSPACE\r\n", s.call("EVAL", "return redis.error_reply(ARGV[1])", "0", "NOSPACE"));
            assertEquals(Map.of("errorstat_A_B_C", "count=1", "errorstat_ERR", "count=2"), info(s, "errorstats"));

            for (int i = 0; i < 130; i++) {
                s.call("EVAL", "return redis.error_reply(ARGV[1] .. ' my error')", "0", "E" + i);
            }
            assertEquals(Map.of("errorstat_ERRORSTATS_DISABLED", "count=1"), info(s, "errorstats"));
            assertEquals("133", info(s, "stats").get("total_error_replies"), "the total goes on counting");

            s.call("CONFIG", "RESETSTAT");
            s.call("EVAL", "return redis.error_reply(ARGV[1])", "0", "NEW kind");
            assertEquals(Map.of("errorstat_NEW", "count=1"), info(s, "errorstats"));
        }
    }

    @Test
    void redisCliShouldSeeTheSectionsThroughJedisToo() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "v");
            j.get("k");

            String all = j.info("all");
            String plain = j.info();

            assertTrue(all.contains("\r\ncmdstat_get:calls=1,"), all);
            assertTrue(plain.contains("# Errorstats\r\n"), plain);
            assertFalse(plain.contains("cmdstat_"), "commandstats only on request, as in Redis");
        }
    }

    @Test
    void latencystatsShouldGivePercentilesPerCommandInMicroseconds() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("SET", "k", "v");
            s.call("DEBUG", "SLEEP", "0.05");
            s.call("CONFIG", "GET", "maxmemory");

            Map<String, String> stats = info(s, "latencystats");
            assertTrue(stats.get("latency_percentiles_usec_set").matches("p50=\\d+\\.\\d{3},p99=\\d+\\.\\d{3},"
                    + "p99\\.9=\\d+\\.\\d{3}"), stats.toString());
            assertTrue(stats.containsKey("latency_percentiles_usec_config|get"), stats.toString());
            double sleep = Double.parseDouble(stats.get("latency_percentiles_usec_debug").split("[=,]")[1]);
            double set = Double.parseDouble(stats.get("latency_percentiles_usec_set").split("[=,]")[1]);
            assertTrue(sleep >= 50_000 && sleep < 1_000_000, "DEBUG SLEEP 0.05 took " + sleep + " µs (a late wake-up on a busy host may add ms)");
            assertTrue(set < sleep, set + " µs");

            assertEquals("+OK\r\n", s.call("CONFIG", "SET", "latency-tracking-info-percentiles", "50 99.999 0"));
            assertTrue(info(s, "latencystats").get("latency_percentiles_usec_set")
                    .matches("p50=\\d+\\.\\d{3},p99\\.999=\\d+\\.\\d{3},p0=\\d+\\.\\d{3}"));
            assertEquals("*2\r\n$33\r\nlatency-tracking-info-percentiles\r\n$11\r\n50 99.999 0\r\n",
                    s.call("CONFIG", "GET", "latency-tracking-info-percentiles"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'latency-tracking-info-percentiles') - "
                    + "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]\r\n",
                    s.call("CONFIG", "SET", "latency-tracking-info-percentiles", "101"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'latency-tracking-info-percentiles') - "
                    + "Invalid latency-tracking-info-percentiles parameters\r\n",
                    s.call("CONFIG", "SET", "latency-tracking-info-percentiles", "abc"));
            s.call("CONFIG", "SET", "latency-tracking-info-percentiles", "50 99 99.9");

            s.call("CONFIG", "SET", "latency-tracking", "no");
            s.call("GET", "k");
            assertNull(info(s, "latencystats").get("latency_percentiles_usec_get"), "not tracked while off");
            assertEquals("1/0/0", counts(info(s, "commandstats"), "get"), "still counted");
            s.call("CONFIG", "SET", "latency-tracking", "yes");

            s.call("CONFIG", "RESETSTAT");
            assertEquals(Set.of("latency_percentiles_usec_config|resetstat"), info(s, "latencystats").keySet());
        }
    }

    /** {@code calls/rejected_calls/failed_calls} of one command's line. */
    private static String counts(Map<String, String> stats, String command) {
        String line = stats.get("cmdstat_" + command);
        if (line == null) {
            return "none";
        }
        Matcher m = STATS_PATTERN.matcher(line);
        assertTrue(m.matches(), line);
        return m.group(1) + "/" + m.group(4) + "/" + m.group(5);
    }

    private static Map<String, String> info(RespTestSocket s, String section) throws IOException {
        String reply = s.call("INFO", section);
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : reply.substring(reply.indexOf("\r\n") + 2).split("\r\n")) {
            int colon = line.indexOf(':');
            if (!line.startsWith("#") && colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    private static void awaitBlockedClients(RespTestSocket s, int count) throws IOException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!String.valueOf(count).equals(info(s, "clients").get("blocked_clients"))) {
            assertTrue(System.nanoTime() < deadline, "no client blocked");
            Thread.onSpinWait();
        }
    }
}
