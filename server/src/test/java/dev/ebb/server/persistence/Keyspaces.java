package dev.ebb.server.persistence;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.Tuple;

/**
 * Test data in every type and encoding Redis 7.2 saves, and a per-type read of a whole server
 * (SCAN, then the type's full read, its expiry and its encoding) to compare two servers or one
 * server before and after a restart.
 */
final class Keyspaces {
    /** Far enough ahead that no test sees these keys expire. */
    static final long FAR_EXPIRY_MS = 4_102_444_800_000L;

    private Keyspaces() {
    }

    /** Writes one key of every type and encoding into databases 0 and 5, some with a time to live. */
    static void fill(Jedis j, String prefix) {
        for (int db : new int[] {0, 5}) {
            j.select(db);
            String p = prefix + db + ":";
            j.set(p + "int", "12345");
            j.set(p + "negint", "-2147483648");
            j.set(p + "bigint", "922337203685477580");
            j.set(p + "short", "hello");
            j.set(p + "compressible", "a".repeat(300));
            j.set(p + "random", randomText(200, db));
            j.set((p + "binary").getBytes(StandardCharsets.UTF_8), new byte[] {0, (byte) 0xff, 13, 10, 7});
            j.append(p + "raw", "appended");
            j.rpush(p + "list:small", "a", "1", "b", "-7", "c");
            for (int i = 0; i < 600; i++) {
                j.rpush(p + "list:big", "element-" + i + "-" + "x".repeat(i % 50));
            }
            j.sadd(p + "set:intset", "1", "2", "3", "-100", "70000");
            j.sadd(p + "set:listpack", "a", "b", "c", "10");
            for (int i = 0; i < 300; i++) {
                j.sadd(p + "set:hashtable", "member-" + i);
            }
            j.zadd(p + "zset:listpack", Map.of("a", 1.5, "b", -2.0, "c", 1e10));
            Map<String, Double> big = new HashMap<>();
            for (int i = 0; i < 300; i++) {
                big.put("member-" + i, i / 7.0);
            }
            j.zadd(p + "zset:skiplist", big);
            j.hset(p + "hash:listpack", Map.of("f1", "v1", "f2", "2", "f3", "three"));
            Map<String, String> fields = new HashMap<>();
            for (int i = 0; i < 300; i++) {
                fields.put("field-" + i, "value-" + i);
            }
            j.hset(p + "hash:hashtable", fields);
            j.set(p + "ttl:string", "expiring");
            j.pexpireAt(p + "ttl:string", FAR_EXPIRY_MS);
            j.rpush(p + "ttl:list", "x", "y");
            j.pexpireAt(p + "ttl:list", FAR_EXPIRY_MS + 1);
            j.sadd(p + "hll-like", "z");
            j.pfadd(p + "hll", "a", "b", "c");
        }
        j.select(0);
    }

    private static String randomText(int length, long seed) {
        java.util.Random r = new java.util.Random(seed);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) ('!' + r.nextInt(90)));
        }
        return sb.toString();
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
                    out.put(db + "/" + hex(key), describe(j, key));
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
            case "string" -> hex(j.get(key));
            case "list" -> j.lrange(key, 0, -1).stream().map(Keyspaces::hex).toList().toString();
            case "set" -> {
                TreeSet<String> members = new TreeSet<>();
                j.smembers(key).forEach(m -> members.add(hex(m)));
                yield members.toString();
            }
            case "zset" -> {
                List<String> entries = new ArrayList<>();
                for (Tuple t : j.zrangeWithScores(key, 0, -1)) {
                    entries.add(hex(t.getBinaryElement()) + "=" + t.getScore());
                }
                yield entries.toString();
            }
            case "hash" -> {
                TreeMap<String, String> fields = new TreeMap<>();
                j.hgetAll(key).forEach((f, v) -> fields.put(hex(f), hex(v)));
                yield fields.toString();
            }
            default -> "?";
        };
        String encoding = new String(j.objectEncoding(key), StandardCharsets.UTF_8);
        // A loaded string is raw or embstr by its length, as in Redis, whatever it was before.
        if (encoding.equals("raw") || encoding.equals("embstr")) {
            encoding = "raw|embstr";
        }
        return type + " " + encoding + " pexpiretime=" + j.pexpireTime(key) + " " + contents;
    }

    /** Fails with the first few missing, extra and differing keys rather than two whole keyspaces. */
    static void assertSame(Map<String, String> expected, Map<String, String> actual) {
        List<String> differences = new ArrayList<>();
        expected.forEach((key, value) -> {
            String got = actual.get(key);
            if (got == null) {
                differences.add("missing " + key);
            } else if (!got.equals(value)) {
                differences.add("differs " + key + ": expected " + abbreviate(value) + " got " + abbreviate(got));
            }
        });
        actual.keySet().stream().filter(k -> !expected.containsKey(k)).forEach(k -> differences.add("extra " + k));
        if (!differences.isEmpty()) {
            throw new AssertionError(differences.size() + " differences of " + expected.size() + " keys: "
                    + differences.subList(0, Math.min(8, differences.size())));
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 160 ? s : s.substring(0, 160) + "...";
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            int v = x & 0xff;
            if (v >= 0x20 && v < 0x7f && v != '%') {
                sb.append((char) v);
            } else {
                sb.append('%').append(String.format("%02x", v));
            }
        }
        return sb.toString();
    }
}
