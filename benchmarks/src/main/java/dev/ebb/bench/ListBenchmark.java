package dev.ebb.bench;

import dev.ebb.storage.types.ListValue;
import java.nio.charset.StandardCharsets;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link ListValue} at the storage level, one operation per list command as the command runs it,
 * on a small list (100 elements, a listpack) and a large one (1M elements of the form
 * {@code element:NNNNNN}, a quicklist of 8 KB nodes): LPUSH/RPUSH (each followed by the pop at the
 * other end, so the size stays put), LPOP/RPOP the same way round, LRANGE 0 99, LINDEX / LSET /
 * LINSERT / LREM in the middle (LINSERT and LREM undone by a removal or an insert at the same
 * place, which is part of the figure).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar ListBenchmark -prof
 * dev.ebb.bench.CpuTimeProfiler}; on a shared machine compare the {@code cpu.worker} figures.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class ListBenchmark {
    private static final int FILL = -2;

    @Param({"100", "1000000"})
    int size;

    private ListValue list;
    private byte[] element;
    private byte[] middle;
    private byte[] sink;

    @Setup
    public void setUp() {
        list = new ListValue();
        for (int i = 0; i < size; i++) {
            byte[] e = text(i);
            list.growing(FILL, 0, e.length, 1);
            list.pushTail(e);
        }
        element = text(size + 1);
        middle = text(size / 2);
    }

    private static byte[] text(int i) {
        return String.format("element:%06d", i).getBytes(StandardCharsets.US_ASCII);
    }

    @Benchmark
    public byte[] lpush() {
        list.growing(FILL, 0, element.length, 1);
        list.pushHead(element);
        byte[] e = list.popTail();
        list.settle(FILL);
        return e;
    }

    @Benchmark
    public byte[] rpush() {
        list.growing(FILL, 0, element.length, 1);
        list.pushTail(element);
        byte[] e = list.popHead();
        list.settle(FILL);
        return e;
    }

    @Benchmark
    public byte[] lpop() {
        byte[] e = list.popHead();
        list.growing(FILL, 0, e.length, 1);
        list.pushTail(e);
        list.settle(FILL);
        return e;
    }

    @Benchmark
    public void lrange100(Blackhole out) {
        for (int i = 0; i < 100; i++) {
            out.consume(list.get(i));
        }
    }

    @Benchmark
    public byte[] lindex() {
        return list.get(size / 2);
    }

    @Benchmark
    public void lset() {
        list.growing(FILL, 0, element.length, 1);
        list.set(size / 2, element);
        list.settle(FILL);
    }

    @Benchmark
    public int linsert() {
        list.growing(FILL, 0, element.length, 1);
        int pivot = list.indexOf(middle);
        list.insert(pivot, true, element);
        list.removeAt(pivot + 1);
        list.settle(FILL);
        return pivot;
    }

    @Benchmark
    public long lrem() {
        int at = size / 2;
        long removed = list.removeMatching(middle, 1, false);
        list.insert(at, false, middle);
        list.settle(FILL);
        return removed;
    }
}
