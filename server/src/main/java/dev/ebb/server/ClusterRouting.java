package dev.ebb.server;

import dev.ebb.server.cluster.ClusterNode;
import dev.ebb.server.cluster.ClusterState;
import dev.ebb.server.cluster.HashSlots;
import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.Errors;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a command's keys live, as Redis's getNodeByQuery decides at dispatch in cluster mode:
 * <ul>
 *   <li>keys in several slots: {@code -CROSSSLOT}; a slot with no owner: {@code -CLUSTERDOWN Hash
 *       slot not served};</li>
 *   <li>while the cluster is down: {@code -CLUSTERDOWN The cluster is down}, or with
 *       cluster-allow-reads-when-down only writes are refused (… only accepts read commands);</li>
 *   <li>a slot this node is migrating: served if every key is still here, {@code -ASK slot ip:port}
 *       if none is, {@code -TRYAGAIN} if only some are;</li>
 *   <li>a slot this node is importing: served after ASKING (TRYAGAIN for several keys of which some
 *       are missing), otherwise redirected to its owner;</li>
 *   <li>a slot owned elsewhere: {@code -MOVED slot ip:port}, except a read on a replica of the
 *       slot's owner from a client that sent READONLY, which is served here.</li>
 * </ul>
 * EXEC is routed by the keys of all its queued commands; a redirected EXEC discards the transaction
 * and a redirected command inside MULTI flags it. Commands without keys always run here.
 *
 * <p>Cost: one CRC16 per key; the keys are only collected and looked up for a slot being migrated.
 */
final class ClusterRouting {
    private ClusterRouting() {
    }

    /** @return true if the command was refused or redirected (and answered) */
    static boolean rejected(Server server, Client c, CommandSpec spec, byte[][] argv) {
        boolean exec = spec.fullName().equals("exec");
        if (exec && !c.inMulti()) {
            return false;
        }
        int slot = exec ? CrossSlotCheck.transactionSlot(c, null) : CrossSlotCheck.slot(spec, argv);
        if (slot == HashSlots.NO_KEYS) {
            return false;
        }
        String error = route(server, c, spec, argv, slot, exec);
        if (error == null) {
            return false;
        }
        server.rejectForCluster(c, spec, error);
        return true;
    }

    /**
     * The redirection or error for a command whose keys are all in {@code slot} (or CROSS_SLOT), or
     * null if this node serves it. Also what a script's {@code redis.call} is checked against.
     */
    static String route(Server server, Client c, CommandSpec spec, byte[][] argv, int slot, boolean exec) {
        if (slot == HashSlots.CROSS_SLOT) {
            return Errors.CROSSSLOT;
        }
        ClusterState cs = server.cluster().state();
        ClusterNode owner = cs.slotOwner(slot);
        if (owner == null) {
            return Errors.CLUSTER_DOWN_UNBOUND;
        }
        ClusterNode myself = cs.myself();
        boolean migrating = owner == myself && cs.migratingTo(slot) != null;
        boolean importing = cs.importingFrom(slot) != null;
        int missing = 0;
        int existing = 0;
        boolean multipleKeys = false;
        if (migrating || importing) {
            List<byte[]> keys = new ArrayList<>();
            if (exec) {
                CrossSlotCheck.transactionSlot(c, keys);
            } else {
                CrossSlotCheck.slot(spec, argv, keys);
            }
            for (byte[] key : keys) {
                if (!java.util.Arrays.equals(key, keys.get(0))) {
                    multipleKeys = true;
                }
                if (server.db(0).exists(key, server.nowMs())) {
                    existing++;
                } else {
                    missing++;
                }
            }
        }
        boolean write = spec.has(CommandFlags.WRITE) || (exec && queuedWrite(c));
        if (cs.state() != ClusterState.OK) {
            if (!cs.allowReadsWhenDown()) {
                return Errors.CLUSTER_DOWN;
            }
            if (write) {
                return Errors.CLUSTER_DOWN_READONLY;
            }
        }
        if ((migrating || importing) && spec.name().equals("migrate")) {
            return null;
        }
        if (migrating && missing > 0) {
            if (existing > 0) {
                return Errors.TRYAGAIN;
            }
            return redirect("ASK", slot, cs.migratingTo(slot));
        }
        if (importing && (c.hasFlag(Client.FLAG_ASKING) || spec.name().equals("restore-asking"))) {
            return multipleKeys && missing > 0 ? Errors.TRYAGAIN : null;
        }
        if (owner != myself && !write && c.hasFlag(Client.FLAG_READONLY) && myself.has(ClusterNode.SLAVE)
                && owner.name().equals(myself.slaveof())) {
            // READONLY: a replica serves reads of its primary's slots.
            return null;
        }
        return owner == myself ? null : redirect("MOVED", slot, owner);
    }

    private static boolean queuedWrite(Client c) {
        Transaction t = c.transaction();
        for (int i = 0; i < t.size(); i++) {
            if (t.spec(i).has(CommandFlags.WRITE)) {
                return true;
            }
        }
        return false;
    }

    private static String redirect(String kind, int slot, ClusterNode n) {
        return kind + " " + slot + " " + n.ip() + ":" + n.port();
    }
}
