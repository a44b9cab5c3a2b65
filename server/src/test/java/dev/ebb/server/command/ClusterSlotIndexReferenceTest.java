package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.differential.ReferenceRedis;
import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * COUNTKEYSINSLOT and GETKEYSINSLOT byte for byte beside redis-server 7.2.4 in cluster mode (given every
 * slot with ADDSLOTSRANGE), on the same keys: counts, errors and argument edge cases. GETKEYSINSLOT lists
 * a slot's keys in an order of each server's own, so listings of more than one key are compared as sorted
 * lines. Skipped where the reference server cannot run.
 */
class ClusterSlotIndexReferenceTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("cluster-enabled", "yes").keepDataBetweenTests();

    private static ReferenceRedis redis;

    @BeforeAll
    static void startReference() throws Exception {
        redis = ReferenceRedis.startOrNull("--cluster-enabled", "yes");
        Assumptions.assumeTrue(redis != null, () -> "skipped: " + ReferenceRedis.unavailableReason);
        try (RespTestSocket r = new RespTestSocket("127.0.0.1", redis.port());
                RespTestSocket e = new RespTestSocket(ebb)) {
            // A fresh node owns no slot, in both servers; each marks the cluster up on a later cron tick.
            for (RespTestSocket s : new RespTestSocket[] {r, e}) {
                assertEquals("+OK\r\n", s.call("CLUSTER", "ADDSLOTSRANGE", "0", "16383"));
                long deadline = System.currentTimeMillis() + 60_000;
                while (!s.call("CLUSTER", "INFO").contains("cluster_state:ok")) {
                    assertTrue(System.currentTimeMillis() < deadline, "the one-node cluster did not come up");
                    Thread.sleep(20);
                }
            }
            for (RespTestSocket s : new RespTestSocket[] {r, e}) {
                for (int i = 0; i < 300; i++) {
                    s.call("SET", "key:" + i, "v");
                    s.call("SET", "{tag}:" + i, "v");
                }
                s.call("SET", "{one}", "v");
                s.call("DEL", "{tag}:7", "{tag}:8");
                s.call("SET", "", "empty key");
            }
        }
    }

    @AfterAll
    static void stopReference() {
        if (redis != null) {
            redis.close();
        }
    }

    /** The reply with the lines of its elements sorted after the first line (the array header). */
    private static List<String> sorted(String reply) {
        List<String> lines = new ArrayList<>(Arrays.asList(reply.split("\r\n")));
        List<String> rest = new ArrayList<>();
        for (int i = 1; i + 1 < lines.size(); i += 2) {
            rest.add(lines.get(i) + "\r\n" + lines.get(i + 1));
        }
        rest.sort(null);
        rest.add(0, lines.get(0));
        return rest;
    }

    @Test
    void countsErrorsAndListingsShouldMatchTheReference() throws IOException {
        String[][] commands = {
            {"CLUSTER", "COUNTKEYSINSLOT", "8338"}, {"CLUSTER", "COUNTKEYSINSLOT", "0"},
            {"CLUSTER", "COUNTKEYSINSLOT", "15101"}, {"CLUSTER", "COUNTKEYSINSLOT", "16383"},
            {"CLUSTER", "COUNTKEYSINSLOT", "16384"}, {"CLUSTER", "COUNTKEYSINSLOT", "-1"},
            {"CLUSTER", "COUNTKEYSINSLOT", "x"}, {"CLUSTER", "COUNTKEYSINSLOT", "0x1"},
            {"CLUSTER", "COUNTKEYSINSLOT", " 1"}, {"CLUSTER", "COUNTKEYSINSLOT", "1", "2"},
            {"CLUSTER", "GETKEYSINSLOT", "1"}, {"CLUSTER", "GETKEYSINSLOT", "16384", "1"},
            {"CLUSTER", "GETKEYSINSLOT", "1", "-1"}, {"CLUSTER", "GETKEYSINSLOT", "-1", "-1"},
            {"CLUSTER", "GETKEYSINSLOT", "x", "1"}, {"CLUSTER", "GETKEYSINSLOT", "1", "x"},
            {"CLUSTER", "GETKEYSINSLOT", "1", "99999999999999999999"},
            {"CLUSTER", "GETKEYSINSLOT", "0", "9223372036854775807"},
            {"CLUSTER", "GETKEYSINSLOT", "0", "1"}, {"CLUSTER", "GETKEYSINSLOT", "8338", "0"},
            {"CLUSTER", "GETKEYSINSLOT", "9084", "5"}, {"CLUSTER", "GETKEYSINSLOT", "15101", "1"},
        };
        try (RespTestSocket r = new RespTestSocket("127.0.0.1", redis.port());
                RespTestSocket e = new RespTestSocket(ebb)) {
            for (String[] command : commands) {
                assertEquals(r.call(command), e.call(command), String.join(" ", command));
            }
            for (int slot = 0; slot < 16384; slot += 97) {
                String s = Integer.toString(slot);
                assertEquals(r.call("CLUSTER", "COUNTKEYSINSLOT", s), e.call("CLUSTER", "COUNTKEYSINSLOT", s), s);
            }
            String tagSlot = r.call("CLUSTER", "KEYSLOT", "{tag}").substring(1).trim();
            assertEquals(":298\r\n", e.call("CLUSTER", "COUNTKEYSINSLOT", tagSlot));
            assertEquals(sorted(r.call("CLUSTER", "GETKEYSINSLOT", tagSlot, "1000")),
                    sorted(e.call("CLUSTER", "GETKEYSINSLOT", tagSlot, "1000")));
            assertEquals(r.call("CLUSTER", "GETKEYSINSLOT", tagSlot, "10").substring(0, 5),
                    e.call("CLUSTER", "GETKEYSINSLOT", tagSlot, "10").substring(0, 5));
        }
    }
}
