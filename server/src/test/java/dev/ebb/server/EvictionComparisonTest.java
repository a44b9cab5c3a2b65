package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.config.ServerConfig;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * allkeys-lru on Ebb against a real redis-server with the same workload and the same relative
 * memory limit (a quarter of the keyspace), both on the real clock. Runs only when a redis-server
 * is named: {@code -Debb.compare.redisPort=6398}; skipped otherwise (the test suite has no
 * redis-server). The README's operations section has the figures of the last run.
 */
class EvictionComparisonTest {
    private static final int KEYSPACE = 20_000;
    private static final int OPS = 200_000;

    @Test
    void allkeysLruHitRatioShouldBeWithinFivePointsOfRedis() throws Exception {
        String port = System.getProperty("ebb.compare.redisPort");
        assumeTrue(port != null, "set -Debb.compare.redisPort to compare with a running redis-server");
        double redis;
        try (Jedis j = new Jedis("127.0.0.1", Integer.parseInt(port), 60_000)) {
            redis = run(j);
        }
        double ebb;
        try (EbbServer server = EbbServer.start(ServerConfig.fromText("port 0"));
                Jedis j = new Jedis("127.0.0.1", server.port(), 60_000)) {
            ebb = run(j);
        }

        System.out.printf("allkeys-lru hit ratio: ebb %.4f, redis-server %.4f%n", ebb, redis);
        assertEquals(redis, ebb, 0.05);
    }

    private static double run(Jedis j) {
        j.configSet("maxmemory-policy", "allkeys-lru");
        long limit = EvictionWorkload.limitForFraction(j, KEYSPACE, 0.25);
        double ratio = EvictionWorkload.hitRatio(j, KEYSPACE, OPS, 7, () -> { });
        System.out.printf("maxmemory %d used_memory %d evicted_keys %d%n", limit, EvictionWorkload.usedMemory(j),
                EvictionWorkload.infoField(j, "stats", "evicted_keys"));
        j.configSet("maxmemory", "0");
        j.flushAll();
        return ratio;
    }
}
