package dev.ebb.server;

import dev.ebb.server.cluster.Cluster;
import dev.ebb.server.cluster.ClusterState;
import dev.ebb.server.cluster.NodesConf;
import dev.ebb.server.cluster.ReplicationControl;
import dev.ebb.storage.Database;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Connects the {@link Cluster} to the rest of the server: database 0 as the slot-keyed data
 * (counted and deleted per slot by its slot index), replication (the {@code PrimaryLink} a
 * cluster replica follows its primary with, promotion, offsets), the failover's own write pause
 * for a manual failover ({@link ClientPause#pauseForFailover(long)}, apart from CLIENT PAUSE),
 * PUBLISH messages from the bus delivered to local subscribers, and the cluster cron, ten ticks a
 * second on the command loop as Redis's clusterCron.
 */
final class ClusterWiring {
    private static final long CRON_PERIOD_MS = 100;

    private ClusterWiring() {
    }

    static Cluster create(Server server, SplittableRandom seeds) {
        Cluster cluster;
        try {
            cluster = new Cluster(server.config(), seeds.split(), server::tick);
        } catch (IOException | NodesConf.CorruptException e) {
            throw new IllegalStateException("Could not load the cluster configuration: " + e.getMessage(), e);
        }
        cluster.state().keys(new ClusterState.SlotKeys() {
            @Override
            public long countKeysInSlot(int slot) {
                return server.db(0).slotIndex().count(slot);
            }

            @Override
            public void deleteKeysInSlot(int slot) {
                Database db = server.db(0);
                for (byte[] key : db.slotIndex().keys(slot, Integer.MAX_VALUE)) {
                    db.delete(key);
                }
            }

            @Override
            public long keyCount() {
                return server.db(0).size();
            }
        });
        cluster.gossip().replication(new ReplicationControl() {
            @Override
            public void replicate(String ip, int port) {
                server.primaryLink().replicaOf(ip, port);
            }

            @Override
            public void promote() {
                server.primaryLink().promote();
            }

            @Override
            public boolean following() {
                return server.primaryLink().active();
            }

            @Override
            public long offset() {
                return server.replication().offset();
            }

            @Override
            public long dataAgeMs() {
                return server.primaryLink().dataAgeMs();
            }

            @Override
            public void pauseWrites(long untilMs) {
                server.pause().pauseForFailover(untilMs);
            }

            @Override
            public void unpauseWrites() {
                server.pause().endFailoverPause();
            }
        });
        cluster.gossip().publisher((channel, message, shard) -> {
            if (shard) {
                server.pubsub().spublish(channel, message);
            } else {
                server.pubsub().publish(channel, message);
            }
        });
        return cluster;
    }

    /** Binds the bus and starts the cron; on the loop, once the client port is known. */
    static ScheduledFuture<?> start(Server server, CommandLoop loop, int clientPort, boolean picked)
            throws InterruptedException {
        Cluster cluster = server.cluster();
        cluster.start(loop.executor(), clientPort, picked);
        return loop.executor().scheduleAtFixedRate(() -> cluster.cron(server.tick()), CRON_PERIOD_MS,
                CRON_PERIOD_MS, TimeUnit.MILLISECONDS);
    }
}
