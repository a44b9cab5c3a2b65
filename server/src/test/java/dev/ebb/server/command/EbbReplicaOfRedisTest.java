package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.differential.ReferenceRedis;
import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.StreamEntryID;

/**
 * Ebb as a replica of the reference redis-server 7.2.4: a full sync (disk-based and diskless) of every
 * type and encoding in several databases with expiring keys, a stream with a consumer group and a
 * function library; the primary's write stream (MULTI/EXEC, EVAL, expiry, SELECT) applied until the
 * offsets are equal; then a cut link and a partial resync ({@code sync_partial_ok} counts it, no new
 * full sync). Contents are compared by SCAN and per-type reads.
 */
class EbbReplicaOfRedisTest {
    private static final long WAIT_MS = 60_000;
    private static ReferenceRedis primary;

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().keepDataBetweenTests();

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

    @Test
    void shouldSyncFollowAndPartiallyResyncFromDiskBasedSync() {
        syncFollowAndResync(false);
    }

    @Test
    void shouldSyncFollowAndPartiallyResyncFromDisklessSync() {
        syncFollowAndResync(true);
    }

    private void syncFollowAndResync(boolean diskless) {
        try (Jedis p = new Jedis("127.0.0.1", primary.port(), 30_000);
                Jedis r = new Jedis("127.0.0.1", ebb.port(), 30_000)) {
            r.replicaofNoOne();
            p.flushAll();
            p.functionFlush();
            p.configSet("repl-diskless-sync", diskless ? "yes" : "no");
            KeyspaceSamples.populate(p);
            populateExtras(p);
            long fullBefore = stat(p, "sync_full");

            assertEquals("OK", r.replicaof("127.0.0.1", primary.port()));
            waitFor(() -> info(r, "master_link_status").equals("up"), "link up");
            assertEquals(fullBefore + 1, stat(p, "sync_full"));
            writeLoad(p, 0);
            waitForSameOffsets(p, r);
            assertSameContents(p, r);
            assertEquals("slave", r.role().get(0));

            long partialBefore = stat(p, "sync_partial_ok");
            long fullAfterSync = stat(p, "sync_full");
            p.clientKill(redis.clients.jedis.params.ClientKillParams.clientKillParams()
                    .type(redis.clients.jedis.args.ClientType.REPLICA));
            writeLoad(p, 1);
            waitFor(() -> stat(p, "sync_partial_ok") == partialBefore + 1, "partial resync");
            waitForSameOffsets(p, r);

            assertEquals(fullAfterSync, stat(p, "sync_full"));
            assertSameContents(p, r);
        }
    }

    /** A stream with a consumer group and a pending entry, a function library, expiring keys in db 5. */
    private static void populateExtras(Jedis p) {
        p.xadd("stream", StreamEntryID.NEW_ENTRY, Map.of("f", "1"));
        p.xadd("stream", StreamEntryID.NEW_ENTRY, Map.of("f", "2"));
        p.xgroupCreate("stream", "group", new StreamEntryID(0, 0), false);
        p.xreadGroup("group", "alice", XReadGroupParams.xReadGroupParams().count(1),
                Map.of("stream", StreamEntryID.UNRECEIVED_ENTRY));
        p.functionLoad("#!lua name=mylib\nredis.register_function{function_name='echo1', "
                + "callback=function(keys, args) return args[1] end, flags={'no-writes'}}");
        p.select(5);
        p.setex("db5:volatile", 100_000, "v");
        p.set("db5:plain", "p");
        p.select(0);
    }

    /** Mixed writes, a transaction, a script, expiry, other databases. */
    private static void writeLoad(Jedis p, int round) {
        for (int i = 0; i < 500; i++) {
            p.set("load:" + round + ":" + i, "v" + i);
            p.incr("counter");
            p.lpush("load:list", Integer.toString(i));
            p.hset("load:hash", "f" + (i % 50), Integer.toString(i));
        }
        Transaction t = p.multi();
        t.set("tx:" + round, "a");
        t.sadd("tx:set", "m" + round);
        t.zadd("tx:zset", round, "m" + round);
        t.exec();
        p.eval("redis.call('set', KEYS[1], ARGV[1]); redis.call('expire', KEYS[1], 1000)", 1, "lua:" + round, "x");
        p.pexpire("load:" + round + ":0", 1);
        // Let the 1 ms key expire on the primary (its DEL then flows to the replica) before anything
        // compares: a SCAN that listed it on one side could otherwise miss it on the other.
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (p.exists("load:" + round + ":0")) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("load:" + round + ":0 did not expire within 30 s");
            }
            Thread.onSpinWait();
        }
        p.xadd("stream", StreamEntryID.NEW_ENTRY, Map.of("round", Integer.toString(round)));
        p.select(3);
        p.set("db3:round", Integer.toString(round));
        p.select(0);
    }

    private static void assertSameContents(Jedis p, Jedis r) {
        KeyspaceSamples.assertSameKeyspace(KeyspaceSamples.snapshot(p), KeyspaceSamples.snapshot(r));
        assertEquals(p.xrange("stream", "-", "+").toString(), r.xrange("stream", "-", "+").toString());
        assertEquals(p.xinfoGroups("stream").get(0).getPending(), r.xinfoGroups("stream").get(0).getPending());
        assertEquals(p.xinfoGroups("stream").get(0).getLastDeliveredId(),
                r.xinfoGroups("stream").get(0).getLastDeliveredId());
        assertEquals("hello", r.fcallReadonly("echo1", List.of(), List.of("hello")));
        p.select(5);
        r.select(5);
        assertEquals(p.get("db5:plain"), r.get("db5:plain"));
        assertTrue(r.ttl("db5:volatile") > 0);
        p.select(0);
        r.select(0);
    }

    private static void waitForSameOffsets(Jedis p, Jedis r) {
        waitFor(() -> info(r, "master_link_status").equals("up")
                && info(p, "master_repl_offset").equals(info(r, "slave_repl_offset")), "equal offsets");
    }

    static long stat(Jedis j, String field) {
        String stats = j.info("stats");
        for (String line : stats.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError("no " + field + " in INFO stats");
    }

    static String info(Jedis j, String field) {
        for (String line : j.info("replication").split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        return "";
    }

    static void waitFor(BooleanSupplier condition, String what) {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }
}
