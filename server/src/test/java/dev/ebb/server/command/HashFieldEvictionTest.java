package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.util.SafeEncoder;

/**
 * Hashes with volatile fields under maxmemory: evicted like any key by an {@code allkeys-*}
 * policy, and the ones that stay still lose their fields to expiry (the index of volatile hashes
 * follows the evictions).
 */
class HashFieldEvictionTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock()
            .config("maxmemory", "4mb")
            .config("maxmemory-policy", "allkeys-random");

    private static long stat(Jedis j, String field) {
        for (String line : j.info("stats").split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError("no " + field + " in INFO");
    }

    @Test
    void hashesWithVolatileFieldsShouldBeEvictedAndTheRestShouldStillExpire() throws Exception {
        try (Jedis j = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            ProtocolCommand hpexpire = () -> SafeEncoder.encode("HPEXPIRE");
            String value = "v".repeat(200);
            for (int i = 0; i < 2000; i++) {
                Map<String, String> fields = new HashMap<>();
                for (int f = 0; f < 20; f++) {
                    fields.put("f" + f, value);
                }
                j.hset("h" + i, fields);
                String[] args = new String[14];
                args[0] = "h" + i;
                args[1] = "1000";
                args[2] = "FIELDS";
                args[3] = "10";
                for (int f = 0; f < 10; f++) {
                    args[4 + f] = "f" + f;
                }
                j.sendCommand(hpexpire, args);
            }
            long evicted = stat(j, "evicted_keys");
            long left = j.dbSize();
            assertTrue(evicted > 0, "evictions happened");
            assertTrue(left < 2000, "some hashes were evicted: " + left);

            ebb.advanceClock(2000);

            long deadline = System.nanoTime() + 60_000_000_000L;
            while (stat(j, "expired_subkeys") < left * 10 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(left * 10, stat(j, "expired_subkeys"));
            assertEquals(left, j.dbSize());
            assertEquals(10, j.hlen(j.randomKey()));
            assertEquals(Arrays.asList((String) null), j.hmget(j.randomKey(), "f0"));
        }
    }
}
