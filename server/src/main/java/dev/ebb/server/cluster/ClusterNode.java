package dev.ebb.server.cluster;

import java.util.SplittableRandom;

/**
 * Ebb in cluster mode ({@code cluster-enabled yes}): a one-node Redis Cluster whose only node is
 * a master owning all 16384 slots, so cluster clients (JedisCluster, Lettuce's
 * RedisClusterClient, redis-cli -c) work against it and keys are held to Redis Cluster's rules
 * (CROSSSLOT, database 0 only). There is no cluster bus, no other node, no failover and no
 * resharding; the node id is random per start (nothing is persisted, so there is no
 * {@code nodes.conf}).
 *
 * <p>The node announces the address each client reached it on (the connection's local address),
 * which is by construction one that client can connect to, whatever {@code bind} says.
 * Immutable; thread-safe.
 */
public final class ClusterNode {
    private static final int NODE_ID_LENGTH = 40;
    /** Redis's default cluster bus port offset (cluster-port 0). */
    private static final int BUS_PORT_OFFSET = 10000;

    private final String id;

    public ClusterNode(SplittableRandom random) {
        StringBuilder sb = new StringBuilder(NODE_ID_LENGTH);
        for (int i = 0; i < NODE_ID_LENGTH; i++) {
            sb.append(Character.forDigit(random.nextInt(16), 16));
        }
        this.id = sb.toString();
    }

    /** The 40-hex-digit node id (CLUSTER MYID). */
    public String id() {
        return id;
    }

    /** The cluster bus port CLUSTER NODES shows for {@code port}: port + 10000, or 0 past 65535. */
    public static int busPort(int port) {
        int bus = port + BUS_PORT_OFFSET;
        return bus > 65535 ? 0 : bus;
    }
}
