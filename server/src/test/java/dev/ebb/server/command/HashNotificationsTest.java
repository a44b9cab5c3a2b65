package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Keyspace notifications of the hash commands: the keyevent sequence a real redis-server 7 published
 * for the same commands (HSETNX on an existing field and HDEL of a missing field publish nothing;
 * HDEL of the last field adds "del"). Redisson's RMap listeners subscribe to these.
 */
class HashNotificationsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("notify-keyspace-events", "KEA");

    @Test
    void hashCommandsShouldPublishRedisEventSequence() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("PSUBSCRIBE", "__keyevent@0__:*");
            c.call("HSET", "h", "a", "1");
            c.call("HSET", "h", "a", "1");
            c.call("HMSET", "h", "b", "2");
            c.call("HSETNX", "h", "a", "2");
            c.call("HSETNX", "h", "c", "3");
            c.call("HDEL", "h", "zz");
            c.call("HINCRBY", "h", "a", "1");
            c.call("HINCRBYFLOAT", "h", "a", "1.5");
            c.call("HDEL", "h", "a", "b", "c");
            c.call("SET", "done", "1");

            List<String> events = new ArrayList<>();
            for (String event = ""; !event.equals("set done"); events.add(event)) {
                String[] parts = sub.reply().split("\r\n");
                event = parts[6].substring(parts[6].indexOf("__:") + 3) + " " + parts[8];
            }

            assertEquals(List.of("hset h", "hset h", "hset h", "hset h", "hincrby h", "hincrbyfloat h", "hdel h",
                    "del h", "set done"), events);
        }
    }
}
