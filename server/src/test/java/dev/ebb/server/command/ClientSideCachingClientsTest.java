package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.support.caching.CacheAccessor;
import io.lettuce.core.support.caching.CacheFrontend;
import io.lettuce.core.support.caching.ClientSideCaching;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Lettuce's {@code ClientSideCaching} (RESP3) against Ebb: a value read twice is served from the
 * client's cache the second time (the server counts one GET), and a write from another connection
 * evicts it from that cache; in BCAST mode only keys under the prefix are invalidated. Jedis 5.2's
 * own cache is not exercised: it refuses any server that reports a version below 7.4, as it refuses
 * redis-server 7.2.4 (Ebb reports 7.2.4); RESP2 with REDIRECT through Jedis is in
 * {@link ClientTrackingTest}.
 */
class ClientSideCachingClientsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    static final ClientResources LETTUCE = DefaultClientResources.builder()
            .ioThreadPoolSize(1).computationThreadPoolSize(1).build();

    @AfterAll
    static void stopLettuce() {
        LETTUCE.shutdown(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void lettuceShouldServeTheSecondReadFromItsCacheUntilAnotherConnectionWrites() throws Exception {
        RedisClient client = RedisClient.create(LETTUCE, RedisURI.create(ebb.host(), ebb.port()));
        try (StatefulRedisConnection<String, String> connection = client.connect();
                Jedis writer = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            writer.set("csc:k", "v1");
            Map<String, String> cache = new ConcurrentHashMap<>();
            CacheFrontend<String, String> frontend = ClientSideCaching.enable(CacheAccessor.forMap(cache),
                    connection, TrackingArgs.Builder.enabled());

            assertEquals("v1", frontend.get("csc:k"));
            long getsAfterFirstRead = getCalls(writer);
            assertEquals("v1", frontend.get("csc:k"));

            assertEquals(getsAfterFirstRead, getCalls(writer));
            assertEquals("v1", cache.get("csc:k"));
            writer.set("csc:k", "v2");
            await(() -> !cache.containsKey("csc:k"));
            assertEquals("v2", frontend.get("csc:k"));
            frontend.close();
        } finally {
            client.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }

    @Test
    void lettuceBcastShouldBeToldOnlyOfKeysUnderItsPrefix() throws Exception {
        RedisClient client = RedisClient.create(LETTUCE, RedisURI.create(ebb.host(), ebb.port()));
        try (StatefulRedisConnection<String, String> connection = client.connect();
                Jedis writer = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            writer.mset("user:1", "a", "order:1", "b");
            Map<String, String> cache = new ConcurrentHashMap<>();
            CacheFrontend<String, String> frontend = ClientSideCaching.enable(CacheAccessor.forMap(cache),
                    connection, TrackingArgs.Builder.enabled().bcast().prefixes("user:"));
            List<String> invalidated = new CopyOnWriteArrayList<>();
            ((ClientSideCaching<String, String>) frontend).addInvalidationListener(invalidated::add);
            assertEquals("a", frontend.get("user:1"));
            assertEquals("b", frontend.get("order:1"));

            writer.mset("user:1", "a2", "order:1", "b2");
            await(() -> !cache.containsKey("user:1"));

            assertEquals(List.of("user:1"), invalidated);
            assertTrue(cache.containsKey("order:1"));
            assertFalse(cache.containsKey("user:1"));
            frontend.close();
        } finally {
            client.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }

    private static long getCalls(Jedis jedis) {
        return jedis.info("commandstats").lines().filter(l -> l.startsWith("cmdstat_get:")).findFirst()
                .map(l -> Long.parseLong(l.substring("cmdstat_get:calls=".length(), l.indexOf(','))))
                .orElse(0L);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.sleep(5);
        }
    }
}
