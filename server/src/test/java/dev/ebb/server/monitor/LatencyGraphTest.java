package dev.ebb.server.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/**
 * LATENCY GRAPH's text, byte for byte as redis-server 7.2.4 drew it for the same samples (50, 200
 * and 100 ms, one second apart: DEBUG SLEEP under latency-monitor-threshold 1).
 */
class LatencyGraphTest {
    private static final long T0 = 1_700_000_000_000L;

    @Test
    void graphShouldDrawSamplesAsRedisDoes() {
        LatencyMonitor monitor = new LatencyMonitor();
        monitor.thresholdMs(1);
        monitor.record("command", 50, T0);
        monitor.record("command", 200, T0 + 2_000);
        monitor.record("command", 100, T0 + 3_000);

        String graph = monitor.graph("command", T0 + 3_400);

        assertEquals("command - high 200 ms, low 50 ms (all time high 200 ms)\n"
                + "-".repeat(80) + "\n"
                + " # \n"
                + " | \n"
                + " |o\n"
                + "_||\n"
                + "   \n"
                + "310\n"
                + "sss\n", graph);
    }

    @Test
    void graphShouldLabelOldSamplesInMinutesHoursAndDaysAndWrapAtEightyColumns() {
        LatencyMonitor monitor = new LatencyMonitor();
        monitor.thresholdMs(1);
        for (int i = 0; i < 90; i++) {
            monitor.record("fast-command", 10 + i, T0 + i * 1000L);
        }

        String graph = monitor.graph("fast-command", T0 + 89_000 + 2L * 24 * 3600 * 1000);

        String[] lines = graph.split("\n", -1);
        assertEquals("fast-command - high 99 ms, low 10 ms (all time high 99 ms)", lines[0]);
        assertEquals(80, lines[2].length(), "the first band has 80 columns");
        assertEquals('2', lines[7].charAt(0), "2 days ago");
        assertEquals('d', lines[8].charAt(0));
        assertEquals("", lines[9], "a blank line before the second band");
        assertEquals(10, lines[10].length(), "the second band has the 10 remaining samples");
    }

    @Test
    void graphOfAnEventWithoutSamplesShouldBeNull() {
        assertNull(new LatencyMonitor().graph("command", T0));
    }
}
