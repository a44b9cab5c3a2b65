package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * redis-cli's monitoring modes, which sample the server until stopped: --latency (bounded: with
 * stdout not a terminal it samples for -i seconds, prints one line and exits), --latency-history
 * and --stat (unbounded: the test reads their lines while they run, then kills them). The unbounded
 * modes run under {@code stdbuf -oL} so that their lines reach the output file as they are printed,
 * not when a 4 KiB stdio buffer fills.
 */
class RedisCliLiveModesTest {
    private static final Duration LIVE_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern LATENCY_LINE = Pattern.compile(
            "min: (\\d+), max: (\\d+), avg: \\d+\\.\\d{2} \\((\\d+) samples\\) -- 0\\.\\d+ seconds range");
    private static final Pattern STAT_HEADER =
            Pattern.compile("keys\\s+mem\\s+clients\\s+blocked\\s+requests\\s+connections");
    /** A --stat row: keys, mem, clients, blocked, requests (+delta), connections. */
    private static final Pattern STAT_ROW = Pattern.compile(
            "(?m)^(\\d+)\\s+(\\d+(?:\\.\\d+)?[BKMGT])\\s+(\\d+)\\s+(\\d+)\\s+(\\d+) \\(\\+\\d+\\)\\s+(\\d+)");

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void latencyWithoutATerminalSamplesForTheIntervalAndPrintsOneLine() {
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result result = cli.run("--latency", "-i", "0.5");

        assertEquals(0, result.exitCode(), result::describe);
        assertEquals(1, result.lines().size(), result::describe);
        Matcher m = Pattern.compile("(\\d+) (\\d+) (\\d+\\.\\d{2}) (\\d+)").matcher(result.lines().get(0));
        assertTrue(m.matches(), result::describe);
        assertTrue(Long.parseLong(m.group(1)) <= Long.parseLong(m.group(2)), result::describe);
        assertTrue(Long.parseLong(m.group(4)) > 0, result::describe);
    }

    @Test
    void latencyHistoryPrintsAMinMaxAvgLinePerInterval() {
        RedisCli cli = RedisCli.against(ebb.port());
        String stdbuf = RedisCli.requireOnPath("stdbuf", "coreutils");

        try (LiveProcess latency = cli.start(List.of(stdbuf, "-oL"), "--no-raw", "--latency-history", "-i", "0.2")) {
            String output = latency.await(0, LATENCY_LINE, 2, LIVE_TIMEOUT);

            Matcher m = LATENCY_LINE.matcher(output);
            int lines = 0;
            while (m.find()) {
                lines++;
                assertTrue(Long.parseLong(m.group(1)) <= Long.parseLong(m.group(2)), output);
                assertTrue(Long.parseLong(m.group(3)) > 0, output);
            }
            assertTrue(lines >= 2,
                    () -> "expected two 'min: .. seconds range' lines in\n" + LiveProcess.visible(output));
        }
    }

    @Test
    void statPrintsKeysMemoryAndClientsEveryInterval() {
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            for (int i = 0; i < 7; i++) {
                jedis.set("stat:" + i, "v");
            }
        }
        RedisCli cli = RedisCli.against(ebb.port());
        String stdbuf = RedisCli.requireOnPath("stdbuf", "coreutils");

        try (LiveProcess stat = cli.start(List.of(stdbuf, "-oL"), "--stat", "-i", "0.1")) {
            String output = stat.await(0, STAT_ROW, 3, LIVE_TIMEOUT);

            assertTrue(STAT_HEADER.matcher(output).find(), () -> "no --stat header in\n" + output);
            Matcher row = STAT_ROW.matcher(output);
            int rows = 0;
            while (row.find()) {
                rows++;
                assertEquals("7", row.group(1), () -> "keys column in\n" + output);
                assertTrue(Integer.parseInt(row.group(3)) >= 1, () -> "clients column in\n" + output);
            }
            assertTrue(rows >= 3, () -> "expected three --stat rows in\n" + output);
        }
    }
}
