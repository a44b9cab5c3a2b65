package dev.ebb.server.persistence;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.StreamEntry;
import redis.clients.jedis.resps.Tuple;

/**
 * Large datasets for the snapshot tests: hundreds of thousands of keys of every type written through a
 * pipeline, and a pipelined per-type read of a whole server (SCAN, TYPE, the type's full read and
 * PEXPIRETIME) to compare one server before and after a restart, or two servers.
 */
final class BulkKeyspace {
    private static final int PIPELINE = 500;

    private BulkKeyspace() {
    }

    /**
     * Writes about {@code n} keys into databases 0 and 3: mostly strings (integers, short and long text),
     * and one in fifty a list, set (intset, listpack, and past 128 members hashtable), sorted set
     * (listpack, skiplist), hash (listpack, hashtable) or (with {@code streams}) stream, one in ten with a
     * time to live far ahead.
     */
    static void fill(Jedis j, int n, boolean streams) {
        for (int db : new int[] {0, 3}) {
            j.select(db);
            Pipeline p = j.pipelined();
            int count = db == 0 ? n * 3 / 4 : n / 4;
            for (int i = 0; i < count; i++) {
                String key = "k:" + i;
                boolean big = i % 1000 < 50;
                switch (i % 50) {
                    case 1 -> p.rpush(key, "a" + i, "b", String.valueOf(i), "c".repeat(i % 70));
                    case 2 -> p.sadd(key, "1", "2", String.valueOf(i));
                    case 3 -> p.sadd(key, "m" + i, "x", "y");
                    case 4 -> p.sadd(key, members("member-", big ? 130 : 5));
                    case 5 -> p.zadd(key, Map.of("a", 1.5, "b", -i * 1.0, "c", i / 3.0));
                    case 6 -> {
                        Map<String, Double> scores = new HashMap<>();
                        for (String m : members("z", big ? 130 : 5)) {
                            scores.put(m, m.length() / 7.0 + i);
                        }
                        p.zadd(key, scores);
                    }
                    case 7 -> p.hset(key, Map.of("f1", "v" + i, "f2", "2"));
                    case 8 -> {
                        Map<String, String> fields = new HashMap<>();
                        for (String m : members("field-", big ? 130 : 5)) {
                            fields.put(m, "value-" + m + "-" + i);
                        }
                        p.hset(key, fields);
                    }
                    case 9 -> {
                        if (streams) {
                            p.sendCommand(() -> "XADD".getBytes(StandardCharsets.US_ASCII), key, "*", "f", "v" + i);
                            p.sendCommand(() -> "XADD".getBytes(StandardCharsets.US_ASCII), key, "*", "g", "w");
                        } else {
                            p.set(key, "no-stream-" + i);
                        }
                    }
                    case 10 -> p.set(key, String.valueOf(i * 7919L));
                    default -> p.set(key, "value-" + i + "-" + "x".repeat(i % 40));
                }
                if (i % 10 == 0) {
                    p.pexpireAt(key, Keyspaces.FAR_EXPIRY_MS + i);
                }
                if (i % PIPELINE == PIPELINE - 1) {
                    p.sync();
                }
            }
            p.sync();
        }
        j.select(0);
    }

    private static String[] members(String prefix, int n) {
        String[] members = new String[n];
        for (int m = 0; m < n; m++) {
            members[m] = prefix + m;
        }
        return members;
    }

    /** Every key of databases 0 to 15 with its type, contents and PEXPIRETIME, read through pipelines. */
    static Map<String, String> dump(Jedis j) {
        Map<String, String> out = new TreeMap<>();
        for (int db = 0; db < 16; db++) {
            j.select(db);
            List<byte[]> keys = new ArrayList<>();
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<byte[]> page = j.scan(cursor.getBytes(StandardCharsets.UTF_8), new ScanParams().count(1000));
                keys.addAll(page.getResult());
                cursor = page.getCursor();
            } while (!cursor.equals("0"));
            for (int from = 0; from < keys.size(); from += PIPELINE) {
                List<byte[]> slice = keys.subList(from, Math.min(keys.size(), from + PIPELINE));
                Pipeline p = j.pipelined();
                List<Response<String>> types = new ArrayList<>();
                for (byte[] key : slice) {
                    types.add(p.type(key));
                }
                p.sync();
                p = j.pipelined();
                List<Response<?>> values = new ArrayList<>();
                List<Response<Long>> expiries = new ArrayList<>();
                for (int i = 0; i < slice.size(); i++) {
                    byte[] key = slice.get(i);
                    values.add(switch (types.get(i).get()) {
                        case "string" -> p.get(key);
                        case "list" -> p.lrange(key, 0, -1);
                        case "set" -> p.smembers(key);
                        case "zset" -> p.zrangeWithScores(key, 0, -1);
                        case "hash" -> p.hgetAll(key);
                        case "stream" -> p.xrange(Keyspaces.hex(key), "-", "+");
                        default -> p.type(key);
                    });
                    expiries.add(p.pexpireTime(key));
                }
                p.sync();
                for (int i = 0; i < slice.size(); i++) {
                    out.put(db + "/" + Keyspaces.hex(slice.get(i)), types.get(i).get() + " "
                            + describe(values.get(i).get()) + " pexpiretime=" + expiries.get(i).get());
                }
            }
        }
        j.select(0);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static String describe(Object value) {
        if (value instanceof byte[] b) {
            return Keyspaces.hex(b);
        }
        if (value instanceof java.util.Set<?> set) {
            TreeSet<String> members = new TreeSet<>();
            for (Object m : set) {
                members.add(m instanceof byte[] b ? Keyspaces.hex(b) : String.valueOf(m));
            }
            return members.toString();
        }
        if (value instanceof Map<?, ?> map) {
            TreeMap<String, String> fields = new TreeMap<>();
            map.forEach((f, v) -> fields.put(describe(f), describe(v)));
            return fields.toString();
        }
        if (value instanceof List<?> list) {
            List<String> items = new ArrayList<>();
            for (Object o : list) {
                if (o instanceof Tuple t) {
                    items.add(Keyspaces.hex(t.getBinaryElement()) + "=" + t.getScore());
                } else if (o instanceof StreamEntry e) {
                    items.add(e.getID() + " " + new TreeMap<>(e.getFields()));
                } else {
                    items.add(describe(o));
                }
            }
            return items.toString();
        }
        return String.valueOf(value);
    }
}
