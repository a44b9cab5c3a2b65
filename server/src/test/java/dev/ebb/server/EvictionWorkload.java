package dev.ebb.server;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * A cache workload for eviction tests, the same on Ebb and on a real redis-server: keys are drawn
 * with a power law ({@code keyspace * u^3}, so low keys are hot), read with GET, and written with
 * SET on a miss, in pipelined batches. The memory limit is set to hold a given fraction of the
 * keyspace, measured on the server under test, so both servers get the same relative capacity
 * although their per-key overheads differ.
 */
final class EvictionWorkload {
    static final int VALUE_BYTES = 100;
    private static final int BATCH = 500;

    private EvictionWorkload() {
    }

    /**
     * Sets {@code maxmemory} so that about {@code fraction} of {@code keyspace} keys fit, measured by
     * filling the whole keyspace once on this server; leaves the database empty.
     */
    static long limitForFraction(Jedis j, int keyspace, double fraction) {
        j.configSet("maxmemory", "0");
        j.flushAll();
        long base = usedMemory(j);
        for (int from = 0; from < keyspace; from += BATCH) {
            Pipeline p = j.pipelined();
            for (int i = from; i < Math.min(keyspace, from + BATCH); i++) {
                p.set("key:" + i, value(i));
            }
            p.sync();
        }
        long full = usedMemory(j);
        j.flushAll();
        long limit = base + (long) ((full - base) * fraction);
        j.configSet("maxmemory", Long.toString(limit));
        return limit;
    }

    /**
     * Runs {@code ops} operations; returns the hit ratio of the second half (the first half warms
     * the cache). {@code afterBatch} runs after each batch (tests advance a manual clock there).
     */
    static double hitRatio(Jedis j, int keyspace, int ops, long seed, Runnable afterBatch) {
        SplittableRandom random = new SplittableRandom(seed);
        long hits = 0;
        long counted = 0;
        for (int done = 0; done < ops; done += BATCH) {
            int[] keys = new int[BATCH];
            Pipeline p = j.pipelined();
            List<Response<String>> gets = new ArrayList<>(BATCH);
            for (int i = 0; i < BATCH; i++) {
                keys[i] = (int) (keyspace * Math.pow(random.nextDouble(), 3));
                gets.add(p.get("key:" + keys[i]));
            }
            p.sync();
            Pipeline sets = j.pipelined();
            for (int i = 0; i < BATCH; i++) {
                boolean hit = gets.get(i).get() != null;
                if (done >= ops / 2) {
                    counted++;
                    hits += hit ? 1 : 0;
                }
                if (!hit) {
                    sets.set("key:" + keys[i], value(keys[i]));
                }
            }
            sets.sync();
            afterBatch.run();
        }
        return (double) hits / counted;
    }

    static long usedMemory(Jedis j) {
        return infoField(j, "memory", "used_memory");
    }

    static long infoField(Jedis j, String section, String field) {
        for (String line : j.info(section).split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError("no " + field + " in INFO " + section);
    }

    private static String value(int key) {
        StringBuilder sb = new StringBuilder(VALUE_BYTES);
        sb.append(key).append(':');
        while (sb.length() < VALUE_BYTES) {
            sb.append('v');
        }
        return sb.toString();
    }
}
