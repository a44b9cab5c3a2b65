package dev.ebb.server;

import dev.ebb.server.cluster.HashSlots;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.Errors;
import dev.ebb.server.command.KeySpec;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The dispatcher's CROSSSLOT rule in cluster mode, as Redis's getNodeByQuery applies it on a node
 * that owns every slot: a command whose keys (by the command table's key positions) span more than
 * one slot is refused; EXEC is refused when the keys of all its queued commands together span more
 * than one slot, which also discards the transaction. Inside MULTI a refused command flags the
 * transaction like any other refusal. Commands whose keys follow a {@code numkeys} argument
 * (EVAL and friends, ZUNION, LMPOP, …) are checked on those keys, commands with a key finder
 * ({@link CommandSpec#movableKeys}: SORT's STORE destination) on the keys it finds, and GEORADIUS's
 * STORE and STOREDIST keys (found by keyword, {@link KeySpec#keywordKeys}) with its source; a
 * transaction needs only the table's positions, as such a command is refused when it is queued.
 *
 * <p>Cost: nothing for commands with fewer than two keys; otherwise one CRC16 per key.
 */
final class CrossSlotCheck {
    private static final int[][] NO_KEYWORD_KEYS = {};

    private CrossSlotCheck() {
    }

    /**
     * Commands whose keys are counted by a {@code numkeys} argument (movable keys, so the table's
     * fixed positions do not describe them): the index of {@code numkeys}, and whether a
     * destination key precedes it at index 1.
     */
    static final Map<String, int[]> NUMKEYS_COMMANDS = Map.ofEntries(
            Map.entry("eval", new int[] {2, 0}), Map.entry("evalsha", new int[] {2, 0}),
            Map.entry("eval_ro", new int[] {2, 0}), Map.entry("evalsha_ro", new int[] {2, 0}),
            Map.entry("zunion", new int[] {1, 0}), Map.entry("zinter", new int[] {1, 0}),
            Map.entry("zdiff", new int[] {1, 0}), Map.entry("zintercard", new int[] {1, 0}),
            Map.entry("sintercard", new int[] {1, 0}), Map.entry("lmpop", new int[] {1, 0}),
            Map.entry("zmpop", new int[] {1, 0}), Map.entry("blmpop", new int[] {2, 0}),
            Map.entry("bzmpop", new int[] {2, 0}), Map.entry("zunionstore", new int[] {2, 1}),
            Map.entry("zinterstore", new int[] {2, 1}), Map.entry("zdiffstore", new int[] {2, 1}));

    /** @return true if the command was refused (and answered) */
    static boolean rejected(Server server, Client c, CommandSpec spec, byte[][] argv) {
        boolean exec = spec.fullName().equals("exec");
        if (exec ? !transactionCrossSlot(c) : !crossSlot(spec, argv)) {
            return false;
        }
        server.rejectForCluster(c, spec, Errors.CROSSSLOT);
        return true;
    }

    private static boolean crossSlot(CommandSpec spec, byte[][] argv) {
        int[] numkeys = NUMKEYS_COMMANDS.get(spec.fullName());
        if (numkeys != null) {
            return numkeysSlot(argv, numkeys[0], numkeys[1] == 1, HashSlots.NO_KEYS) == HashSlots.CROSS_SLOT;
        }
        int[] movable = spec.movableKeys(argv);
        if (movable != null) {
            return movableSlot(argv, movable, HashSlots.NO_KEYS) == HashSlots.CROSS_SLOT;
        }
        int[][] keywordKeys = spec.keySpecs().isEmpty() ? NO_KEYWORD_KEYS : KeySpec.keywordKeys(spec, argv);
        if (keywordKeys.length == 0) {
            return HashSlots.crossSlot(spec, argv);
        }
        int slot = HashSlots.commonSlot(spec, argv, HashSlots.NO_KEYS);
        for (int[] key : keywordKeys) {
            slot = fold(slot, argv[key[0]]);
        }
        return slot == HashSlots.CROSS_SLOT;
    }

    /** The common slot of the keys a spec's key finder found (SORT … STORE), folded into {@code slot}. */
    private static int movableSlot(byte[][] argv, int[] positions, int slot) {
        for (int i = 0; i < positions.length && slot != HashSlots.CROSS_SLOT; i++) {
            slot = fold(slot, argv[positions[i]]);
        }
        return slot;
    }

    /**
     * The common slot of a numkeys command's keys (and its destination), folded into
     * {@code slot}. A malformed numkeys counts as no keys: the command itself answers the error.
     */
    private static int numkeysSlot(byte[][] argv, int numkeysIndex, boolean destination, int slot) {
        if (numkeysIndex >= argv.length) {
            return slot;
        }
        long n;
        try {
            n = Long.parseLong(new String(argv[numkeysIndex], StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return slot;
        }
        if (n < 0 || n > argv.length - numkeysIndex - 1) {
            return slot;
        }
        if (destination) {
            slot = fold(slot, argv[1]);
        }
        for (int i = numkeysIndex + 1; i <= numkeysIndex + n && slot != HashSlots.CROSS_SLOT; i++) {
            slot = fold(slot, argv[i]);
        }
        return slot;
    }

    private static int fold(int slot, byte[] key) {
        int s = HashSlots.slot(key);
        return slot == HashSlots.NO_KEYS || slot == s ? s : HashSlots.CROSS_SLOT;
    }

    private static boolean transactionCrossSlot(Client c) {
        if (!c.inMulti()) {
            return false;
        }
        Transaction t = c.transaction();
        int slot = HashSlots.NO_KEYS;
        for (int i = 0, n = t.size(); i < n && slot != HashSlots.CROSS_SLOT; i++) {
            int[] numkeys = NUMKEYS_COMMANDS.get(t.spec(i).fullName());
            int[] movable = t.spec(i).movableKeys(t.argv(i));
            if (numkeys != null) {
                slot = numkeysSlot(t.argv(i), numkeys[0], numkeys[1] == 1, slot);
            } else {
                slot = movable == null ? HashSlots.commonSlot(t.spec(i), t.argv(i), slot)
                        : movableSlot(t.argv(i), movable, slot);
            }
        }
        return slot == HashSlots.CROSS_SLOT;
    }
}
