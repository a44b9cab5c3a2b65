package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.SafeEncoder;

/** MEMORY STATS/DOCTOR/MALLOC-STATS/PURGE/HELP and INFO's lazy-free fields, against Redis 7.2.4's replies. */
class MemoryCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    /** MEMORY STATS of redis-server 7.2.4, in its order, for an instance without keys. */
    private static final List<String> STATS_FIELDS = List.of("peak.allocated", "total.allocated",
            "startup.allocated", "replication.backlog", "clients.slaves", "clients.normal", "cluster.links",
            "aof.buffer", "lua.caches", "functions.caches", "overhead.total", "keys.count", "keys.bytes-per-key",
            "dataset.bytes", "dataset.percentage", "peak.percentage", "allocator.allocated", "allocator.active",
            "allocator.resident", "allocator-fragmentation.ratio", "allocator-fragmentation.bytes",
            "allocator-rss.ratio", "allocator-rss.bytes", "rss-overhead.ratio", "rss-overhead.bytes",
            "fragmentation", "fragmentation.bytes");
    private static final List<String> DOUBLE_FIELDS = List.of("dataset.percentage", "peak.percentage",
            "allocator-fragmentation.ratio", "allocator-rss.ratio", "rss-overhead.ratio", "fragmentation");

    @AfterEach
    void flush() {
        try (Jedis j = connect()) {
            j.configSet("lazyfree-lazy-user-del", "no");
            j.configSet("lazyfree-lazy-user-flush", "no");
            j.configSet("lazyfree-lazy-expire", "no");
            j.configSet("lazyfree-lazy-eviction", "no");
            j.configSet("maxmemory", "0");
            j.configSet("maxmemory-policy", "noeviction");
            j.flushAll();
            j.configResetStat();
        }
    }

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static Object raw(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        return j.sendCommand(command, Arrays.copyOfRange(args, 1, args.length));
    }

    private static String text(Jedis j, String... args) {
        return SafeEncoder.encode((byte[]) raw(j, args));
    }

    private static String error(Jedis j, String... args) {
        return assertThrows(JedisDataException.class, () -> raw(j, args)).getMessage();
    }

    /** MEMORY STATS in RESP2: names to values (Long, or the bulk text of a double, or a nested list). */
    private static Map<String, Object> stats(Jedis j) {
        List<?> reply = (List<?>) raw(j, "MEMORY", "STATS");
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < reply.size(); i += 2) {
            Object value = reply.get(i + 1);
            map.put(SafeEncoder.encode((byte[]) reply.get(i)), value instanceof byte[] b ? SafeEncoder.encode(b) : value);
        }
        return map;
    }

    private static Map<String, String> info(Jedis j, String section) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : j.info(section).split("\r\n")) {
            int colon = line.indexOf(':');
            if (!line.startsWith("#") && colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    @Test
    void memoryHelpShouldListRedisSubcommandsInItsOrder() {
        try (Jedis j = connect()) {
            List<?> help = (List<?>) raw(j, "MEMORY", "HELP");

            List<String> lines = new ArrayList<>();
            for (Object line : help) {
                lines.add(SafeEncoder.encode((byte[]) line));
            }
            assertEquals(List.of("MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", "DOCTOR",
                    "    Return memory problems reports.", "MALLOC-STATS",
                    "    Return internal statistics report from the memory allocator.", "PURGE",
                    "    Attempt to purge dirty pages for reclamation by the allocator.", "STATS",
                    "    Return information about the memory usage of the server.", "USAGE <key> [SAMPLES <count>]",
                    "    Return memory in bytes used by <key> and its value. Nested values are",
                    "    sampled up to <count> times (default: 5, 0 means sample all).", "HELP",
                    "    Print this help."), lines);
        }
    }

    @Test
    void statsShouldAnswerRedisFieldsInItsOrderWithIntegersAndDoubles() {
        try (Jedis j = connect()) {
            Map<String, Object> stats = stats(j);

            assertEquals(STATS_FIELDS, new ArrayList<>(stats.keySet()));
            for (String name : STATS_FIELDS) {
                if (DOUBLE_FIELDS.contains(name)) {
                    Double.parseDouble((String) stats.get(name));
                } else {
                    assertInstanceOf(Long.class, stats.get(name), name);
                }
            }
            assertEquals(0L, stats.get("keys.count"));
            assertEquals(0L, stats.get("keys.bytes-per-key"));
        }
    }

    @Test
    void statsShouldListEachDatabaseHoldingKeysAfterTheCaches() {
        try (Jedis j = connect()) {
            j.set("a", "1");
            j.select(3);
            j.set("b", "1");
            j.expire("b", 100);
            j.set("c", "1");

            Map<String, Object> stats = stats(j);

            List<String> names = new ArrayList<>(stats.keySet());
            assertEquals(List.of("functions.caches", "db.0", "db.3", "overhead.total"), names.subList(9, 13));
            List<?> db3 = (List<?>) stats.get("db.3");
            assertEquals("overhead.hashtable.main", SafeEncoder.encode((byte[]) db3.get(0)));
            assertEquals("overhead.hashtable.expires", SafeEncoder.encode((byte[]) db3.get(2)));
            assertEquals("overhead.hashtable.slot-to-keys", SafeEncoder.encode((byte[]) db3.get(4)));
            assertTrue((Long) db3.get(1) > 0);
            assertTrue((Long) db3.get(3) > 0);
            assertEquals(0L, db3.get(5));
            assertEquals(3L, stats.get("keys.count"));
        }
    }

    @Test
    void statsShouldAgreeWithInfoMemory() {
        try (Jedis j = connect()) {
            j.set("k", "x".repeat(1000));

            Map<String, Object> stats = stats(j);
            Map<String, String> info = info(j, "memory");

            assertEquals(Long.parseLong(info.get("used_memory")), stats.get("total.allocated"));
            assertEquals(Long.parseLong(info.get("used_memory_startup")), stats.get("startup.allocated"));
            assertEquals(Long.parseLong(info.get("used_memory_dataset")), stats.get("dataset.bytes"));
            assertTrue((Long) stats.get("dataset.bytes") > 1000);
            assertTrue((Long) stats.get("peak.allocated") >= (Long) stats.get("total.allocated"));
        }
    }

    @Test
    void statsShouldSendDoublesAsResp3Doubles() throws Exception {
        try (Socket socket = new Socket(ebb.host(), ebb.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("HELLO 3\r\nMEMORY STATS\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));

            String replies = readUntil(socket.getInputStream(), "+PONG\r\n");

            String stats = replies.substring(replies.indexOf("%27\r\n"));
            assertTrue(stats.contains("$18\r\ndataset.percentage\r\n,"), stats);
            assertTrue(stats.contains("$13\r\nfragmentation\r\n,"), stats);
            assertTrue(stats.contains("$10\r\nkeys.count\r\n:0\r\n"), stats);
        }
    }

    private static String readUntil(InputStream in, String end) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (!out.toString(StandardCharsets.US_ASCII).endsWith(end)) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            out.write(b);
        }
        return out.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void doctorShouldSayTheInstanceIsEmptyBelowFiveMegabytes() {
        try (Jedis j = connect()) {
            assertEquals(MemoryCommands.DOCTOR_EMPTY, text(j, "MEMORY", "DOCTOR"));
            assertTrue(MemoryCommands.DOCTOR_EMPTY.startsWith("Hi Sam, this instance is empty"));
        }
    }

    @Test
    void doctorShouldFindNoIssueWithSteadyData() {
        try (Jedis j = connect()) {
            fill(j, 200, 100_000); // as much as the peak of the other test, whichever runs first

            assertEquals("Hi Sam, I can't find any memory issue in your instance. I can only account for what"
                    + " occurs on this base.\n", text(j, "MEMORY", "DOCTOR"));
        }
    }

    @Test
    void doctorShouldReportAPeakOverOneAndAHalfTimesTheCurrentUse() {
        try (Jedis j = connect()) {
            fill(j, 200, 100_000);
            raw(j, "MEMORY", "STATS");
            for (int i = 60; i < 200; i++) {
                j.del("big:" + i);
            }

            String report = text(j, "MEMORY", "DOCTOR");

            assertEquals(MemoryCommands.DOCTOR_ISSUES + MemoryCommands.DOCTOR_BIG_PEAK + MemoryCommands.DOCTOR_END,
                    report);
        }
    }

    private static void fill(Jedis j, int keys, int bytes) {
        String value = "v".repeat(bytes);
        for (int i = 0; i < keys; i++) {
            j.set("big:" + i, value);
        }
    }

    @Test
    void mallocStatsShouldReportTheJvmPoolsAsText() {
        try (Jedis j = connect()) {
            String report = text(j, "MEMORY", "MALLOC-STATS");

            assertTrue(report.startsWith("___ Begin jvm memory statistics ___\n"), report);
            assertTrue(report.contains("\nheap: used "), report);
            assertTrue(report.endsWith("--- End jvm memory statistics ---\n"), report);
        }
    }

    @Test
    void purgeShouldAnswerOk() {
        try (Jedis j = connect()) {
            assertEquals("OK", text(j, "MEMORY", "PURGE"));
        }
    }

    @Test
    void subcommandsShouldRefuseExtraArgumentsAsRedis() {
        try (Jedis j = connect()) {
            assertEquals("ERR wrong number of arguments for 'memory|stats' command", error(j, "MEMORY", "STATS", "x"));
            assertEquals("ERR wrong number of arguments for 'memory|doctor' command",
                    error(j, "MEMORY", "DOCTOR", "x"));
            assertEquals("ERR wrong number of arguments for 'memory|purge' command", error(j, "MEMORY", "PURGE", "x"));
            assertEquals("ERR wrong number of arguments for 'memory|malloc-stats' command",
                    error(j, "MEMORY", "MALLOC-STATS", "x"));
            assertEquals("ERR unknown subcommand 'nope'. Try MEMORY HELP.", error(j, "MEMORY", "nope"));
        }
    }

    @Test
    void infoMemoryShouldEndWithTheLazyFreeFieldsAsRedis() {
        try (Jedis j = connect()) {
            List<String> names = new ArrayList<>(info(j, "memory").keySet());

            int pending = names.indexOf("lazyfree_pending_objects");
            assertEquals(List.of("mem_allocator", "active_defrag_running", "lazyfree_pending_objects",
                    "lazyfreed_objects"), names.subList(pending - 2, pending + 2));
            assertEquals(List.of("used_memory_peak_perc", "used_memory_overhead", "used_memory_startup",
                    "used_memory_dataset", "used_memory_dataset_perc"), names.subList(6, 11));
            assertEquals("0", info(j, "memory").get("lazyfree_pending_objects"));
        }
    }

    /** A quicklist's effort is its node count as Redis splits it (redis-server 7.2.4 gave these counts). */
    @Test
    void unlinkOfAQuicklistShouldCountByRedisNodes() {
        try (Jedis j = connect()) {
            String[] tiny = new String[10_000];
            java.util.Arrays.fill(tiny, "a");
            String[] wide = new String[1_000];
            java.util.Arrays.fill(wide, "x".repeat(100));
            for (int i = 0; i < 10; i++) {
                j.rpush("short-elements", tiny);
                j.rpush("long-elements", wide);
            }
            j.configResetStat();

            j.unlink("short-elements");
            assertEquals("0", info(j, "memory").get("lazyfreed_objects"), "100,000 one-byte elements: ~25 nodes");
            j.unlink("long-elements");
            assertEquals("1", info(j, "memory").get("lazyfreed_objects"), "10,000 100-byte elements: ~140 nodes");
        }
    }

    @Test
    void unlinkShouldCountOnlyValuesRedisFreesInTheBackground() {
        try (Jedis j = connect()) {
            for (int i = 0; i < 200; i++) {
                j.sadd("big", "m" + i);
                j.hset("bighash", "f" + i, "v");
            }
            j.sadd("small", "a", "b");
            j.set("str", "v".repeat(10_000));
            j.sadd("exactly64", "x".repeat(100));
            for (int i = 0; i < 63; i++) {
                j.sadd("exactly64", "m" + i);
            }

            j.unlink("big", "small", "str", "exactly64");
            j.del("bighash");

            assertEquals("1", info(j, "memory").get("lazyfreed_objects"));
        }
    }

    @Test
    void delShouldCountUnderLazyfreeLazyUserDel() {
        try (Jedis j = connect()) {
            j.configSet("lazyfree-lazy-user-del", "yes");
            for (int i = 0; i < 200; i++) {
                j.zadd("z", i, "m" + i);
            }

            j.del("z");

            assertEquals("1", info(j, "memory").get("lazyfreed_objects"));
        }
    }

    @Test
    void asyncFlushesShouldCountTheirKeysAndResetStatShouldClearThem() {
        try (Jedis j = connect()) {
            j.set("a", "1");
            j.set("b", "1");
            j.flushDB(redis.clients.jedis.args.FlushMode.ASYNC);
            j.set("c", "1");
            j.flushAll(redis.clients.jedis.args.FlushMode.SYNC);
            j.set("d", "1");
            j.select(1);
            j.set("e", "1");
            j.configSet("lazyfree-lazy-user-flush", "yes");
            j.flushAll();

            assertEquals("4", info(j, "memory").get("lazyfreed_objects"));
            j.configResetStat();
            assertEquals("0", info(j, "memory").get("lazyfreed_objects"));
        }
    }

    private static void bigSet(Jedis j, String key) {
        for (int i = 0; i < 200; i++) {
            j.sadd(key, "m" + i);
        }
    }

    @Test
    void expiryShouldCountUnderLazyfreeLazyExpireOnly() {
        try (Jedis j = connect()) {
            bigSet(j, "eager");
            j.pexpire("eager", 1000);
            ebb.advanceClock(2000);
            j.exists("eager");
            j.configSet("lazyfree-lazy-expire", "yes");
            bigSet(j, "lazy");
            j.sadd("small", "a");
            j.pexpire("lazy", 1000);
            j.pexpire("small", 1000);

            ebb.advanceClock(2000);
            j.exists("lazy", "small");

            assertEquals("1", info(j, "memory").get("lazyfreed_objects"));
        }
    }

    @Test
    void evictionShouldCountUnderLazyfreeLazyEviction() {
        try (Jedis j = connect()) {
            bigSet(j, "a");
            bigSet(j, "b");
            j.configSet("lazyfree-lazy-eviction", "yes");
            j.configSet("maxmemory-policy", "allkeys-random");
            j.configSet("maxmemory", "1");

            assertThrows(JedisDataException.class, () -> j.set("k", "v"));

            assertEquals(0L, j.dbSize());
            assertEquals("2", info(j, "memory").get("lazyfreed_objects"));
        }
    }
}
