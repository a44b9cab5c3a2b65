package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Streams among the rest of the server: the keyevent sequence redis-server 7.2.4 published for
 * the same stream commands (no-op calls publish nothing; consumers created by XREADGROUP, XCLAIM
 * and XAUTOCLAIM publish xgroup-createconsumer), MEMORY USAGE growing with entries and groups,
 * OBJECT ENCODING and the node directives through CONFIG SET.
 */
class StreamNotificationsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("notify-keyspace-events", "KEA");

    @Test
    void streamCommandsShouldPublishRedisEventSequence() throws Exception {
        String[] commands = {"XADD s 1-1 a 1", "XADD s MAXLEN 1 1-2 a 2", "XADD s 1-3 a 3", "XDEL s 9-9",
            "XDEL s 1-2", "XTRIM s MAXLEN 5", "XTRIM s MAXLEN 0", "XGROUP CREATE s g 0",
            "XGROUP CREATE s2 g 0 MKSTREAM", "XGROUP CREATECONSUMER s g c", "XGROUP CREATECONSUMER s g c",
            "XADD s 2-1 a 1", "XREADGROUP GROUP g c2 STREAMS s >", "XCLAIM s g c3 0 2-1", "XAUTOCLAIM s g c4 0 0",
            "XGROUP DELCONSUMER s g c", "XGROUP DELCONSUMER s g zz", "XGROUP SETID s g 0", "XSETID s 5-5",
            "XGROUP DESTROY s g", "XGROUP DESTROY s g", "XACK s g 2-1", "SET done 1"};
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("PSUBSCRIBE", "__keyevent@0__:*");
            for (String command : commands) {
                c.call(command.split(" "));
            }

            List<String> events = new ArrayList<>();
            for (String event = ""; !event.equals("set done"); events.add(event)) {
                String[] parts = sub.reply().split("\r\n");
                event = parts[6].substring(parts[6].indexOf("__:") + 3) + " " + parts[8];
            }

            assertEquals(List.of("xadd s", "xadd s", "xtrim s", "xadd s", "xdel s", "xtrim s", "xgroup-create s",
                    "xgroup-create s2", "xgroup-createconsumer s", "xadd s", "xgroup-createconsumer s",
                    "xgroup-createconsumer s", "xgroup-createconsumer s", "xgroup-delconsumer s", "xgroup-setid s",
                    "xsetid s", "xgroup-destroy s", "set done"), events);
        }
    }

    @Test
    void memoryUsageShouldGrowWithEntriesAndShrinkWhenTrimmed() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.xadd("m", new redis.clients.jedis.StreamEntryID(1, 1), java.util.Map.of("f", "v"));
            long small = j.memoryUsage("m");
            for (int i = 2; i <= 1000; i++) {
                j.xadd("m", new redis.clients.jedis.StreamEntryID(1, i), java.util.Map.of("f", "value-" + i));
            }
            long large = j.memoryUsage("m");
            j.xtrim("m", 10, false);
            long trimmed = j.memoryUsage("m");

            assertTrue(large > small + 1000 * 8, "small=" + small + " large=" + large);
            assertTrue(trimmed < large / 4, "large=" + large + " trimmed=" + trimmed);
            assertEquals("stream", j.objectEncoding("m"));
            assertEquals("stream", j.type("m"));
        }
    }

    @Test
    void nodeDirectivesShouldBeSettableAndShapeTheNodes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(java.util.Map.of("stream-node-max-entries", "100"), j.configGet("stream-node-max-entries"));
            assertEquals(java.util.Map.of("stream-node-max-bytes", "4096"), j.configGet("stream-node-max-bytes"));
            j.configSet("stream-node-max-entries", "10");
            try {
                for (int i = 1; i <= 95; i++) {
                    j.xadd("n", new redis.clients.jedis.StreamEntryID(1, i), java.util.Map.of("f", "v"));
                }
                Object info = j.sendCommand(redis.clients.jedis.Protocol.Command.XINFO, "STREAM", "n");
                List<?> fields = (List<?>) info;
                assertEquals("radix-tree-keys", new String((byte[]) fields.get(2)));
                assertEquals(10L, fields.get(3));
            } finally {
                j.configSet("stream-node-max-entries", "100");
            }
        }
    }
}
