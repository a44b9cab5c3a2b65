package dev.ebb.server.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.Tuple;

/**
 * A keyspace with every type in every encoding (strings int/embstr/raw, compressible and not;
 * lists listpack/quicklist; sets intset/listpack/hashtable; sorted sets listpack/skiplist; hashes
 * listpack/hashtable), some keys with a TTL, in databases 0 and 3, written through a client to Ebb
 * or to the reference; and a snapshot of a server's keyspace (SCAN, then a per-type read, OBJECT
 * ENCODING and whether a TTL is set) to compare two servers.
 */
final class KeyspaceSamples {
    /** Databases the samples use. */
    static final int[] DATABASES = {0, 3};

    private KeyspaceSamples() {
    }

    static void populate(Jedis j) {
        Random random = new Random(19);
        j.select(0);
        j.set("s:int", "12345");
        j.set("s:neg", "-7");
        j.set("s:int64", "9223372036854775807");
        j.set("s:embstr", "hello world");
        j.set("s:empty", "");
        j.set("s:compressible", "abc".repeat(200));
        j.set("s:random", randomText(random, 300));
        j.rpush("l:listpack", "a", "1", "-5000", "70000", "3000000000", "hello", "x".repeat(70));
        for (int i = 0; i < 2000; i += 100) {
            List<String> batch = new ArrayList<>();
            for (int k = i; k < i + 100; k++) {
                batch.add("element-" + k);
            }
            j.rpush("l:quicklist", batch.toArray(new String[0]));
        }
        for (int i = 0; i < 50; i++) {
            j.rpush("l:bigelements", randomText(random, 900));
        }
        j.sadd("set:intset", "1", "2", "70000", "-9000000000");
        j.sadd("set:listpack", "a", "b", "3");
        for (int i = 0; i < 300; i++) {
            j.sadd("set:hashtable", "member:" + i);
            j.zadd("z:skiplist", i * 1.25 - 100, "member:" + i);
            j.hset("h:hashtable", "field:" + i, "value:" + i);
        }
        for (int i = 0; i < 600; i++) {
            j.sadd("set:bigints", Integer.toString(i * 7));
        }
        j.zadd("z:listpack", Map.of("a", 1.0, "b", 2.5, "c", -3.0, "d", 1e20, "e", 0.1, "f",
                Double.POSITIVE_INFINITY, "g", Double.NEGATIVE_INFINITY, "h", 3.141592653589793));
        j.hset("h:listpack", Map.of("f", "v", "n", "42", "neg", "-1"));
        j.hset("h:longvalue", "f", "v".repeat(100));
        j.pexpire("s:embstr", 100_000_000L);
        j.pexpire("h:listpack", 100_000_000L);
        j.pexpire("l:quicklist", 100_000_000L);
        j.select(3);
        j.set("db3:key", "in database 3");
        j.sadd("db3:set", "x", "y");
        j.select(0);
    }

    private static String randomText(Random random, int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append((char) ('!' + random.nextInt(90)));
        }
        return s.toString();
    }

    /** Every key of the sample databases: "db:key" to type, encoding, TTL set or not, and content. */
    static Map<String, String> snapshot(Jedis j) {
        Map<String, String> out = new TreeMap<>();
        for (int db : DATABASES) {
            j.select(db);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = j.scan(cursor, new ScanParams().count(100));
                for (String key : page.getResult()) {
                    out.put(db + ":" + key, describe(j, key));
                }
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
        j.select(0);
        return out;
    }

    /** Fails listing only the keys whose descriptions differ (each cut to 300 characters). */
    static void assertSameKeyspace(Map<String, String> expected, Map<String, String> actual) {
        List<String> differences = new ArrayList<>();
        TreeSet<String> keys = new TreeSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        for (String key : keys) {
            String e = expected.get(key);
            String a = actual.get(key);
            if (e == null || !e.equals(a)) {
                differences.add(key + ": expected " + cut(e) + " but was " + cut(a));
            }
        }
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), differences);
    }

    private static String cut(String s) {
        return s == null || s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }

    static String describe(Jedis j, String key) {
        String type = j.type(key);
        String head = type + "/" + j.objectEncoding(key) + "/" + (j.pttl(key) > 0 ? "ttl" : "persistent") + ":";
        switch (type) {
            case "string":
                return head + j.get(key);
            case "list":
                return head + j.lrange(key, 0, -1);
            case "set":
                return head + new TreeSet<>(j.smembers(key));
            case "zset": {
                List<String> entries = new ArrayList<>();
                for (Tuple t : j.zrangeWithScores(key, 0, -1)) {
                    entries.add(t.getElement() + "=" + t.getScore());
                }
                return head + entries;
            }
            case "hash":
                return head + new TreeMap<>(j.hgetAll(key));
            default:
                return head + "?";
        }
    }
}
