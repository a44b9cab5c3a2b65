package dev.ebb.bench.expiry;

import dev.ebb.storage.LongDict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How far from uniform the {@code sampling} strategy's random draws are: draws
 * {@value #DRAWS_PER_KEY} times as many keys as a {@link LongDict} of {@value #SLOTS} slots holds
 * with {@link LongDict#randomHandle()}, at each load factor, and reports how often each key came
 * up relative to a uniform draw. The dict's walk from a random slot to the next key favours keys
 * after empty slots, more so at low load; the storage engine caps the favour at 16 times uniform.
 * Deterministic: the dict and its sampler are seeded.
 *
 * <p>Columns: {@code max_ratio}, {@code p99_ratio}, {@code p1_ratio}, {@code min_ratio} (a key's
 * draws over the uniform expectation), {@code cv} (coefficient of variation of the draw counts;
 * a uniform draw would give {@code 1/sqrt(DRAWS_PER_KEY)} = 0.1 from chance alone), and
 * {@code never_drawn_after_n} (share of keys not drawn in the first n draws, n = keys; uniform:
 * 1/e = 0.368): what an active expire pass over n draws would miss.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.ebb.bench.expiry.DictSamplingBias [resultsDir]}.
 */
public final class DictSamplingBias {
    static final int SLOTS = 1 << 16;
    static final int DRAWS_PER_KEY = 100;
    static final double[] LOADS = {0.1, 0.25, 0.5, 0.75};
    static final String CSV_HEADER = "load,keys,draws,max_ratio,p99_ratio,p1_ratio,min_ratio,cv,never_drawn_after_n";

    private DictSamplingBias() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "benchmarks/results");
        Files.createDirectories(dir);
        StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        for (double load : LOADS) {
            String line = measure(dictAtLoad(SLOTS, load, 11), load);
            System.out.println(line);
            csv.append(line).append('\n');
        }
        Files.writeString(dir.resolve("dict-sampling-bias.csv"), csv.toString(), StandardCharsets.UTF_8);
    }

    /**
     * A dict at rest of exactly {@code slots} slots holding {@code ceil(load * slots)} keys
     * ({@code "key:" + id} to {@code id}), placed at random: fills to the maximum load 3/4 and
     * removes random keys, since growing from empty could only stop at loads above 3/8.
     *
     * @throws IllegalArgumentException if the load is outside [0.1, 0.75]
     */
    static LongDict dictAtLoad(int slots, double load, long seed) {
        if (load < 0.1 || load > 0.75) {
            throw new IllegalArgumentException("load must be in [0.1, 0.75]: load=" + load);
        }
        int full = slots - slots / 4;
        int target = (int) Math.ceil(load * slots);
        LongDict dict = new LongDict(seed);
        for (int i = 0; i < full; i++) {
            dict.put(ExpiryKeys.key(i), i);
        }
        dict.rehashSteps(Integer.MAX_VALUE);
        int[] ids = new int[full];
        Arrays.setAll(ids, i -> i);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = full - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
        }
        for (int i = 0; dict.size() > target; i++) {
            dict.remove(ExpiryKeys.key(ids[i]));
        }
        dict.rehashSteps(Integer.MAX_VALUE);
        if (dict.capacity() != slots || dict.isRehashing()) {
            throw new IllegalStateException("dict not at rest at " + slots + " slots: capacity=" + dict.capacity()
                    + ", rehashing=" + dict.isRehashing());
        }
        return dict;
    }

    /** One CSV line of draw statistics for {@code dict}, whose values are the key ids. */
    static String measure(LongDict dict, double load) {
        int keys = dict.size();
        int idBound = dict.capacity();
        int[] counts = new int[idBound];
        long draws = (long) keys * DRAWS_PER_KEY;
        int neverDrawnAfterN = 0;
        for (long d = 0; d < draws; d++) {
            counts[(int) dict.valueAt(dict.randomHandle())]++;
            if (d == keys - 1) {
                neverDrawnAfterN = countPresentWithZero(dict, counts);
            }
        }
        int[] drawn = new int[keys];
        int n = 0;
        for (int id = 0; id < idBound; id++) {
            if (dict.containsKey(ExpiryKeys.key(id))) {
                drawn[n++] = counts[id];
            }
        }
        Arrays.sort(drawn);
        double expected = DRAWS_PER_KEY;
        double mean = 0;
        for (int c : drawn) {
            mean += c;
        }
        mean /= keys;
        double variance = 0;
        for (int c : drawn) {
            variance += (c - mean) * (c - mean);
        }
        double cv = Math.sqrt(variance / keys) / mean;
        return String.format(Locale.ROOT, "%.2f,%d,%d,%.2f,%.2f,%.2f,%.2f,%.3f,%.3f", load, keys, draws,
                drawn[keys - 1] / expected, drawn[(int) (keys * 0.99)] / expected, drawn[(int) (keys * 0.01)] / expected,
                drawn[0] / expected, cv, neverDrawnAfterN / (double) keys);
    }

    private static int countPresentWithZero(LongDict dict, int[] counts) {
        int zero = 0;
        for (int id = 0; id < counts.length; id++) {
            if (counts[id] == 0 && dict.containsKey(ExpiryKeys.key(id))) {
                zero++;
            }
        }
        return zero;
    }
}
