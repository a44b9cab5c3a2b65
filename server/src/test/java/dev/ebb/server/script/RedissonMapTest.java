package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RMap;
import org.redisson.api.RMapCache;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import redis.clients.jedis.Jedis;

/**
 * Redisson's RMap (plain hash commands plus scripts) and RMapCache (scripts that keep per-entry
 * TTL and max-idle in sorted sets and encode values with {@code struct.pack}) against Ebb over
 * RESP2. Expiry runs on Redisson's clocks, so the cache tests use real waits of one to three seconds.
 */
class RedissonMapTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static RedissonClient redisson;

    @BeforeAll
    static void connect() {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + ebb.host() + ":" + ebb.port())
                .setConnectionMinimumIdleSize(1).setConnectionPoolSize(4)
                .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(1);
        config.setCodec(StringCodec.INSTANCE);
        config.setUseScriptCache(true);
        config.setMinCleanUpDelay(1);
        config.setMaxCleanUpDelay(2);
        redisson = Redisson.create(config);
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown(0, 2, TimeUnit.SECONDS);
    }

    @Test
    void mapShouldPutGetRemoveAndIterate() {
        RMap<String, String> map = redisson.getMap("map:plain");

        assertNull(map.put("a", "1"));
        assertEquals("1", map.put("a", "2"));
        assertEquals("2", map.putIfAbsent("a", "3"));
        assertNull(map.putIfAbsent("b", "4"));
        assertTrue(map.fastPut("c", "5"));
        assertFalse(map.fastPut("c", "6"));
        assertEquals("2", map.get("a"));
        assertEquals(3, map.size());
        Map<String, String> copy = new TreeMap<>();
        for (Map.Entry<String, String> e : map.entrySet()) {
            copy.put(e.getKey(), e.getValue());
        }
        assertEquals(Map.of("a", "2", "b", "4", "c", "6"), copy);
        assertEquals("4", map.remove("b"));
        assertTrue(map.remove("c", "6"));
        assertFalse(map.remove("a", "9"));
        assertTrue(map.replace("a", "2", "7"));
        assertEquals(1, map.fastRemove("a", "zz"));
        assertEquals(0, map.size());
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            assertFalse(jedis.exists("map:plain"));
        }
    }

    @Test
    void mapShouldAddAndComputeThroughScripts() {
        RMap<String, String> map = redisson.getMap("map:scripts");
        map.putAll(Map.of("x", "1", "y", "2"));

        assertEquals(Map.of("x", "1", "y", "2"), new TreeMap<>(map.getAll(java.util.Set.of("x", "y", "z"))));
        assertEquals("2", map.replace("y", "3"));
        assertTrue(map.fastPutIfAbsent("z", "9"));
        assertFalse(map.fastPutIfAbsent("z", "10"));
        assertTrue(map.containsValue("9"));
        assertEquals(java.util.Set.of("x", "y", "z"), map.readAllKeySet());
    }

    @Test
    void mapCacheEntryShouldExpireAfterItsTtl() throws Exception {
        RMapCache<String, String> cache = redisson.getMapCache("cache:ttl");

        cache.put("short", "s", 3, TimeUnit.SECONDS);
        cache.put("long", "l", 60, TimeUnit.SECONDS);
        cache.put("forever", "f");

        assertEquals("s", cache.get("short"));
        assertEquals(3, cache.size());
        long ttl = cache.remainTimeToLive("long");
        assertTrue(ttl > 50_000 && ttl <= 60_000, "remaining " + ttl);
        Thread.sleep(3_200);

        assertNull(cache.get("short"), "an expired entry reads as absent before eviction");
        assertFalse(cache.containsKey("short"));
        assertEquals("l", cache.get("long"));
        assertEquals("f", cache.get("forever"));
        assertEquals(2, cache.readAllMap().size());
    }

    @Test
    void mapCacheEntryShouldExpireAfterMaxIdleUnlessRead() throws Exception {
        RMapCache<String, String> cache = redisson.getMapCache("cache:idle");

        // Idle for 2 s, read every 0.8 s: a stall of up to 1.2 s on a busy host still keeps "touched".
        cache.put("idle", "i", 0, TimeUnit.SECONDS, 2, TimeUnit.SECONDS);
        cache.put("touched", "t", 0, TimeUnit.SECONDS, 2, TimeUnit.SECONDS);
        for (int i = 0; i < 3; i++) {
            Thread.sleep(800);
            assertEquals("t", cache.get("touched"));
        }

        assertNull(cache.get("idle"));
        assertEquals("t", cache.get("touched"));
        assertNull(cache.putIfAbsent("idle", "again", 1, TimeUnit.MINUTES));
        assertEquals("again", cache.get("idle"));
    }

    @Test
    void evictionTaskShouldRemoveExpiredEntriesAndNotifyListeners() throws Exception {
        RMapCache<String, String> cache = redisson.getMapCache("cache:evict");
        java.util.concurrent.BlockingQueue<String> expired = new java.util.concurrent.LinkedBlockingQueue<>();
        java.util.concurrent.BlockingQueue<String> created = new java.util.concurrent.LinkedBlockingQueue<>();
        int expiredListener = cache.addListener((org.redisson.api.map.event.EntryExpiredListener<String, String>)
                event -> expired.add(event.getKey() + "=" + event.getValue()));
        int createdListener = cache.addListener((org.redisson.api.map.event.EntryCreatedListener<String, String>)
                event -> created.add(event.getKey() + "=" + event.getValue()));

        cache.put("gone", "g", 500, TimeUnit.MILLISECONDS);
        cache.put("kept", "k", 1, TimeUnit.MINUTES);

        assertEquals("gone=g", created.poll(5, TimeUnit.SECONDS), "the put script published the created entry");
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(2, jedis.hlen("cache:evict"));
            assertEquals(2, jedis.zcard("redisson__timeout__set:{cache:evict}"));
            assertEquals("gone=g", expired.poll(15, TimeUnit.SECONDS), "the eviction script published the expired entry");
            assertEquals(1, jedis.hlen("cache:evict"), "Redisson's eviction task removed the expired entry");
            assertTrue(jedis.hexists("cache:evict", "kept"));
            assertEquals(1, jedis.zcard("redisson__timeout__set:{cache:evict}"));
        }
        cache.removeListener(expiredListener);
        cache.removeListener(createdListener);
    }

    @Test
    void mapCacheWithMaxSizeShouldEvictTheLeastRecentlyUsedEntry() {
        RMapCache<String, String> cache = redisson.getMapCache("cache:bounded");
        assertTrue(cache.trySetMaxSize(2));

        // Redisson stamps each access with the client's System.currentTimeMillis() and evicts by
        // ZRANGE, so accesses in one millisecond tie and the tie goes to the smaller member, "a":
        // each access gets a millisecond of its own, and only a real LRU order evicts "b".
        cache.put("a", "1");
        awaitNextMillisecond();
        cache.put("b", "2");
        awaitNextMillisecond();
        assertEquals("1", cache.get("a"));
        awaitNextMillisecond();
        cache.put("c", "3");

        assertEquals(2, cache.size());
        assertEquals("1", cache.get("a"));
        assertNull(cache.get("b"), "b was the least recently used");
        assertEquals("3", cache.get("c"));
    }

    private static void awaitNextMillisecond() {
        long now = System.currentTimeMillis();
        while (System.currentTimeMillis() == now) {
            Thread.onSpinWait();
        }
    }

    @Test
    void mapShouldNotifyPutListenersThroughKeyspaceNotifications() throws Exception {
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            jedis.configSet("notify-keyspace-events", "Eh");
        }
        RMap<String, String> map = redisson.getMap("map:listened");
        java.util.concurrent.BlockingQueue<String> puts = new java.util.concurrent.LinkedBlockingQueue<>();
        int listener = map.addListener((org.redisson.api.listener.MapPutListener) name -> puts.add(name));

        map.fastPut("k", "v");

        assertEquals("map:listened", puts.poll(5, TimeUnit.SECONDS));
        map.removeListener(listener);
    }
}
