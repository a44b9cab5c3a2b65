package dev.ebb.server.replication;

import static dev.ebb.server.replication.ReplicationData.await;
import static dev.ebb.server.replication.ReplicationData.info;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.differential.ReferenceRedis;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * FAILOVER between in-process Ebb nodes, with Redis 7.2.4's semantics: the hand-over to a given
 * replica and to any replica (the old primary continues as the new one's replica with a partial
 * resync, the other replica keeps following the old primary, now a chain), ABORT and TIMEOUT
 * (releasing the writes held meanwhile), FORCE (the PSYNC FAILOVER line a target receives, its
 * refusal and its acceptance, after which the held writes get -READONLY), every error, and the
 * hand-over between Ebb and redis-server 7.2.4 both ways (skipped when the reference cannot run).
 * {@link FakeReplica} is a replica that never acknowledges, to hold a failover in waiting-for-sync.
 */
class FailoverTest {
    private static final ProtocolCommand FAILOVER = () -> "FAILOVER".getBytes(StandardCharsets.US_ASCII);
    private static final ProtocolCommand PSYNC = () -> "PSYNC".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;
    private int nodes;

    private EbbServer ebb(String extra) throws Exception {
        Path own = Files.createDirectories(dir.resolve("node" + nodes++));
        return EbbServer.start(ServerConfig.fromText("port 0\nbind 127.0.0.1\nsave \"\"\ndir " + own
                + "\nrepl-diskless-sync-delay 0\n" + extra + "\n"));
    }

    static String failover(Jedis j, String... args) {
        return text(j.sendCommand(FAILOVER, args));
    }

    private static String text(Object reply) {
        return new String((byte[]) reply, StandardCharsets.UTF_8);
    }

    static void awaitUp(Jedis replica) throws InterruptedException {
        await("the replica's link to be up", 90, () -> "up".equals(info(replica, "master_link_status")));
    }

    private static void awaitSameOffset(Jedis primary, Jedis replica) throws InterruptedException {
        await("the replica to reach the primary's offset", 60,
                () -> "up".equals(info(replica, "master_link_status"))
                        && info(primary, "master_repl_offset").equals(info(replica, "master_repl_offset")));
    }

    private static void awaitNoFailover(Jedis j) throws InterruptedException {
        await("the failover to end", 60, () -> "no-failover".equals(info(j, "master_failover_state")));
    }

    /** Waits until the primary behind {@code jp} lists its (fake) replica online. */
    private static void awaitFakeOnline(Jedis jp) throws InterruptedException {
        await("the fake replica online", 60, () -> info(jp, "slave0") != null
                && info(jp, "slave0").contains("state=online"));
    }

