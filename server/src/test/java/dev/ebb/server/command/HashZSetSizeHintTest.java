package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Redis 7.2.4 converts a hash or sorted set for the number of pairs a command brings before
 * looking at them (hashTypeTryConversion, zsetTypeMaybeConvert): repeated pairs still convert.
 * Each case reproduced on the reference (encodings-aggregates conformance transcript).
 */
class HashZSetSizeHintTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static String[] repeated(int pairs, String... pair) {
        String[] args = new String[pairs * pair.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = pair[i % pair.length];
        }
        return args;
    }

    @Test
    void hsetOfMorePairsThanAListpackHoldsShouldMakeAHashtableEvenWhenTheyRepeat() {
        try (Jedis j = connect()) {
            j.hset("existing", "f", "v");
            String[] args = repeated(513, "f", "v");

            j.sendCommand(redis.clients.jedis.Protocol.Command.HSET, prepend("fresh", args));
            j.sendCommand(redis.clients.jedis.Protocol.Command.HSET, prepend("existing", args));

            assertEquals("hashtable", j.objectEncoding("fresh"));
            assertEquals("hashtable", j.objectEncoding("existing"));
            assertEquals(1, j.hlen("existing"));
        }
    }

    @Test
    void zaddOfMorePairsThanAListpackHoldsShouldConvertAnExistingSetEvenWhenNothingChanges() {
        try (Jedis j = connect()) {
            j.zadd("z", 1, "a");
            j.zadd("xx", 1, "a");

            j.sendCommand(redis.clients.jedis.Protocol.Command.ZADD, prepend("z", repeated(129, "1", "a")));
            j.sendCommand(redis.clients.jedis.Protocol.Command.ZADD,
                    prepend("xx", prepend("XX", repeated(129, "1", "b"))));

            assertEquals("skiplist", j.objectEncoding("z"));
            assertEquals("skiplist", j.objectEncoding("xx"));
            assertEquals(1, j.zcard("xx"));
        }
    }

    private static String[] prepend(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
