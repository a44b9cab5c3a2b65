package dev.ebb.server.monitor;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The latency monitor (LATENCY): for each event class ({@code command}, {@code fast-command},
 * {@code expire-cycle}, {@code eviction-cycle}) the last {@value #SAMPLES} seconds in which it
 * took at least {@code latency-monitor-threshold} ms, one sample per second (the worst one of
 * that second), plus the worst latency ever recorded. A threshold of 0 disables it.
 *
 * <p>Costs: {@link #record} O(1) (one comparison when under the threshold; an event's history is
 * allocated the first time it is recorded). Not thread-safe: loop thread only.
 */
public final class LatencyMonitor {
    static final int SAMPLES = 160;

    /** One event class's history: a ring of (unix second, ms) samples. */
    public static final class History {
        private final long[] times = new long[SAMPLES];
        private final long[] latencies = new long[SAMPLES];
        private int next;
        private int count;
        private long max;

        private void add(long unixSeconds, long ms) {
            int last = (next + SAMPLES - 1) % SAMPLES;
            if (count > 0 && times[last] == unixSeconds) {
                latencies[last] = Math.max(latencies[last], ms);
            } else {
                times[next] = unixSeconds;
                latencies[next] = ms;
                next = (next + 1) % SAMPLES;
                count = Math.min(count + 1, SAMPLES);
            }
            max = Math.max(max, ms);
        }

        /** Samples held, at most {@value #SAMPLES}. */
        public int count() {
            return count;
        }

        /** The {@code i}-th sample's unix time in seconds, oldest first. */
        public long time(int i) {
            return times[(next - count + i + SAMPLES) % SAMPLES];
        }

        /** The {@code i}-th sample's latency in ms, oldest first. */
        public long latency(int i) {
            return latencies[(next - count + i + SAMPLES) % SAMPLES];
        }

        /** The worst latency recorded, in ms. */
        public long max() {
            return max;
        }
    }

    /**
     * LATENCY GRAPH's text for {@code event}, as Redis draws it: a title line with the highest and
     * lowest sample and the all-time high, a rule of 80 dashes, then the samples as a four-row
     * sparkline, each labelled with how long ago it was ({@code 12s}, {@code 3m}, {@code 2h},
     * {@code 1d}); null if the event has no samples.
     */
    public String graph(String event, long nowMs) {
        History h = events.get(event);
        if (h == null) {
            return null;
        }
        Sparkline line = new Sparkline(h.count());
        long low = 0;
        long high = 0;
        for (int i = 0; i < h.count(); i++) {
            long ms = h.latency(i);
            low = i == 0 ? ms : Math.min(low, ms);
            high = i == 0 ? ms : Math.max(high, ms);
            line.add(ms, ago(nowMs / 1000 - h.time(i)));
        }
        StringBuilder out = new StringBuilder()
                .append(event).append(" - high ").append(high).append(" ms, low ").append(low)
                .append(" ms (all time high ").append(h.max()).append(" ms)\n")
                .append("-".repeat(GRAPH_COLUMNS)).append('\n');
        line.render(out, GRAPH_COLUMNS, GRAPH_ROWS);
        return out.toString();
    }

    private static final int GRAPH_COLUMNS = 80;
    private static final int GRAPH_ROWS = 4;

    private static String ago(long seconds) {
        if (seconds < 60) {
            return seconds + "s";
        } else if (seconds < 3600) {
            return seconds / 60 + "m";
        } else if (seconds < 3600 * 24) {
            return seconds / 3600 + "h";
        }
        return seconds / (3600 * 24) + "d";
    }

    private final Map<String, History> events = new LinkedHashMap<>();
    private long thresholdMs;

    /** Sets {@code latency-monitor-threshold} in ms (0 disables recording). */
    public void thresholdMs(long thresholdMs) {
        this.thresholdMs = thresholdMs;
    }

    public long thresholdMs() {
        return thresholdMs;
    }

    /** Records {@code ms} for {@code event} at {@code nowMs} if the monitor is on and it reaches the threshold. */
    public void record(String event, long ms, long nowMs) {
        if (thresholdMs <= 0 || ms < thresholdMs) {
            return;
        }
        events.computeIfAbsent(event, e -> new History()).add(nowMs / 1000, ms);
    }

    /** Events with history, in the order they were first recorded. */
    public Map<String, History> events() {
        return Collections.unmodifiableMap(events);
    }

    /** The history of {@code event}, or null. */
    public History history(String event) {
        return events.get(event);
    }

    /** LATENCY RESET event…: forgets the named events; returns how many existed. */
    public int reset(Collection<String> names) {
        int removed = 0;
        for (String name : names) {
            removed += events.remove(name) == null ? 0 : 1;
        }
        return removed;
    }

    /** LATENCY RESET: forgets every event; returns how many there were. */
    public int resetAll() {
        int n = events.size();
        events.clear();
        return n;
    }
}
