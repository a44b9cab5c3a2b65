package dev.ebb.server.cluster;

/**
 * What the cluster state machine needs of replication and of the clients: follow a primary, turn
 * primary, read the replication offset, and hold writes during a manual failover. The server
 * implements it over its replication link and the failover's write pause (a purpose of its own,
 * apart from CLIENT PAUSE, as Redis's PAUSE_DURING_FAILOVER); state-machine tests use a fake.
 * Command loop thread only.
 */
public interface ReplicationControl {
    ReplicationControl NONE = new ReplicationControl() {
        @Override
        public void replicate(String ip, int port) {
        }

        @Override
        public void promote() {
        }

        @Override
        public boolean following() {
            return false;
        }

        @Override
        public long offset() {
            return 0;
        }

        @Override
        public long dataAgeMs() {
            return 0;
        }

        @Override
        public void pauseWrites(long untilMs) {
        }

        @Override
        public void unpauseWrites() {
        }
    };

    /** Replicates from {@code ip:port} (a new primary replaces the one followed). */
    void replicate(String ip, int port);

    /** Stops replicating and becomes a primary keeping the data (REPLICAOF NO ONE: new replid, replid2 kept). */
    void promote();

    /** Whether a primary is followed. */
    boolean following();

    /** A primary's master_repl_offset; a replica's offset of the stream applied. */
    long offset();

    /**
     * Milliseconds since the primary was last heard from (link up), or since the link went down;
     * Redis's data age for {@code cluster-replica-validity-factor}.
     */
    long dataAgeMs();

    /** Holds client writes until {@code untilMs} (a primary during a manual failover). */
    void pauseWrites(long untilMs);

    /** Ends {@link #pauseWrites}; a CLIENT PAUSE set meanwhile stays. */
    void unpauseWrites();
}
