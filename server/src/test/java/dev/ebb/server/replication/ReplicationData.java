package dev.ebb.server.replication;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.Tuple;

/**
 * Test data for replication: every type and encoding in several databases, a mixed write load
 * (MULTI/EXEC, EVAL, expiring keys, other databases), and a per-type read of a whole server (SCAN,
 * then the type's full read, expiry and encoding) to compare a primary with its replica.
 */
final class ReplicationData {
    private ReplicationData() {
    }

    /** One key of every type and encoding, streams with groups, and far expiries, in databases 0, 3 and 9. */
    static void fill(Jedis j) {
        for (int db : new int[] {0, 3, 9}) {
            j.select(db);
            String p = "d" + db + ":";
            j.set(p + "int", "12345");
            j.set(p + "negint", "-2147483648");
            j.set(p + "short", "hello");
            j.set(p + "long", "a".repeat(300));
            j.set((p + "binary").getBytes(StandardCharsets.UTF_8), new byte[] {0, (byte) 0xff, 13, 10, 7});
            j.rpush(p + "list:small", "a", "1", "b", "-7");
            for (int i = 0; i < 300; i++) {
                j.rpush(p + "list:big", "element-" + i + "-" + "x".repeat(i % 70));
            }
            j.sadd(p + "set:intset", "1", "2", "3", "-100", "70000");
            j.sadd(p + "set:listpack", "a", "b", "c", "10");
            for (int i = 0; i < 200; i++) {
                j.sadd(p + "set:hashtable", "member-" + i);
            }
            j.zadd(p + "zset:listpack", Map.of("a", 1.5, "b", -2.0, "c", 1e10));
            Map<String, Double> big = new HashMap<>();
            for (int i = 0; i < 200; i++) {
                big.put("member-" + i, i / 7.0);
            }
            j.zadd(p + "zset:skiplist", big);
            j.hset(p + "hash:listpack", Map.of("f1", "v1", "f2", "2"));
            Map<String, String> fields = new HashMap<>();
            for (int i = 0; i < 200; i++) {
                fields.put("field-" + i, "value-" + i);
            }
            j.hset(p + "hash:hashtable", fields);
            for (int i = 1; i <= 150; i++) {
                j.xadd(p + "stream", XAddParams.xAddParams().id(i + "-1"), Map.of("n", Integer.toString(i)));
            }
            j.xgroupCreate(p + "stream", "g1", new redis.clients.jedis.StreamEntryID(20, 1), false);
            j.xgroupCreate(p + "stream", "g2", new redis.clients.jedis.StreamEntryID(0, 0), false);
            j.set(p + "ttl", "expiring");
            j.pexpireAt(p + "ttl", 4_102_444_800_000L);
            j.pfadd(p + "hll", "a", "b", "c");
        }
        j.select(0);
    }

    /**
     * {@code ops} mixed writes: strings, counters, lists, sets, zsets, hashes, streams, deletions,
     * keys that expire within a few hundred ms, MULTI/EXEC across databases and EVAL.
     */
    static void load(Jedis j, int ops, long seed) {
        Random r = new Random(seed);
        for (int i = 0; i < ops; i++) {
            int db = r.nextInt(4) == 0 ? 3 : 0;
            j.select(db);
            String k = "load:" + r.nextInt(200);
            switch (r.nextInt(12)) {
                case 0 -> j.set(k + ":s", "v" + i);
                case 1 -> j.incrBy("load:counter:" + r.nextInt(10), r.nextInt(100));
                case 2 -> j.rpush(k + ":l", "e" + i);
                case 3 -> j.sadd(k + ":set", "m" + r.nextInt(50));
                case 4 -> j.zadd(k + ":z", r.nextInt(1000) / 3.0, "m" + r.nextInt(50));
                case 5 -> j.hset(k + ":h", "f" + r.nextInt(20), "v" + i);
                case 6 -> j.xadd("load:stream:" + db, XAddParams.xAddParams(), Map.of("i", Integer.toString(i)));
                case 7 -> j.del(k + ":s", k + ":l");
                case 8 -> j.psetex("load:short:" + i, 100 + r.nextInt(200), "gone soon");
                case 9 -> {
                    Transaction t = j.multi();
                    t.set("load:tx:" + r.nextInt(50), "t" + i);
                    t.lpush("load:tx:list", "t" + i);
                    t.incr("load:tx:count");
                    t.exec();
                }
                case 10 -> j.eval("redis.call('set', KEYS[1], ARGV[1]); return redis.call('incr', KEYS[2])", 2,
                        "load:lua:" + r.nextInt(30), "load:lua:n", "x" + i);
                default -> {
                    j.select(9);
                    j.hincrBy("load:db9", "f" + r.nextInt(10), 1);
                    j.zincrby("load:db9:z", 1.5, "m" + r.nextInt(10));
                }
            }
        }
        j.select(0);
    }

