package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.cluster.Cluster;
import dev.ebb.server.cluster.ClusterNode;
import dev.ebb.server.cluster.ClusterState;
import dev.ebb.server.cluster.HashSlots;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The CLUSTER subcommands that change the cluster: MEET, ADDSLOTS, ADDSLOTSRANGE, DELSLOTS,
 * DELSLOTSRANGE, FLUSHSLOTS, SETSLOT, FORGET, RESET, SAVECONFIG, SET-CONFIG-EPOCH, BUMPEPOCH and
 * COUNT-FAILURE-REPORTS, with Redis 7.2's checks and error texts. Each change is saved to
 * nodes.conf before the reply, as Redis's clusterCommand does. Shared routines:
 * {@link #slotOrReply} (Redis's getSlotOrReply), {@link #slotsOrReply} (the busy / unassigned /
 * specified-twice checks of the four slot commands) and {@link #nodeOrReply}.
 */
final class ClusterAdminCommands {
    private ClusterAdminCommands() {
    }

    static List<CommandSpec.Builder> subcommands() {
        long admin = ADMIN | STALE | NOSCRIPT;
        return List.of(
                spec("meet", -4, admin, 0, 0, 0, guarded(ClusterAdminCommands::meet))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Forces a node to handshake with another node.",
                                "ip port [cluster-bus-port]")
                        .complexity("O(1)"),
                spec("addslots", -3, admin, 0, 0, 0, guarded((c, argv) -> slots(c, argv, false, false)))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Assigns new hash slots to a node.", "slot [slot ...]")
                        .complexity("O(N) where N is the total number of hash slot arguments"),
                spec("addslotsrange", -4, admin, 0, 0, 0, guarded((c, argv) -> slots(c, argv, false, true)))
                        .doc(CommandGroup.CLUSTER, "7.0.0", "Assigns new hash slot ranges to a node.",
                                "start-slot end-slot [start-slot end-slot ...]")
                        .complexity("O(N) where N is the total number of the slots between the start slot and"
                                + " end slot arguments."),
                spec("delslots", -3, admin, 0, 0, 0, guarded((c, argv) -> slots(c, argv, true, false)))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Sets hash slots as unbound for a node.",
                                "slot [slot ...]")
                        .complexity("O(N) where N is the total number of hash slot arguments"),
                spec("delslotsrange", -4, admin, 0, 0, 0, guarded((c, argv) -> slots(c, argv, true, true)))
                        .doc(CommandGroup.CLUSTER, "7.0.0", "Sets hash slot ranges as unbound for a node.",
                                "start-slot end-slot [start-slot end-slot ...]")
                        .complexity("O(N) where N is the total number of the slots between the start slot and"
                                + " end slot arguments."),
                spec("flushslots", 2, admin, 0, 0, 0, guarded(ClusterAdminCommands::flushslots))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Deletes all slots information from a node.", "")
                        .complexity("O(1)"),
                spec("setslot", -4, admin, 0, 0, 0, guarded(ClusterAdminCommands::setslot))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Binds a hash slot to a node.",
                                "slot <IMPORTING node-id | MIGRATING node-id | NODE node-id | STABLE>")
                        .complexity("O(1)"),
                spec("forget", 3, admin, 0, 0, 0, guarded(ClusterAdminCommands::forget))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Removes a node from the nodes table.", "node-id")
                        .complexity("O(1)"),
                spec("reset", -2, admin, 0, 0, 0, guarded(ClusterAdminCommands::reset))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Resets a node.", "[HARD | SOFT]")
                        .complexity("O(N) where N is the number of known nodes. The command may execute a"
                                + " FLUSHALL as a side effect."),
                spec("saveconfig", 2, admin, 0, 0, 0, guarded(ClusterAdminCommands::saveconfig))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Forces a node to save the cluster configuration to disk.",
                                "")
                        .complexity("O(1)"),
                spec("set-config-epoch", 3, admin, 0, 0, 0, guarded(ClusterAdminCommands::setConfigEpoch))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Sets the configuration epoch for a new node.",
                                "config-epoch")
                        .complexity("O(1)"),
                spec("bumpepoch", 2, admin, 0, 0, 0, guarded(ClusterAdminCommands::bumpepoch))
                        .doc(CommandGroup.CLUSTER, "3.0.0", "Advances the cluster config epoch.", "")
                        .complexity("O(1)"),
                spec("count-failure-reports", 3, admin, 0, 0, 0, guarded(ClusterAdminCommands::countFailureReports))
                        .doc(CommandGroup.CLUSTER, "3.0.0",
                                "Returns the number of active failure reports active for a node.", "node-id")
                        .complexity("O(N) where N is the number of failure reports"));
    }

    /** Runs {@code h} in cluster mode; otherwise answers that cluster support is disabled. */
    static CommandHandler guarded(CommandHandler h) {
        return (c, argv) -> {
            if (ClusterCommands.clusterOrReply(c)) {
                h.execute(c, argv);
            }
        };
    }

    static String text(byte[] arg) {
        return new String(arg, StandardCharsets.UTF_8);
    }

    /** Saves nodes.conf and recomputes the state after a change, as Redis does before replying. */
    private static void changed(Client c) {
        Cluster cluster = c.server().cluster();
        cluster.state().updateState(c.server().nowMs());
        cluster.saveIfNeeded();
    }

    /** Redis's getSlotOrReply: an integer in 0..16383, or -1 after replying the error. */
    static int slotOrReply(Client c, byte[] arg) {
        long slot;
        try {
            slot = Arguments.parseLong(arg);
        } catch (NumberFormatException e) {
            slot = -1;
        }
        if (slot < 0 || slot >= HashSlots.SLOTS) {
            c.reply().error(Errors.INVALID_OR_OUT_OF_RANGE_SLOT);
            return -1;
        }
        return (int) slot;
    }

    private static ClusterNode nodeOrReply(Client c, byte[] arg, String prefix) {
        ClusterNode n = c.server().cluster().state().lookup(text(arg));
        if (n == null) {
            c.reply().error(prefix + text(arg));
        }
        return n;
    }

    static void meet(Client c, byte[][] argv) {
        if (argv.length > 5) {
            c.reply().error(Errors.wrongArity("cluster|meet"));
            return;
        }
        long port = parsePort(argv[3]);
        if (port < 0) {
            c.reply().error("ERR Invalid base port specified: " + text(argv[3]));
            return;
        }
        long cport = argv.length == 5 ? parsePort(argv[4]) : port + 10000;
        if (cport < 0) {
            c.reply().error("ERR Invalid bus port specified: " + text(argv[4]));
            return;
        }
        Cluster cluster = c.server().cluster();
        if (!cluster.gossip().startHandshake(text(argv[2]), (int) port, (int) cport, c.server().nowMs())) {
            c.reply().error("ERR Invalid node address specified: " + text(argv[2]) + ":" + text(argv[3]));
            return;
        }
        c.reply().ok();
    }

    private static long parsePort(byte[] arg) {
        try {
            return Arguments.parseLong(arg);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** ADDSLOTS, DELSLOTS and their RANGE forms: every slot checked before any changes. */
    private static void slots(Client c, byte[][] argv, boolean del, boolean ranges) {
        if (ranges && argv.length % 2 == 1) {
            c.reply().error(Errors.wrongArity("cluster|" + (del ? "delslotsrange" : "addslotsrange")));
            return;
        }
        ClusterState cs = c.server().cluster().state();
        byte[] seen = new byte[HashSlots.SLOTS];
        java.util.List<Integer> list = new java.util.ArrayList<>();
        for (int i = 2; i < argv.length; i += ranges ? 2 : 1) {
            int start = slotOrReply(c, argv[i]);
            if (start < 0) {
                return;
            }
            int end = start;
            if (ranges) {
                end = slotOrReply(c, argv[i + 1]);
                if (end < 0) {
                    return;
                }
                if (start > end) {
                    c.reply().error("ERR start slot number " + start + " is greater than end slot number " + end);
                    return;
                }
            }
            for (int s = start; s <= end; s++) {
                list.add(s);
            }
        }
        for (int s : list) {
            if (del && cs.slotOwner(s) == null) {
                c.reply().error("ERR Slot " + s + " is already unassigned");
                return;
            } else if (!del && cs.slotOwner(s) != null) {
                c.reply().error("ERR Slot " + s + " is already busy");
                return;
            }
            if (seen[s]++ == 1) {
                c.reply().error("ERR Slot " + s + " specified multiple times");
                return;
            }
        }
        for (int s : list) {
            if (del) {
                cs.delMySlot(s);
            } else {
                cs.addMySlot(s);
            }
        }
        changed(c);
        c.reply().ok();
    }

    static void flushslots(Client c, byte[][] argv) {
        if (c.server().db(0).size() != 0) {
            c.reply().error(Errors.CLUSTER_FLUSHSLOTS_NOT_EMPTY);
            return;
        }
        c.server().cluster().state().flushMySlots();
        changed(c);
        c.reply().ok();
    }

    static void setslot(Client c, byte[][] argv) {
        ClusterState cs = c.server().cluster().state();
        ClusterNode myself = cs.myself();
        if (!myself.isMaster()) {
            c.reply().error("ERR Please use SETSLOT only with masters.");
            return;
        }
        int slot = slotOrReply(c, argv[2]);
        if (slot < 0) {
            return;
        }
        String action = text(argv[3]).toLowerCase(java.util.Locale.ROOT);
        if (action.equals("stable") && argv.length == 4) {
            cs.setStable(slot);
        } else if ((action.equals("migrating") || action.equals("importing") || action.equals("node"))
                && argv.length == 5) {
            if (action.equals("migrating") && cs.slotOwner(slot) != myself) {
                c.reply().error("ERR I'm not the owner of hash slot " + slot);
                return;
            }
            if (action.equals("importing") && cs.slotOwner(slot) == myself) {
                c.reply().error("ERR I'm already the owner of hash slot " + slot);
                return;
            }
            ClusterNode n = nodeOrReply(c, argv[4], action.equals("node") ? "ERR Unknown node " : "ERR I don't know about node ");
            if (n == null) {
                return;
            }
            if (!n.isMaster()) {
                c.reply().error("ERR Target node is not a master");
                return;
            }
            switch (action) {
                case "migrating" -> cs.setMigrating(slot, n);
                case "importing" -> cs.setImporting(slot, n);
                default -> {
                    if (cs.slotOwner(slot) == myself && n != myself && cs.keysInSlot(slot) != 0) {
                        c.reply().error("ERR Can't assign hashslot " + slot
                                + " to a different node while I still hold keys for this hash slot.");
                        return;
                    }
                    if (cs.setSlotNode(slot, n)) {
                        c.server().cluster().gossip().broadcastPong(c.server().nowMs());
                    }
                }
            }
        } else {
            c.reply().error(Errors.CLUSTER_SETSLOT_SYNTAX);
            return;
        }
        changed(c);
        c.reply().ok();
    }

    static void forget(Client c, byte[][] argv) {
        ClusterState cs = c.server().cluster().state();
        ClusterNode n = nodeOrReply(c, argv[2], "ERR Unknown node ");
        if (n == null) {
            return;
        }
        if (n == cs.myself()) {
            c.reply().error(Errors.CLUSTER_CANT_FORGET_MYSELF);
            return;
        }
        cs.forget(n, c.server().cluster().gossip().transport(), c.server().nowMs());
        changed(c);
        c.reply().ok();
    }

    static void reset(Client c, byte[][] argv) {
        boolean hard = false;
        if (argv.length == 3) {
            String mode = text(argv[2]).toLowerCase(java.util.Locale.ROOT);
            if (mode.equals("hard")) {
                hard = true;
            } else if (!mode.equals("soft")) {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        } else if (argv.length > 3) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        ClusterState cs = c.server().cluster().state();
        if (cs.myself().isMaster() && c.server().db(0).size() != 0) {
            c.reply().error(Errors.CLUSTER_RESET_WITH_KEYS);
            return;
        }
        if (cs.myself().has(ClusterNode.SLAVE)) {
            // A replica stops replicating and drops its data, as Redis's clusterReset.
            c.server().primaryLink().promote();
            LazyFree.flush(c, c.server().db(0), false);
        }
        cs.reset(hard, c.server().cluster().gossip().transport(), c.server().nowMs());
        changed(c);
        c.reply().ok();
    }

    static void saveconfig(Client c, byte[][] argv) {
        try {
            c.server().cluster().save();
        } catch (IOException e) {
            c.reply().error("ERR error saving the cluster node config: " + e.getMessage());
            return;
        }
        c.reply().ok();
    }

    static void setConfigEpoch(Client c, byte[][] argv) {
        long epoch;
        try {
            epoch = Arguments.parseLong(argv[2]);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.NOT_INTEGER);
            return;
        }
        ClusterState cs = c.server().cluster().state();
        if (epoch < 0) {
            c.reply().error("ERR Invalid config epoch specified: " + epoch);
        } else if (cs.nodes().size() > 1) {
            c.reply().error(Errors.CLUSTER_CONFIG_EPOCH_OTHERS);
        } else if (cs.myself().configEpoch() != 0) {
            c.reply().error(Errors.CLUSTER_CONFIG_EPOCH_NONZERO);
        } else {
            cs.setMyConfigEpoch(epoch);
            changed(c);
            c.reply().ok();
        }
    }

    static void bumpepoch(Client c, byte[][] argv) {
        ClusterState cs = c.server().cluster().state();
        boolean bumped = cs.bumpEpochWithoutConsensus();
        changed(c);
        c.reply().simple((bumped ? "BUMPED " : "STILL ") + cs.myself().configEpoch());
    }

    static void countFailureReports(Client c, byte[][] argv) {
        ClusterNode n = nodeOrReply(c, argv[2], "ERR Unknown node ");
        if (n != null) {
            c.reply().integer(c.server().cluster().state().failureReports(n, c.server().nowMs()));
        }
    }
}
