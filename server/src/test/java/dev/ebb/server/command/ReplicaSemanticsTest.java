package dev.ebb.server.command;

import static dev.ebb.server.command.EbbReplicaOfRedisTest.info;
import static dev.ebb.server.command.EbbReplicaOfRedisTest.stat;
import static dev.ebb.server.command.EbbReplicaOfRedisTest.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.differential.ReferenceRedis;
import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

/**
 * What being a replica means for Ebb's clients, with the reference redis-server 7.2.4 as the primary:
 * writes refused (READONLY) while the primary's stream applies, keys never expired by the replica
 * itself (hidden once logically expired, deleted when the primary's DEL arrives; the replica's clock
 * is driven by the test), INFO and ROLE as a Redis replica reports them, REPLICAOF NO ONE keeping
 * the data under a new replication id, and PSYNC continuing with a promoted sibling.
 */
class ReplicaSemanticsTest {
    private static ReferenceRedis primary;

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().keepDataBetweenTests().manualClock();

    private Jedis p;
    private Jedis r;

    @BeforeAll
    static void startPrimary() {
        primary = ReferenceRedis.startOrNull("--repl-diskless-sync-delay", "0");
        assumeTrue(primary != null, () -> "reference redis-server 7.2.4 cannot run: " + ReferenceRedis.unavailableReason);
    }

    @AfterAll
    static void stopPrimary() {
        if (primary != null) {
            primary.close();
        }
    }

    @BeforeEach
    void follow() {
        p = new Jedis("127.0.0.1", primary.port(), 30_000);
        r = new Jedis("127.0.0.1", ebb.port(), 30_000);
        r.replicaofNoOne();
        p.flushAll();
        r.flushAll();
        r.replicaof("127.0.0.1", primary.port());
        waitFor(() -> info(r, "master_link_status").equals("up"), "link up");
    }

    @AfterEach
    void close() {
        r.replicaofNoOne();
        p.close();
        r.close();
    }

    private void caughtUp() {
        waitFor(() -> info(p, "master_repl_offset").equals(info(r, "slave_repl_offset")), "equal offsets");
    }

    @Test
    void writesFromClientsShouldBeRefusedWhileThePrimarysAreApplied() {
        p.set("k", "from-primary");
        caughtUp();

        JedisDataException e = assertThrows(JedisDataException.class, () -> r.set("k", "local"));

        assertEquals("READONLY You can't write against a read only replica.", e.getMessage());
        assertEquals("from-primary", r.get("k"));
        r.configSet("replica-read-only", "no");
        try {
            assertEquals("OK", r.set("local", "write"));
        } finally {
            r.configSet("replica-read-only", "yes");
        }
    }

    @Test
    void aReplicaShouldHideButNotDeleteAnExpiredKeyUntilThePrimaryDeletesIt() {
        p.set("volatile", "v", SetParams.setParams().px(100_000));
        p.set("other", "o");
        caughtUp();
        assertEquals("v", r.get("volatile"));

        ebb.advanceClock(200_000);

        assertNull(r.get("volatile"));
        assertEquals(false, r.exists("volatile"));
        assertEquals(2, r.dbSize());
        p.del("volatile");
        caughtUp();
        assertEquals(1, r.dbSize());
    }

    @Test
    void infoAndRoleShouldReportTheReplicaAsRedisDoes() throws Exception {
        ReferenceRedis sibling = ReferenceRedis.startOrNull("--replicaof", "127.0.0.1", Integer.toString(primary.port()));
        assumeTrue(sibling != null, () -> "second reference redis-server cannot run: " + ReferenceRedis.unavailableReason);
        try (Jedis s = new Jedis("127.0.0.1", sibling.port(), 30_000)) {
            waitFor(() -> info(s, "master_link_status").equals("up"), "reference replica link up");
            p.set("k", "v");
            caughtUp();
            waitFor(() -> info(p, "master_repl_offset").equals(info(s, "slave_repl_offset")), "reference caught up");

            assertEquals(fieldNames(s.info("replication")), fieldNames(r.info("replication")));
            assertEquals(info(s, "master_replid"), info(r, "master_replid"));
            assertEquals(info(s, "slave_repl_offset"), info(r, "slave_repl_offset"));
            assertEquals("1", info(r, "slave_read_only"));
            assertEquals("100", info(r, "slave_priority"));
            List<Object> role = r.role();
            assertEquals(List.of("slave", "127.0.0.1", (long) primary.port(), "connected"), role.subList(0, 4));
            assertEquals(Long.parseLong(info(p, "master_repl_offset")), role.get(4));
            assertTrue(r.clientList(redis.clients.jedis.args.ClientType.MASTER).contains("flags=M"),
                    r.clientList());
        } finally {
            sibling.close();
        }
    }

    @Test
    void promotionShouldKeepTheDataAndStartANewHistory() {
        p.set("k", "v");
        p.lpush("list", "a", "b");
        caughtUp();
        String primaryId = info(p, "master_replid");
        long offset = Long.parseLong(info(r, "slave_repl_offset"));

        assertEquals("OK", r.replicaofNoOne());

        assertEquals("master", info(r, "role"));
        assertEquals(primaryId, info(r, "master_replid2"));
        assertNotEquals(primaryId, info(r, "master_replid"));
        assertEquals(Long.toString(offset + 1), info(r, "second_repl_offset"));
        assertEquals("v", r.get("k"));
        assertEquals(List.of("b", "a"), r.lrange("list", 0, -1));
        assertEquals("OK", r.set("k", "written after promotion"));
        assertEquals("master", r.role().get(0));
    }

    @Test
    void followingAPromotedSiblingShouldContinueWithPsync() throws Exception {
        ReferenceRedis sibling = ReferenceRedis.startOrNull("--replicaof", "127.0.0.1", Integer.toString(primary.port()));
        assumeTrue(sibling != null, () -> "second reference redis-server cannot run: " + ReferenceRedis.unavailableReason);
        try (Jedis s = new Jedis("127.0.0.1", sibling.port(), 30_000)) {
            waitFor(() -> info(s, "master_link_status").equals("up"), "reference replica link up");
            p.set("before", "promotion");
            caughtUp();
            waitFor(() -> info(p, "master_repl_offset").equals(info(s, "slave_repl_offset")), "sibling caught up");
            s.replicaofNoOne();
            s.set("after", "promotion");
            long partial = stat(s, "sync_partial_ok");
            long full = stat(s, "sync_full");

            r.replicaof("127.0.0.1", sibling.port());

            waitFor(() -> stat(s, "sync_partial_ok") == partial + 1, "partial resync with the promoted sibling");
            waitFor(() -> info(s, "master_repl_offset").equals(info(r, "slave_repl_offset")), "caught up");
            assertEquals(full, stat(s, "sync_full"));
            assertEquals("promotion", r.get("after"));
            assertEquals("promotion", r.get("before"));
            assertEquals(info(s, "master_replid"), info(r, "master_replid"));
        } finally {
            sibling.close();
        }
    }

    private static List<String> fieldNames(String info) {
        List<String> names = new ArrayList<>();
        for (String line : info.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                names.add(line.substring(0, colon));
            }
        }
        return names;
    }
}
