package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * TIME: unix seconds and microseconds from the real clock, even when the server's command clock is
 * a test's manual clock (as redis-server's TIME reads ustime()).
 */
class TimeCommandTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    @Test
    void timeShouldReturnWallClockSecondsAndMicroseconds() {
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            long before = System.currentTimeMillis() * 1000;

            List<String> time = jedis.time();

            long after = System.currentTimeMillis() * 1000 + 1000;
            assertEquals(2, time.size());
            long seconds = Long.parseLong(time.get(0));
            long micros = Long.parseLong(time.get(1));
            assertTrue(micros >= 0 && micros < 1_000_000, "micros " + micros);
            long at = seconds * 1_000_000 + micros;
            assertTrue(at >= before && at <= after, at + " not within [" + before + ", " + after + "]");
        }
    }

    @Test
    void timeShouldNeverGoBackwards() {
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            long previous = 0;
            for (int i = 0; i < 200; i++) {
                List<String> time = jedis.time();
                long at = Long.parseLong(time.get(0)) * 1_000_000 + Long.parseLong(time.get(1));
                assertTrue(at >= previous, at + " after " + previous);
                previous = at;
            }
        }
    }

    @Test
    void timeWithArgumentsShouldBeRefusedWithRedisArityError() {
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            JedisDataException e = assertThrows(JedisDataException.class,
                    () -> jedis.sendCommand(Protocol.Command.TIME, "now"));

            assertEquals("ERR wrong number of arguments for 'time' command", e.getMessage());
        }
    }
}
