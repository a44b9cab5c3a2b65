package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.differential.ReferenceRedis;
import dev.ebb.server.embedded.EbbExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ListPosition;

/**
 * Lists whose inner quicklist nodes are LZF-compressed ({@code list-compress-depth}): every list
 * command reads and edits them, they survive DEBUG RELOAD and DUMP/RESTORE, and their payloads
 * travel both ways between Ebb and the reference redis-server 7.2.4 (those cases are skipped,
 * saying why, when the reference cannot run).
 */
class ListCompressionTest {
    private static final int ELEMENTS = 20_000;

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("enable-debug-command", "yes");

    private static ReferenceRedis reference;

    @BeforeAll
    static void startReference() {
        reference = ReferenceRedis.startOrNull();
    }

    @AfterAll
    static void stopReference() {
        if (reference != null) {
            reference.close();
        }
    }

    @AfterEach
    void restoreDefaults() {
        try (Jedis j = connect()) {
            j.configSet("list-max-listpack-size", "-2");
            j.configSet("list-compress-depth", "0");
            j.flushAll();
        }
    }

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port(), 60_000);
    }

    private static String element(int i) {
        return "element:" + String.format("%06d", i) + ":padding-padding-padding";
    }

    /** Pushes {@link #ELEMENTS} compressible elements to {@code key} in batches, returning the model. */
    private static List<String> fill(Jedis j, String key) {
        List<String> model = new ArrayList<>();
        for (int from = 0; from < ELEMENTS; from += 1000) {
            String[] batch = new String[1000];
            for (int i = 0; i < batch.length; i++) {
                batch[i] = element(from + i);
                model.add(batch[i]);
            }
            j.rpush(key, batch);
        }
        return model;
    }

    @Test
    void compressedListsShouldTakeLessMemoryAndAnswerEveryCommand() {
        try (Jedis j = connect()) {
            fill(j, "plain");
            j.configSet("list-compress-depth", "1");
            List<String> model = fill(j, "packed");

            assertEquals("quicklist", j.objectEncoding("packed"));
            assertTrue(j.memoryUsage("packed") * 2 < j.memoryUsage("plain"),
                    "compressed " + j.memoryUsage("packed") + " plain " + j.memoryUsage("plain"));
            assertEquals(model, j.lrange("packed", 0, -1));
            assertEquals(element(12_345), j.lindex("packed", 12_345));
            assertEquals(element(ELEMENTS - 7), j.lindex("packed", -7));

            j.lset("packed", 10_000, "changed");
            model.set(10_000, "changed");
            j.linsert("packed", ListPosition.AFTER, element(5_000), "inserted");
            model.add(5_001, "inserted");
            assertEquals(1, j.lrem("packed", 0, element(15_000)));
            model.remove(element(15_000));
            assertEquals(Long.valueOf(model.indexOf(element(17_000))), j.lpos("packed", element(17_000)));
            j.ltrim("packed", 100, -100);
            model = new ArrayList<>(model.subList(100, model.size() - 99));

            assertEquals(model, j.lrange("packed", 0, -1));
            assertEquals(model.get(0), j.lpop("packed"));
            assertEquals(model.get(model.size() - 1), j.rpop("packed"));
        }
    }

    @Test
    void compressedListsShouldSurviveDebugReloadAndDumpRestore() {
        try (Jedis j = connect()) {
            j.configSet("list-compress-depth", "2");
            j.configSet("list-max-listpack-size", "-1");
            List<String> model = fill(j, "l");
            long memory = j.memoryUsage("l");

            j.restore("copy", 0, j.dump("l"));
            Object reply = j.sendCommand(() -> "DEBUG".getBytes(StandardCharsets.US_ASCII), "RELOAD");

            assertEquals("OK", new String((byte[]) reply, StandardCharsets.US_ASCII));
            assertEquals(model, j.lrange("l", 0, -1));
            assertEquals(model, j.lrange("copy", 0, -1));
            assertEquals("quicklist", j.objectEncoding("copy"));
            assertTrue(j.memoryUsage("l") < memory * 11 / 10, "reloaded " + j.memoryUsage("l") + " before " + memory);
        }
    }

    @Test
    void compressedPayloadsShouldTravelBothWaysWithTheReference() {
        assumeTrue(reference != null, () -> ReferenceRedis.unavailableReason);
        try (Jedis e = connect(); Jedis r = new Jedis("127.0.0.1", reference.port(), 60_000)) {
            r.flushAll();
            r.configSet("list-compress-depth", "1");
            e.configSet("list-compress-depth", "1");
            List<String> model = fill(e, "from-ebb");
            fill(r, "from-redis");

            r.restore("from-ebb", 0, e.dump("from-ebb"));
            e.restore("from-redis", 0, r.dump("from-redis"));

            assertEquals(model, r.lrange("from-ebb", 0, -1));
            assertEquals(model, e.lrange("from-redis", 0, -1));
            assertEquals(r.objectEncoding("from-redis"), e.objectEncoding("from-redis"));
            r.flushAll();
            r.configSet("list-compress-depth", "0");
        }
    }
}
