package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Keyspace notifications of the list commands: the keyevent sequence a real redis-server 7
 * published for the same commands (a move publishes the push on the destination before the pop
 * on the source; emptying a list adds "del"; LTRIM publishes even when nothing changes).
 * Redisson's RList listeners subscribe to these.
 */
class ListNotificationsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("notify-keyspace-events", "KEA");

    @Test
    void listCommandsShouldPublishRedisEventSequence() throws Exception {
        String[] commands = {"RPUSH l a b c d e f g", "LPUSH l z", "LPUSHX nokey a", "RPUSHX l h", "LPOP l",
            "LPOP l 0", "RPOP l 2", "LSET l 0 x", "LINSERT l BEFORE nothere y", "LINSERT l BEFORE x y",
            "LREM l 0 nothere", "LREM l 0 y", "LTRIM l 0 -1", "LMOVE l m LEFT RIGHT", "LMOVE l l RIGHT LEFT",
            "RPOPLPUSH l m", "LMPOP 1 l RIGHT COUNT 1", "BLPOP l 1", "LTRIM l 5 1", "RPUSH k 1",
            "LMOVE k m LEFT LEFT", "RPUSH q 1", "LPOP q", "SET done 1"};
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

            assertEquals(List.of("rpush l", "lpush l", "rpush l", "lpop l", "rpop l", "lset l", "linsert l", "lrem l",
                    "ltrim l", "rpush m", "lpop l", "lpush l", "rpop l", "lpush m", "rpop l", "rpop l", "lpop l",
                    "ltrim l", "del l", "rpush k", "lpush m", "lpop k", "del k", "rpush q", "lpop q", "del q",
                    "set done"), events);
        }
    }
}
