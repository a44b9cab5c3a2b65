package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.cluster.Cluster;
import dev.ebb.server.cluster.ClusterNode;
import dev.ebb.server.cluster.ClusterState;
import dev.ebb.server.cluster.NodesConf;
import java.util.List;

/**
 * The CLUSTER subcommands about replicas: REPLICATE, REPLICAS and its old name SLAVES, and FAILOVER
 * [FORCE|TAKEOVER], with Redis 7.2.4's checks and error texts. The work is the cluster's
 * ({@link dev.ebb.server.cluster.Replicas}, {@link dev.ebb.server.cluster.Failover}); a replica
 * replicates through the same link REPLICAOF uses, which cluster mode refuses.
 */
final class ClusterReplicaCommands {
    private ClusterReplicaCommands() {
    }

    static List<CommandSpec.Builder> subcommands() {
        long admin = ADMIN | STALE | NOSCRIPT;
        return List.of(
                spec("replicate", 3, admin, 0, 0, 0, ClusterAdminCommands.guarded(ClusterReplicaCommands::replicate))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Configure a node as replica of a master node.",
                                "node-id")
                        .complexity("O(1)"),
                spec("replicas", 3, admin, 0, 0, 0, ClusterAdminCommands.guarded(ClusterReplicaCommands::replicas))
                        .doc(CommandGroup.CLUSTER, "5.0.0", "Lists the replica nodes of a master node.", "node-id")
                        .complexity("O(N) where N is the number of replicas."),
                spec("slaves", 3, admin, 0, 0, 0, ClusterAdminCommands.guarded(ClusterReplicaCommands::replicas))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Lists the replica nodes of a master node.", "node-id")
                        .complexity("O(N) where N is the number of replicas."),
                spec("failover", -2, admin, 0, 0, 0, ClusterAdminCommands.guarded(ClusterReplicaCommands::failover))
                        .doc(CommandGroup.CLUSTER, "3.0.0",
                                "Forces a replica to perform a manual failover of its master.", "[FORCE | TAKEOVER]")
                        .complexity("O(1)"));
    }


    /** CLUSTER REPLICATE node-id: follow a primary (a primary only when it has no slots and no keys). */
    static void replicate(Client c, byte[][] argv) {
        Cluster cluster = c.server().cluster();
        ClusterState cs = cluster.state();
        ClusterNode n = cs.lookup(ClusterAdminCommands.text(argv[2]));
        if (n == null) {
            c.reply().error("ERR Unknown node " + ClusterAdminCommands.text(argv[2]));
            return;
        }
        if (n.isMyself()) {
            c.reply().error("ERR Can't replicate myself");
            return;
        }
        if (n.has(ClusterNode.SLAVE)) {
            c.reply().error("ERR I can only replicate a master, not a replica.");
            return;
        }
        ClusterNode me = cs.myself();
        if (me.isMaster() && (me.slotCount() != 0 || c.server().db(0).size() != 0)) {
            c.reply().error("ERR To set a master the node must be empty and without assigned slots.");
            return;
        }
        cluster.gossip().replicas().setMyMaster(n, c.server().nowMs());
        cluster.saveIfNeeded();
        c.reply().ok();
    }

    /** CLUSTER REPLICAS node-id (and SLAVES): the replicas' CLUSTER NODES lines. */
    static void replicas(Client c, byte[][] argv) {
        ClusterState cs = c.server().cluster().state();
        ClusterNode n = cs.lookup(ClusterAdminCommands.text(argv[2]));
        if (n == null) {
            c.reply().error("ERR Unknown node " + ClusterAdminCommands.text(argv[2]));
            return;
        }
        if (n.has(ClusterNode.SLAVE)) {
            c.reply().error("ERR The specified node is not a master");
            return;
        }
        List<ClusterNode> replicas = cs.replicasOf(n);
        RespWriter w = c.reply();
        w.arrayHeader(replicas.size());
        for (ClusterNode r : replicas) {
            w.bulk(NodesConf.describe(cs, r, false, ClusterCommands.ip(c, r)));
        }
    }

    /** CLUSTER FAILOVER [FORCE|TAKEOVER]. */
    static void failover(Client c, byte[][] argv) {
        if (argv.length > 3) {
            c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "CLUSTER"));
            return;
        }
        boolean force = false;
        boolean takeover = false;
        if (argv.length == 3) {
            if (Arguments.is(argv[2], "force")) {
                force = true;
            } else if (Arguments.is(argv[2], "takeover")) {
                takeover = true;
                force = true;
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        Cluster cluster = c.server().cluster();
        String error = cluster.gossip().failover().manualFailover(force, takeover, c.server().nowMs());
        cluster.saveIfNeeded();
        if (error != null) {
            c.reply().error(error);
        } else {
            c.reply().ok();
        }
    }
}
