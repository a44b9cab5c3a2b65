package dev.ebb.server.config;

/**
 * The replication directives of {@link ServerConfig} ({@code masterauth}, {@code masteruser}, {@code replica-*},
 * {@code repl-*}, {@code min-replicas-*}), read through {@link ServerConfig#replication()}; {@code replicaof} stays on
 * {@link ServerConfig}, which also records REPLICAOF's changes to it. Each getter reads the live snapshot, so it is as
 * lock-free and thread-safe as {@link ServerConfig}'s own.
 */
public final class ReplicationConfig {
    private final ServerConfig config;

    ReplicationConfig(ServerConfig config) {
        this.config = config;
    }

    public String masterauth() {
        return config.value(Directives.MASTERAUTH);
    }

    public String masteruser() {
        return config.value(Directives.MASTERUSER);
    }

    public boolean replicaServeStaleData() {
        return config.value(Directives.REPLICA_SERVE_STALE_DATA);
    }

    public boolean replicaReadOnly() {
        return config.value(Directives.REPLICA_READ_ONLY);
    }

    /** {@code repl-timeout} in seconds: the link to the primary is dropped after this long without data. */
    public int replTimeout() {
        return config.value(Directives.REPL_TIMEOUT).intValue();
    }

    public int replicaPriority() {
        return config.value(Directives.REPLICA_PRIORITY).intValue();
    }

    public boolean replicaAnnounced() {
        return config.value(Directives.REPLICA_ANNOUNCED);
    }

    public String replicaAnnounceIp() {
        return config.value(Directives.REPLICA_ANNOUNCE_IP);
    }

    public int replicaAnnouncePort() {
        return config.value(Directives.REPLICA_ANNOUNCE_PORT).intValue();
    }

    /** {@code repl-backlog-size}: bytes of stream kept for partial resyncs. */
    public long replBacklogSize() {
        return config.value(Directives.REPL_BACKLOG_SIZE);
    }

    /** {@code repl-backlog-ttl}: seconds without replicas after which a primary frees its backlog; 0 never. */
    public long replBacklogTtl() {
        return config.value(Directives.REPL_BACKLOG_TTL);
    }

    /** {@code repl-diskless-sync}: full syncs stream the RDB to replicas that accept it instead of writing a file. */
    public boolean replDisklessSync() {
        return config.value(Directives.REPL_DISKLESS_SYNC);
    }

    /** {@code repl-diskless-sync-delay}: seconds a diskless sync waits for more replicas. */
    public int replDisklessSyncDelay() {
        return config.value(Directives.REPL_DISKLESS_SYNC_DELAY).intValue();
    }

    /** {@code repl-diskless-sync-max-replicas}: start a diskless sync as soon as this many wait (0: only the delay). */
    public int replDisklessSyncMaxReplicas() {
        return config.value(Directives.REPL_DISKLESS_SYNC_MAX_REPLICAS).intValue();
    }

    /** {@code repl-ping-replica-period}: seconds between PINGs in the replication stream. */
    public int replPingReplicaPeriod() {
        return config.value(Directives.REPL_PING_REPLICA_PERIOD).intValue();
    }

    /** {@code min-replicas-to-write}: writes are refused with fewer good replicas (0: never). */
    public int minReplicasToWrite() {
        return config.value(Directives.MIN_REPLICAS_TO_WRITE).intValue();
    }

    /** {@code min-replicas-max-lag}: seconds since its last ack within which a replica is good. */
    public int minReplicasMaxLag() {
        return config.value(Directives.MIN_REPLICAS_MAX_LAG).intValue();
    }
}
