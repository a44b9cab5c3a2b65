package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * notify-keyspace-events: the keyevent sequence of each command family compared with what a real
 * redis-server 7 published for the same commands, the keyspace channel's shape, class filtering,
 * and "expired" from lazy and from active expiry (manual clock; the cron finds the key on its own).
 */
class KeyspaceNotificationsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock().config("notify-keyspace-events", "KEAn");

    private static final ClientResources LETTUCE = DefaultClientResources.builder()
            .ioThreadPoolSize(1).computationThreadPoolSize(1).build();

    @AfterAll
    static void stopLettuce() {
        LETTUCE.shutdown(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void lettuceResp3ShouldReceiveKeyspaceAndExpiredEventsFromActiveExpiry() throws Exception {
        RedisClient client = RedisClient.create(LETTUCE, RedisURI.create(ebb.host(), ebb.port()));
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        try (StatefulRedisPubSubConnection<String, String> sub = client.connectPubSub()) {
            sub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String pattern, String channel, String message) {
                    events.add(channel + " " + message);
                }
            });
            sub.sync().psubscribe("__keyspace@0__:token:*", "__keyevent@0__:expired");
            sub.sync().set("token:1", "v");
            sub.sync().pexpire("token:1", 200);
            assertEquals("__keyspace@0__:token:1 new", events.poll(5, TimeUnit.SECONDS));
            assertEquals("__keyspace@0__:token:1 set", events.poll(5, TimeUnit.SECONDS));
            assertEquals("__keyspace@0__:token:1 expire", events.poll(5, TimeUnit.SECONDS));

            ebb.advanceClock(1000);

            List<String> expired = List.of(events.poll(5, TimeUnit.SECONDS), events.poll(5, TimeUnit.SECONDS));
            assertTrue(expired.contains("__keyspace@0__:token:1 expired"), expired.toString());
            assertTrue(expired.contains("__keyevent@0__:expired token:1"), expired.toString());
        } finally {
            client.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }

    @Test
    void commandsShouldPublishRedisEventSequence() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("PSUBSCRIBE", "__keyevent@*__:*");
            c.call("SET", "a", "1");
            c.call("RENAME", "a", "b");
            c.call("COPY", "b", "c");
            c.call("MOVE", "c", "1");
            c.call("INCR", "b");
            c.call("INCRBYFLOAT", "b", "1.5");
            c.call("APPEND", "b", "x");
            c.call("SETRANGE", "b", "0", "z");
            c.call("EXPIRE", "b", "0");
            c.call("MSET", "m1", "1", "m2", "2");
            c.call("GETDEL", "m1");
            c.call("SETEX", "e", "100", "v");
            c.call("DECRBY", "e2", "1");
            c.call("SETBIT", "bk", "1", "0");
            c.call("SETBIT", "bk", "1", "0");
            c.call("PERSIST", "e");
            c.call("SET", "done", "1");

            List<String> events = readEvents(sub, "done");

            assertEquals(List.of("new a", "set a", "new b", "rename_from a", "rename_to b", "new c", "copy_to c",
                    "@1 new c", "move_from c", "@1 move_to c", "incrby b", "incrbyfloat b", "append b", "setrange b",
                    "del b", "new m1", "set m1", "new m2", "set m2", "del m1", "new e", "set e", "expire e",
                    "new e2", "incrby e2", "new bk", "setbit bk", "persist e", "new done", "set done"), events);
        }
    }

    @Test
    void keyspaceChannelShouldCarryTheEventName() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("SUBSCRIBE", "__keyspace@0__:user:1");
            c.call("SET", "user:1", "x");

            assertEquals("*3\r\n$7\r\nmessage\r\n$21\r\n__keyspace@0__:user:1\r\n$3\r\nnew\r\n", sub.reply());
            assertEquals("*3\r\n$7\r\nmessage\r\n$21\r\n__keyspace@0__:user:1\r\n$3\r\nset\r\n", sub.reply());
        }
    }

    @Test
    void disabledClassesShouldPublishNothing() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("PSUBSCRIBE", "__key*");
            c.call("CONFIG", "SET", "notify-keyspace-events", "Eg");
            try {
                c.call("SET", "s", "1");
                c.call("DEL", "s");

                assertEquals("*2\r\n$22\r\nnotify-keyspace-events\r\n$2\r\ngE\r\n",
                        c.call("CONFIG", "GET", "notify-keyspace-events"));
                assertEquals("*4\r\n$8\r\npmessage\r\n$6\r\n__key*\r\n$18\r\n__keyevent@0__:del\r\n$1\r\ns\r\n",
                        sub.reply());
            } finally {
                c.call("CONFIG", "SET", "notify-keyspace-events", "KEAn");
            }
        }
    }

    @Test
    void readMissShouldPublishKeymissOnlyWithFlagM() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("SUBSCRIBE", "__keyevent@0__:keymiss");
            c.call("GET", "absent1");
            c.call("CONFIG", "SET", "notify-keyspace-events", "Em");
            try {
                c.call("SET", "present", "1");
                c.call("MGET", "present", "absent2");

                assertEquals("*3\r\n$7\r\nmessage\r\n$22\r\n__keyevent@0__:keymiss\r\n$7\r\nabsent2\r\n",
                        sub.reply());
            } finally {
                c.call("CONFIG", "SET", "notify-keyspace-events", "KEAn");
            }
        }
    }

    @Test
    void activeExpiryShouldPublishExpiredWithoutAnyClientTouchingTheKey() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("SUBSCRIBE", "__keyevent@0__:expired");
            c.call("SET", "session:1", "v", "PX", "500");

            ebb.advanceClock(1000);

            assertEquals("*3\r\n$7\r\nmessage\r\n$22\r\n__keyevent@0__:expired\r\n$9\r\nsession:1\r\n", sub.reply());
            assertEquals(":0\r\n", c.call("DBSIZE"));
        }
    }

    @Test
    void lookupOfExpiredKeyShouldPublishExpiredToResp3Subscriber() throws Exception {
        try (RespTestSocket c = new RespTestSocket(ebb)) {
            c.call("HELLO", "3");
            c.call("SUBSCRIBE", "__keyevent@0__:expired");
            c.call("SET", "k", "v", "PX", "500");

            ebb.advanceClock(1000);
            c.send("GET", "k");
            List<String> replies = List.of(c.reply(), c.reply());

            assertTrue(replies.contains("_\r\n"), replies.toString());
            assertTrue(replies.contains(">3\r\n$7\r\nmessage\r\n$22\r\n__keyevent@0__:expired\r\n$1\r\nk\r\n"),
                    replies.toString());
        }
    }

    /** Reads pmessages until the event on {@code lastKey}; each as "event key", prefixed "@db " outside db 0. */
    private static List<String> readEvents(RespTestSocket sub, String lastKey) throws Exception {
        List<String> events = new ArrayList<>();
        while (true) {
            String[] parts = sub.reply().split("\r\n");
            String channel = parts[6];
            int at = channel.indexOf('@');
            String db = channel.substring(at + 1, channel.indexOf("__:"));
            String event = channel.substring(channel.indexOf("__:") + 3);
            String key = parts[8];
            events.add(("0".equals(db) ? "" : "@" + db + " ") + event + " " + key);
            if (key.equals(lastKey) && event.equals("set")) {
                return events;
            }
        }
    }
}
