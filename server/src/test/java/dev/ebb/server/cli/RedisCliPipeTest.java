package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import io.netty.util.ResourceLeakDetector;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mass insertion as the Redis docs teach it: a file of raw RESP commands piped through
 * {@code redis-cli --pipe}, which streams them without waiting for replies and counts the replies
 * at the end. One million SETs, about 50 MB of protocol.
 *
 * <p>The build runs tests with Netty's PARANOID leak detection, which records a stack trace at
 * every access of every buffer: under it this test takes about 90 s instead of about 4 s. While the
 * million commands flow, the level drops to SIMPLE (Netty's default, which still samples buffers for
 * leaks) and comes back afterwards; the other server tests keep the paranoid check.
 */
class RedisCliPipeTest {
    private static final int SETS = 1_000_000;
    /** Far above the few seconds it takes, for a loaded 2-core machine. */
    private static final Duration PIPE_TIMEOUT = Duration.ofSeconds(180);

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void pipeLoadsAMillionSetsWithoutErrors(@TempDir Path dir) throws IOException {
        Path protocol = dir.resolve("sets.resp");
        writeSets(protocol, SETS);
        RedisCli cli = RedisCli.against(ebb.port());

        RedisCli.Result result;
        ResourceLeakDetector.Level buildLevel = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
        try {
            result = cli.runWithInput(protocol, PIPE_TIMEOUT, "--pipe");
        } finally {
            ResourceLeakDetector.setLevel(buildLevel);
        }
        System.out.printf("redis-cli --pipe: %,d SETs (%,d bytes) in %,d ms%n", SETS, Files.size(protocol),
                result.took().toMillis());

        assertEquals(0, result.exitCode(), result::describe);
        assertTrue(result.lines().contains("errors: 0, replies: " + SETS), result::describe);
        RedisCli.Result dbsize = cli.run("dbsize");
        assertEquals(List.of(Integer.toString(SETS)), dbsize.lines(), dbsize::describe);
        RedisCli.Result last = cli.run("get", "key:" + (SETS - 1));
        assertEquals(List.of("value:" + (SETS - 1)), last.lines(), last::describe);
    }

    /** Writes {@code count} commands {@code SET key:i value:i} in RESP, as the Redis mass-insertion guide does. */
    private static void writeSets(Path file, int count) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            StringBuilder sb = new StringBuilder(64);
            for (int i = 0; i < count; i++) {
                String key = "key:" + i;
                String value = "value:" + i;
                sb.setLength(0);
                sb.append("*3\r\n$3\r\nSET\r\n")
                        .append('$').append(key.length()).append("\r\n").append(key).append("\r\n")
                        .append('$').append(value.length()).append("\r\n").append(value).append("\r\n");
                out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
            }
        }
    }
}
