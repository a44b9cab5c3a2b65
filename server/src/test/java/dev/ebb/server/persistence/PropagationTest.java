package dev.ebb.server.persistence;

import static dev.ebb.server.persistence.AofTesting.cmd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * What leaves the loop for each kind of write, read back from the AOF's incremental file: the
 * forms Redis 7.2 propagates (relative expiries as absolute ones, INCRBYFLOAT as SET KEEPTTL,
 * SPOP as SREM, served blocking pops as plain pops, expiry as DEL, transactions and scripts as
 * MULTI/EXEC), SELECT when the database changes, and nothing for commands that changed nothing.
 * The server runs on a manual clock so that the absolute times are known.
 */
class PropagationTest {
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

    /** The commands in the incremental file, each as its arguments joined by spaces. */
    private List<String> stream() throws Exception {
        ebb.close();
        byte[] file = Files.readAllBytes(dir.resolve("appendonlydir").resolve("appendonly.aof.1.incr.aof"));
        List<String> out = new ArrayList<>();
        String text = new String(file, StandardCharsets.ISO_8859_1);
        String[] lines = text.split("\r\n");
        for (int i = 0; i < lines.length; ) {
            int argc = Integer.parseInt(lines[i++].substring(1));
            StringBuilder sb = new StringBuilder();
            for (int a = 0; a < argc; a++) {
                i++;
                sb.append(a == 0 ? "" : " ").append(lines[i++]);
            }
            out.add(sb.toString());
        }
        return out;
    }

    @Test
    void relativeExpiriesShouldPropagateAsAbsoluteTimes() throws Exception {
        cmd(j, "SET", "a", "v", "EX", "100");
        cmd(j, "SETEX", "b", "10", "v");
        cmd(j, "PSETEX", "c", "500", "v");
        cmd(j, "SET", "d", "v", "PXAT", "2000000000000");
        cmd(j, "EXPIRE", "a", "50");
        cmd(j, "PEXPIRE", "b", "70");
        cmd(j, "EXPIREAT", "c", "1500000000");
        cmd(j, "GETEX", "d", "EX", "5");
        cmd(j, "GETEX", "d", "PERSIST");
        cmd(j, "EXPIRE", "a", "-1");

        assertEquals(List.of("SELECT 0", "SET a v PXAT 1000000100000", "SET b v PXAT 1000000010000",
                "SET c v PXAT 1000000000500", "SET d v PXAT 2000000000000", "PEXPIREAT a 1000000050000",
                "PEXPIREAT b 1000000000070", "PEXPIREAT c 1500000000000", "PEXPIREAT d 1000000005000", "PERSIST d",
                "DEL a"), stream());
    }

    @Test
    void nonIdempotentCommandsShouldPropagateTheirEffects() throws Exception {
        cmd(j, "SET", "k", "v", "GET");
        cmd(j, "GETSET", "k", "w");
        cmd(j, "INCRBYFLOAT", "f", "1.5");
        cmd(j, "HINCRBYFLOAT", "h", "x", "2.25");
        cmd(j, "SADD", "s", "only");
        cmd(j, "SPOP", "s");
        cmd(j, "SADD", "t", "1", "2");
        cmd(j, "SPOP", "t", "5");
        cmd(j, "GETDEL", "k");
        cmd(j, "RPUSH", "l", "a", "b", "c");
        cmd(j, "BLPOP", "l", "1");
        cmd(j, "LMPOP", "1", "l", "RIGHT", "COUNT", "5");
        cmd(j, "ZADD", "z", "1", "a", "2", "b", "3", "c");
        cmd(j, "BZPOPMAX", "z", "1");
        cmd(j, "ZMPOP", "1", "z", "MIN", "COUNT", "1");

        assertEquals(List.of("SELECT 0", "SET k v", "SET k w", "SET f 1.5 KEEPTTL", "HSET h x 2.25", "SADD s only",
                "SREM s only", "SADD t 1 2", "DEL t", "DEL k", "RPUSH l a b c", "LPOP l", "RPOP l 2",
                "ZADD z 1 a 2 b 3 c", "ZPOPMAX z", "ZPOPMIN z 1"), stream());
    }

