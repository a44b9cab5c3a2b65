package dev.ebb.bench.expiry;

import dev.ebb.storage.LongDict;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of drawing random keys from an {@code expires} dict ({@link LongDict}) at rest, at load
 * factors from the shrink threshold (0.1) to the maximum (0.75), in a table of {@code slots}
 * slots: 2^16 (fits in the caches) and 2^21 (1.5 million keys at the maximum load).
 * {@code randomHandle} is what the {@code sampling} strategy calls once per key examined;
 * {@code sampleKeys20} is the run-walking sampler that collects 20 distinct keys (eviction's
 * pool), reported per call. The bias of {@code randomHandle} is measured by
 * {@link DictSamplingBias}, which is deterministic and not a timing.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar ExpirySampling -f 1 -wi 2 -i 3 -w 1s -r 1s}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
public class ExpirySamplingBenchmarks {

    /** A dict of exactly {@code slots} slots holding {@code load * slots} keys. */
    @State(Scope.Benchmark)
    public static class LoadedDict {
        @Param({"65536", "2097152"})
        public int slots;

        @Param({"0.1", "0.25", "0.5", "0.75"})
        public double load;

        LongDict dict;
        final byte[][] sample = new byte[20][];

        @Setup
        public void fill() {
            dict = DictSamplingBias.dictAtLoad(slots, load, 9);
        }
    }

    @Benchmark
    public int randomHandle(LoadedDict state) {
        return state.dict.randomHandle();
    }

    @Benchmark
    public int sampleKeys20(LoadedDict state) {
        return state.dict.sampleKeys(state.sample, state.sample.length);
    }
}
