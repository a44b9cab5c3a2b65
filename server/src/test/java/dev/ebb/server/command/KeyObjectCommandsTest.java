package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import dev.ebb.storage.Values;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.SafeEncoder;

/** OBJECT ENCODING/IDLETIME/FREQ/REFCOUNT/HELP and MEMORY USAGE, with a manual clock. */
class KeyObjectCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static Object raw(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        return j.sendCommand(command, Arrays.copyOfRange(args, 1, args.length));
    }

    private static String error(Jedis j, String... args) {
        return assertThrows(JedisDataException.class, () -> raw(j, args)).getMessage();
    }

    private static String encodingOf(Jedis j, String value) {
        j.set("k", value);
        return SafeEncoder.encode(j.objectEncoding("k".getBytes()));
    }

    @Test
    void encodingShouldFollowRedisRulesForStrings() {
        try (Jedis j = connect()) {
            assertEquals("int", encodingOf(j, "12345"));
            assertEquals("int", encodingOf(j, "-1"));
            assertEquals("int", encodingOf(j, "9223372036854775807"));
            assertEquals("int", encodingOf(j, "-9223372036854775808"));
            assertEquals("embstr", encodingOf(j, "9223372036854775808"));
            assertEquals("embstr", encodingOf(j, "01"));
            assertEquals("embstr", encodingOf(j, "1.5"));
            assertEquals("embstr", encodingOf(j, " 1"));
            assertEquals("embstr", encodingOf(j, ""));
            assertEquals("embstr", encodingOf(j, "x".repeat(44)));
            assertEquals("raw", encodingOf(j, "x".repeat(45)));
        }
    }

    @Test
    void subcommandsShouldReplyNilForAMissingKey() {
        try (Jedis j = connect()) {
            assertNull(raw(j, "OBJECT", "ENCODING", "missing"));
            assertNull(raw(j, "OBJECT", "IDLETIME", "missing"));
            assertNull(raw(j, "OBJECT", "REFCOUNT", "missing"));
            assertNull(raw(j, "OBJECT", "FREQ", "missing"));
            assertNull(raw(j, "MEMORY", "USAGE", "missing"));
        }
    }

    @Test
    void idletimeShouldCountSecondsSinceTheLastAccess() {
        try (Jedis j = connect()) {
            j.set("k", "v");
            ebb.advanceClock(5000);
            assertEquals(5, j.objectIdletime("k"));

            j.get("k");
            assertEquals(0, j.objectIdletime("k"));
            ebb.advanceClock(3000);
            j.type("k");
            j.exists("k");
            j.ttl("k");
            j.objectEncoding("k");
            assertEquals(3, j.objectIdletime("k"));

            assertEquals(1, j.touch("k"));
            assertEquals(0, j.objectIdletime("k"));
        }
    }

    @Test
    void freqShouldBeRefusedWithoutAnLfuPolicy() {
        try (Jedis j = connect()) {
            j.set("k", "v");

            assertEquals("ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note"
                    + " that when switching between policies at runtime LRU and LFU data will take some time to"
                    + " adjust.", error(j, "OBJECT", "FREQ", "k"));
        }
    }

    @Test
    void refcountShouldMatchRedisSharedIntegers() {
        try (Jedis j = connect()) {
            j.set("zero", "0");
            j.set("small", "9999");
            j.set("big", "10000");
            j.set("negative", "-1");
            j.set("text", "hello");

            assertEquals(Integer.MAX_VALUE, j.objectRefcount("zero"));
            assertEquals(Integer.MAX_VALUE, j.objectRefcount("small"));
            assertEquals(1, j.objectRefcount("big"));
            assertEquals(1, j.objectRefcount("negative"));
            assertEquals(1, j.objectRefcount("text"));
        }
    }

    @Test
    void objectLookupsShouldCountKeyspaceHitsAndMisses() {
        try (Jedis j = connect()) {
            j.set("k", "v");
            long[] before = keyspaceStats();

            j.objectEncoding("k");
            j.objectRefcount("k");
            raw(j, "OBJECT", "IDLETIME", "missing");
            raw(j, "MEMORY", "USAGE", "k");
            raw(j, "MEMORY", "USAGE", "missing");

            long[] after = keyspaceStats();
            assertEquals(2, after[0] - before[0], "hits");
            assertEquals(1, after[1] - before[1], "misses");
        }
    }

    private static long[] keyspaceStats() {
        long[] out = new long[2];
        ebb.server().runOnLoop(s -> {
            out[0] = s.stats().keyspaceHits();
            out[1] = s.stats().keyspaceMisses();
        });
        return out;
    }

    @Test
    void objectHelpShouldListRedisLines() {
        try (Jedis j = connect()) {
            List<String> help = j.objectHelp();

            assertEquals(15, help.size());
            assertEquals("OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", help.get(0));
            assertEquals("ENCODING <key>", help.get(1));
            assertEquals("REFCOUNT <key>", help.get(10));
            assertEquals("    Print this help.", help.get(14));
        }
    }

    @Test
    void objectShouldRejectUnknownSubcommandsAndBadArity() {
        try (Jedis j = connect()) {
            assertEquals("ERR unknown subcommand 'foo'. Try OBJECT HELP.", error(j, "OBJECT", "foo"));
            assertEquals("ERR wrong number of arguments for 'object' command", error(j, "OBJECT"));
            assertEquals("ERR wrong number of arguments for 'object|encoding' command",
                    error(j, "OBJECT", "ENCODING"));
            assertEquals("ERR wrong number of arguments for 'object|idletime' command",
                    error(j, "object", "idletime", "a", "b"));
            assertEquals("ERR wrong number of arguments for 'object|help' command", error(j, "OBJECT", "HELP", "x"));
        }
    }

    @Test
    void memoryUsageShouldAddKeyValueAndSlotBytes() {
        try (Jedis j = connect()) {
            j.set("key", "value");
            j.set("vol", "value", SetParams.setParams().ex(100));
            j.set("large", "x".repeat(10_000));

            long plain = j.memoryUsage("key");
            long volatileKey = j.memoryUsage("vol");
            long large = j.memoryUsage("large");

            long expected = Values.byteArrayBytes(3) + Values.byteArrayBytes(5) + ObjectCommands.MAIN_SLOT_BYTES;
            assertEquals(expected, plain);
            assertEquals(expected + ObjectCommands.EXPIRES_SLOT_BYTES, volatileKey);
            assertTrue(large > 10_000 && large < 10_100, "large=" + large);
        }
    }

    @Test
    void memoryUsageShouldValidateSamplesAsRedisDoes() {
        try (Jedis j = connect()) {
            j.set("k", "v");
            long usage = j.memoryUsage("k");

            assertEquals(usage, j.memoryUsage("k", 0));
            assertEquals(usage, raw(j, "MEMORY", "USAGE", "k", "SAMPLES", "5", "samples", "100"));
            assertEquals("ERR syntax error", error(j, "MEMORY", "USAGE", "k", "SAMPLES"));
            assertEquals("ERR syntax error", error(j, "MEMORY", "USAGE", "k", "SAMPLES", "-1"));
            assertEquals("ERR syntax error", error(j, "MEMORY", "USAGE", "k", "foo", "1"));
            assertEquals("ERR value is not an integer or out of range",
                    error(j, "MEMORY", "USAGE", "k", "SAMPLES", "a"));
            assertEquals("ERR wrong number of arguments for 'memory|usage' command", error(j, "MEMORY", "USAGE"));
            assertEquals("ERR unknown subcommand 'nope'. Try MEMORY HELP.", error(j, "MEMORY", "nope"));
        }
    }

    @Test
    void memoryUsageShouldNotSeeAnExpiredKey() {
        try (Jedis j = connect()) {
            j.set("k", "v", SetParams.setParams().px(10));
            ebb.advanceClock(11);

            assertNull(raw(j, "MEMORY", "USAGE", "k"));
        }
    }
}
