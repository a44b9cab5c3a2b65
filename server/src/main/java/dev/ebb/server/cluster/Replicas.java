package dev.ebb.server.cluster;

/**
 * This node as a cluster replica (Redis's clusterSetMaster and clusterHandleSlaveMigration): CLUSTER
 * REPLICATE and a primary demoted after losing its slots make it follow a primary, through
 * {@link ReplicationControl}; each cron tick keeps the replication link pointed at the primary's
 * address, and moves a spare replica to an orphaned primary.
 *
 * <p><b>Replica migration.</b> A primary that owns slots and had replicas (flagged MIGRATE_TO when
 * it gained a replica or took over slots) is orphaned when every replica it has is flagged FAIL. A
 * replica of a primary with the most replicas not FAIL (at least two), if its primary keeps more
 * than {@code cluster-migration-barrier} reachable ones and it has the smallest id among the
 * replicas of such primaries, moves to the orphaned primary once that has been orphaned for 5 s
 * ({@code cluster-allow-replica-migration}).
 *
 * <p>Command loop thread only.
 */
public final class Replicas {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Replicas.class);
    /** Redis's CLUSTER_SLAVE_MIGRATION_DELAY. */
    static final long MIGRATION_DELAY_MS = 5000;

    private final Gossip gossip;
    private final ClusterState cs;

    Replicas(Gossip gossip) {
        this.gossip = gossip;
        this.cs = gossip.state();
    }

    /**
     * CLUSTER REPLICATE after its checks, and a demotion: myself becomes a replica of {@code n}
     * (open slots closed, shard id taken from it) and replication starts.
     */
    public void setMyMaster(ClusterNode n, long now) {
        LOG.info("Configuring myself as a replica of {}", n.name);
        ClusterNode me = cs.myself;
        if (me.isMaster()) {
            me.flags = (me.flags & ~(ClusterNode.MASTER | ClusterNode.MIGRATE_TO)) | ClusterNode.SLAVE;
            for (int s = 0; s < HashSlots.SLOTS; s++) {
                cs.migratingTo[s] = null;
                cs.importingFrom[s] = null;
            }
        }
        me.slaveof = n.name;
        if (n.shardId != null) {
            me.shardId = n.shardId;
        }
        n.flags |= ClusterNode.MIGRATE_TO;
        if (!n.ip.isEmpty()) {
            gossip.replication().replicate(n.ip, n.port);
        }
        gossip.failover().resetManual();
        cs.todoSave = true;
        cs.updateState(now);
    }

    /** Each cron tick on a replica: start replication once the primary's address is known; migrate. */
    void cron(long now) {
        ClusterNode me = cs.myself;
        if (!me.has(ClusterNode.SLAVE)) {
            return;
        }
        ClusterNode master = cs.masterOf(me);
        if (master != null && !gossip.replication().following() && !master.ip.isEmpty()
                && !master.has(ClusterNode.NOADDR)) {
            gossip.replication().replicate(master.ip, master.port);
        }
        if (master != null && cs.allowReplicaMigration) {
            migrateIfNeeded(master, now);
        }
    }

    /** Replicas of {@code master} not flagged FAIL (Redis's clusterCountNonFailingSlaves). */
    private int okReplicas(ClusterNode master) {
        int ok = 0;
        for (ClusterNode r : cs.replicasOf(master)) {
            if (!r.has(ClusterNode.FAIL)) {
                ok++;
            }
        }
        return ok;
    }

    /** Replicas of {@code master} neither PFAIL nor FAIL. */
    private int reachableReplicas(ClusterNode master) {
        int ok = 0;
        for (ClusterNode r : cs.replicasOf(master)) {
            if (!r.failing()) {
                ok++;
            }
        }
        return ok;
    }

    /** Redis's clusterCron orphan scan plus clusterHandleSlaveMigration. */
    private void migrateIfNeeded(ClusterNode myMaster, long now) {
        int maxReplicas = 0;
        int orphaned = 0;
        for (ClusterNode n : cs.nodes.values()) {
            if (!n.isMaster() || n.has(ClusterNode.FAIL)) {
                continue;
            }
            int ok = okReplicas(n);
            if (ok == 0 && !n.slots.isEmpty() && n.has(ClusterNode.MIGRATE_TO)) {
                orphaned++;
            }
            maxReplicas = Math.max(maxReplicas, ok);
        }
        if (orphaned == 0 || maxReplicas < 2 || okReplicas(myMaster) != maxReplicas
                || cs.state != ClusterState.OK || reachableReplicas(myMaster) <= cs.migrationBarrier) {
            return;
        }
        ClusterNode target = null;
        ClusterNode candidate = cs.myself;
        for (ClusterNode n : cs.nodes.values()) {
            boolean isOrphaned = n.isMaster() && !n.has(ClusterNode.FAIL) && n.has(ClusterNode.MIGRATE_TO);
            int ok = n.isMaster() ? okReplicas(n) : 0;
            if (ok > 0) {
                isOrphaned = false;
            }
            if (isOrphaned) {
                if (target == null && !n.slots.isEmpty()) {
                    target = n;
                }
                if (n.orphanedTime == 0) {
                    n.orphanedTime = now;
                }
            } else {
                n.orphanedTime = 0;
            }
            if (ok == maxReplicas) {
                for (ClusterNode r : cs.replicasOf(n)) {
                    if (r.name.compareTo(candidate.name) < 0) {
                        candidate = r;
                    }
                }
            }
        }
        if (target != null && candidate == cs.myself && now - target.orphanedTime > MIGRATION_DELAY_MS) {
            setMyMaster(target, now);
        }
    }
}
