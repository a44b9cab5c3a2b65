package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.cluster.BusLink;
import dev.ebb.server.cluster.BusMessage;
import dev.ebb.server.cluster.BusTransport;
import dev.ebb.server.cluster.ClusterNode;
import dev.ebb.server.cluster.ClusterState;
import dev.ebb.server.cluster.HashSlots;
import dev.ebb.storage.SlotIndex;
import dev.ebb.server.cluster.NodesConf;
import java.util.ArrayList;
import java.util.List;

/**
 * Cluster commands that read the cluster: CLUSTER KEYSLOT, COUNTKEYSINSLOT, GETKEYSINSLOT, INFO,
 * MYID, MYSHARDID, SLOTS, SHARDS, NODES, LINKS, HELP, and READONLY, READWRITE, ASKING; the ones that
 * change it are {@link ClusterAdminCommands}. With {@code cluster-enabled yes} Ebb is a Redis
 * Cluster node (see {@link dev.ebb.server.cluster.Cluster}); without it every one of these answers Redis's
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
                        .sub(spec("myshardid", 2, STALE, 0, 0, 0, ClusterCommands::myshardid)
                                .doc(CommandGroup.CLUSTER, "7.2.0", "Returns the shard ID of a node.", "")
                                .complexity("O(1)"))
                        .sub(spec("links", 2, STALE, 0, 0, 0, ClusterCommands::links)
                                .doc(CommandGroup.CLUSTER, "7.0.0",
                                        "Returns a list of all TCP links to and from peer nodes.", "")
                                .complexity("O(N) where N is the total number of Cluster nodes"))
                        .subs(ClusterAdminCommands.subcommands())
                        .subs(ClusterReplicaCommands.subcommands())
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, ClusterCommands::help)
                                .doc(CommandGroup.CLUSTER, "5.0.0",
                                        "Returns helpful text about the different subcommands.", "")
                                .complexity("O(1)")),
                spec("readonly", 1, LOADING | STALE | FAST, 0, 0, 0, (c, argv) -> readonly(c, true))
                        .doc(CommandGroup.CLUSTER, "3.0.0",
                                "Enables read-only queries for a connection to a Redis Cluster replica node.", "")
                        .complexity("O(1)"),
                spec("readwrite", 1, LOADING | STALE | FAST, 0, 0, 0, (c, argv) -> readonly(c, false))
                        .doc(CommandGroup.CLUSTER, "3.0.0",
                                "Enables read-write queries for a connection to a Redis Cluster replica node.", "")
                        .complexity("O(1)"),
                spec("asking", 1, FAST, 0, 0, 0, ClusterCommands::asking)
                        .doc(CommandGroup.CLUSTER, "3.0.0",
                                "Signals that a cluster client is following an -ASK redirect.", "")
                        .complexity("O(1)"));
    }

    /** Replies the "cluster support disabled" error unless cluster mode is on. */
    static boolean clusterOrReply(Client c) {
        if (c.server().clusterEnabled()) {
            return true;
        }
        c.reply().error(Errors.CLUSTER_DISABLED);
        return false;
    }

    /** READONLY, READWRITE: whether a replica serves this client's reads of its primary's slots. */
    static void readonly(Client c, boolean on) {
        if (clusterOrReply(c)) {
            c.setFlag(Client.FLAG_READONLY, on);
            c.reply().ok();
        }
    }

    /** ASKING: the next command may touch a slot this node is importing. */
    static void asking(Client c, byte[][] argv) {
        if (clusterOrReply(c)) {
            c.setFlag(Client.FLAG_ASKING, true);
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
        ClusterState cs = c.server().cluster().state();
        int[] counts = cs.slotCounts();
        StringBuilder sb = new StringBuilder(512);
        sb.append("cluster_state:").append(cs.state() == ClusterState.OK ? "ok" : "fail").append("\r\n")
                .append("cluster_slots_assigned:").append(counts[0]).append("\r\n")
                .append("cluster_slots_ok:").append(counts[1]).append("\r\n")
                .append("cluster_slots_pfail:").append(counts[2]).append("\r\n")
                .append("cluster_slots_fail:").append(counts[3]).append("\r\n")
                .append("cluster_known_nodes:").append(cs.nodes().size()).append("\r\n")
                .append("cluster_size:").append(cs.size()).append("\r\n")
                .append("cluster_current_epoch:").append(cs.currentEpoch()).append("\r\n")
                .append("cluster_my_epoch:").append(cs.myself().configEpoch()).append("\r\n");
        long sent = 0;
        for (int t = 0; t < BusMessage.TYPE_COUNT; t++) {
            if (cs.sent(t) != 0) {
                sb.append("cluster_stats_messages_").append(BusMessage.typeName(t)).append("_sent:")
                        .append(cs.sent(t)).append("\r\n");
                sent += cs.sent(t);
            }
        }
        sb.append("cluster_stats_messages_sent:").append(sent).append("\r\n");
        long received = 0;
        for (int t = 0; t < BusMessage.TYPE_COUNT; t++) {
            if (cs.received(t) != 0) {
                sb.append("cluster_stats_messages_").append(BusMessage.typeName(t)).append("_received:")
                        .append(cs.received(t)).append("\r\n");
                received += cs.received(t);
            }
        }
        sb.append("cluster_stats_messages_received:").append(received).append("\r\n")
                .append("total_cluster_links_buffer_limit_exceeded:").append(cs.linksBufferLimitExceeded())
                .append("\r\n");
        c.reply().verbatim(sb.toString());
    }

    static void myid(Client c, byte[][] argv) {
        if (clusterOrReply(c)) {
            c.reply().bulk(c.server().cluster().state().myself().name());
        }
    }

    static void myshardid(Client c, byte[][] argv) {
        if (clusterOrReply(c)) {
            c.reply().bulk(c.server().cluster().state().myself().shardId());
        }
    }

    /** A node's ip as shown to {@code c}: myself's, before it is learnt, is the address {@code c} reached. */
    static String ip(Client c, ClusterNode n) {
        return n.isMyself() && n.ip().isEmpty() ? announcedIp(c) : n.ip();
    }

    /** CLUSTER SLOTS: one entry per run of slots with the same owner, in slot order: [start, end, [ip, port, id, {…}]]. */
    static void slots(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        ClusterState cs = c.server().cluster().state();
        List<int[]> runs = new ArrayList<>();
        int start = -1;
        for (int s = 0; s <= HashSlots.SLOTS; s++) {
            ClusterNode n = s < HashSlots.SLOTS ? cs.slotOwner(s) : null;
            if (start >= 0 && (s == HashSlots.SLOTS || n != cs.slotOwner(start))) {
                runs.add(new int[] {start, s - 1});
                start = -1;
            }
            if (start < 0 && n != null) {
                start = s;
            }
        }
        RespWriter w = c.reply();
        w.arrayHeader(runs.size());
        for (int[] r : runs) {
            ClusterNode n = cs.slotOwner(r[0]);
            List<ClusterNode> replicas = new ArrayList<>();
            for (ClusterNode replica : cs.replicasOf(n)) {
                if (!replica.has(ClusterNode.FAIL) && offset(c, replica) != 0) {
                    replicas.add(replica);
                }
            }
            w.arrayHeader(3 + replicas.size());
            w.integer(r[0]);
            w.integer(r[1]);
            slotsNode(c, w, n);
            for (ClusterNode replica : replicas) {
                slotsNode(c, w, replica);
            }
        }
    }

    private static void slotsNode(Client c, RespWriter w, ClusterNode n) {
        w.arrayHeader(4);
        w.bulk(ip(c, n));
        w.integer(n.port());
        w.bulk(n.name());
        if (n.hostname().isEmpty()) {
            w.mapHeader(0);
        } else {
            w.mapHeader(1);
            w.bulk("hostname");
            w.bulk(n.hostname());
        }
    }

    /** A node's replication offset: myself's own, another's as it last announced it. */
    private static long offset(Client c, ClusterNode n) {
        return n.isMyself() ? c.server().replication().offset() : n.replOffset();
    }

    /** CLUSTER SHARDS: one shard per master: its slot ranges, then the master and its replicas. */
    static void shards(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        ClusterState cs = c.server().cluster().state();
        List<ClusterNode> masters = new ArrayList<>();
        for (ClusterNode n : cs.nodes()) {
            if (n.isMaster() && !n.has(ClusterNode.HANDSHAKE)) {
                masters.add(n);
            }
        }
        RespWriter w = c.reply();
        w.arrayHeader(masters.size());
        for (ClusterNode n : masters) {
            w.mapHeader(2);
            w.bulk("slots");
            List<int[]> ranges = ClusterState.ranges(n);
            w.arrayHeader(ranges.size() * 2);
            for (int[] r : ranges) {
                w.integer(r[0]);
                w.integer(r[1]);
            }
            w.bulk("nodes");
            List<ClusterNode> replicas = cs.replicasOf(n);
            w.arrayHeader(1 + replicas.size());
            shardNode(c, w, n);
            for (ClusterNode replica : replicas) {
                shardNode(c, w, replica);
            }
        }
    }

    private static void shardNode(Client c, RespWriter w, ClusterNode n) {
        String ip = ip(c, n);
        boolean hostname = !n.hostname().isEmpty();
        w.mapHeader(hostname ? 8 : 7);
        w.bulk("id");
        w.bulk(n.name());
        w.bulk("port");
        w.integer(n.port());
        w.bulk("ip");
        w.bulk(ip);
        w.bulk("endpoint");
        w.bulk(ip);
        if (hostname) {
            w.bulk("hostname");
            w.bulk(n.hostname());
        }
        long offset = offset(c, n);
        w.bulk("role");
        w.bulk(n.isMaster() ? ROLE_MASTER : "replica");
        w.bulk("replication-offset");
        w.integer(offset);
        w.bulk("health");
        w.bulk(n.has(ClusterNode.FAIL | ClusterNode.PFAIL) ? "fail" : !n.isMaster() && offset == 0 ? "loading"
                : "online");
    }

    /** CLUSTER NODES: one line per node, nodes.conf's without the aux fields. */
    static void nodes(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        ClusterState cs = c.server().cluster().state();
        StringBuilder sb = new StringBuilder();
        for (ClusterNode n : cs.nodes()) {
            sb.append(NodesConf.describe(cs, n, false, ip(c, n))).append('\n');
        }
        c.reply().verbatim(sb.toString());
    }

    /** CLUSTER LINKS: each bus link of every other node, outbound ("to") then inbound ("from"). */
    static void links(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        List<BusLink> links = new ArrayList<>();
        for (ClusterNode n : c.server().cluster().state().nodes()) {
            if (n.isMyself()) {
                continue;
            }
            for (BusLink l : c.server().cluster().state().links(n)) {
                links.add(l);
            }
        }
        BusTransport transport = c.server().cluster().gossip().transport();
        RespWriter w = c.reply();
        w.arrayHeader(links.size());
        for (BusLink l : links) {
            long queued = transport.queuedBytes(l);
            w.mapHeader(6);
            w.bulk("direction");
            w.bulk(l.inbound() ? "from" : "to");
            w.bulk("node");
            w.bulk(l.node().name());
            w.bulk("create-time");
            w.integer(l.ctime());
            w.bulk("events");
            w.bulk(queued > 0 ? "rw" : "r");
            // The queued messages are byte arrays of their exact length: allocated is used (as Redis 7.2 reports).
            w.bulk("send-buffer-allocated");
            w.integer(queued);
            w.bulk("send-buffer-used");
            w.integer(queued);
        }
    }

    /** CLUSTER HELP: Redis's help lines for the subcommands Ebb implements. */
    static void help(Client c, byte[][] argv) {
        if (!clusterOrReply(c)) {
            return;
        }
        CommandDocs.replyHelp(c, "CLUSTER",
                "ADDSLOTS <slot> [<slot> ...]",
                "    Assign slots to current node.",
                "ADDSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]",
                "    Assign slots which are between <start-slot> and <end-slot> to current node.",
                "BUMPEPOCH",
                "    Advance the cluster config epoch.",
                "COUNT-FAILURE-REPORTS <node-id>",
                "    Return number of failure reports for <node-id>.",
                "COUNTKEYSINSLOT <slot>",
                "    Return the number of keys in <slot>.",
                "DELSLOTS <slot> [<slot> ...]",
                "    Delete slots information from current node.",
                "DELSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]",
                "    Delete slots information which are between <start-slot> and <end-slot> from current node.",
                "FAILOVER [FORCE|TAKEOVER]",
                "    Promote current replica node to being a master.",
                "FORGET <node-id>",
                "    Remove a node from the cluster.",
                "GETKEYSINSLOT <slot> <count>",
                "    Return key names stored by current node in a slot.",
                "FLUSHSLOTS",
                "    Delete current node own slots information.",
                "INFO",
                "    Return information about the cluster.",
                "KEYSLOT <key>",
                "    Return the hash slot for <key>.",
                "MEET <ip> <port> [<bus-port>]",
                "    Connect nodes into a working cluster.",
                "MYID",
                "    Return the node id.",
                "MYSHARDID",
                "    Return the node's shard id.",
                "NODES",
                "    Return cluster configuration seen by node. Output format:",
                "    <id> <ip:port@bus-port[,hostname]> <flags> <master> <pings> <pongs> <epoch> <link> <slot> ...",
                "REPLICATE <node-id>",
                "    Configure current node as replica to <node-id>.",
                "RESET [HARD|SOFT]",
                "    Reset current node (default: soft).",
                "SET-CONFIG-EPOCH <epoch>",
                "    Set config epoch of current node.",
                "SETSLOT <slot> (IMPORTING <node-id>|MIGRATING <node-id>|STABLE|NODE <node-id>)",
                "    Set slot state.",
                "REPLICAS <node-id>",
                "    Return <node-id> replicas.",
                "SAVECONFIG",
                "    Force saving cluster configuration on disk.",
                "SLOTS",
                "    Return information about slots range mappings. Each range is made of:",
                "    start, end, master and replicas IP addresses, ports and ids",
                "SHARDS",
                "    Return information about slot range mappings and the nodes associated with them.",
                "LINKS",
                "    Return information about all network links between this node and its peers.",
                "    Output format is an array where each array element is a map containing attributes of a link");
    }

    /** {@code cluster-announce-ip}, or the local address of the client's connection. */
    static String announcedIp(Client c) {
        String configured = c.server().config().cluster().clusterAnnounceIp();
        if (!configured.isEmpty()) {
            return configured;
        }
        String laddr = c.laddr();
        return laddr.substring(0, laddr.lastIndexOf(':'));
    }

    /** {@code cluster-announce-port}, or the local port of the client's connection. */
    static int announcedPort(Client c) {
        int configured = c.server().config().cluster().clusterAnnouncePort();
        if (configured != 0) {
            return configured;
        }
        String laddr = c.laddr();
        return Integer.parseInt(laddr.substring(laddr.lastIndexOf(':') + 1));
    }
}
