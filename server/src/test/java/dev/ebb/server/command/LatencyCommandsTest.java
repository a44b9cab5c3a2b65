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
    static final EbbExtension ebb = new EbbExtension();

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
            s.call("CONFIG", "SET", "latency-monitor-threshold", "10");
            assertTrue(s.call("LATENCY", "DOCTOR").contains("Dave, no latency spike was observed"));
            s.call("DEBUG", "SLEEP", "0.03");
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
            assertTrue(latency >= 30 && latency < 1000, "ms: " + latency);
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
    void arityAndUnknownSubcommandsShouldGetRedisErrors() throws Exception {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("-ERR wrong number of arguments for 'latency|history' command\r\n",
                    s.call("LATENCY", "HISTORY"));
            assertEquals("-ERR unknown subcommand 'NOPE'. Try LATENCY HELP.\r\n", s.call("LATENCY", "NOPE"));
            assertTrue(s.call("LATENCY", "HELP").startsWith(
                    "*12\r\n+LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+DOCTOR\r\n"));
        }
    }
}
