package dev.ebb.bench;

import dev.ebb.resp.RespDecoder;
import dev.ebb.resp.RespLimits;
import dev.ebb.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The RESP codec on the shape of a pipelined client (redis-benchmark -P 16): decoding one read that
 * holds 16 {@code SET key:NNNNNN <32-byte value>} commands, and encoding 16 bulk replies of 32 bytes
 * (16 GETs) into one buffer and handing it over.
 *
 * <p>Decoding goes through an {@link EmbeddedChannel}, so it includes Netty's pipeline hand-off of
 * each command (what the server pays too); the read is a retained duplicate of one direct buffer,
 * so no bytes are copied to build the input. Leak detection is off, as in production.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar RespCodec -f 1 -wi 3 -i 5 -w 1s -r 1s}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled"})
public class RespCodecBenchmark {
    private static final int BATCH = 16;

    private ByteBuf pipelinedSets;
    private EmbeddedChannel channel;
    private RespWriter writer;
    private byte[][] values;

    @Setup(Level.Trial)
    public void setUp() {
        StringBuilder batch = new StringBuilder();
        values = new byte[BATCH][];
        for (int i = 0; i < BATCH; i++) {
            String key = String.format("key:%06d", i);
            String value = "v".repeat(32 - 2) + String.format("%02d", i);
            batch.append("*3\r\n$3\r\nSET\r\n$").append(key.length()).append("\r\n").append(key)
                .append("\r\n$").append(value.length()).append("\r\n").append(value).append("\r\n");
            values[i] = value.getBytes(StandardCharsets.US_ASCII);
        }
        byte[] bytes = batch.toString().getBytes(StandardCharsets.US_ASCII);
        pipelinedSets = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
        channel = new EmbeddedChannel(new RespDecoder(new RespLimits()));
        writer = new RespWriter(PooledByteBufAllocator.DEFAULT);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.finishAndReleaseAll();
        pipelinedSets.release();
        writer.release();
    }

    /** One read of 16 pipelined SETs, decoded into 16 argv arrays. */
    @Benchmark
    public void decodeSixteenPipelinedSets(Blackhole hole) {
        channel.writeInbound(pipelinedSets.retainedDuplicate());
        Object command;
        while ((command = channel.readInbound()) != null) {
            hole.consume(command);
        }
    }

    /** Sixteen 32-byte bulk replies encoded into one buffer, taken and released as the channel would. */
    @Benchmark
    public void encodeSixteenBulkReplies(Blackhole hole) {
        for (byte[] value : values) {
            writer.bulk(value);
        }
        ByteBuf out = writer.take();
        hole.consume(out.readableBytes());
        out.release();
    }
}
