package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ebb.server.cluster.OneNodeCluster;
import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Function flags in cluster mode, with Redis 7.2's texts: {@code no-cluster} refuses the function;
 * without {@code allow-cross-slot-keys} its commands keep to the slot of its first declared (or
 * first touched) key; one command's keys must share a slot either way, for EVAL too.
 */
class FunctionsClusterTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("cluster-enabled", "yes");

    @BeforeAll
    static void ownEverySlot() {
        OneNodeCluster.ownEverySlot(ebb);
    }

    @BeforeEach
    void load() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.functionFlush();
            j.functionLoad("#!lua name=c\n"
                    + "redis.register_function{function_name='nc', callback=function(keys) return 1 end, flags={'no-cluster'}}\n"
                    + "redis.register_function{function_name='two', callback=function(keys, args)"
                    + " redis.call('set', args[1], 1) return redis.call('set', args[2], 1) end}\n"
                    + "redis.register_function{function_name='twox', flags={'allow-cross-slot-keys'},"
                    + " callback=function(keys, args) redis.call('set', args[1], 1) return redis.call('set', args[2], 1) end}\n"
                    + "redis.register_function{function_name='decl', callback=function(keys, args)"
                    + " return redis.call('set', args[1], 1) end}\n"
                    + "redis.register_function{function_name='mset', flags={'allow-cross-slot-keys'},"
                    + " callback=function(keys, args) return redis.call('mset', args[1], 1, args[2], 1) end}");
        }
    }

    @Test
    void noClusterFunctionShouldBeRefused() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("ERR Can not run script on cluster, 'no-cluster' flag is set.",
                    assertThrows(JedisDataException.class, () -> j.fcall("nc", List.of(), List.of())).getMessage());
        }
    }

    @Test
    void aFunctionShouldKeepToOneSlotUnlessItAllowsCrossSlotKeys() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("ERR Script attempted to access keys that do not hash to the same slot script: two,"
                    + " on @user_function:3.",
                    assertThrows(JedisDataException.class, () -> j.fcall("two", List.of(), List.of("a", "b")))
                            .getMessage());
            assertEquals("OK", j.fcall("two", List.of(), List.of("a", "{a}b")));
            assertEquals("OK", j.fcall("twox", List.of(), List.of("a", "b")));
            assertEquals("ERR Script attempted to access keys that do not hash to the same slot script: decl,"
                    + " on @user_function:5.",
                    assertThrows(JedisDataException.class, () -> j.fcall("decl", List.of("a"), List.of("b")))
                            .getMessage());
            assertEquals("OK", j.fcall("decl", List.of("a"), List.of("{a}x")));
            assertEquals("CROSSSLOT Keys in request don't hash to the same slot",
                    assertThrows(JedisDataException.class, () -> j.fcall("decl", List.of("a", "b"), List.of("c")))
                            .getMessage());
        }
    }

    @Test
    void oneCommandSpanningSlotsShouldBeRefusedInAnyScript() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("ERR Script attempted to access a non local key in a cluster node script: mset,"
                    + " on @user_function:6.",
                    assertThrows(JedisDataException.class, () -> j.fcall("mset", List.of(), List.of("a", "b")))
                            .getMessage());
            assertEquals("ERR Script attempted to access a non local key in a cluster node script:"
                    + " 4e86eec41e78d04440443e6e36cbbfbee451f2ca, on @user_script:1.",
                    assertThrows(JedisDataException.class, () -> j.eval("return redis.call('mset', 'a', 1, 'b', 2)"))
                            .getMessage());
        }
    }
}
