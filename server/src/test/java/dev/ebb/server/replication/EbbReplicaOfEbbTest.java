package dev.ebb.server.replication;

import static dev.ebb.server.replication.ReplicationData.await;
import static dev.ebb.server.replication.ReplicationData.info;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.params.ClientKillParams;
import redis.clients.jedis.params.XReadGroupParams;

/**
 * Ebb as a replica of Ebb, both in-process: a full sync (disk-based and diskless) of every type and
 * encoding in several databases, hash fields with TTLs and a function library; a mixed write load
 * (MULTI/EXEC, EVAL, expiring keys, SELECT) with contents compared by SCAN and per-type reads; then
 * the master link killed on the replica, writes meanwhile, and a partial resync (the primary's
 * {@code sync_partial_ok} +1, {@code sync_full} unchanged). Then a chain (a replica of a replica) and
 * a promotion: REPLICAOF NO ONE on the middle node, the old primary's other replica re-pointed to it
 * continues with a partial resync through replid2, and so does the chained replica.
 */
class EbbReplicaOfEbbTest {
    private static final ProtocolCommand HPEXPIREAT = () -> "HPEXPIREAT".getBytes(StandardCharsets.US_ASCII);
    private static final ProtocolCommand HPEXPIRETIME = () -> "HPEXPIRETIME".getBytes(StandardCharsets.US_ASCII);
    private static final String LIBRARY = "#!lua name=replib\nredis.register_function{function_name='echo1', "
            + "callback=function(keys, args) return args[1] end, flags={'no-writes'}}";

    @TempDir
    Path dir;
    private int nodes;

    private EbbServer ebb(String extra) throws Exception {
        Path own = Files.createDirectories(dir.resolve("node" + nodes++));
        return EbbServer.start(ServerConfig.fromText("port 0\nbind 127.0.0.1\nsave \"\"\ndir " + own + "\n" + extra
                + "\n"));
    }

    @Test
    void shouldSyncFollowAndPartiallyResyncAfterDiskBasedSync() throws Exception {
        syncFollowAndResync("repl-diskless-sync no");
    }

    @Test
    void shouldSyncFollowAndPartiallyResyncAfterDisklessSync() throws Exception {
        syncFollowAndResync("repl-diskless-sync yes\nrepl-diskless-sync-delay 0");
    }

    private void syncFollowAndResync(String syncConfig) throws Exception {
        try (EbbServer p = ebb(syncConfig); EbbServer r = ebb("");
                Jedis jp = new Jedis("127.0.0.1", p.port(), 30_000); Jedis jr = new Jedis("127.0.0.1", r.port(), 30_000)) {
            ReplicationData.fill(jp);
            extras(jp);
            jr.replicaof("127.0.0.1", p.port());
            FailoverTest.awaitUp(jr);
            assertEquals("1", info(jp, "sync_full"));
            ReplicationData.load(jp, 2000, 1);
            awaitSameContents(jp, jr);
            long partialOk = Long.parseLong(info(jp, "sync_partial_ok"));

            jr.clientKill(ClientKillParams.clientKillParams().type(ClientType.MASTER));
            ReplicationData.load(jp, 300, 2);
            await("a partial resync", 60, () -> Long.parseLong(info(jp, "sync_partial_ok")) == partialOk + 1);
            ReplicationData.load(jp, 300, 3);
            awaitSameContents(jp, jr);
            assertEquals("1", info(jp, "sync_full"));
            assertEquals(Long.toString(partialOk + 1), info(jp, "sync_partial_ok"));
        }
    }

    @Test
    void chainAndPromotionShouldContinueWithPartialResyncs() throws Exception {
        try (EbbServer p = ebb("repl-diskless-sync-delay 0"); EbbServer mid = ebb("repl-diskless-sync-delay 0");
                EbbServer leaf = ebb(""); EbbServer sibling = ebb("");
                Jedis jp = new Jedis("127.0.0.1", p.port(), 30_000); Jedis jm = new Jedis("127.0.0.1", mid.port(), 30_000);
                Jedis jl = new Jedis("127.0.0.1", leaf.port(), 30_000);
                Jedis js = new Jedis("127.0.0.1", sibling.port(), 30_000)) {
            ReplicationData.fill(jp);
            extras(jp);
            jm.replicaof("127.0.0.1", p.port());
            js.replicaof("127.0.0.1", p.port());
            FailoverTest.awaitUp(jm);
            jl.replicaof("127.0.0.1", mid.port());
            FailoverTest.awaitUp(jl);
            FailoverTest.awaitUp(js);
            ReplicationData.load(jp, 1000, 4);
            awaitSameContents(jp, jm);
            awaitSameContents(jp, js);
            awaitSameContents(jm, jl);
            String oldId = info(jp, "master_replid");
            long midFull = Long.parseLong(info(jm, "sync_full"));
            long midPartial = Long.parseLong(info(jm, "sync_partial_ok"));

            assertEquals("OK", jm.replicaofNoOne());
            assertEquals(oldId, info(jm, "master_replid2"));
            js.replicaof("127.0.0.1", mid.port());
            await("the sibling and the leaf to continue", 60,
                    () -> Long.parseLong(info(jm, "sync_partial_ok")) == midPartial + 2
                            && "up".equals(info(js, "master_link_status"))
                            && "up".equals(info(jl, "master_link_status")));
            assertEquals(Long.toString(midFull), info(jm, "sync_full"));
            assertEquals(info(jm, "master_replid"), info(js, "master_replid"));
            assertEquals(info(jm, "master_replid"), info(jl, "master_replid"));

            ReplicationData.load(jm, 500, 5);
            awaitSameContents(jm, js);
            awaitSameContents(jm, jl);
        }
    }

