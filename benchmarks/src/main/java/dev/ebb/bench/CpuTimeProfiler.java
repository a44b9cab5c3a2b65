package dev.ebb.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler reporting CPU time per operation, for measuring on a shared machine: wall-clock time per
 * operation counts the time the benchmark thread waited for a core, CPU time does not.
 *
 * <p>{@code cpu.worker}: CPU time of the benchmark's worker threads per operation. {@code cpu.process}: CPU
 * time of the whole JVM per operation, which adds the collector's threads (G1's concurrent refinement of the
 * cards a write barrier dirtied, for instance) and JMH's own control thread (mostly asleep). Both divide by
 * all operations of the iteration, including the few run while JMH synchronizes its threads.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar Dict -prof dev.ebb.bench.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {

    private static final String WORKER_NAME = "jmh-worker";

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean system =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private Map<Long, Long> workerCpuAtStart = new HashMap<>();
    private long processCpuAtStart;

    @Override
    public String getDescription() {
        return "CPU time per operation of the worker threads and of the whole JVM";
    }

    @Override
    public void beforeIteration(final BenchmarkParams benchmarkParams, final IterationParams iterationParams) {
        processCpuAtStart = system.getProcessCpuTime();
        workerCpuAtStart = workerCpu();
    }

    @Override
    public List<Result> afterIteration(final BenchmarkParams benchmarkParams, final IterationParams iterationParams,
                                       final IterationResult result) {
        final long processCpu = system.getProcessCpuTime() - processCpuAtStart;
        long workerCpu = 0;
        for (final Map.Entry<Long, Long> worker : workerCpu().entrySet()) {
            workerCpu += worker.getValue() - workerCpuAtStart.getOrDefault(worker.getKey(), 0L);
        }
        final double ops = Math.max(1, result.getMetadata().getAllOps());
        final List<Result> results = new ArrayList<>();
        results.add(new ScalarResult("cpu.worker", workerCpu / ops, "ns/op", AggregationPolicy.AVG));
        results.add(new ScalarResult("cpu.process", processCpu / ops, "ns/op", AggregationPolicy.AVG));
        return results;
    }

    private Map<Long, Long> workerCpu() {
        final Map<Long, Long> cpu = new HashMap<>();
        for (final ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains(WORKER_NAME)) {
                cpu.put(info.getThreadId(), threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return cpu;
    }
}
