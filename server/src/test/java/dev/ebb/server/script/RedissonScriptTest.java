package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RAtomicLong;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import redis.clients.jedis.Jedis;

/**
 * Redisson over RESP2 against Ebb: the objects whose scripts need only strings and keys. Redisson
 * runs its scripts with EVALSHA (useScriptCache), loading them on NOSCRIPT. RLock, RMap and
 * RMapCache need hashes and pub/sub, which Ebb does not have yet, so they are not here.
 */
class RedissonScriptTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static RedissonClient redisson;

    @BeforeAll
    static void connect() {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + ebb.host() + ":" + ebb.port())
                .setConnectionMinimumIdleSize(1).setConnectionPoolSize(2)
                .setSubscriptionConnectionMinimumIdleSize(0).setSubscriptionConnectionPoolSize(1);
        config.setCodec(StringCodec.INSTANCE);
        config.setUseScriptCache(true);
        redisson = Redisson.create(config);
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown(0, 2, TimeUnit.SECONDS);
    }

    @Test
    void bucketShouldSetGetCompareAndSetAndExpire() {
        RBucket<String> bucket = redisson.getBucket("bucket");

        bucket.set("v1");

        assertEquals("v1", bucket.get());
        assertTrue(bucket.compareAndSet("v1", "v2"));
        assertFalse(bucket.compareAndSet("v1", "v3"));
        assertEquals("v2", bucket.getAndSet("v4"));
        assertTrue(bucket.setIfAbsent("x") == false);
        assertEquals("v4", bucket.getAndDelete());
        assertNull(bucket.get());
        assertTrue(bucket.trySet("t", 10, TimeUnit.SECONDS));
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertTrue(j.pttl("bucket") > 0);
        }
    }

    @Test
    void atomicLongShouldCountAndCompareAndSetThroughScripts() {
        RAtomicLong counter = redisson.getAtomicLong("counter");

        counter.set(5);

        assertEquals(6, counter.incrementAndGet());
        assertEquals(6, counter.getAndAdd(4));
        assertTrue(counter.compareAndSet(10, 20));
        assertFalse(counter.compareAndSet(10, 30));
        assertEquals(20, counter.getAndDelete());
        assertEquals(0, counter.get());
    }

    @Test
    void redissonShouldRunItsScriptsFromTheScriptCache() {
        RBucket<String> bucket = redisson.getBucket("cached");
        bucket.set("v");
        ebb.server().runOnLoop(server -> server.scripting().flush());

        assertTrue(bucket.compareAndSet("v", "w"));

        int[] cached = new int[1];
        ebb.server().runOnLoop(server -> cached[0] = server.scripting().cachedScripts());
        assertEquals(1, cached[0], "Redisson loaded its script (SCRIPT LOAD, or EVAL after NOSCRIPT)");
        assertEquals("w", bucket.get());
    }
}
