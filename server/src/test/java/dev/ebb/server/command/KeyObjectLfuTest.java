package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/** OBJECT under an LFU maxmemory-policy with a memory limit. */
class KeyObjectLfuTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension()
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
    void freqShouldSayThatEbbDoesNotTrackFrequencyYet() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("k", "v");

            JedisDataException e = assertThrows(JedisDataException.class, () -> j.objectFreq("k"));

            assertEquals("ERR access frequency is not tracked by Ebb yet", e.getMessage());
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
