package dev.ebb.server.persistence;

import static dev.ebb.server.persistence.AofTesting.cmd;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * What the hash field expiry commands put in the AOF, as Redis 7.4 / 8 propagate them: relative
 * and absolute expiries as HPEXPIREAT with the fields that changed, a past time as HDEL, HPERSIST
 * as is, HGETEX and HSETEX with absolute times, and a field expired lazily or by the active cycle
 * as HDEL (the read that found it is not propagated). Manual clock.
 */
class HashFieldPropagationTest {
    private static final long NOW = 1_000_000_000_000L;

    @TempDir
    Path dir;
    private final AtomicLong clock = new AtomicLong(NOW);
    private EbbServer ebb;
    private Jedis j;

    @BeforeEach
    void start() throws Exception {
        ebb = EbbServer.start(ServerConfig.fromText("port 0\nbind 127.0.0.1\nappendonly yes\ndir " + dir + "\n"),
                clock::get);
        j = new Jedis("127.0.0.1", ebb.port());
    }

    @AfterEach
    void stop() {
        j.close();
        ebb.close();
    }

    /** The commands in the incremental file, each as its arguments joined by spaces, SELECT left out. */
    private List<String> stream() throws Exception {
        ebb.close();
        byte[] file = Files.readAllBytes(dir.resolve("appendonlydir").resolve("appendonly.aof.1.incr.aof"));
        List<String> out = new ArrayList<>();
        String[] lines = new String(file, StandardCharsets.ISO_8859_1).split("\r\n");
        for (int i = 0; i < lines.length; ) {
            int argc = Integer.parseInt(lines[i++].substring(1));
            StringBuilder sb = new StringBuilder();
            for (int a = 0; a < argc; a++) {
                i++;
                sb.append(a == 0 ? "" : " ").append(lines[i++]);
            }
            if (!sb.toString().startsWith("SELECT")) {
                out.add(sb.toString());
            }
        }
        return out;
    }

    @Test
    void expiryCommandsShouldPropagateAbsoluteTimesAndHdel() throws Exception {
        cmd(j, "HSET", "h", "a", "1", "b", "2", "c", "3");
        cmd(j, "HEXPIRE", "h", "100", "FIELDS", "2", "a", "missing");
        cmd(j, "HPEXPIRE", "h", "500", "NX", "FIELDS", "2", "a", "b");
        cmd(j, "HEXPIREAT", "h", "2000000000", "XX", "FIELDS", "1", "b");
        cmd(j, "HPEXPIRE", "h", "500", "FIELDS", "1", "missing");
        cmd(j, "HPERSIST", "h", "FIELDS", "1", "b");
        cmd(j, "HEXPIREAT", "h", "1", "FIELDS", "1", "c");

        assertEquals(List.of(
                "HSET h a 1 b 2 c 3",
                "HPEXPIREAT h 1000000100000 FIELDS 1 a",
                "HPEXPIREAT h 1000000000500 FIELDS 1 b",
                "HPEXPIREAT h 2000000000000 FIELDS 1 b",
                "HPERSIST h FIELDS 1 b",
                "HDEL h c"), stream());
    }

    @Test
    void hgetexAndHsetexShouldPropagateAbsoluteTimes() throws Exception {
        cmd(j, "HSETEX", "h", "EX", "10", "FIELDS", "2", "a", "1", "b", "2");
        cmd(j, "HSETEX", "h", "FXX", "PX", "20", "FIELDS", "1", "a", "9");
        cmd(j, "HSETEX", "h", "KEEPTTL", "FIELDS", "1", "b", "3");
        cmd(j, "HGETEX", "h", "PX", "300", "FIELDS", "2", "a", "missing");
        cmd(j, "HGETEX", "h", "PERSIST", "FIELDS", "1", "b");
        cmd(j, "HGETEX", "h", "FIELDS", "1", "a");
        cmd(j, "HGETEX", "h", "EXAT", "1", "FIELDS", "1", "a");

        assertEquals(List.of(
                "HSETEX h PXAT 1000000010000 FIELDS 2 a 1 b 2",
                "HSETEX h PXAT 1000000000020 FIELDS 1 a 9",
                "HSETEX h KEEPTTL FIELDS 1 b 3",
                "HPEXPIREAT h 1000000000300 FIELDS 1 a",
                "HPERSIST h FIELDS 1 b",
                "HDEL h a"), stream());
    }

    @Test
    void expiredFieldsShouldPropagateAsHdelAndTheReadNot() throws Exception {
        cmd(j, "HSET", "h", "a", "1", "b", "2");
        cmd(j, "HSET", "only", "x", "1");
        cmd(j, "HPEXPIRE", "h", "10", "FIELDS", "1", "a");
        cmd(j, "HPEXPIRE", "only", "10", "FIELDS", "1", "x");
        clock.addAndGet(1000);
        cmd(j, "HGET", "h", "a");
        cmd(j, "HGET", "only", "x");

        assertEquals(List.of(
                "HSET h a 1 b 2",
                "HSET only x 1",
                "HPEXPIREAT h 1000000000010 FIELDS 1 a",
                "HPEXPIREAT only 1000000000010 FIELDS 1 x",
                "HDEL h a",
                "HDEL only x"), stream());
    }
}
