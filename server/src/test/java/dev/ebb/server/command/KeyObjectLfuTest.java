package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/** OBJECT under an LFU maxmemory-policy with a memory limit. */
class KeyObjectLfuTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock()
            .config("maxmemory", "100mb")
            .config("maxmemory-policy", "allkeys-lfu");

    @Test
    void idletimeShouldBeRefusedUnderAnLfuPolicy() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "v");

            JedisDataException e = assertThrows(JedisDataException.class, () -> j.objectIdletime("k"));

            assertEquals("ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when"
                    + " switching between policies at runtime LRU and LFU data will take some time to adjust.",
                    e.getMessage());
            assertNull(j.objectIdletime("missing"));
        }
    }

    @Test
    void freqShouldReportTheLogarithmicCounterStartingAtFive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "v");

            long fresh = j.objectFreq("k");
            for (int i = 0; i < 200; i++) {
                j.get("k");
            }
            long used = j.objectFreq("k");

            assertEquals(5, fresh);
            assertTrue(used > 5 && used < 20, "counter after 200 reads: " + used);
            assertNull(j.objectFreq("missing"));
        }
    }

    @Test
    void smallIntegersShouldNotBeSharedUnderAnLfuPolicyWithALimit() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "5");

            assertEquals(1, j.objectRefcount("k"));
            assertEquals("int", new String(j.objectEncoding("k".getBytes())));
        }
    }
}
