package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.util.SafeEncoder;

/**
 * OBJECT ENCODING and OBJECT REFCOUNT of strings whose answer depends on how the value was made,
 * not only on its bytes, as redis-server 7.2.4 answers (each case reproduced on the reference; the
 * full walk is the encodings-strings conformance transcript).
 */
class StringEncodingHistoryTest {
    private static final long SHARED = Integer.MAX_VALUE;

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static Object raw(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        return j.sendCommand(command, Arrays.copyOfRange(args, 1, args.length));
    }

    @AfterEach
    void restoreSharing() {
        try (Jedis j = connect()) {
            j.configSet("maxmemory", "0");
            j.configSet("maxmemory-policy", "noeviction");
        }
    }

    @Test
    void incrbyfloatShouldStoreAnIntegralResultAsUnsharedEmbstr() {
        try (Jedis j = connect()) {
            j.set("f", "3");

            j.incrByFloat("f", 1);

            assertEquals("4", j.get("f"));
            assertEquals("embstr", j.objectEncoding("f"));
            assertEquals(1, j.objectRefcount("f"));
            j.incr("f");
            assertEquals("int", j.objectEncoding("f"));
            assertEquals(SHARED, j.objectRefcount("f"));
        }
    }

    @Test
    void copyOfASharedIntegerShouldBeAnUnsharedInt() {
        try (Jedis j = connect()) {
            j.set("k", "5");

            j.copy("k", "k2", false);

            assertEquals("int", j.objectEncoding("k2"));
            assertEquals(1, j.objectRefcount("k2"));
            assertEquals(SHARED, j.objectRefcount("k"));
            assertEquals("5", j.get("k2"));
        }
    }

    @Test
    void copyOfAnIncrbyfloatResultShouldStayEmbstr() {
        try (Jedis j = connect()) {
            j.incrByFloat("f", 2);

            j.copy("f", "f2", false);

            assertEquals("embstr", j.objectEncoding("f2"));
            assertEquals("2", j.get("f2"));
        }
    }

    @Test
    void sharingShouldBeDecidedWhenTheValueIsStoredNotWhenAsked() {
        try (Jedis j = connect()) {
            j.configSet("maxmemory-policy", "allkeys-lru");
            j.set("before", "5");
            j.configSet("maxmemory", "1gb");

            j.set("after", "5");
            j.incr("counter");
            j.mset("m", "6");
            j.append("a", "7");

            assertEquals(SHARED, j.objectRefcount("before"));
            assertEquals(1, j.objectRefcount("after"));
            assertEquals("int", j.objectEncoding("after"));
            assertEquals(1, j.objectRefcount("counter"));
            assertEquals(1, j.objectRefcount("m"));
            assertEquals(1, j.objectRefcount("a"));
            j.configSet("maxmemory-policy", "volatile-ttl");
            j.set("ttlPolicy", "5");
            assertEquals(SHARED, j.objectRefcount("ttlPolicy"));
            assertEquals(1, j.objectRefcount("after"));
        }
    }

    @Test
    void setbitThatChangesNothingShouldStillLeaveARawString() {
        try (Jedis j = connect()) {
            j.set("r", "12");

            assertEquals(false, j.setbit("r", 0, false));

            assertEquals("raw", j.objectEncoding("r"));
            assertEquals("12", j.get("r"));
        }
    }

    @Test
    void bitopShouldStoreARawString() {
        try (Jedis j = connect()) {
            j.set("a", "abc");

            raw(j, "BITOP", "NOT", "dest", "a");

            assertEquals("raw", j.objectEncoding("dest"));
            assertEquals(3, j.strlen("dest"));
        }
    }

    @Test
    void bitfieldThatMayWriteShouldLeaveARawStringEvenWithoutChanges() {
        try (Jedis j = connect()) {
            j.set("same", "1");
            j.set("failed", "1");
            j.set("read", "1");

            j.bitfield("same", "SET", "u8", "0", "49");
            j.bitfield("failed", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "250");
            j.bitfield("read", "GET", "u8", "0");

            assertEquals("raw", j.objectEncoding("same"));
            assertEquals("raw", j.objectEncoding("failed"));
            assertEquals("int", j.objectEncoding("read"));
            assertEquals("1", j.get("failed"));
        }
    }
}