    @Test
    void failoverToAReplicaShouldSwapRolesAndKeepTheOtherReplicaFollowingTheOldPrimary() throws Exception {
        try (EbbServer p = ebb(""); EbbServer r1 = ebb(""); EbbServer r2 = ebb("");
                Jedis jp = new Jedis("127.0.0.1", p.port()); Jedis j1 = new Jedis("127.0.0.1", r1.port());
                Jedis j2 = new Jedis("127.0.0.1", r2.port())) {
            ReplicationData.fill(jp);
            j1.replicaof("127.0.0.1", p.port());
            j2.replicaof("127.0.0.1", p.port());
            awaitUp(j1);
            awaitUp(j2);
            ReplicationData.load(jp, 500, 1);
            awaitSameOffset(jp, j1);
            String oldId = info(jp, "master_replid");
            long partialBefore = Long.parseLong(info(j1, "sync_partial_ok"));
            long fullBefore = Long.parseLong(info(j1, "sync_full"));
            Jedis blocker = new Jedis("127.0.0.1", p.port(), 60_000);
            CompletableFuture<String> blocked = CompletableFuture.supplyAsync(() -> {
                try (blocker) {
                    return String.valueOf(blocker.blpop(0, "nothing"));
                } catch (JedisDataException e) {
                    return e.getMessage();
                }
            });
            await("the BLPOP to block", 60, () -> "1".equals(info(jp, "blocked_clients")));

            assertEquals("OK", failover(jp, "TO", "127.0.0.1", Integer.toString(r1.port())));
            awaitNoFailover(jp);
            assertEquals("UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)",
                    blocked.get(60, TimeUnit.SECONDS));

            assertEquals("master", j1.role().get(0));
            assertEquals(oldId, info(j1, "master_replid2"));
            assertEquals("slave", jp.role().get(0));
            assertEquals(Integer.toString(r1.port()), info(jp, "master_port"));
            awaitUp(jp);
            assertEquals(partialBefore + 1, Long.parseLong(info(j1, "sync_partial_ok")));
            assertEquals(fullBefore, Long.parseLong(info(j1, "sync_full")));
            // Not re-pointed: the other replica still follows the old primary, which now proxies the new one's stream.
            assertEquals(Integer.toString(p.port()), info(j2, "master_port"));
            assertThrows(JedisDataException.class, () -> jp.set("after", "x"), "READONLY");

            j1.set("after", "failover");
            awaitSameOffset(j1, jp);
            awaitSameOffset(jp, j2);
            await("the new primary's id on the chained replica", 60,
                    () -> info(j1, "master_replid").equals(info(j2, "master_replid")));
            Thread.sleep(400);
            awaitSameOffset(j1, jp);
            awaitSameOffset(jp, j2);
            ReplicationData.assertSame(ReplicationData.dump(j1), ReplicationData.dump(jp));
            ReplicationData.assertSame(ReplicationData.dump(j1), ReplicationData.dump(j2));
            assertEquals("failover", j2.get("after"));
        }
    }

    @Test
    void failoverToAnyReplicaShouldPickOneThatCaughtUp() throws Exception {
        try (EbbServer p = ebb(""); EbbServer r1 = ebb(""); EbbServer r2 = ebb("");
                Jedis jp = new Jedis("127.0.0.1", p.port()); Jedis j1 = new Jedis("127.0.0.1", r1.port());
                Jedis j2 = new Jedis("127.0.0.1", r2.port())) {
            j1.replicaof("127.0.0.1", p.port());
            j2.replicaof("127.0.0.1", p.port());
            awaitUp(j1);
            awaitUp(j2);
            jp.set("before", "1");
            jp.incr("counter");
            awaitSameOffset(jp, j1);
            awaitSameOffset(jp, j2);

            assertEquals("OK", failover(jp));
            awaitNoFailover(jp);

            assertEquals("slave", jp.role().get(0));
            int newPort = Integer.parseInt(info(jp, "master_port"));
            assertTrue(newPort == r1.port() || newPort == r2.port(), "new primary " + newPort);
            try (Jedis promoted = new Jedis("127.0.0.1", newPort)) {
                assertEquals("master", promoted.role().get(0));
                assertEquals("1", promoted.get("before"));
                promoted.set("written", "on the new primary");
                awaitSameOffset(promoted, jp);
                assertEquals("on the new primary", jp.get("written"));
            }
        }
    }

    @Test
    void errorsShouldBeRedisTexts() throws Exception {
        try (EbbServer p = ebb(""); EbbServer r1 = ebb("");
                Jedis jp = new Jedis("127.0.0.1", p.port()); Jedis j1 = new Jedis("127.0.0.1", r1.port())) {
            String port = Integer.toString(r1.port());
            assertError("ERR FAILOVER requires connected replicas.", jp, "TO", "127.0.0.1", port);
            assertError("ERR No failover in progress.", jp, "ABORT");
            assertError("ERR syntax error", jp, "ABORT", "x");
            assertError("ERR syntax error", jp, "TO", "127.0.0.1");
            assertError("ERR value is not an integer or out of range", jp, "TO", "127.0.0.1", "x");
            assertError("ERR FAILOVER timeout must be greater than 0", jp, "TIMEOUT", "0");
            assertError("ERR syntax error", jp, "TIMEOUT", "5", "TIMEOUT", "6");
            j1.replicaof("127.0.0.1", p.port());
            awaitUp(j1);
            assertError("ERR FAILOVER target HOST and PORT is not a replica.", jp, "TO", "127.0.0.1", "1");
            assertError("ERR FAILOVER target HOST and PORT is not a replica.", jp, "TO", "localhost", port);
            assertError("ERR FAILOVER with force option requires both a timeout and target HOST and IP.", jp,
                    "FORCE", "TIMEOUT", "100");
            assertError("ERR FAILOVER with force option requires both a timeout and target HOST and IP.", jp,
                    "TO", "127.0.0.1", port, "FORCE");
            assertError("ERR FAILOVER is not valid when server is a replica.", j1);
            assertPsyncError("ERR PSYNC FAILOVER can't be sent to a master.", jp, "x", "1", "FAILOVER");
            assertPsyncError("ERR PSYNC FAILOVER replid must match my replid.", j1, "x".repeat(40), "1", "FAILOVER");
            assertEquals("slave", j1.role().get(0));
        }
    }

