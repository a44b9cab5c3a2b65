package dev.ebb.server.config;

/**
 * The {@code cluster-*} directives of {@link ServerConfig}, read through {@link ServerConfig#cluster()}. Each getter
 * reads the live snapshot, so it is as lock-free and thread-safe as {@link ServerConfig}'s own.
 */
public final class ClusterConfig {
    private final ServerConfig config;

    ClusterConfig(ServerConfig config) {
        this.config = config;
    }

    /** {@code cluster-enabled}: run as a Redis Cluster node. */
    public boolean clusterEnabled() {
        return config.value(Directives.CLUSTER_ENABLED);
    }

    /** {@code cluster-config-file}: nodes.conf, in {@code dir} unless absolute. */
    public String clusterConfigFile() {
        return config.value(Directives.CLUSTER_CONFIG_FILE);
    }

    /** {@code cluster-port}: the bus port; 0 for port + 10000. */
    public int clusterPort() {
        return config.value(Directives.CLUSTER_PORT).intValue();
    }

    /** {@code cluster-node-timeout}: ms without an answer before a node is flagged PFAIL. */
    public long clusterNodeTimeout() {
        return config.value(Directives.CLUSTER_NODE_TIMEOUT);
    }

    public boolean clusterRequireFullCoverage() {
        return config.value(Directives.CLUSTER_REQUIRE_FULL_COVERAGE);
    }

    public boolean clusterAllowReadsWhenDown() {
        return config.value(Directives.CLUSTER_ALLOW_READS_WHEN_DOWN);
    }

    public boolean clusterAllowPubsubshardWhenDown() {
        return config.value(Directives.CLUSTER_ALLOW_PUBSUBSHARD_WHEN_DOWN);
    }

    /** {@code cluster-link-sendbuf-limit}: bytes a bus link may have queued for sending before it is freed; 0 no limit. */
    public long clusterLinkSendbufLimit() {
        return config.value(Directives.CLUSTER_LINK_SENDBUF_LIMIT);
    }

    /** {@code cluster-replica-validity-factor}: a replica disconnected longer than factor × node timeout (+ ping period) will not fail over; 0 always may. */
    public long clusterReplicaValidityFactor() {
        return config.value(Directives.CLUSTER_REPLICA_VALIDITY_FACTOR);
    }

    /** {@code cluster-replica-no-failover}: this replica never starts an automatic failover. */
    public boolean clusterReplicaNoFailover() {
        return config.value(Directives.CLUSTER_REPLICA_NO_FAILOVER);
    }

    /** {@code cluster-migration-barrier}: replicas a primary keeps before one of them may migrate to an orphaned primary. */
    public int clusterMigrationBarrier() {
        return config.value(Directives.CLUSTER_MIGRATION_BARRIER).intValue();
    }

    /** {@code cluster-allow-replica-migration}: a primary that lost all its slots follows their new owner. */
    public boolean clusterAllowReplicaMigration() {
        return config.value(Directives.CLUSTER_ALLOW_REPLICA_MIGRATION);
    }

    /** {@code cluster-announce-ip}: the address the node announces; "" for the one each client connected to. */
    public String clusterAnnounceIp() {
        return config.value(Directives.CLUSTER_ANNOUNCE_IP);
    }

    /** {@code cluster-announce-port}: the port the node announces; 0 for the one each client connected to. */
    public int clusterAnnouncePort() {
        return config.value(Directives.CLUSTER_ANNOUNCE_PORT).intValue();
    }

    /** {@code cluster-announce-bus-port}: the bus port the node announces; 0 for the one bound. */
    public int clusterAnnounceBusPort() {
        return config.value(Directives.CLUSTER_ANNOUNCE_BUS_PORT).intValue();
    }

    public int clusterAnnounceTlsPort() {
        return config.value(Directives.CLUSTER_ANNOUNCE_TLS_PORT).intValue();
    }

    public String clusterAnnounceHostname() {
        return config.value(Directives.CLUSTER_ANNOUNCE_HOSTNAME);
    }

    public String clusterAnnounceHumanNodename() {
        return config.value(Directives.CLUSTER_ANNOUNCE_HUMAN_NODENAME);
    }
}
