package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** LATENCY with latency-monitor-threshold, slow commands made with DEBUG SLEEP. */
class LatencyCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("enable-debug-command", "yes");

    @BeforeEach
    void reset() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("CONFIG", "SET", "latency-monitor-threshold", "0");
            s.call("LATENCY", "RESET");
        }
    }

    @Test
    void aDisabledMonitorShouldRecordNothingAndDoctorShouldSaySo() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("DEBUG", "SLEEP", "0.02");

            assertEquals("*0\r\n", s.call("LATENCY", "LATEST"));
            assertTrue(s.call("LATENCY", "DOCTOR").contains("I'm sorry, Dave, I can't do that. Latency monitoring is"
                    + " disabled in this Redis instance."));
        }
    }

    @Test
    void aCommandReachingTheThresholdShouldBeRecordedAsACommandEvent() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            // 40 ms, not 10: a GC pause or a stolen vCPU must not make the commands around the sleep events too.
            s.call("CONFIG", "SET", "latency-monitor-threshold", "40");
            assertTrue(s.call("LATENCY", "DOCTOR").contains("Dave, no latency spike was observed"));
            s.call("DEBUG", "SLEEP", "0.06");
            s.call("GET", "fast");

            String latest = s.call("LATENCY", "LATEST");
            String history = s.call("LATENCY", "HISTORY", "command");

            List<String> lines = List.of(latest.split("\r\n"));
            assertEquals("*1", lines.get(0));
            assertEquals("*4", lines.get(1));
            assertEquals("$7", lines.get(2));
            assertEquals("command", lines.get(3));
            long time = Long.parseLong(lines.get(4).substring(1));
            long latency = Long.parseLong(lines.get(5).substring(1));
            assertTrue(Math.abs(time - System.currentTimeMillis() / 1000) <= 2);
            assertTrue(latency >= 60 && latency < 1000, "ms: " + latency);
            assertEquals(":" + latency, lines.get(6));
            assertEquals("*1\r\n*2\r\n:" + time + "\r\n:" + latency + "\r\n", history);
            assertEquals("*0\r\n", s.call("LATENCY", "HISTORY", "fast-command"));
            assertTrue(s.call("LATENCY", "DOCTOR").contains("1. command: 1 latency spikes"));
            assertEquals(":1\r\n", s.call("LATENCY", "RESET", "command", "nonexistent"));
            assertEquals("*0\r\n", s.call("LATENCY", "LATEST"));
            assertEquals(":0\r\n", s.call("LATENCY", "RESET"));
        }
    }

    @Test
    void histogramShouldGiveCallsAndCumulativeMicrosecondBucketsPerCommand() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("CONFIG", "RESETSTAT");
            for (int i = 0; i < 3; i++) {
                s.call("SET", "k", "v");
            }
            s.call("CONFIG", "GET", "maxmemory");

            List<String> lines = List.of(s.call("LATENCY", "HISTOGRAM", "set", "nosuch", "CONFIG").split("\r\n"));

            // RESP2: name, {calls, n, histogram_usec, {µs, cumulative count, ...}} for set, config|resetstat and
            // config|get (CONFIG stands for its subcommands; unknown names are skipped).
            assertEquals(List.of("*6", "$3", "set", "*4", "$5", "calls", ":3", "$14", "histogram_usec"),
                    lines.subList(0, 9));
            int pairs = Integer.parseInt(lines.get(9).substring(1)) / 2;
            long previousMicros = 0;
            long previousCount = 0;
            for (int i = 0; i < pairs; i++) {
                long micros = Long.parseLong(lines.get(10 + 2 * i).substring(1));
                long count = Long.parseLong(lines.get(11 + 2 * i).substring(1));
                assertTrue(micros > previousMicros && count > previousCount, lines.toString());
                previousMicros = micros;
                previousCount = count;
            }
            assertEquals(3, previousCount, "the last bucket holds every call");
            String rest = String.join("\n", lines.subList(10 + 2 * pairs, lines.size()));
            assertTrue(rest.contains("$10\nconfig|get\n*4\n$5\ncalls\n:1\n$14\nhistogram_usec\n"), rest);
            assertTrue(rest.contains("$16\nconfig|resetstat\n*4\n$5\ncalls\n:1\n"), rest);

            assertEquals("*0\r\n", s.call("LATENCY", "HISTOGRAM", "nosuch", "config|nosuch"));
            assertTrue(s.call("LATENCY", "HISTOGRAM").contains("\r\nset\r\n"), "no names: every command");
            s.call("HELLO", "3");
            assertTrue(s.call("LATENCY", "HISTOGRAM", "config|get").startsWith(
                    "%1\r\n$10\r\nconfig|get\r\n%2\r\n$5\r\ncalls\r\n:1\r\n$14\r\nhistogram_usec\r\n%"));
        }
    }

    @Test
    void arityAndUnknownSubcommandsShouldGetRedisErrors() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("-ERR wrong number of arguments for 'latency|history' command\r\n",
                    s.call("LATENCY", "HISTORY"));
            assertEquals("-ERR unknown subcommand 'NOPE'. Try LATENCY HELP.\r\n", s.call("LATENCY", "NOPE"));
            assertEquals("-ERR No samples available for event 'nosuch'\r\n", s.call("LATENCY", "GRAPH", "nosuch"));
            assertEquals("-ERR wrong number of arguments for 'latency|graph' command\r\n", s.call("LATENCY", "GRAPH"));
            assertTrue(s.call("LATENCY", "HELP").startsWith(
                    "*17\r\n+LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+DOCTOR\r\n"));
        }
    }
}
