package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Keyspace notifications of the sorted-set commands: the keyevent sequence a real redis-server 7
 * published for the same commands (no-op calls publish nothing; emptying a set adds "del"; an
 * empty STORE result deletes the destination with "del"). Redisson's RScoredSortedSet listeners
 * subscribe to these.
 */
class ZSetNotificationsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("notify-keyspace-events", "KEA");

    @Test
    void sortedSetCommandsShouldPublishRedisEventSequence() throws Exception {
        String[] commands = {"ZADD z 1 a 2 b 3 c 4 d 5 e 6 f", "ZADD z 1 a", "ZADD z XX CH 9 a", "ZADD z NX 1 a",
            "ZINCRBY z 1 b", "ZADD z INCR 0 b", "ZREM z zz", "ZREM z a", "ZREMRANGEBYRANK z 0 0",
            "ZREMRANGEBYSCORE z 100 200", "ZREMRANGEBYSCORE z 4 4", "ZREMRANGEBYLEX z - +", "ZADD z 1 a 2 b 3 c 4 d",
            "ZPOPMIN z", "ZPOPMAX z 0", "ZPOPMAX z", "ZUNIONSTORE u 1 z", "ZINTERSTORE u 2 z nokey",
            "ZINTERSTORE u 2 z nokey", "ZDIFFSTORE u2 1 z", "ZRANGESTORE r z 0 -1", "ZRANGESTORE r z 5 9",
            "ZMPOP 1 z MIN COUNT 10", "SET done 1"};
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

            assertEquals(List.of("zadd z", "zadd z", "zincr z", "zrem z", "zremrangebyrank z", "zremrangebyscore z",
                    "zremrangebylex z", "del z", "zadd z", "zpopmin z", "zpopmax z", "zunionstore u", "del u",
                    "zdiffstore u2", "zrangestore r", "del r", "zpopmin z", "del z", "set done"), events);
        }
    }
}