    @Test
    void aReplicaStillSyncingShouldNotBeATarget() throws Exception {
        try (EbbServer p = ebb("repl-diskless-sync yes\nrepl-diskless-sync-delay 3600");
                EbbServer r1 = ebb(""); Jedis jp = new Jedis("127.0.0.1", p.port());
                Jedis j1 = new Jedis("127.0.0.1", r1.port())) {
            j1.replicaof("127.0.0.1", p.port());
            await("the replica to wait for its snapshot", 60, () -> "1".equals(info(jp, "connected_slaves")));
            assertError("ERR FAILOVER target replica is not online.", jp, "TO", "127.0.0.1",
                    Integer.toString(r1.port()));
        }
    }

    @Test
    void abortAndTimeoutShouldEndTheWaitAndReleaseHeldWrites() throws Exception {
        try (EbbServer p = ebb("repl-diskless-sync no"); Jedis jp = new Jedis("127.0.0.1", p.port());
                Jedis writer = new Jedis("127.0.0.1", p.port(), 60_000);
                FakeReplica fake = FakeReplica.attach(p.port())) {
            awaitFakeOnline(jp);
            jp.set("offset", "moves");
            String port = Integer.toString(fake.listeningPort());

            assertEquals("OK", failover(jp, "TO", "127.0.0.1", port, "TIMEOUT", "600000"));
            assertEquals("waiting-for-sync", info(jp, "master_failover_state"));
            assertError("ERR FAILOVER already in progress.", jp);
            JedisDataException replicaof = assertThrows(JedisDataException.class,
                    () -> jp.replicaof("127.0.0.1", fake.listeningPort()));
            assertEquals("ERR REPLICAOF not allowed while failing over.", replicaof.getMessage());
            assertEquals("moves", jp.get("offset"));
            CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> writer.set("held", "1"));
            Thread.sleep(500);
            assertFalse(held.isDone(), "a write ran during the failover");
            jp.clientUnpause();
            assertEquals("waiting-for-sync", info(jp, "master_failover_state"));

            assertEquals("OK", failover(jp, "ABORT"));
            assertEquals("OK", held.get(60, TimeUnit.SECONDS));
            assertEquals("no-failover", info(jp, "master_failover_state"));
            assertEquals("master", jp.role().get(0));

            assertEquals("OK", failover(jp, "TO", "127.0.0.1", port, "TIMEOUT", "200"));
            awaitNoFailover(jp);
            assertEquals("master", jp.role().get(0));
            assertEquals("OK", jp.set("after", "timeout"));
        }
    }

    @Test
    void forceShouldHandOverAfterTheTimeoutAndHeldWritesShouldGetReadonly() throws Exception {
        try (EbbServer p = ebb("repl-diskless-sync no"); Jedis jp = new Jedis("127.0.0.1", p.port());
                Jedis writer = new Jedis("127.0.0.1", p.port(), 60_000);
                FakeReplica fake = FakeReplica.attach(p.port())) {
            awaitFakeOnline(jp);
            jp.set("offset", "moves");
            String port = Integer.toString(fake.listeningPort());

            // A target that refuses the PSYNC FAILOVER: the old primary is a primary again.
            fake.answerPsync("-ERR PSYNC FAILOVER replid must match my replid.");
            assertEquals("OK", failover(jp, "TO", "127.0.0.1", port, "TIMEOUT", "100", "FORCE"));
            List<String> refused = fake.awaitPsync();
            assertEquals("FAILOVER", refused.get(3));
            awaitNoFailover(jp);
            assertEquals("master", jp.role().get(0));
            assertTrue(info(jp, "connected_slaves").equals("0"), "back to primary, its replicas are disconnected");

            try (FakeReplica second = FakeReplica.attach(p.port())) {
                awaitFakeOnline(jp);
                handOverAndReadonly(jp, writer, second);
            }
        }
    }

    private static void handOverAndReadonly(Jedis jp, Jedis writer, FakeReplica fake) throws Exception {
            jp.set("offset", "moves again");
            String replid = info(jp, "master_replid");
            long offset = Long.parseLong(info(jp, "master_repl_offset"));
            fake.answerPsync("+CONTINUE " + "f".repeat(40));
            String port = Integer.toString(fake.listeningPort());
            assertEquals("OK", failover(jp, "TO", "127.0.0.1", port, "TIMEOUT", "100", "FORCE"));
            CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> {
                try {
                    return writer.set("held", "1");
                } catch (JedisDataException e) {
                    return e.getMessage();
                }
            });
            List<String> accepted = fake.awaitPsync();
            assertEquals(List.of("PSYNC", replid, Long.toString(offset + 1), "FAILOVER"), accepted);
            awaitNoFailover(jp);
            assertEquals("slave", jp.role().get(0));
            assertEquals("READONLY You can't write against a read only replica.", held.get(60, TimeUnit.SECONDS));
            jp.replicaofNoOne();
    }

    @Test
    void failoverShouldWorkBetweenEbbAndRedisBothWays() throws Exception {
        try (EbbServer p = ebb(""); Jedis jp = new Jedis("127.0.0.1", p.port())) {
            ReplicationData.fill(jp);
            ReferenceRedis redis = ReferenceRedis.startOrNull("--replicaof", "127.0.0.1", Integer.toString(p.port()),
                    "--repl-diskless-sync-delay", "0");
            Assumptions.assumeTrue(redis != null, () -> "skipped: reference redis-server 7.2.4 cannot run: "
                    + ReferenceRedis.unavailableReason);
            try (redis; Jedis jr = new Jedis("127.0.0.1", redis.port())) {
                awaitUp(jr);
                jp.set("from", "ebb");
                awaitSameOffset(jp, jr);

                // Ebb primary -> redis-server replica.
                assertEquals("OK", failover(jp, "TO", "127.0.0.1", Integer.toString(redis.port())));
                awaitNoFailover(jp);
                assertEquals("master", jr.role().get(0));
                assertEquals("slave", jp.role().get(0));
                awaitUp(jp);
                assertEquals("1", info(jr, "sync_partial_ok"));
                jr.set("from", "redis");
                awaitSameOffset(jr, jp);
                assertEquals("redis", jp.get("from"));

                // redis-server primary -> Ebb replica.
                assertEquals("OK", failover(jr));
                awaitNoFailover(jr);
                assertEquals("master", jp.role().get(0));
                assertEquals("slave", jr.role().get(0));
                awaitUp(jr);
                assertEquals("1", info(jp, "sync_partial_ok"));
                jp.set("from", "ebb again");
                awaitSameOffset(jp, jr);
                Thread.sleep(200);
                ReplicationData.assertSame(ReplicationData.dump(jp), ReplicationData.dump(jr));
            }
        }
    }

    private static void assertError(String expected, Jedis j, String... args) {
        JedisDataException e = assertThrows(JedisDataException.class, () -> j.sendCommand(FAILOVER, args));
        assertEquals(expected, e.getMessage());
    }

    private static void assertPsyncError(String expected, Jedis j, String... args) {
        JedisDataException e = assertThrows(JedisDataException.class, () -> j.sendCommand(PSYNC, args));
        assertEquals(expected, e.getMessage());
    }
}
