package dev.ebb.server.persistence;

import static dev.ebb.server.persistence.AofTesting.cmd;
import static dev.ebb.server.persistence.AofTesting.dump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Every write command family through {@code appendonly yes} and a restart (the in-process server
 * stopped and a new one started on the same directory) gives the same contents, and so does a
 * BGREWRITEAOF followed by a restart; CONFIG SET appendonly yes at run time creates the base.
 */
class AofRestartTest {
    @TempDir
    Path dir;

    /** Writes of every family, including rewritten ones (EX, INCRBYFLOAT, SPOP, blocking pops, scripts, MULTI). */
    static void workload(Jedis j, int port) throws Exception {
        cmd(j, "SET", "s:plain", "v");
        cmd(j, "SET", "s:ex", "v", "EX", "1000");
        cmd(j, "SET", "s:get", "v", "GET");
        cmd(j, "SETEX", "s:setex", "1000", "v");
        cmd(j, "PSETEX", "s:psetex", "1000000", "v");
        cmd(j, "SET", "s:keep", "a", "PX", "900000");
        cmd(j, "SET", "s:keep", "b", "KEEPTTL");
        cmd(j, "GETSET", "s:plain", "w");
        cmd(j, "MSET", "m1", "1", "m2", "2");
        cmd(j, "MSETNX", "m3", "3");
        cmd(j, "SETNX", "m4", "4");
        cmd(j, "INCR", "n");
        cmd(j, "INCRBY", "n", "41");
        cmd(j, "DECR", "n");
        cmd(j, "INCRBYFLOAT", "f", "1.25");
        cmd(j, "INCRBYFLOAT", "f", "0.1");
        cmd(j, "APPEND", "s:plain", "xyz");
        cmd(j, "SETRANGE", "s:plain", "1", "ZZ");
        cmd(j, "SET", "gone", "1");
        cmd(j, "GETDEL", "gone");
        cmd(j, "SET", "gx", "1");
        cmd(j, "GETEX", "gx", "EX", "5000");
        cmd(j, "SET", "gp", "1", "EX", "5000");
        cmd(j, "GETEX", "gp", "PERSIST");
        cmd(j, "SETBIT", "bits", "7", "1");
        cmd(j, "SETBIT", "bits2", "100", "1");
        cmd(j, "BITOP", "OR", "bitsor", "bits", "bits2");
        cmd(j, "BITFIELD", "bf", "SET", "i8", "0", "100", "INCRBY", "u4", "8", "3");
        cmd(j, "PFADD", "hll", "a", "b", "c");
        cmd(j, "PFADD", "hll2", "c", "d");
        cmd(j, "PFMERGE", "hll3", "hll", "hll2");
        cmd(j, "GEOADD", "geo", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania");

        cmd(j, "SET", "k:exp", "1");
        cmd(j, "EXPIRE", "k:exp", "3000");
        cmd(j, "SET", "k:pexp", "1");
        cmd(j, "PEXPIRE", "k:pexp", "3000000");
        cmd(j, "SET", "k:expat", "1");
        cmd(j, "EXPIREAT", "k:expat", "4102444800");
        cmd(j, "SET", "k:persist", "1", "EX", "100");
        cmd(j, "PERSIST", "k:persist");
        cmd(j, "SET", "k:past", "1");
        cmd(j, "EXPIRE", "k:past", "-1");
        cmd(j, "SET", "k:ren", "1");
        cmd(j, "RENAME", "k:ren", "k:renamed");
        cmd(j, "SET", "k:copy", "c");
        cmd(j, "COPY", "k:copy", "k:copied");
        cmd(j, "SET", "k:move", "m");
        cmd(j, "MOVE", "k:move", "2");
        cmd(j, "SET", "k:del", "1");
        cmd(j, "DEL", "k:del", "nosuch");
        cmd(j, "UNLINK", "nosuch");

        cmd(j, "RPUSH", "l", "a", "b", "c", "d", "e", "f");
        cmd(j, "LPUSH", "l", "z");
        cmd(j, "LPOP", "l");
        cmd(j, "RPOP", "l", "2");
        cmd(j, "LINSERT", "l", "BEFORE", "c", "bb");
        cmd(j, "LSET", "l", "0", "A");
        cmd(j, "LREM", "l", "1", "bb");
        cmd(j, "LTRIM", "l", "0", "10");
        cmd(j, "LMOVE", "l", "l2", "LEFT", "RIGHT");
        cmd(j, "RPOPLPUSH", "l", "l2");
        cmd(j, "BLPOP", "l", "1");
        cmd(j, "LMPOP", "1", "l2", "RIGHT", "COUNT", "1");
        cmd(j, "RPUSH", "src", "1", "2", "3");
        cmd(j, "BLMOVE", "src", "dst", "RIGHT", "LEFT", "1");
        cmd(j, "BRPOPLPUSH", "src", "dst", "1");

        cmd(j, "SADD", "set", "a", "b", "c", "d", "e", "f", "g");
        cmd(j, "SREM", "set", "g");
        cmd(j, "SPOP", "set");
        cmd(j, "SPOP", "set", "2");
        cmd(j, "SADD", "set2", "x", "y");
        cmd(j, "SPOP", "set2", "10");
        cmd(j, "SADD", "ints", "1", "2", "3");
        cmd(j, "SMOVE", "ints", "set", "3");
        cmd(j, "SINTERSTORE", "inter", "set", "ints");
        cmd(j, "SUNIONSTORE", "union", "set", "ints");

        cmd(j, "ZADD", "z", "1", "a", "2", "b", "3.5", "c", "-inf", "lo", "+inf", "hi");
        cmd(j, "ZINCRBY", "z", "0.1", "a");
        cmd(j, "ZREM", "z", "b");
        cmd(j, "ZPOPMIN", "z");
        cmd(j, "ZMPOP", "1", "z", "MAX", "COUNT", "1");
        cmd(j, "ZADD", "z2", "1", "q", "2", "r");
        cmd(j, "BZPOPMIN", "z2", "1");
        cmd(j, "ZUNIONSTORE", "zu", "2", "z", "z2");
        cmd(j, "ZRANGESTORE", "zr", "z", "0", "-1");

        cmd(j, "HSET", "h", "f1", "v1", "f2", "v2", "n", "5");
        cmd(j, "HSETNX", "h", "f3", "v3");
        cmd(j, "HINCRBY", "h", "n", "3");
        cmd(j, "HINCRBYFLOAT", "h", "fl", "2.5");
        cmd(j, "HDEL", "h", "f2");

        cmd(j, "RPUSH", "tosort", "3", "1", "2");
        cmd(j, "SORT", "tosort", "STORE", "sorted");

        var tx = j.multi();
        tx.set("tx:a", "1");
        tx.incr("tx:a");
        tx.lpush("tx:l", "x");
        tx.exec();
        j.eval("redis.call('set', KEYS[1], 'v'); redis.call('incrby', KEYS[2], 7)", 2, "lua:s", "lua:n");

        j.select(5);
        cmd(j, "SET", "db5", "five");
        cmd(j, "HSET", "db5h", "a", "1");
        j.select(6);
        cmd(j, "SET", "gone6", "x");
        cmd(j, "FLUSHDB");
        cmd(j, "SET", "db6", "six");
        cmd(j, "SWAPDB", "6", "7");
        j.select(0);

        // Blocked clients served later propagate as the plain pops.
        try (Jedis blocked = new Jedis("127.0.0.1", port); Jedis zblocked = new Jedis("127.0.0.1", port)) {
            CompletableFuture<Object> list = CompletableFuture.supplyAsync(() -> cmd(blocked, "BLPOP", "later", "0"));
            CompletableFuture<Object> zset = CompletableFuture.supplyAsync(() -> cmd(zblocked, "BZPOPMAX", "zlater", "0"));
            waitBlocked(j, 2);
            cmd(j, "RPUSH", "later", "1", "2");
            cmd(j, "ZADD", "zlater", "1", "a", "2", "b");
            list.get(30, TimeUnit.SECONDS);
            zset.get(30, TimeUnit.SECONDS);
        }
    }

    private static void waitBlocked(Jedis j, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (j.info("clients").contains("blocked_clients:" + n)) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("clients did not block");
    }

    @Test
    void everyWriteFamilyShouldSurviveARestart() throws Exception {
        Map<String, String> before;
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            workload(j, ebb.port());
            before = dump(j, 16);
        }

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals(before, dump(j, 16));
        }
        assertTrue(before.size() > 45, "the workload left " + before.size() + " keys");
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "no"})
    void rewriteThenRestartShouldKeepTheDataAndReplaceTheFiles(String preamble) throws Exception {
        String base = preamble.equals("yes") ? "appendonly.aof.2.base.rdb" : "appendonly.aof.2.base.aof";
        Map<String, String> before;
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes", "aof-use-rdb-preamble " + preamble);
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            workload(j, ebb.port());

            assertEquals("Background append only file rewriting started", j.bgrewriteaof());
            cmd(j, "INCR", "after-rewrite");
            AofTesting.awaitRewrite(j);
            before = dump(j, 16);
            assertTrue(j.info("persistence").contains("aof_rewrites:1"));
        }
        Path aofDir = dir.resolve("appendonlydir");
        assertEquals("file " + base + " seq 2 type b\nfile appendonly.aof.2.incr.aof seq 2 type i\n",
                Files.readString(aofDir.resolve("appendonly.aof.manifest")));
        assertEquals(List.of(base, "appendonly.aof.2.incr.aof", "appendonly.aof.manifest"),
                Files.list(aofDir).map(p -> p.getFileName().toString()).sorted().toList());
        assertEquals(preamble.equals("yes"), Files.readString(aofDir.resolve(base), StandardCharsets.ISO_8859_1)
                .startsWith("REDIS0011"));

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals(before, dump(j, 16));
        }
    }

    @Test
    void configSetAppendonlyShouldCreateABaseOfTheCurrentData() throws Exception {
        Map<String, String> before;
        try (EbbServer ebb = AofTesting.start(dir); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            cmd(j, "SET", "before", "1");
            cmd(j, "RPUSH", "list", "a", "b");
            assertFalse(Files.exists(dir.resolve("appendonlydir")));

            assertEquals("OK", j.configSet("appendonly", "yes"));
            cmd(j, "SET", "after", "2", "EX", "1000");
            AofTesting.awaitRewrite(j);
            before = dump(j, 16);
            assertTrue(j.info("persistence").contains("aof_enabled:1"));
        }

        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals(before, dump(j, 16));
            assertEquals("OK", j.configSet("appendonly", "no"));
            cmd(j, "SET", "not-logged", "1");
        }
        try (EbbServer ebb = AofTesting.start(dir, "appendonly yes"); Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            assertEquals(before, dump(j, 16));
        }
    }
}
