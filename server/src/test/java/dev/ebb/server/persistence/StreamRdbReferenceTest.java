package dev.ebb.server.persistence;

import static dev.ebb.server.persistence.RdbRoundTripTest.awaitLoaded;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.differential.ReferenceRedis;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.commands.ProtocolCommand;

/**
 * Streams (several nodes, deleted entries, consumer groups with PELs and consumers, an emptied
 * stream) and function libraries in RDB files and DUMP payloads: through SAVE and a restart, DEBUG
 * RELOAD, and both ways with redis-server 7.2.4, compared with XINFO STREAM FULL and FCALL. The
 * reference parts are skipped with the reason when its binary cannot run here.
 */
class StreamRdbReferenceTest {
    private static final String LIBRARY = "#!lua name=lib\n"
            + "redis.register_function('hello', function(keys, args) return 'hi ' .. args[1] end)";

    @TempDir
    Path dir;

    private EbbServer startEbb() throws Exception {
        return EbbServer.start(ServerConfig.fromText("port 0\nsave \"\"\nenable-debug-command yes\ndir " + dir + "\n"));
    }

    private static ReferenceRedis startReference(String... args) {
        ReferenceRedis redis = ReferenceRedis.startOrNull(args);
        Assumptions.assumeTrue(redis != null, () -> "skipped: " + ReferenceRedis.unavailableReason);
        return redis;
    }

    private static ProtocolCommand command(String name) {
        byte[] raw = name.getBytes(StandardCharsets.US_ASCII);
        return () -> raw;
    }

    /** Streams whose IDs are given, so both servers build the same nodes; the function library. */
    static void fill(Jedis j) {
        j.configSet("stream-node-max-entries", "4");
        for (int i = 1; i <= 15; i++) {
            if (i % 5 == 0) {
                j.sendCommand(Protocol.Command.XADD, "s", "1-" + i, "other", "x" + i, "123", "n");
            } else {
                j.sendCommand(Protocol.Command.XADD, "s", "1-" + i, "field", "value-" + i);
            }
        }
        j.sendCommand(Protocol.Command.XDEL, "s", "1-3", "1-7", "1-8");
        j.sendCommand(Protocol.Command.XGROUP, "CREATE", "s", "g1", "0");
        j.sendCommand(Protocol.Command.XREADGROUP, "GROUP", "g1", "alice", "COUNT", "4", "STREAMS", "s", ">");
        j.sendCommand(Protocol.Command.XREADGROUP, "GROUP", "g1", "bob", "COUNT", "2", "STREAMS", "s", ">");
        j.sendCommand(Protocol.Command.XACK, "s", "g1", "1-2");
        j.sendCommand(Protocol.Command.XGROUP, "CREATE", "s", "g2", "1-5");
        j.sendCommand(Protocol.Command.XGROUP, "CREATECONSUMER", "s", "g2", "carol");
        j.sendCommand(Protocol.Command.XADD, "empty", "5-5", "f", "v");
        j.sendCommand(Protocol.Command.XDEL, "empty", "5-5");
        j.sendCommand(Protocol.Command.XADD, "plain", "2-1", "a", "1", "b", "2");
        j.sendCommand(Protocol.Command.XADD, "plain", "2-2", "a", "3", "b", "4");
        j.functionLoad(LIBRARY);
    }

    /** XINFO STREAM FULL of every stream and an FCALL, as one text. */
    static String contents(Jedis j) {
        StringBuilder sb = new StringBuilder();
        for (String key : List.of("s", "empty", "plain")) {
            sb.append(key).append(": ").append(text(j.sendCommand(command("XINFO"), "STREAM", key, "FULL")))
                    .append('\n');
        }
        sb.append(text(j.sendCommand(command("FCALL"), "hello", "0", "there")));
        return sb.toString();
    }

    private static String text(Object reply) {
        if (reply instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> list) {
            StringBuilder sb = new StringBuilder("[");
            for (Object o : list) {
                sb.append(text(o)).append(", ");
            }
            return sb.append(']').toString();
        }
        return String.valueOf(reply);
    }

