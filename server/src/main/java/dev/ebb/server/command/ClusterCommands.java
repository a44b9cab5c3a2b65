package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.cluster.ClusterNode;
import dev.ebb.server.cluster.HashSlots;
import dev.ebb.storage.SlotIndex;
import java.util.List;

/**
 * Cluster commands: CLUSTER KEYSLOT, COUNTKEYSINSLOT, GETKEYSINSLOT, INFO, MYID, SLOTS, SHARDS,
 * NODES, HELP, and READONLY, READWRITE, ASKING. With {@code cluster-enabled yes} Ebb is a one-node
 * cluster (see {@link ClusterNode}); without it every one of these answers Redis's
 * {@code ERR This instance has cluster support disabled}, KEYSLOT included, as Redis does.
 *
 * <p>The node's address in SLOTS, SHARDS and NODES is {@code cluster-announce-ip} /
 * {@code cluster-announce-port} when set, otherwise the address and port the asking client is
 * connected to, so a cluster client always learns an address it can reach.
 *
 * <p>Costs: COUNTKEYSINSLOT and GETKEYSINSLOT read database 0's {@link SlotIndex}, which cluster
 * mode keeps (see {@code Server}): O(1) and O(count), as in Redis. Like Redis they count and list
 * keys that have expired but are still stored.
 */
public final class ClusterCommands {
    private static final String ROLE_MASTER = "master";

