package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Collections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Set encodings where Redis 7.2.4 decides by the number of members a command brings (SADD's and
 * SMOVE's size hint) and intsets at the edges of the 64-bit range; each reproduced on the reference.
 */
class SetEncodingTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    @AfterEach
    void restoreDefaults() {
        try (Jedis j = connect()) {
            j.configSet("set-max-intset-entries", "512");
            j.configSet("set-max-listpack-entries", "128");
        }
    }

    @Test
    void intsetShouldHoldTheSmallestAndLargestLong() {
        try (Jedis j = connect()) {
            j.sadd("s", "1", "-9223372036854775808", "9223372036854775807");

            assertEquals("intset", j.objectEncoding("s"));
            assertTrue(j.sismember("s", "-9223372036854775808"));
            assertEquals(1, j.srem("s", "-9223372036854775808"));
            assertEquals(2, j.scard("s"));
        }
    }

    @Test
    void saddOfMoreArgumentsThanTheIntsetLimitShouldStartAListpack() {
        try (Jedis j = connect()) {
            j.configSet("set-max-intset-entries", "4");

            j.sadd("s", "1", "2", "3", "4", "5");

            assertEquals("listpack", j.objectEncoding("s"));
        }
    }

    @Test
    void saddOfManyRepeatedArgumentsShouldStartAHashtable() {
        try (Jedis j = connect()) {
            j.sadd("strings", Collections.nCopies(129, "a").toArray(String[]::new));
            j.sadd("ints", Collections.nCopies(513, "1").toArray(String[]::new));
            j.sadd("fewInts", Collections.nCopies(200, "1").toArray(String[]::new));

            assertEquals("hashtable", j.objectEncoding("strings"));
            assertEquals("hashtable", j.objectEncoding("ints"));
            assertEquals("intset", j.objectEncoding("fewInts"));
            assertEquals(1, j.scard("ints"));
        }
    }

    @Test
    void smoveIntoANewSetShouldUseTheSizeHintOfOne() {
        try (Jedis j = connect()) {
            j.sadd("src", "1", "2");
            j.configSet("set-max-intset-entries", "0");

            j.smove("src", "dst", "1");

            assertEquals("listpack", j.objectEncoding("dst"));
        }
    }

    @Test
    void saddOfMoreArgumentsThanTheEncodingHoldsShouldConvertAnExistingSetEvenIfNothingIsAdded() {
        try (Jedis j = connect()) {
            j.sadd("strings", "a");
            j.sadd("ints", "1");

            assertEquals(0, j.sadd("strings", Collections.nCopies(129, "a").toArray(String[]::new)));
            assertEquals(0, j.sadd("ints", Collections.nCopies(513, "1").toArray(String[]::new)));

            assertEquals("hashtable", j.objectEncoding("strings"));
            assertEquals("hashtable", j.objectEncoding("ints"));
        }
    }

    @Test
    void spopLeavingAFifthOrLessOfWhatItTakesShouldLeaveTheRestInANewListpack() {
        try (Jedis j = connect()) {
            String[] members = new String[300];
            for (int i = 0; i < members.length; i++) {
                members[i] = "m" + i;
            }
            j.sadd("few", members);
            j.sadd("many", members);

            assertEquals(250, j.spop("few", 250).size());
            assertEquals(249, j.spop("many", 249).size());

            assertEquals("listpack", j.objectEncoding("few"));
            assertEquals(50, j.scard("few"));
            assertEquals("hashtable", j.objectEncoding("many"));
        }
    }
}
