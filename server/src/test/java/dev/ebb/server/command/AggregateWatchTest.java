package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.args.ListDirection;
import redis.clients.jedis.args.ListPosition;

/**
 * WATCH over in-place changes of hashes, lists, sets and sorted sets: one client watches a key
 * holding an aggregate, another changes it in place, and EXEC must fail; a write that changes
 * nothing must leave the watch intact. Which writes count as changes was checked against
 * redis-server 7.0 (HSET of the same value, LSET, LTRIM and HINCRBY by 0 do touch the key, as
 * Redis signals them unconditionally; HDEL/SREM/ZREM/LREM of missing members, SADD/ZADD of
 * existing ones and pops of count 0 do not).
 */
class AggregateWatchTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    /** Watches {@code key}, lets {@code other} run {@code write}, then runs MULTI/SET/EXEC; the EXEC reply. */
    private static List<Object> execAfter(String key, Consumer<Jedis> setup, Consumer<Jedis> write) {
        try (Jedis j = connect(); Jedis other = connect()) {
            j.flushAll();
            setup.accept(j);
            j.watch(key);
            write.accept(other);
            Transaction t = j.multi();
            t.set("ran", "yes");
            return t.exec();
        }
    }

    private static void assertTouched(String key, Consumer<Jedis> setup, Consumer<Jedis> write) {
        assertNull(execAfter(key, setup, write));
    }

    private static void assertUntouched(String key, Consumer<Jedis> setup, Consumer<Jedis> write) {
        assertEquals(List.of("OK"), execAfter(key, setup, write));
    }

    @Test
    void hashWritesInPlaceShouldTouchTheWatchedKey() {
        Consumer<Jedis> setup = j -> j.hset("h", "a", "1");
        assertTouched("h", setup, o -> o.hset("h", "b", "2"));
        assertTouched("h", setup, o -> o.hset("h", "a", "1"));
        assertTouched("h", setup, o -> o.hsetnx("h", "b", "2"));
        assertTouched("h", setup, o -> o.hdel("h", "a"));
        assertTouched("h", setup, o -> o.hincrBy("h", "a", 0));
        assertTouched("h", setup, o -> o.hincrByFloat("h", "a", 1.5));
    }

    @Test
    void hashNoOpWritesShouldNotTouchTheWatchedKey() {
        Consumer<Jedis> setup = j -> j.hset("h", "a", "1");
        assertUntouched("h", setup, o -> o.hdel("h", "missing"));
        assertUntouched("h", setup, o -> o.hsetnx("h", "a", "2"));
    }

    @Test
    void listWritesInPlaceShouldTouchTheWatchedKey() {
        Consumer<Jedis> setup = j -> j.rpush("l", "a", "b", "c");
        assertTouched("l", setup, o -> o.lpush("l", "x"));
        assertTouched("l", setup, o -> o.rpushx("l", "x"));
        assertTouched("l", setup, o -> o.lpop("l"));
        assertTouched("l", setup, o -> o.rpop("l", 2));
        assertTouched("l", setup, o -> o.lset("l", 0, "a"));
        assertTouched("l", setup, o -> o.linsert("l", ListPosition.BEFORE, "b", "x"));
        assertTouched("l", setup, o -> o.lrem("l", 0, "b"));
        assertTouched("l", setup, o -> o.ltrim("l", 0, -1));
        assertTouched("l", setup, o -> o.lmove("l", "l", ListDirection.LEFT, ListDirection.RIGHT));
        assertTouched("l", setup, o -> o.lmove("l", "other", ListDirection.LEFT, ListDirection.RIGHT));
        assertTouched("l", setup, o -> o.blpop(1, "l"));
        assertTouched("dst", j -> j.rpush("dst", "z"), o -> {
            o.rpush("l", "a");
            o.rpoplpush("l", "dst");
        });
    }

    @Test
    void listNoOpWritesShouldNotTouchTheWatchedKey() {
        Consumer<Jedis> setup = j -> j.rpush("l", "a", "b");
        assertUntouched("l", setup, o -> o.lrem("l", 0, "missing"));
        assertUntouched("l", setup, o -> o.lpop("l", 0));
        assertUntouched("l", setup, o -> o.linsert("l", ListPosition.AFTER, "missing", "x"));
    }

    @Test
    void setWritesInPlaceShouldTouchTheWatchedKey() {
        Consumer<Jedis> setup = j -> j.sadd("s", "a", "b");
        assertTouched("s", setup, o -> o.sadd("s", "c"));
        assertTouched("s", setup, o -> o.srem("s", "a"));
        assertTouched("s", setup, o -> o.spop("s"));
        assertTouched("s", setup, o -> o.smove("s", "t", "a"));
        assertTouched("t", j -> j.sadd("t", "z"), o -> {
            o.sadd("s", "a");
            o.smove("s", "t", "a");
        });
    }

    @Test
    void setNoOpWritesShouldNotTouchTheWatchedKey() {
        Consumer<Jedis> setup = j -> j.sadd("s", "a", "b");
        assertUntouched("s", setup, o -> o.sadd("s", "a"));
        assertUntouched("s", setup, o -> o.srem("s", "missing"));
        assertUntouched("s", setup, o -> o.spop("s", 0));
        assertUntouched("s", setup, o -> o.smove("s", "t", "missing"));
    }

    @Test
    void sortedSetWritesInPlaceShouldTouchTheWatchedKey() {
        Consumer<Jedis> setup = j -> {
            j.zadd("z", 1, "a");
            j.zadd("z", 2, "b");
            j.zadd("z", 3, "c");
        };
        assertTouched("z", setup, o -> o.zadd("z", 4, "d"));
        assertTouched("z", setup, o -> o.zadd("z", 9, "a"));
        assertTouched("z", setup, o -> o.zincrby("z", 1, "a"));
        assertTouched("z", setup, o -> o.zrem("z", "a"));
        assertTouched("z", setup, o -> o.zremrangeByScore("z", 1, 1));
        assertTouched("z", setup, o -> o.zremrangeByRank("z", 0, 0));
        assertTouched("z", setup, o -> o.zremrangeByLex("z", "[a", "[a"));
        assertTouched("z", setup, o -> o.zpopmin("z"));
        assertTouched("z", setup, o -> o.zpopmax("z", 2));
    }

    @Test
    void sortedSetNoOpWritesShouldNotTouchTheWatchedKey() {
        Consumer<Jedis> setup = j -> j.zadd("z", 1, "a");
        assertUntouched("z", setup, o -> o.zadd("z", 1, "a"));
        assertUntouched("z", setup, o -> o.zrem("z", "missing"));
        assertUntouched("z", setup, o -> o.zremrangeByScore("z", 5, 6));
        assertUntouched("z", setup, o -> o.zremrangeByLex("z", "[x", "[y"));
    }
}