    private ClusterCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                CommandSpec.container("cluster", -2, 0)
                        .doc(CommandGroup.CLUSTER, "3.0.0", "A container for Redis Cluster commands.",
                                "subcommand [argument ...]")
                        .complexity("Depends on subcommand.")
                        .sub(spec("keyslot", 3, STALE, 0, 0, 0, ClusterCommands::keyslot)
                                .doc(CommandGroup.CLUSTER, "3.0.0", "Returns the hash slot for a key.", "key")
                                .complexity("O(N) where N is the number of bytes in the key"))
                        .sub(spec("countkeysinslot", 3, STALE, 0, 0, 0, ClusterCommands::countkeysinslot)
                                .doc(CommandGroup.CLUSTER, "3.0.0", "Returns the number of keys in a hash slot.",
                                        "slot")
                                .complexity("O(1)"))
                        .sub(spec("getkeysinslot", 4, STALE, 0, 0, 0, ClusterCommands::getkeysinslot)
                                .doc(CommandGroup.CLUSTER, "3.0.0", "Returns the key names in a hash slot.",
                                        "slot count")
                                .complexity("O(N) where N is the number of requested keys"))
                        .sub(spec("info", 2, STALE, 0, 0, 0, ClusterCommands::info)
                                .doc(CommandGroup.CLUSTER, "3.0.0", "Returns information about the state of a node.",
                                        "")
                                .complexity("O(1)"))
                        .sub(spec("myid", 2, STALE, 0, 0, 0, ClusterCommands::myid)
                                .doc(CommandGroup.CLUSTER, "3.0.0", "Returns the ID of a node.", "")
                                .complexity("O(1)"))
                        .sub(spec("slots", 2, STALE, 0, 0, 0, ClusterCommands::slots)
                                .doc(CommandGroup.CLUSTER, "3.0.0", "Returns the mapping of cluster slots to nodes.",
                                        "")
                                .complexity("O(N) where N is the total number of Cluster nodes"))
                        .sub(spec("shards", 2, STALE, 0, 0, 0, ClusterCommands::shards)
                                .doc(CommandGroup.CLUSTER, "7.0.0", "Returns the mapping of cluster slots to shards.",
                                        "")
                                .complexity("O(N) where N is the total number of cluster nodes"))
                        .sub(spec("nodes", 2, STALE, 0, 0, 0, ClusterCommands::nodes)
                                .doc(CommandGroup.CLUSTER, "3.0.0", "Returns the cluster configuration for a node.",
                                        "")
                                .complexity("O(N) where N is the total number of Cluster nodes"))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, ClusterCommands::help)
                                .doc(CommandGroup.CLUSTER, "5.0.0",
                                        "Returns helpful text about the different subcommands.", "")
                                .complexity("O(1)")),
                spec("readonly", 1, LOADING | STALE | FAST, 0, 0, 0, ClusterCommands::okInClusterMode)
                        .doc(CommandGroup.CLUSTER, "3.0.0",
                                "Enables read-only queries for a connection to a Redis Cluster replica node.", "")
                        .complexity("O(1)"),
                spec("readwrite", 1, LOADING | STALE | FAST, 0, 0, 0, ClusterCommands::okInClusterMode)
                        .doc(CommandGroup.CLUSTER, "3.0.0",
                                "Enables read-write queries for a connection to a Redis Cluster replica node.", "")
                        .complexity("O(1)"),
                spec("asking", 1, FAST, 0, 0, 0, ClusterCommands::okInClusterMode)
                        .doc(CommandGroup.CLUSTER, "3.0.0",
                                "Signals that a cluster client is following an -ASK redirect.", "")
                        .complexity("O(1)"));
    }

    /** Replies the "cluster support disabled" error unless cluster mode is on. */
    private static boolean clusterOrReply(Client c) {
        if (c.server().clusterEnabled()) {
            return true;
        }
        c.reply().error(Errors.CLUSTER_DISABLED);
        return false;
    }

    /**
     * READONLY, READWRITE, ASKING: OK in cluster mode. The only node is a master that owns every
     * slot, so there are no replica reads to allow and no ASK redirects to follow.
     */
    static void okInClusterMode(Client c, byte[][] argv) {
        if (clusterOrReply(c)) {
            c.reply().ok();
        }
    }

    static void keyslot(Client c, byte[][] argv) {
        if (clusterOrReply(c)) {
            c.reply().integer(HashSlots.slot(argv[2]));
        }
    }

    static void countkeysinslot(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        long slot = Arguments.longOrReply(c, argv[2]);
        if (slot == Arguments.INVALID) {
            return;
        }
        if (slot < 0 || slot >= HashSlots.SLOTS) {
            c.reply().error(Errors.INVALID_SLOT);
            return;
        }
        c.reply().integer(c.server().db(0).slotIndex().count((int) slot));
    }

    static void getkeysinslot(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        long slot = Arguments.longOrReply(c, argv[2]);
        if (slot == Arguments.INVALID) {
            return;
        }
        long max = Arguments.longOrReply(c, argv[3]);
        if (max == Arguments.INVALID) {
            return;
        }
        if (slot < 0 || slot >= HashSlots.SLOTS || max < 0) {
            c.reply().error(Errors.INVALID_SLOT_OR_NUMBER_OF_KEYS);
            return;
        }
        byte[][] keys = c.server().db(0).slotIndex().keys((int) slot, (int) Math.min(max, Integer.MAX_VALUE));
        RespWriter w = c.reply();
        w.arrayHeader(keys.length);
        for (byte[] key : keys) {
            w.bulk(key);
        }
    }

    static void info(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        c.reply().verbatim("cluster_state:ok\r\n"
                + "cluster_slots_assigned:16384\r\n"
                + "cluster_slots_ok:16384\r\n"
                + "cluster_slots_pfail:0\r\n"
                + "cluster_slots_fail:0\r\n"
                + "cluster_known_nodes:1\r\n"
                + "cluster_size:1\r\n"
                + "cluster_current_epoch:0\r\n"
                + "cluster_my_epoch:0\r\n"
                + "cluster_stats_messages_sent:0\r\n"
                + "cluster_stats_messages_received:0\r\n"
                + "total_cluster_links_buffer_limit_exceeded:0\r\n");
    }

    static void myid(Client c, byte[][] argv) {
        if (clusterOrReply(c)) {
            c.reply().bulk(c.server().clusterNode().id());
        }
    }

    /** CLUSTER SLOTS: one range, 0-16383, served by this node: [start, end, [ip, port, id, {}]]. */
    static void slots(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        RespWriter w = c.reply();
        w.arrayHeader(1);
        w.arrayHeader(3);
        w.integer(0);
        w.integer(HashSlots.SLOTS - 1);
        w.arrayHeader(4);
        w.bulk(announcedIp(c));
        w.integer(announcedPort(c));
        w.bulk(c.server().clusterNode().id());
        w.mapHeader(0);
    }

    /** CLUSTER SHARDS: one shard owning 0-16383 whose only node is this master. */
    static void shards(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        String ip = announcedIp(c);
        RespWriter w = c.reply();
        w.arrayHeader(1);
        w.mapHeader(2);
        w.bulk("slots");
        w.arrayHeader(2);
        w.integer(0);
        w.integer(HashSlots.SLOTS - 1);
        w.bulk("nodes");
        w.arrayHeader(1);
        w.mapHeader(7);
        w.bulk("id");
        w.bulk(c.server().clusterNode().id());
        w.bulk("port");
        w.integer(announcedPort(c));
        w.bulk("ip");
        w.bulk(ip);
        w.bulk("endpoint");
        w.bulk(ip);
        w.bulk("role");
        w.bulk(ROLE_MASTER);
        w.bulk("replication-offset");
        w.integer(0);
        w.bulk("health");
        w.bulk("online");
    }

    /** CLUSTER NODES: {@code <id> <ip:port@cport> myself,master - 0 0 0 connected 0-16383}. */
    static void nodes(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        int port = announcedPort(c);
        c.reply().verbatim(c.server().clusterNode().id() + " " + announcedIp(c) + ":" + port + "@"
                + ClusterNode.busPort(port) + " myself," + ROLE_MASTER + " - 0 0 0 connected 0-"
                + (HashSlots.SLOTS - 1) + "\n");
    }

    /** CLUSTER HELP: Redis's help lines for the subcommands Ebb implements (no slot or node management). */
    static void help(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        CommandDocs.replyHelp(c, "CLUSTER",
                "COUNTKEYSINSLOT <slot>",
                "    Return the number of keys in <slot>.",
                "GETKEYSINSLOT <slot> <count>",
                "    Return key names stored by current node in a slot.",
                "INFO",
                "    Return information about the cluster.",
                "KEYSLOT <key>",
                "    Return the hash slot for <key>.",
                "MYID",
                "    Return the node id.",
                "NODES",
                "    Return cluster configuration seen by node. Output format:",
                "    <id> <ip:port> <flags> <master> <pings> <pongs> <epoch> <link> <slot> ...",
                "SLOTS",
                "    Return information about slots range mappings. Each range is made of:",
                "    start, end, master and replicas IP addresses, ports and ids",
                "SHARDS",
                "    Return information about slot range mappings and the nodes associated with them.");
    }

    /** {@code cluster-announce-ip}, or the local address of the client's connection. */
    static String announcedIp(Client c) {
        String configured = c.server().config().clusterAnnounceIp();
        if (!configured.isEmpty()) {
            return configured;
        }
        String laddr = c.laddr();
        return laddr.substring(0, laddr.lastIndexOf(':'));
    }

    /** {@code cluster-announce-port}, or the local port of the client's connection. */
    static int announcedPort(Client c) {
        int configured = c.server().config().clusterAnnouncePort();
        if (configured != 0) {
            return configured;
        }
        String laddr = c.laddr();
        return Integer.parseInt(laddr.substring(laddr.lastIndexOf(':') + 1));
    }
}
