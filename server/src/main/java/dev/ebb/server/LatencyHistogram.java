package dev.ebb.server;

import java.util.ArrayList;
import java.util.List;

/**
 * One command's latency histogram for INFO latencystats: the layout of the HdrHistogram Redis uses
 * for it (values 1 ns to 1 s, two significant decimal digits), so percentiles come out with the
 * same resolution as Redis's: exact up to 255 ns, then within 1/128 (0.8%) of the value.
 *
 * <p>Values fall in buckets that double in range; each bucket has 128 sub-buckets (256 in the
 * first), so a value {@code v} with highest bit {@code b >= 8} counts in a slot of width
 * {@code 2^(b-7)}. A percentile is the highest value of the slot where the running count reaches
 * {@code round(percentile / 100 * total)}, as hdr_value_at_percentile returns it. 3,072 counts,
 * 24 KB, allocated when a command first runs. Loop thread only.
 */
public final class LatencyHistogram {
    /** Redis's LATENCY_HISTOGRAM_MIN_VALUE and MAX_VALUE, in ns. */
    static final long MIN_VALUE = 1;
    static final long MAX_VALUE = 1_000_000_000L;
    /** log2 of the sub-buckets a bucket has (256 for two significant digits), and half of it. */
    private static final int SUB_BUCKET_MAGNITUDE = 8;
    private static final int SUB_BUCKET_HALF_MAGNITUDE = SUB_BUCKET_MAGNITUDE - 1;
    private static final int SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_MAGNITUDE;
    private static final long SUB_BUCKET_MASK = (1L << SUB_BUCKET_MAGNITUDE) - 1;
    /** Buckets needed to reach {@link #MAX_VALUE}: 256 * 2^22 > 10^9. */
    private static final int BUCKETS = 23;

    /** The first level of LATENCY HISTOGRAM's logarithmic iteration, in ns (Redis's 1024, base 2). */
    private static final long FIRST_REPORTING_LEVEL = 1024;

    private final long[] counts = new long[(BUCKETS + 1) * SUB_BUCKET_HALF_COUNT];
    private long total;

    /** Counts one latency of {@code nanos}, clamped to 1 ns .. 1 s as Redis clamps it. */
    void record(long nanos) {
        long value = Math.max(MIN_VALUE, Math.min(MAX_VALUE, nanos));
        counts[index(value)]++;
        total++;
    }

    /** Latencies counted. */
    public long count() {
        return total;
    }

    /**
     * The latency at {@code percentile} (0 to 100) in ns: the highest value of the slot where the
     * running count first reaches the percentile's share of the total (at least one), or for
     * percentile 0 the lowest value of that slot; 0 when empty.
     */
    long valueAtPercentile(double percentile) {
        if (total == 0) {
            return 0;
        }
        double share = Math.min(percentile, 100.0) / 100.0;
        long wanted = Math.max(1, (long) (share * total + 0.5));
        long running = 0;
        for (int i = 0; i < counts.length; i++) {
            running += counts[i];
            if (running >= wanted) {
                return percentile == 0 ? valueAt(i) : highestEquivalentValue(valueAt(i));
            }
        }
        return 0;
    }

    /**
     * LATENCY HISTOGRAM's buckets, as Redis's fillCommandCDF reads them with a logarithmic iterator
     * (first level 1024 ns, base 2): for each level {@code L}, the top of {@code L}'s slot in whole µs
     * and how many latencies are at most that, from 1024 ns up to the first level that holds them all;
     * levels that add nothing are left out. Pairs {@code {µs, cumulative count}}.
     */
    public List<long[]> cumulativeBuckets() {
        List<long[]> buckets = new ArrayList<>();
        long cumulative = 0;
        int next = 0;
        for (long level = FIRST_REPORTING_LEVEL; cumulative < total; level <<= 1) {
            int last = Math.min(index(level), counts.length - 1);
            long before = cumulative;
            for (; next <= last; next++) {
                cumulative += counts[next];
            }
            if (cumulative > before) {
                buckets.add(new long[] {highestEquivalentValue(level) / 1000, cumulative});
            }
        }
        return buckets;
    }

    static int index(long value) {
        int bucket = bucketOf(value);
        int subBucket = (int) (value >>> bucket);
        return ((bucket + 1) << SUB_BUCKET_HALF_MAGNITUDE) + subBucket - SUB_BUCKET_HALF_COUNT;
    }

    /** The lowest value counted at {@code index}. */
    static long valueAt(int index) {
        int bucket = (index >> SUB_BUCKET_HALF_MAGNITUDE) - 1;
        int subBucket = (index & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT;
        if (bucket < 0) {
            subBucket -= SUB_BUCKET_HALF_COUNT;
            bucket = 0;
        }
        return (long) subBucket << bucket;
    }

    /** The highest value counted in the same slot as {@code value}. */
    static long highestEquivalentValue(long value) {
        int bucket = bucketOf(value);
        long width = 1L << bucket;
        long lowest = (value >>> bucket) << bucket;
        return lowest + width - 1;
    }

    private static int bucketOf(long value) {
        int pow2Ceiling = Long.SIZE - Long.numberOfLeadingZeros(value | SUB_BUCKET_MASK);
        return pow2Ceiling - (SUB_BUCKET_HALF_MAGNITUDE + 1);
    }
}
