package dev.ebb.server.command;

import static dev.ebb.server.command.ZSetTestSupport.cmd;
import static dev.ebb.server.command.ZSetTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import dev.ebb.storage.zset.SortedSet;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.Tuple;

/**
 * Encodings: listpack up to zset-max-listpack-entries / -value, skiplist past either; OBJECT
 * ENCODING, TYPE, COPY, MEMORY USAGE and used_memory bookkeeping; ZSCAN's guarantee on the large
 * encoding; and commands on a sorted set of one million members.
 */
class ZSetEncodingTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    /** A client with a generous timeout: the large-set tests share a loaded machine. */
    private static Jedis client() {
        return new Jedis(ebb.host(), ebb.port(), 30_000);
    }

    @Test
    void setShouldConvertToSkiplistPastTheEntryThreshold() {
        try (Jedis j = client()) {
            for (int i = 0; i < 128; i++) {
                j.zadd("z", i, "m" + i);
            }
            assertEquals("listpack", j.objectEncoding("z"));
            assertEquals("zset", j.type("z"));

            j.zadd("z", 500, "m128");

            assertEquals("skiplist", j.objectEncoding("z"));
            assertEquals(129, j.zcard("z"));
            assertEquals(128, j.zrank("z", "m128"));
            assertEquals("[m126, m127, m128]", run(j, "zrange", "z", "126", "-1"));
            j.zrem("z", "m128", "m127");
            assertEquals("skiplist", j.objectEncoding("z"));
        }
    }

    @Test
    void longMemberShouldConvertAndThresholdsShouldFollowConfigSet() {
        try (Jedis j = client()) {
            j.zadd("z", 1, "a".repeat(64));
            assertEquals("listpack", j.objectEncoding("z"));
            j.zadd("z", 2, "b".repeat(65));
            assertEquals("skiplist", j.objectEncoding("z"));

            j.configSet("zset-max-listpack-entries", "2");
            try {
                run(j, "zadd", "small", "1", "a", "2", "b");
                assertEquals("listpack", j.objectEncoding("small"));
                run(j, "zadd", "big", "1", "a", "2", "b", "3", "c");
                assertEquals("skiplist", j.objectEncoding("big"));
                run(j, "zadd", "small", "3", "c");
                assertEquals("skiplist", j.objectEncoding("small"));
            } finally {
                j.configSet("zset-max-listpack-entries", "128");
            }
        }
    }

    @Test
    void storeResultsShouldTakeTheEncodingTheirSizeCallsFor() {
        try (Jedis j = client()) {
            for (int i = 0; i < 200; i++) {
                j.zadd("big", i, "m" + i);
            }

            run(j, "zrangestore", "few", "big", "0", "9");
            run(j, "zunionstore", "all", "1", "big");

            assertEquals("listpack", j.objectEncoding("few"));
            assertEquals("skiplist", j.objectEncoding("all"));
        }
    }

    @Test
    void copyShouldBeIndependentOfTheOriginal() {
        try (Jedis j = client()) {
            for (int i = 0; i < 200; i++) {
                j.zadd("z", i, "m" + i);
            }

            j.copy("z", "c", false);
            j.zadd("c", -1, "new");
            j.zrem("z", "m0");

            assertEquals(201, j.zcard("c"));
            assertEquals(199, j.zcard("z"));
            assertEquals(0.0, j.zscore("c", "m0"));
            assertEquals("skiplist", j.objectEncoding("c"));
        }
    }

    @Test
    void usedMemoryShouldReturnToItsBaselineAfterEveryKindOfWrite() {
        try (Jedis j = client()) {
            j.set("anchor", "x");
            long baseline = usedMemory(j);

            for (int i = 0; i < 300; i++) {
                j.zadd("z", i, "member-" + i);
            }
            j.zincrby("z", 5, "member-3");
            j.zrem("z", "member-10", "member-11");
            run(j, "zremrangebyrank", "z", "0", "9");
            run(j, "zremrangebyscore", "z", "100", "150");
            run(j, "zpopmin", "z", "5");
            run(j, "zpopmax", "z", "5");
            run(j, "zmpop", "1", "z", "min", "count", "3");
            long usage = (Long) cmd(j, "memory", "usage", "z");
            assertTrue(usage > 200 * 40, "usage " + usage);
            j.del("z");

            assertEquals(baseline, usedMemory(j));
        }
    }

    /**
     * Stores {@code big} = {member:i -> i} on the command loop through the storage API, the way
     * ZADD builds it. The test JVM runs Netty with paranoid leak detection, which makes two million
     * protocol arguments take minutes; ZADD over the wire is covered by the smaller tests.
     */
    private static void loadOnLoop(int members) {
        byte[] key = "big".getBytes(StandardCharsets.US_ASCII);
        ebb.server().runOnLoop(s -> {
            long maxEntries = s.config().zsetMaxListpackEntries();
            long maxValue = s.config().zsetMaxListpackValue();
            SortedSet set = SortedSet.create(members, 16, maxEntries, maxValue);
            for (int i = 0; i < members; i++) {
                set.add(("member:" + i).getBytes(StandardCharsets.US_ASCII), i, 0, maxEntries, maxValue);
            }
            s.db(0).setKey(key, set, s.nowMs());
        });
    }

    private static long usedMemory(Jedis j) {
        for (String line : j.info("memory").split("\r\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()));
            }
        }
        throw new AssertionError("no used_memory in INFO");
    }

    @Test
    void zscanShouldReturnEveryMemberOfALargeSetWithItsScore() {
        try (Jedis j = client()) {
            for (int start = 0; start < 5000; start += 500) {
                List<String> args = new ArrayList<>(List.of("zadd", "z"));
                for (int i = start; i < start + 500; i++) {
                    args.add(Integer.toString(i));
                    args.add("m" + i);
                }
                assertEquals(":500", run(j, args.toArray(new String[0])));
            }

            Set<String> seen = new HashSet<>();
            String cursor = ScanParams.SCAN_POINTER_START;
            int calls = 0;
            do {
                ScanResult<Tuple> page = j.zscan("z", cursor, new ScanParams().count(100));
                for (Tuple t : page.getResult()) {
                    assertEquals("m" + (long) t.getScore(), t.getElement());
                    seen.add(t.getElement());
                }
                cursor = page.getCursor();
                calls++;
            } while (!cursor.equals("0"));

            assertEquals(5000, seen.size());
            assertTrue(calls > 10, "the large encoding is scanned in steps: " + calls);
            ScanResult<Tuple> matched = j.zscan("z", "0", new ScanParams().match("m4999").count(10_000));
            assertEquals(List.of("m4999"), matched.getResult().stream().map(Tuple::getElement).toList());
        }
    }

    @Test
    void aMillionMemberSetShouldAnswerRanksRangesAndCounts() {
        try (Jedis j = client()) {
            int members = 1_000_000;

            loadOnLoop(members);

            assertEquals(members, j.zcard("big"));
            assertEquals("skiplist", j.objectEncoding("big"));
            assertEquals(765_432, j.zrank("big", "member:765432"));
            assertEquals(0, j.zrevrank("big", "member:999999"));
            assertEquals("[member:500000, member:500001]", run(j, "zrange", "big", "500000", "500001"));
            assertEquals(":1001", run(j, "zcount", "big", "1000", "2000"));
            assertEquals("[member:999998]",
                    run(j, "zrevrangebyscore", "big", "+inf", "-inf", "limit", "1", "1"));
            assertEquals(":1000", run(j, "zremrangebyrank", "big", "0", "999"));
            assertEquals(members - 1000, j.zcard("big"));
            long usage = (Long) cmd(j, "memory", "usage", "big");
            assertTrue(usage > 60L * members, "memory usage " + usage);
        }
    }
}
