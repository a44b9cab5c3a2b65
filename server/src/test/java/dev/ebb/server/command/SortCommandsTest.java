package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SortingParams;

/**
 * SORT and SORT_RO through Jedis's {@code sort(key, SortingParams)}, and what the conformance
 * transcript cannot show: keyspace events, waking a client blocked on the STORE destination, the
 * script rule for sets, and the keys the command table finds. Replies and errors themselves are
 * in the sort conformance transcript.
 */
class SortCommandsTest {
    private static final ExecutorService POOL = Executors.newCachedThreadPool();

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("notify-keyspace-events", "KEA");

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    @Test
    void jedisSortShouldApplyByGetLimitAlphaAndDesc() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.sadd("users", "3", "1", "2");
            j.hset("user:1", "name", "carol");
            j.hset("user:1", "age", "30");
            j.hset("user:2", "name", "alice");
            j.hset("user:2", "age", "25");
            j.hset("user:3", "name", "bob");
            j.hset("user:3", "age", "35");

            assertEquals(List.of("1", "2", "3"), j.sort("users"));
            assertEquals(List.of("3", "2", "1"), j.sort("users", new SortingParams().desc()));
            assertEquals(List.of("alice", "carol", "bob"),
                    j.sort("users", new SortingParams().by("user:*->age").get("user:*->name")));
            assertEquals(List.of("1", "carol", "3", "bob"),
                    j.sort("users", new SortingParams().by("user:*->name").alpha().desc().limit(0, 2)
                            .get("#", "user:*->name")));
            assertEquals(List.of("2", "3"), j.sortReadonly("users", new SortingParams().by("user:*->name").alpha()
                    .limit(0, 2)));
        }
    }

    @Test
    void jedisSortWithStoreShouldReplaceTheDestinationWithAList() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.rpush("nums", "10", "2", "33");
            j.set("dest", "old");

            long stored = j.sort("nums", new SortingParams().desc(), "dest");

            assertEquals(3, stored);
            assertEquals(List.of("33", "10", "2"), j.lrange("dest", 0, -1));
            assertEquals(0, j.sort("missing", "dest"));
            assertEquals(false, j.exists("dest"));
        }
    }

    @Test
    void sortRoShouldRefuseStoreAndNumbersThatAreNotNumbers() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.rpush("words", "b", "a");

            JedisDataException store = assertThrows(JedisDataException.class,
                    () -> j.sendCommand(redis.clients.jedis.Protocol.Command.SORT_RO, "words", "STORE", "d"));
            JedisDataException notNumbers = assertThrows(JedisDataException.class, () -> j.sort("words"));

            assertEquals("ERR syntax error", store.getMessage());
            assertEquals("ERR One or more scores can't be converted into double", notNumbers.getMessage());
            assertEquals(List.of("a", "b"), j.sort("words", new SortingParams().alpha()));
        }
    }

    /** The keyevent sequence redis-server 7.2.4 published for the same commands. */
    @Test
    void sortStoreShouldPublishSortstoreOrDelAsRedis() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("PSUBSCRIBE", "__keyevent@0__:*");
            c.call("RPUSH", "l", "3", "1", "2");
            c.call("SORT", "l");
            c.call("SORT", "l", "STORE", "d");
            c.call("SORT", "nokey", "STORE", "d");
            c.call("SORT", "nokey", "STORE", "d");
            c.call("SORT", "l", "LIMIT", "0", "0", "STORE", "d2");
            c.call("SET", "notlist", "x");
            c.call("SORT", "l", "STORE", "notlist");
            c.call("SET", "done", "1");

            List<String> events = new ArrayList<>();
            for (String event = ""; !event.equals("set done"); events.add(event)) {
                String[] parts = sub.reply().split("\r\n");
                event = parts[6].substring(parts[6].indexOf("__:") + 3) + " " + parts[8];
            }

            assertEquals(List.of("rpush l", "sortstore d", "del d", "set notlist", "sortstore notlist", "set done"),
                    events);
        }
    }

    @Test
    void sortStoreShouldWakeAClientBlockedOnTheDestination() throws Exception {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.rpush("src", "2", "1");
            Future<List<String>> popped = POOL.submit(() -> {
                try (Jedis blocked = new Jedis(ebb.host(), ebb.port())) {
                    return blocked.blpop(30, "queue");
                }
            });
            ListBlockingTest.awaitBlocked(ebb, 1);

            j.sort("src", "queue");

            assertEquals(List.of("queue", "1"), popped.get(30, TimeUnit.SECONDS));
            assertEquals(List.of("2"), j.lrange("queue", 0, -1));
        }
    }

    /**
     * Redis sorts a set BY nosort inside a script (and under STORE) so that replicas see the same
     * order; outside, the set keeps its own order. 200 members make a hashtable whose order is
     * not the sorted one.
     */
    @Test
    void sortByNosortShouldSortASetInsideAScript() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            List<String> members = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                members.add("m" + i);
            }
            j.sadd("big", members.toArray(String[]::new));
            List<String> sorted = new ArrayList<>(members);
            sorted.sort(null);

            Object inScript = j.eval("return redis.call('sort', KEYS[1], 'by', 'nosort')", 1, "big");
            List<String> plain = j.sort("big", new SortingParams().by("nosort"));
            j.sort("big", new SortingParams().by("nosort"), "stored");

            assertEquals(sorted, inScript);
            assertEquals(new HashSet<>(members), new HashSet<>(plain));
            assertEquals(sorted, j.lrange("stored", 0, -1));
        }
    }

    @Test
    void commandGetkeysShouldFindTheStoreDestination() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(List.of("src", "dst"), j.commandGetKeys("SORT", "src", "BY", "store", "STORE", "dst"));
            assertEquals(List.of("src"), j.commandGetKeys("SORT_RO", "src", "STORE", "dst"));
        }
    }

    @Test
    void sortPatternLookupsShouldCountAsKeyspaceHitsAndMisses() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.configResetStat();
            j.rpush("ids", "1", "2");
            j.set("w_1", "5");

            j.sort("ids", new SortingParams().by("w_*"));

            String stats = j.info("stats");
            assertTrue(stats.contains("keyspace_hits:2\r\n"), stats);
            assertTrue(stats.contains("keyspace_misses:1\r\n"), stats);
        }
    }
}
