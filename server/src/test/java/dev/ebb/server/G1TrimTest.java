package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A trim's flag sequence against a scripted JVM: the clock moves only when the trim pauses. */
class G1TrimTest {
    private static final long MB = 1024L * 1024;

    private final Map<String, String> flags = new HashMap<>(Map.of(
            G1Trim.MIN_FREE, "40", G1Trim.MAX_FREE, "70", G1Trim.INTERVAL, "0"));
    private final List<String> writes = new ArrayList<>();
    private long nanos;
    private long committed = 950 * MB;
    private long collections = 7;

    private final G1Trim.Flags jvmFlags = new G1Trim.Flags() {
        @Override
        public String get(String name) {
            return flags.get(name);
        }

        @Override
        public void set(String name, String value) {
            Map<String, String> next = new HashMap<>(flags);
            next.put(name, value);
            if (Integer.parseInt(next.get(G1Trim.MIN_FREE)) > Integer.parseInt(next.get(G1Trim.MAX_FREE))) {
                throw new IllegalArgumentException("MinHeapFreeRatio above MaxHeapFreeRatio"); // as HotSpot refuses
            }
            flags.put(name, value);
            writes.add(name + "=" + value);
        }
    };

    @Test
    void shouldAskForAPeriodicCycleWithLowFreeRatiosAndPutTheFlagsBackOnceTheHeapShrank() {
        G1Trim trim = new G1Trim(jvmFlags, () -> committed, () -> collections, () -> nanos, ms -> {
            nanos += TimeUnit.MILLISECONDS.toNanos(ms);
            if (nanos >= TimeUnit.MILLISECONDS.toNanos(400)) {
                collections = 8; // the periodic cycle's concurrent start
            }
            if (nanos >= TimeUnit.MILLISECONDS.toNanos(700)) {
                committed = 140 * MB; // its remark
                assertEquals("10", flags.get(G1Trim.MAX_FREE), "the low ratios hold until the remark");
            }
        });

        trim.run();

        assertEquals(List.of("MinHeapFreeRatio=0", "MaxHeapFreeRatio=10", "G1PeriodicGCInterval=200",
                "G1PeriodicGCInterval=0", "MaxHeapFreeRatio=70", "MinHeapFreeRatio=40"), writes);
        assertTrue(nanos >= TimeUnit.MILLISECONDS.toNanos(700) && nanos < TimeUnit.MILLISECONDS.toNanos(800),
                "stopped waiting at the remark: " + nanos / 1_000_000 + " ms");
    }

    @Test
    void anEmbeddedServerShouldNeverChangeItsHostJvmsFlags() {
        assertTrue(G1Trim.forThisJvm().isEmpty(), "only Main enables trims; the test JVM embeds servers");
    }

    @Test
    void shouldStopWaitingAtASecondCollectionOrTheTimeout() {
        G1Trim twoCollections = new G1Trim(jvmFlags, () -> committed, () -> collections, () -> nanos, ms -> {
            nanos += TimeUnit.MILLISECONDS.toNanos(ms);
            collections++;
        });
        twoCollections.run();
        assertTrue(nanos <= TimeUnit.MILLISECONDS.toNanos(100), "a heap that did not shrink: " + nanos);

        nanos = 0;
        writes.clear();
        G1Trim nothingHappens = new G1Trim(jvmFlags, () -> committed, () -> collections, () -> nanos,
                ms -> nanos += TimeUnit.MILLISECONDS.toNanos(ms));
        nothingHappens.run();
        assertEquals(TimeUnit.SECONDS.toNanos(G1Trim.TIMEOUT_S), nanos, "gave up after the timeout");
        assertEquals(Map.of(G1Trim.MIN_FREE, "40", G1Trim.MAX_FREE, "70", G1Trim.INTERVAL, "0"), flags);
    }
}
