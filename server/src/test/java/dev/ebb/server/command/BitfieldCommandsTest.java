package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * BITFIELD and BITFIELD_RO through Jedis, and what the conformance transcript cannot show: the
 * stored string is never written in place, the time to live is kept, and the keyspace events
 * are those redis-server 7.2.4 published for the same commands. Replies and errors themselves
 * are in the bitfield conformance transcript.
 */
class BitfieldCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock().config("notify-keyspace-events", "KEA");

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void jedisBitfieldShouldRunEveryOperationAndReplyNullForAFailedOverflow() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            List<Long> replies = j.bitfield("counters", "INCRBY", "u4", "#0", "15", "OVERFLOW", "FAIL",
                    "INCRBY", "u4", "#0", "1", "OVERFLOW", "SAT", "INCRBY", "i4", "#1", "-100", "GET", "u8", "0");

            assertEquals(Arrays.asList(15L, null, -8L, 0xf8L), replies);
            assertEquals(List.of(0xf8L, -8L), j.bitfieldReadonly("counters", "GET", "u8", "0", "GET", "i4", "4"));
            assertEquals(List.of(), j.bitfield("counters"));
        }
    }

    @Test
    void bitfieldRoShouldRefuseWritesAndAWrongTypeOnlyAfterCheckingArguments() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.lpush("list", "a");

            JedisDataException ro = assertThrows(JedisDataException.class,
                    () -> j.bitfieldReadonly("list", "GET", "u8", "0", "SET", "u8", "0", "1"));
            JedisDataException wrongType = assertThrows(JedisDataException.class,
                    () -> j.bitfieldReadonly("list", "GET", "u8", "0"));

            assertEquals("ERR BITFIELD_RO only supports the GET subcommand", ro.getMessage());
            assertTrue(wrongType.getMessage().startsWith("WRONGTYPE"), wrongType.getMessage());
        }
    }

    @Test
    void bitfieldShouldNotChangeAValueAlreadyRepliedInTheSamePipeline() {
        byte[] ones = new byte[64 * 1024];
        Arrays.fill(ones, (byte) 0xff);
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set(bytes("big"), ones);

            Pipeline p = j.pipelined();
            Response<byte[]> before = p.get(bytes("big"));
            p.bitfield(bytes("big"), bytes("SET"), bytes("u8"), bytes("0"), bytes("0"),
                    bytes("INCRBY"), bytes("u8"), bytes("#65535"), bytes("1"));
            Response<byte[]> after = p.get(bytes("big"));
            p.sync();

            assertArrayEquals(ones, before.get());
            byte[] expected = ones.clone();
            expected[0] = 0;
            expected[ones.length - 1] = 0;
            assertArrayEquals(expected, after.get());
        }
    }

    @Test
    void bitfieldShouldKeepTheTimeToLive() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.setex("t", 100, "a");

            j.bitfield("t", "SET", "u8", "8", "98");

            assertEquals("ab", j.get("t"));
            assertEquals(100_000, j.pttl("t"));
        }
    }

    /** The keyevent sequence redis-server 7.2.4 published for the same commands. */
    @Test
    void bitfieldShouldPublishSetbitOnlyWhenAFieldChangedOrTheStringGrew() throws Exception {
        try (RespTestSocket sub = new RespTestSocket(ebb); RespTestSocket c = new RespTestSocket(ebb)) {
            sub.call("PSUBSCRIBE", "__keyevent@0__:*");
            c.call("BITFIELD", "b", "GET", "u8", "0");
            c.call("BITFIELD", "b", "SET", "u8", "0", "0");
            c.call("BITFIELD", "b", "SET", "u8", "0", "0");
            c.call("BITFIELD", "b", "SET", "u8", "0", "1", "INCRBY", "u8", "0", "1");
            c.call("BITFIELD", "b", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "-10");
            c.call("BITFIELD", "f", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "-10");
            c.call("BITFIELD", "b", "OVERFLOW", "FAIL", "INCRBY", "u8", "16", "-10");
            c.call("BITFIELD_RO", "b", "GET", "u8", "0");
            c.call("SET", "done", "1");

            List<String> events = new ArrayList<>();
            for (String event = ""; !event.equals("set done"); events.add(event)) {
                String[] parts = sub.reply().split("\r\n");
                event = parts[6].substring(parts[6].indexOf("__:") + 3) + " " + parts[8];
            }

            assertEquals(List.of("setbit b", "setbit b", "set done"), events);
            assertEquals(":1\r\n", c.call("EXISTS", "f"));
            assertEquals(":3\r\n", c.call("STRLEN", "b"));
        }
    }
}
