package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * SRANDMEMBER and HRANDFIELD with a count on the hashtable encoding draw members uniformly: Redis's
 * own histogram test (tests/unit/type/set.tcl and hash.tcl: ten members, a negative count of 1000,
 * then positive counts 8 and 2 repeated to about 1000 draws) with its bound, chi-square below 40.
 * Ten members have nine degrees of freedom, so a fair draw passes with probability 0.99999.
 */
class RandomMemberDistributionTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension()
            .config("set-max-listpack-entries", "0")
            .config("set-max-intset-entries", "0")
            .config("hash-max-listpack-entries", "0");

    private static final String[] MEMBERS = {"ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st"};

    @Test
    void srandmemberShouldDrawHashtableMembersUniformly() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.sadd("myset", MEMBERS);
            assertEquals("hashtable", j.objectEncoding("myset"));

            assertTrue(chiSquare(j.srandmember("myset", -1000)) < 40, "negative count");
            for (int size : new int[] {8, 2}) {
                List<String> all = new ArrayList<>();
                for (int i = 0; i < 1000 / size; i++) {
                    all.addAll(j.srandmember("myset", size));
                }
                double chi = chiSquare(all);
                assertTrue(chi < 40, "count " + size + ": chi-square " + chi);
            }
        }
    }

    @Test
    void hrandfieldShouldDrawHashtableFieldsUniformly() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            for (String m : MEMBERS) {
                j.hset("myhash", m, "v");
            }
            assertEquals("hashtable", j.objectEncoding("myhash"));

            assertTrue(chiSquare(j.hrandfield("myhash", -1000)) < 40, "negative count");
            for (int size : new int[] {8, 2}) {
                List<String> all = new ArrayList<>();
                for (int i = 0; i < 1000 / size; i++) {
                    all.addAll(j.hrandfield("myhash", size));
                }
                double chi = chiSquare(all);
                assertTrue(chi < 40, "count " + size + ": chi-square " + chi);
            }
        }
    }

    @Test
    void spopShouldDrawHashtableMembersUniformly() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            List<String> popped = new ArrayList<>();
            for (int round = 0; round < 200; round++) {
                j.del("popset");
                j.sadd("popset", MEMBERS);
                popped.add(j.spop("popset"));
                popped.add(j.spop("popset"));
                popped.add(j.spop("popset"));
            }
            double chi = chiSquare(popped);
            assertTrue(chi < 40, "chi-square " + chi);
        }
    }

    /** Redis's chi_square_value: the sum over members of (observed - expected)^2 / expected. */
    private static double chiSquare(List<String> draws) {
        Map<String, Integer> counts = new HashMap<>();
        for (String d : draws) {
            counts.merge(d, 1, Integer::sum);
        }
        double expected = (double) draws.size() / counts.size();
        double chi = 0;
        for (int observed : counts.values()) {
            chi += (observed - expected) * (observed - expected) / expected;
        }
        return chi;
    }
}