    /** Every key of databases 0 to 15 with its type, contents, expiry and encoding. */
    static Map<String, String> dump(Jedis j) {
        Map<String, String> out = new TreeMap<>();
        for (int db = 0; db < 16; db++) {
            j.select(db);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<byte[]> page = j.scan(cursor.getBytes(StandardCharsets.UTF_8), new ScanParams().count(500));
                for (byte[] key : page.getResult()) {
                    out.put(db + "/" + new String(key, StandardCharsets.ISO_8859_1), describe(j, key));
                }
                cursor = page.getCursor();
            } while (!cursor.equals("0"));
        }
        j.select(0);
        return out;
    }

    private static String describe(Jedis j, byte[] key) {
        String type = j.type(key);
        String contents = switch (type) {
            case "string" -> text(j.get(key));
            case "list" -> j.lrange(key, 0, -1).stream().map(ReplicationData::text).toList().toString();
            case "set" -> {
                TreeSet<String> members = new TreeSet<>();
                j.smembers(key).forEach(m -> members.add(text(m)));
                yield members.toString();
            }
            case "zset" -> {
                List<String> entries = new ArrayList<>();
                for (Tuple t : j.zrangeWithScores(key, 0, -1)) {
                    entries.add(text(t.getBinaryElement()) + "=" + t.getScore());
                }
                yield entries.toString();
            }
            case "hash" -> {
                TreeMap<String, String> fields = new TreeMap<>();
                j.hgetAll(key).forEach((f, v) -> fields.put(text(f), text(v)));
                yield fields.toString();
            }
            case "stream" -> {
                String k = new String(key, StandardCharsets.ISO_8859_1);
                yield j.xrange(k, "-", "+").stream().map(e -> e.getID() + "" + new TreeMap<>(e.getFields())).toList()
                        + " groups=" + j.xinfoGroups(k).stream()
                                .map(g -> g.getName() + "@" + g.getLastDeliveredId()).toList();
            }
            default -> "?";
        };
        String encoding = new String(j.objectEncoding(key), StandardCharsets.UTF_8);
        if (encoding.equals("raw") || encoding.equals("embstr")) {
            encoding = "raw|embstr";
        }
        return type + " " + encoding + " pexpiretime=" + j.pexpireTime(key) + " " + contents;
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    /** One field of INFO replication or stats, or null. */
    static String info(Jedis j, String field) {
        for (String line : j.info().split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        return null;
    }

    static void await(String what, long seconds, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + seconds + " s waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    /** Fails with the first few missing, extra and differing keys rather than two whole keyspaces. */
    static void assertSame(Map<String, String> expected, Map<String, String> actual) {
        List<String> differences = new ArrayList<>();
        expected.forEach((key, value) -> {
            String got = actual.get(key);
            if (got == null) {
                differences.add("missing " + key);
            } else if (!got.equals(value)) {
                differences.add("differs " + key + ": expected " + cut(value) + " got " + cut(got));
            }
        });
        actual.keySet().stream().filter(k -> !expected.containsKey(k)).forEach(k -> differences.add("extra " + k));
        if (!differences.isEmpty()) {
            throw new AssertionError(differences.size() + " differences of " + expected.size() + " keys: "
                    + differences.subList(0, Math.min(8, differences.size())));
        }
    }

    private static String cut(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "..." + s.substring(s.length() - 200);
    }
}
