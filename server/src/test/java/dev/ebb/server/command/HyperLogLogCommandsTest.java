package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.command.hll.Hll;
import dev.ebb.server.command.hll.HllEstimator;
import dev.ebb.server.command.hll.HllSketch;
import dev.ebb.server.embedded.EbbExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.Transaction;

/**
 * PFADD, PFCOUNT, PFMERGE, PFDEBUG and PFSELFTEST through Jedis: the counts, what is stored (a new
 * array each time, the stored one never written), time to live, WATCH and keyspace events. Replies
 * and bytes compared with redis-server are in the hyperloglog conformance transcript and
 * {@link HyperLogLogReferenceTest}.
 */
class HyperLogLogCommandsTest {
    private static final ProtocolCommand PFDEBUG = () -> bytes("PFDEBUG");
    private static final ProtocolCommand PFSELFTEST = () -> bytes("PFSELFTEST");

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock().config("notify-keyspace-events", "KEA");

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static String[] elements(String prefix, int n) {
        return IntStream.range(0, n).mapToObj(i -> prefix + i).toArray(String[]::new);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The array stored at {@code key} in database 0 (the object itself, not a copy). */
    private static byte[] stored(String key) {
        AtomicReference<Object> value = new AtomicReference<>();
        ebb.server().runOnLoop(s -> value.set(s.db(0).lookupReadNoTouch(bytes(key), s.nowMs())));
        return Strings.array(value.get());
    }

    @Test
    void pfaddPfcountAndPfmergeShouldCountDistinctElementsThroughJedis() {
        try (Jedis j = connect()) {
            assertEquals(1, j.pfadd("a", elements("x", 1000)));
            assertEquals(0, j.pfadd("a", "x1", "x2"));
            assertEquals(1, j.pfadd("b", elements("x", 1500)));

            long a = j.pfcount("a");
            long b = j.pfcount("b");
            assertEquals(1000, a, 1000 * 0.02);
            assertEquals(1500, b, 1500 * 0.02);
            assertEquals(b, j.pfcount("a", "b"));
            assertEquals("OK", j.pfmerge("m", "a", "b"));
            assertEquals(b, j.pfcount("m"));
            assertEquals(0, j.pfcount("missing"));
            assertEquals(a, j.pfcount("a", "missing"));
        }
    }

    @Test
    void anHllShouldBeAStringWhoseBytesAreItsRegisters() {
        try (Jedis j = connect()) {
            String[] added = elements("e", 300);
            HllSketch expected = HllSketch.create(3000);
            for (String e : added) {
                expected.add(bytes(e));
            }
            expected.invalidateCache();

            j.pfadd("h", added);

            assertEquals("string", j.type("h"));
            assertArrayEquals(expected.toByteArray(), j.get(bytes("h")));
            assertEquals(HllEstimator.count(expected.toByteArray()), j.pfcount("h"));
        }
    }

    @Test
    void pfdebugGetregShouldConvertToDenseAndReplyEveryRegister() {
        try (Jedis j = connect()) {
            j.pfadd("h", elements("r", 50));
            HllSketch expected = HllSketch.over(j.get(bytes("h")), 3000);
            expected.toDense();

            @SuppressWarnings("unchecked")
            List<Long> registers = (List<Long>) j.sendCommand(PFDEBUG, "GETREG", "h");

            int[] want = Hll.registers(expected.toByteArray());
            assertEquals(Hll.REGISTERS, registers.size());
            for (int i = 0; i < Hll.REGISTERS; i++) {
                assertEquals(want[i], registers.get(i).intValue(), "register " + i);
            }
            assertEquals("dense", new String((byte[]) j.sendCommand(PFDEBUG, "ENCODING", "h"),
                    StandardCharsets.UTF_8));
            assertEquals(Hll.DENSE_SIZE, j.strlen("h"));
        }
    }

    @Test
    void pfaddPfmergeAndPfcountShouldStoreANewArrayAndNeverWriteTheStoredOne() {
        try (Jedis j = connect()) {
            j.pfadd("s", elements("s", 20));
            j.pfadd("d", elements("d", 5000));
            byte[] sparse = stored("s");
            byte[] dense = stored("d");
            byte[] sparseBefore = sparse.clone();
            byte[] denseBefore = dense.clone();

            j.pfadd("s", "one more");
            j.pfadd("d", elements("more", 100));
            j.pfcount("s");
            j.pfcount("d");
            j.pfmerge("s", "d");
            j.sendCommand(PFDEBUG, "TODENSE", "s");

            assertArrayEquals(sparseBefore, sparse);
            assertArrayEquals(denseBefore, dense);
        }
    }

    @Test
    void aPfaddThatChangesNothingShouldKeepTheStoredArray() {
        try (Jedis j = connect()) {
            j.pfadd("d", elements("d", 5000));
            byte[] before = stored("d");

            assertEquals(0, j.pfadd("d", "d1", "d2", "d3"));

            assertTrue(before == stored("d"), "the stored array was replaced");
        }
    }

    @Test
    void pfcountShouldCacheTheCountInTheHeader() {
        try (Jedis j = connect()) {
            j.pfadd("h", elements("c", 200));
            byte[] stale = j.get(bytes("h"));

            long count = j.pfcount("h");

            byte[] cached = j.get(bytes("h"));
            assertTrue(Hll.hasValidCache(cached));
            assertEquals(count, Hll.cachedCardinality(cached));
            assertFalse(Hll.hasValidCache(stale));
        }
    }

    @Test
    void pfaddPfmergeAndPfcountShouldKeepTheTimeToLive() {
        try (Jedis j = connect()) {
            j.pfadd("t", "a");
            j.pexpire("t", 100_000);

            j.pfadd("t", "b");
            assertEquals(100_000, j.pttl("t"));
            j.pfcount("t");
            assertEquals(100_000, j.pttl("t"));
            j.pfadd("other", "c");
            j.pfmerge("t", "other");
            assertEquals(100_000, j.pttl("t"));

            ebb.advanceClock(100_001);
            assertEquals(0, j.pfcount("t"));
        }
    }

    @Test
    void pfaddPfmergeAndACachingPfcountShouldTouchWatchedKeys() {
        try (Jedis j = connect(); Jedis other = connect()) {
            for (Runnable write : List.<Runnable>of(() -> other.pfadd("w", "new"), () -> other.pfmerge("w", "x"),
                    () -> other.pfcount("w"))) {
                j.pfadd("x", "1");
                j.pfadd("w", "0");
                j.watch("w");
                write.run();
                Transaction t = j.multi();
                t.set("ran", "yes");
                assertNull(t.exec());
            }
            j.pfcount("w");
            j.watch("w");
            other.pfadd("w", "new");
            other.pfcount("w", "x");
            Transaction t = j.multi();
            t.set("ran", "yes");
            assertNotNull(t.exec(), "PFADD that changes nothing and PFCOUNT of several keys write nothing");
        }
    }

    @Test
    void pfaddAndPfmergeShouldPublishPfaddEvents() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("PSUBSCRIBE", "__keyevent@0__:*");
            c.call("PFADD", "h", "a");
            c.call("PFADD", "h", "a");
            c.call("PFCOUNT", "h");
            c.call("PFMERGE", "m", "h");
            c.call("PFADD", "new");
            c.call("SET", "done", "1");

            List<String> events = new ArrayList<>();
            for (String event = ""; !event.equals("set done"); events.add(event)) {
                String[] parts = sub.reply().split("\r\n");
                event = parts[6].substring(parts[6].indexOf("__:") + 3) + " " + parts[8];
            }

            assertEquals(List.of("pfadd h", "pfadd m", "pfadd new", "set done"), events);
        }
    }

    @Test
    void hllSparseMaxBytesShouldDecideWhenPfaddTurnsDense() {
        try (Jedis j = connect()) {
            j.configSet("hll-sparse-max-bytes", "100");
            try {
                j.pfadd("small", elements("p", 10));
                String before = new String((byte[]) j.sendCommand(PFDEBUG, "ENCODING", "small"));
                j.pfadd("small", elements("q", 40));
                String after = new String((byte[]) j.sendCommand(PFDEBUG, "ENCODING", "small"));

                assertEquals("sparse", before);
                assertEquals("dense", after);
                assertEquals(List.of("hll-sparse-max-bytes", "100"), flatten(j.configGet("hll-sparse-max-bytes")));
            } finally {
                j.configSet("hll-sparse-max-bytes", "3000");
            }
        }
    }

    private static List<String> flatten(java.util.Map<String, String> map) {
        List<String> out = new ArrayList<>();
        map.forEach((k, v) -> {
            out.add(k);
            out.add(v);
        });
        return out;
    }

    @Test
    void memoryUsageOfADenseHllShouldCountItsArray() {
        try (Jedis j = connect()) {
            j.pfadd("d", elements("m", 5000));

            long usage = j.memoryUsage("d");

            assertTrue(usage >= Hll.DENSE_SIZE && usage < Hll.DENSE_SIZE + 200, "MEMORY USAGE " + usage);
            assertEquals("raw", j.objectEncoding("d"));
        }
    }

    /** Redis hides may_replicate (PFCOUNT has it: a count cached in the value is a write) from COMMAND INFO. */
    @Test
    void commandInfoShouldListPfcountAsReadonlyOnly() {
        try (Jedis j = connect()) {
            List<?> info = (List<?>) ((List<?>) j.sendCommand(Protocol.Command.COMMAND, "INFO", "pfcount")).get(0);

            List<String> flags = ((List<?>) info.get(2)).stream().map(f -> new String((byte[]) f)).toList();
            assertEquals(List.of("readonly"), flags);
            assertEquals(List.of(-2L, 1L, -1L, 1L), List.of(info.get(1), info.get(3), info.get(4), info.get(5)));
        }
    }

    @Test
    void pfselftestShouldPass() {
        try (Jedis j = connect()) {
            assertEquals("OK", new String((byte[]) j.sendCommand(PFSELFTEST), StandardCharsets.UTF_8));
        }
    }
}
