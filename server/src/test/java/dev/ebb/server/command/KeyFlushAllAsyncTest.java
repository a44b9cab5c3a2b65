package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import dev.ebb.storage.Database;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.FlushMode;

/**
 * FLUSHALL ASYNC on a million keys. The keyspace is filled directly on the command loop (a million
 * SETs through the protocol would dominate the test's run time and test nothing of FLUSHALL); the
 * flush itself and every check go through Jedis. Timing is printed, not asserted.
 */
class KeyFlushAllAsyncTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static final int KEYS = 1_000_000;
    private static final int VOLATILE_EVERY = 10;

    @Test
    void flushallAsyncShouldEmptyAMillionKeyDatabase() {
        ebb.server().runOnLoop(s -> {
            Database db0 = s.db(0);
            long now = s.nowMs();
            for (int i = 0; i < KEYS; i++) {
                byte[] key = ("key:" + i).getBytes(StandardCharsets.US_ASCII);
                db0.setKey(key, ("value:" + i).getBytes(StandardCharsets.US_ASCII), now);
                if (i % VOLATILE_EVERY == 0) {
                    db0.setExpire(key, now + 3_600_000);
                }
            }
            s.db(1).setKey("other".getBytes(StandardCharsets.US_ASCII), new byte[] {1}, now);
        });
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(KEYS, j.dbSize());
            assertEquals("value:123456", j.get("key:123456"));

            long start = System.nanoTime();
            String reply = j.flushAll(FlushMode.ASYNC);
            long micros = (System.nanoTime() - start) / 1000;
            System.out.printf("FLUSHALL ASYNC of %,d keys: %,d us round trip%n", KEYS, micros);

            assertEquals("OK", reply);
            assertEquals(0, j.dbSize());
            assertNull(j.get("key:123456"));
            j.select(1);
            assertEquals(0, j.dbSize());
            j.select(0);
            assertTrue(j.keys("*").isEmpty());
            j.set("key:1", "fresh");
            assertEquals("fresh", j.get("key:1"));
            assertEquals(-1, j.ttl("key:1"));
            assertEquals(1, j.dbSize());
        }
        long[] expires = new long[1];
        ebb.server().runOnLoop(s -> expires[0] = s.db(0).expiresSize());
        assertEquals(0, expires[0]);
    }
}