    @Test
    void streamsAndFunctionsShouldSurviveRestartAndDebugReload() throws Exception {
        String before;
        try (EbbServer ebb = startEbb(); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            fill(j);
            before = contents(j);
            assertEquals("OK", j.save());
        }
        try (EbbServer ebb = startEbb(); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            assertEquals(before, contents(j));

            j.sendCommand(Protocol.Command.XADD, "s", "1-16", "field", "after-load");
            String afterAppend = contents(j);
            assertEquals("OK", text(j.sendCommand(command("DEBUG"), "RELOAD")));

            assertEquals(afterAppend, contents(j));
        }
    }

    @Test
    void redisShouldLoadEbbsFileAndCheckRdbAcceptIt() throws Exception {
        String ebbContents;
        try (EbbServer ebb = startEbb(); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            fill(j);
            ebbContents = contents(j);
            assertEquals("OK", j.save());
        }
        Process check = new ProcessBuilder("bash", "-c", "exec -a redis-check-rdb \"$0\" \"$1\"",
                ReferenceRedis.binary().toString(), dir.resolve("dump.rdb").toString()).redirectErrorStream(true).start();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(check.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, check.exitValue(), output);
        assertTrue(output.contains("RDB looks OK!"), output);

        try (ReferenceRedis redis = startReference("--dir", dir.toString(), "--dbfilename", "dump.rdb");
                Jedis r = new Jedis("127.0.0.1", redis.port())) {
            assertEquals(ebbContents, contents(r));
        }
    }

    @Test
    void ebbShouldLoadRedisFileWithStreamsAndFunctions() throws Exception {
        String redisContents;
        try (ReferenceRedis redis = startReference(); Jedis r = new Jedis("127.0.0.1", redis.port())) {
            fill(r);
            redisContents = contents(r);
            assertEquals("OK", r.save());
            Files.copy(redis.dir().resolve("dump.rdb"), dir.resolve("dump.rdb"), StandardCopyOption.REPLACE_EXISTING);
        }
        try (EbbServer ebb = startEbb(); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            awaitLoaded(j);
            assertEquals(redisContents, contents(j));
        }
    }

    @Test
    void streamDumpPayloadsShouldRestoreBothWays() throws Exception {
        try (ReferenceRedis redis = startReference(); EbbServer ebb = startEbb();
                Jedis r = new Jedis("127.0.0.1", redis.port()); Jedis e = new Jedis("127.0.0.1", ebb.port())) {
            fill(r);
            fill(e);
            for (String key : List.of("s", "empty", "plain")) {
                r.restore(key + "-from-ebb", 0, e.dump(key));
                e.restore(key + "-from-redis", 0, r.dump(key));
                assertEquals(text(r.sendCommand(command("XINFO"), "STREAM", key, "FULL")),
                        text(e.sendCommand(command("XINFO"), "STREAM", key + "-from-redis", "FULL")), key);
                assertEquals(text(e.sendCommand(command("XINFO"), "STREAM", key, "FULL")),
                        text(r.sendCommand(command("XINFO"), "STREAM", key + "-from-ebb", "FULL")), key);
            }
        }
    }

    @Test
    void streamPayloadsWithoutGroupsShouldBeByteIdentical() throws Exception {
        try (ReferenceRedis redis = startReference(); EbbServer ebb = startEbb();
                Jedis r = new Jedis("127.0.0.1", redis.port()); Jedis e = new Jedis("127.0.0.1", ebb.port())) {
            fill(r);
            fill(e);
            for (String compression : List.of("no", "yes")) {
                r.configSet("rdbcompression", compression);
                e.configSet("rdbcompression", compression);
                for (String key : List.of("empty", "plain")) {
                    assertArrayEquals(r.dump(key), e.dump(key), key + " rdbcompression " + compression);
                }
            }
            r.configSet("rdbcompression", "no");
            e.configSet("rdbcompression", "no");
            r.sendCommand(Protocol.Command.XGROUP, "DESTROY", "s", "g1");
            r.sendCommand(Protocol.Command.XGROUP, "DESTROY", "s", "g2");
            e.sendCommand(Protocol.Command.XGROUP, "DESTROY", "s", "g1");
            e.sendCommand(Protocol.Command.XGROUP, "DESTROY", "s", "g2");
            assertArrayEquals(r.dump("s"), e.dump("s"), "several nodes with deleted entries");
        }
    }
}