    /** Consumer-group changes WATCH does not see (XGROUP subcommands, XACK, XSETID) reach the replica too. */
    @Test
    void consumerGroupChangesShouldReplicate() throws Exception {
        try (EbbServer p = ebb("repl-diskless-sync-delay 0"); EbbServer r = ebb("");
                Jedis jp = new Jedis("127.0.0.1", p.port(), 30_000); Jedis jr = new Jedis("127.0.0.1", r.port(), 30_000)) {
            jr.replicaof("127.0.0.1", p.port());
            FailoverTest.awaitUp(jr);
            jp.xadd("s", new StreamEntryID(1, 1), Map.of("a", "b"));
            jp.xgroupCreate("s", "g1", new StreamEntryID(0, 0), false);
            jp.xgroupCreate("s", "g2", new StreamEntryID(0, 0), false);
            jp.xgroupSetID("s", "g1", new StreamEntryID(1, 1));
            jp.xgroupCreateConsumer("s", "g1", "c1");
            jp.xgroupCreateConsumer("s", "g1", "c2");
            jp.xgroupDelConsumer("s", "g1", "c2");
            jp.xgroupDestroy("s", "g2");
            for (int i = 2; i <= 3; i++) {
                jp.xadd("s", new StreamEntryID(i, 1), Map.of("a", "c"));
                jp.xreadGroup("g1", "c1", XReadGroupParams.xReadGroupParams(),
                        Map.of("s", StreamEntryID.UNRECEIVED_ENTRY));
            }
            jp.xack("s", "g1", new StreamEntryID(2, 1));
            jp.sendCommand(() -> "XSETID".getBytes(StandardCharsets.US_ASCII), "s", "9-0");
            await("the replica to reach the primary's offset", 60,
                    () -> info(jp, "master_repl_offset").equals(info(jr, "master_repl_offset")));
            assertEquals(1, jr.xinfoGroups("s").size());
            assertEquals(new StreamEntryID(3, 1), jr.xinfoGroups("s").get(0).getLastDeliveredId());
            assertEquals(1, jr.xinfoConsumers("s", "g1").size());
            assertEquals(1L, jr.xpending("s", "g1").getTotal());
            assertEquals(jp.xinfoStream("s").getLastGeneratedId(), jr.xinfoStream("s").getLastGeneratedId());
        }
    }

    /** Hash fields with TTLs (far away), a function library, keys in database 5. */
    private static void extras(Jedis j) {
        j.hset("hfe", "keep", "1");
        j.hset("hfe", "timed", "2");
        j.sendCommand(HPEXPIREAT, "hfe", "4102444800000", "FIELDS", "1", "timed");
        j.functionLoad(LIBRARY);
        j.select(5);
        j.setex("db5:volatile", 100_000, "v");
        j.set("db5:plain", "p");
        j.select(0);
    }

    @SuppressWarnings("unchecked")
    private static void assertSameExtras(Jedis p, Jedis r) {
        assertEquals(p.sendCommand(HPEXPIRETIME, "hfe", "FIELDS", "2", "keep", "timed"),
                r.sendCommand(HPEXPIRETIME, "hfe", "FIELDS", "2", "keep", "timed"));
        assertEquals(List.of(-1L, 4102444800000L), p.sendCommand(HPEXPIRETIME, "hfe", "FIELDS", "2", "keep", "timed"));
        assertEquals("hello", r.fcallReadonly("echo1", List.of(), List.of("hello")));
        assertEquals(p.functionDump().length, r.functionDump().length);
    }

    /** Waits until the replica's offset is the primary's, after the short-lived keys expired, then compares. */
    private static void awaitSameContents(Jedis primary, Jedis replica) throws InterruptedException {
        Thread.sleep(400);
        await("the replica to reach the primary's offset", 60, () -> "up".equals(info(replica, "master_link_status"))
                && info(primary, "master_repl_offset").equals(info(replica, "master_repl_offset")));
        ReplicationData.assertSame(ReplicationData.dump(primary), ReplicationData.dump(replica));
        assertSameExtras(primary, replica);
    }
}
