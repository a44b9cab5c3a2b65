package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Keyspace notifications of hashes, lists, sets and sorted sets: a script of writes (including
 * no-op writes that must publish nothing, pops that empty a key, STORE forms with an empty result)
 * and the keyevent sequence redis-server 7.0.15 published for the same script with
 * {@code notify-keyspace-events KEA}, recorded by subscribing to {@code __keyevent@0__:*}.
 */
class AggregateNotificationsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("notify-keyspace-events", "KEA");

    private static final String[][] SCRIPT = {
            {"HSET", "h", "a", "1", "b", "2"},
            {"HSET", "h", "a", "1"},
            {"HSETNX", "h", "c", "3"},
            {"HSETNX", "h", "c", "3"},
            {"HINCRBY", "h", "n", "1"},
            {"HINCRBYFLOAT", "h", "f", "1.5"},
            {"HDEL", "h", "zz"},
            {"HDEL", "h", "a", "b", "c", "n", "f"},
            {"LPUSH", "l", "a", "b", "c"},
            {"RPUSH", "l", "d"},
            {"LPUSHX", "l", "x"},
            {"LPOP", "l"},
            {"RPOP", "l"},
            {"LSET", "l", "0", "q"},
            {"LINSERT", "l", "before", "q", "w"},
            {"LREM", "l", "1", "w"},
            {"LTRIM", "l", "0", "0"},
            {"LMOVE", "l", "l2", "left", "right"},
            {"RPUSH", "l", "a", "b"},
            {"RPOPLPUSH", "l", "l2"},
            {"LMPOP", "1", "l", "left", "count", "5"},
            {"SADD", "s", "a", "b", "c"},
            {"SADD", "s", "a"},
            {"SREM", "s", "a"},
            {"SREM", "s", "zz"},
            {"SADD", "p", "x"},
            {"SPOP", "p"},
            {"SMOVE", "s", "s2", "c"},
            {"SMOVE", "s", "s2", "b"},
            {"SADD", "p", "x", "y"},
            {"SPOP", "p", "0"},
            {"SPOP", "p", "5"},
            {"SADD", "s", "x", "y"},
            {"SADD", "t", "y", "z"},
            {"SINTERSTORE", "d", "s", "t"},
            {"SUNIONSTORE", "d", "s", "t"},
            {"SDIFFSTORE", "d", "s", "s"},
            {"SINTERSTORE", "d", "s", "t"},
            {"ZADD", "z", "1", "a", "2", "b", "3", "c"},
            {"ZADD", "z", "1", "a"},
            {"ZINCRBY", "z", "1", "a"},
            {"ZREM", "z", "a"},
            {"ZREMRANGEBYSCORE", "z", "2", "2"},
            {"ZADD", "z", "1", "a", "2", "b", "4", "d", "5", "e"},
            {"ZREMRANGEBYRANK", "z", "0", "0"},
            {"ZREMRANGEBYLEX", "z", "[d", "[d"},
            {"ZPOPMIN", "z"},
            {"ZPOPMAX", "z"},
            {"ZADD", "z", "1", "a", "2", "b"},
            {"ZUNIONSTORE", "zd", "1", "z"},
            {"ZINTERSTORE", "zd", "1", "z"},
            {"ZDIFFSTORE", "zd", "1", "z"},
            {"ZRANGESTORE", "zd", "z", "0", "-1"},
            {"ZDIFFSTORE", "zd", "2", "z", "z"},
            {"ZMPOP", "1", "z", "min", "count", "5"},
            {"SADD", "s3", "a", "b"},
            {"SPOP", "s3", "1"},
            {"LPOP", "l2", "0"},
            {"ZPOPMIN", "zd", "0"},
            {"LMOVE", "l3", "l3", "left", "right"},
            {"RPUSH", "l3", "a", "b"},
            {"LMOVE", "l3", "l3", "left", "right"},
            {"ZADD", "z3", "1", "a"},
            {"ZADD", "z3", "incr", "1", "a"},
            {"ZADD", "z3", "xx", "5", "q"},
            {"HSET", "h2", "a", "1"},
            {"HDEL", "h2", "a"},
            {"LTRIM", "l3", "5", "6"},
            {"LREM", "l", "zz", "0"},
            {"BZPOPMIN", "z3", "1"},
            {"BLPOP", "l2", "1"},
    };

    private static final List<String> REDIS_EVENTS = List.of(
            "hset h", "hset h", "hset h", "hincrby h", "hincrbyfloat h", "hdel h", "del h", "lpush l", "rpush l",
            "lpush l", "lpop l", "rpop l", "lset l", "linsert l", "lrem l", "ltrim l", "rpush l2", "lpop l",
            "del l", "rpush l", "lpush l2", "rpop l", "lpop l", "del l", "sadd s", "srem s", "sadd p", "spop p",
            "del p", "srem s", "sadd s2", "srem s", "del s", "sadd s2", "sadd p", "spop p", "del p", "sadd s",
            "sadd t", "sinterstore d", "sunionstore d", "del d", "sinterstore d", "zadd z", "zincr z", "zrem z",
            "zremrangebyscore z", "zadd z", "zremrangebyrank z", "zremrangebylex z", "zpopmin z", "zpopmax z",
            "zadd z", "zunionstore zd", "zinterstore zd", "zdiffstore zd", "zrangestore zd", "del zd", "zpopmin z",
            "del z", "sadd s3", "spop s3", "rpush l3", "rpush l3", "lpop l3", "zadd z3", "zincr z3", "hset h2",
            "hdel h2", "del h2", "ltrim l3", "del l3", "zpopmin z3", "del z3", "lpop l2");

    @Test
    void aggregateWritesShouldPublishRedisEventSequence() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("PSUBSCRIBE", "__keyevent@0__:*");
            for (String[] command : SCRIPT) {
                c.call(command);
            }
            c.call("SET", "done", "1");

            assertEquals(REDIS_EVENTS, readEventsUntilSetOf(sub, "done"));
        }
    }

    /** "event key" of each keyevent message, up to (excluding) the "set" of {@code lastKey}. */
    static List<String> readEventsUntilSetOf(RespTestSocket sub, String lastKey) throws Exception {
        List<String> events = new ArrayList<>();
        while (true) {
            String[] parts = sub.reply().split("\r\n");
            String event = parts[6].substring(parts[6].indexOf("__:") + 3);
            String key = parts[8];
            if (key.equals(lastKey) && event.equals("set")) {
                return events;
            }
            events.add(event + " " + key);
        }
    }
}
