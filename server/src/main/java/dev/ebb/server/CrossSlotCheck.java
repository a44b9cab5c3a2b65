package dev.ebb.server;

import dev.ebb.server.cluster.HashSlots;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.Errors;

/**
 * The dispatcher's CROSSSLOT rule in cluster mode, as Redis's getNodeByQuery applies it on a node
 * that owns every slot: a command whose keys (by the command table's key positions) span more than
 * one slot is refused; EXEC is refused when the keys of all its queued commands together span more
 * than one slot, which also discards the transaction. Inside MULTI a refused command flags the
 * transaction like any other refusal.
 *
 * <p>Cost: nothing for commands with fewer than two keys; otherwise one CRC16 per key.
 */
final class CrossSlotCheck {
    private CrossSlotCheck() {
    }

    /** @return true if the command was refused (and answered) */
    static boolean rejected(Server server, Client c, CommandSpec spec, byte[][] argv) {
        boolean exec = spec.fullName().equals("exec");
        if (exec ? !transactionCrossSlot(c) : !HashSlots.crossSlot(spec, argv)) {
            return false;
        }
        if (exec) {
            c.discardTransaction();
        }
        server.reject(c, spec, Errors.CROSSSLOT);
        return true;
    }

    private static boolean transactionCrossSlot(Client c) {
        if (!c.inMulti()) {
            return false;
        }
        Transaction t = c.transaction();
        int slot = HashSlots.NO_KEYS;
        for (int i = 0, n = t.size(); i < n && slot != HashSlots.CROSS_SLOT; i++) {
            slot = HashSlots.commonSlot(t.spec(i), t.argv(i), slot);
        }
        return slot == HashSlots.CROSS_SLOT;
    }
}
