package dev.ebb.server.replication;

import static dev.ebb.server.replication.ReplicationData.await;
import static dev.ebb.server.replication.ReplicationData.info;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.differential.ReferenceRedis;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * redis-server 7.2.4 as a replica of Ebb: a full sync of every type and encoding (disk-based and
 * diskless), a mixed write load followed to the same offset and the same contents, then a cut link
 * that reconnects with a partial resync (+CONTINUE) rather than a full one. Skipped with the reason
 * when the reference binary cannot run here.
 */
class ReplicaOfEbbInteropTest {
    @TempDir
    Path dir;

    @Test
    void redisReplicaShouldFollowEbbAfterDiskBasedSync() throws Exception {
        followAndResume("repl-diskless-sync no");
    }

    @Test
    void redisReplicaShouldFollowEbbAfterDisklessSync() throws Exception {
        followAndResume("repl-diskless-sync yes\nrepl-diskless-sync-delay 1");
    }

    private void followAndResume(String syncConfig) throws Exception {
        try (EbbServer ebb = EbbServer.start(ServerConfig.fromText("port 0\nbind 127.0.0.1\nsave \"\"\ndir " + dir
                + "\n" + syncConfig + "\n")); Jedis primary = new Jedis("127.0.0.1", ebb.port())) {
            ReplicationData.fill(primary);
            ReferenceRedis replica = ReferenceRedis.startOrNull("--replicaof", "127.0.0.1",
                    Integer.toString(ebb.port()));
            Assumptions.assumeTrue(replica != null, () -> "skipped: " + ReferenceRedis.unavailableReason);
            try (replica; Jedis r = new Jedis("127.0.0.1", replica.port())) {
                PrimaryWaitTest.awaitLinkUp(r, replica);
                ReplicationData.load(primary, 3000, 1);
                awaitSameContents(primary, r);
                assertEquals("1", info(primary, "connected_slaves"));
                long fullSyncs = Long.parseLong(info(primary, "sync_full"));
                long partialOk = Long.parseLong(info(primary, "sync_partial_ok"));

                primary.clientKill(redis.clients.jedis.params.ClientKillParams.clientKillParams()
                        .type(redis.clients.jedis.args.ClientType.REPLICA));
                ReplicationData.load(primary, 500, 2);
                await("the replica to reconnect", 60, () -> "1".equals(info(primary, "connected_slaves"))
                        && "up".equals(info(r, "master_link_status")));
                ReplicationData.load(primary, 500, 3);
                awaitSameContents(primary, r);

                assertEquals(fullSyncs, Long.parseLong(info(primary, "sync_full")));
                assertEquals(partialOk + 1, Long.parseLong(info(primary, "sync_partial_ok")));
            }
        }
    }

    /** Waits until the replica's offset is the primary's, after the short-lived keys expired, then compares. */
    private static void awaitSameContents(Jedis primary, Jedis replica) throws InterruptedException {
        Thread.sleep(400);
        await("the replica to reach the primary's offset", 60, () -> {
            String ours = info(primary, "master_repl_offset");
            return ours.equals(info(replica, "master_repl_offset"));
        });
        ReplicationData.assertSame(ReplicationData.dump(primary), ReplicationData.dump(replica));
    }
}
