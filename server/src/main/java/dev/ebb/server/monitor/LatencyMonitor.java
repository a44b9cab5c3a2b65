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