    @Test
    void approximateStreamTrimsShouldPropagateAsTheExactTrimTheyTurnedOutToBe() throws Exception {
        cmd(j, "CONFIG", "SET", "stream-node-max-entries", "10");
        for (int i = 1; i <= 100; i++) {
            cmd(j, "XADD", "s", i + "-1", "f", "v");
        }
        cmd(j, "XADD", "s", "MAXLEN", "~", "25", "101-1", "f", "v");
        long afterAdd = (Long) cmd(j, "XLEN", "s");
        cmd(j, "XTRIM", "s", "MINID", "~", "85-1");
        String first = new String((byte[]) ((List<?>) ((List<?>) cmd(j, "XRANGE", "s", "-", "+", "COUNT", "1"))
                .get(0)).get(0), StandardCharsets.US_ASCII);
        cmd(j, "XTRIM", "s", "MAXLEN", "~", "0", "LIMIT", "10");
        long end = (Long) cmd(j, "XLEN", "s");
        cmd(j, "XTRIM", "s", "MAXLEN", "~", "1000");

        List<String> ops = stream();
        assertEquals(List.of("XADD s MAXLEN = " + afterAdd + " 101-1 f v", "XTRIM s MINID = " + first,
                "XTRIM s MAXLEN = " + end + " LIMIT 10"), ops.subList(ops.size() - 3, ops.size()));
        assertTrue(afterAdd < 101 && afterAdd >= 25 && end < afterAdd, "whole nodes were trimmed");

        // Replayed from the AOF, "=" with LIMIT is accepted (the file's writer decided) and trims the same.
        j.close();
        ebb = EbbServer.start(ServerConfig.fromText("port 0\nbind 127.0.0.1\nappendonly yes\ndir " + dir + "\n"),
                clock::get);
        j = new Jedis("127.0.0.1", ebb.port());
        assertEquals(end, cmd(j, "XLEN", "s"));
    }

    @Test
    void commandsThatChangeNothingShouldNotPropagate() throws Exception {
        cmd(j, "SADD", "s", "a");
        cmd(j, "SADD", "s", "a");
        cmd(j, "DEL", "nosuch");
        cmd(j, "GET", "s:missing");
        cmd(j, "EXPIRE", "nosuch", "10");
        cmd(j, "SET", "x", "1", "NX");
        cmd(j, "SET", "x", "2", "NX");
        cmd(j, "LPOP", "nolist");
        cmd(j, "FLUSHDB");

        assertEquals(List.of("SELECT 0", "SADD s a", "SET x 1 NX", "FLUSHDB"), stream());
    }

    @Test
    void transactionsAndScriptsShouldPropagateAsMultiExecAndSelectWhenTheDatabaseChanges() throws Exception {
        var tx = j.multi();
        tx.set("a", "1");
        tx.incr("a");
        tx.exec();
        var single = j.multi();
        single.set("b", "1");
        single.get("b");
        single.exec();
        // A script's commands go as it called them (lower case here), wrapped in MULTI/EXEC.
        j.eval("redis.call('select', 3); redis.call('set', 'c', '1'); redis.call('lpush', 'l', 'x')", 0);
        j.select(2);
        cmd(j, "SET", "d", "1");

        assertEquals(List.of("MULTI", "SELECT 0", "SET a 1", "INCR a", "EXEC", "SET b 1", "MULTI", "SELECT 3",
                "set c 1", "lpush l x", "EXEC", "SELECT 2", "SET d 1"), stream());
    }

    @Test
    void expiryShouldPropagateAsDelAndBlockedPopsAsPlainPops() throws Exception {
        cmd(j, "SET", "e", "v", "PX", "100");
        clock.addAndGet(1000);
        cmd(j, "GET", "e");
        try (Jedis blocked = new Jedis("127.0.0.1", ebb.port())) {
            CompletableFuture<Object> pop = CompletableFuture.supplyAsync(() -> cmd(blocked, "BRPOP", "q", "0"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!j.info("clients").contains("blocked_clients:1") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            cmd(j, "LPUSH", "q", "1", "2");
            pop.get(30, TimeUnit.SECONDS);
        }

        assertEquals(List.of("SELECT 0", "SET e v PXAT 1000000000100", "DEL e", "LPUSH q 1 2", "RPOP q"), stream());
    }
}
