package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The HdrHistogram layout Redis uses for latencystats (1 ns to 1 s, two significant digits). */
class LatencyHistogramTest {

    @Test
    void valuesUpTo255ShouldBeExactAndLargerOnesWithinTheirSlot() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(200);

        assertEquals(200, h.valueAtPercentile(50));
        assertEquals(255, LatencyHistogram.highestEquivalentValue(255));
        assertEquals(257, LatencyHistogram.highestEquivalentValue(256), "slots of 2 from 256");
        assertEquals(1003, LatencyHistogram.highestEquivalentValue(1000), "slots of 4 from 512");
        assertEquals(1_002_438_655L, LatencyHistogram.highestEquivalentValue(1_000_000_000L));
    }

    @Test
    void percentilesShouldBeTheTopOfTheSlotWhereTheRunningCountReachesThem() {
        LatencyHistogram h = new LatencyHistogram();
        for (long v = 1; v <= 1000; v++) {
            h.record(v);
        }

        assertEquals(1000, h.count());
        assertEquals(501, h.valueAtPercentile(50), "the 500th value, 500, is in slot 500-501");
        assertEquals(991, h.valueAtPercentile(99), "the 990th, in slot 988-991");
        assertEquals(999, h.valueAtPercentile(99.9), "the 999th, in slot 996-999");
        assertEquals(1003, h.valueAtPercentile(100));
        assertEquals(1, h.valueAtPercentile(0), "percentile 0: the lowest value of the first slot");
    }

    @Test
    void valuesShouldBeClampedToOneNanosecondAndOneSecond() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(0);
        h.record(-5);
        h.record(5_000_000_000L);

        assertEquals(1, h.valueAtPercentile(50));
        assertEquals(1_002_438_655L, h.valueAtPercentile(100));
        assertEquals(0, new LatencyHistogram().valueAtPercentile(50), "empty");
    }

    @Test
    void cumulativeBucketsShouldBeRedisLogLevelsInMicrosecondsSkippingEmptyOnes() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(1000);
        for (int i = 0; i < 12; i++) {
            h.record(1500);
        }
        for (int i = 0; i < 36; i++) {
            h.record(3000);
        }
        h.record(5000);
        h.record(5000);
        h.record(131_072);

        List<String> buckets = new ArrayList<>();
        for (long[] b : h.cumulativeBuckets()) {
            buckets.add(b[0] + ":" + b[1]);
        }

        // Levels 1024, 2048, 4096, 8192 ns ... read as the top of their slot in µs; 16 to 66 add nothing.
        assertEquals(List.of("1:1", "2:13", "4:49", "8:51", "132:52"), buckets);
        assertEquals(List.of(), new LatencyHistogram().cumulativeBuckets());
    }

    @Test
    void everyIndexShouldMapBackToTheLowestValueOfItsSlot() {
        for (long v : new long[] {1, 2, 127, 128, 255, 256, 257, 511, 512, 1000, 65_535, 1L << 20, 999_999_999L}) {
            int index = LatencyHistogram.index(v);
            long lowest = LatencyHistogram.valueAt(index);
            assertEquals(index, LatencyHistogram.index(lowest), "value " + v);
            assertEquals(LatencyHistogram.highestEquivalentValue(v), LatencyHistogram.highestEquivalentValue(lowest));
        }
    }
}
