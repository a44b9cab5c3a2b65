package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Keyspace notifications of the set commands: the keyevent sequence a real redis-server 7 published
 * for the same commands (no-op calls publish nothing; emptying a set adds "del"; an empty STORE
 * result deletes the destination with "del"). Redisson's RSet listeners subscribe to these.
 */
class SetNotificationsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("notify-keyspace-events", "KEA");

    @Test
    void setCommandsShouldPublishRedisEventSequence() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("PSUBSCRIBE", "__keyevent@0__:*");
            c.call("SADD", "s", "a", "b", "c", "d", "e");
            c.call("SADD", "s", "a");
            c.call("SREM", "s", "zz");
            c.call("SREM", "s", "a");
            c.call("SPOP", "s");
            c.call("SPOP", "s", "0");
            c.call("SPOP", "s", "1");
            c.call("SADD", "t", "x");
            c.call("SMOVE", "s", "t", "x");
            c.call("SUNIONSTORE", "u", "s", "t");
            c.call("SINTERSTORE", "u", "s", "nokey");
            c.call("SINTERSTORE", "u", "s", "nokey");
            c.call("SDIFFSTORE", "u2", "t", "s");
            c.call("SPOP", "s", "10");
            c.call("SADD", "s2", "m");
            c.call("SMOVE", "s2", "t", "m");
            c.call("SET", "done", "1");

            List<String> events = new ArrayList<>();
            for (String event = ""; !event.equals("set done"); events.add(event)) {
                String[] parts = sub.reply().split("\r\n");
                event = parts[6].substring(parts[6].indexOf("__:") + 3) + " " + parts[8];
            }

            assertEquals(List.of("sadd s", "srem s", "spop s", "spop s", "sadd t", "sunionstore u", "del u",
                    "sdiffstore u2", "spop s", "del s", "sadd s2", "srem s2", "del s2", "sadd t", "set done"), events);
        }
    }
}
