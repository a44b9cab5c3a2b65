package dev.ebb.server;

import dev.ebb.server.cluster.HashSlots;
import dev.ebb.server.command.CommandKeys;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.KeySpec;
import java.nio.charset.StandardCharsets;

/**
 * The slot of a command's keys in cluster mode, as Redis's getNodeByQuery finds it (the routing
 * itself is {@link ClusterRouting}): a command whose keys span more than one slot is CROSSSLOT; a
 * transaction's slot is that of the keys of all its queued commands. Commands whose keys follow a {@code numkeys} argument
 * (EVAL and friends, ZUNION, LMPOP, …) are checked on those keys, commands with a key finder
 * ({@link CommandSpec#movableKeys}: SORT's STORE destination) on the keys it finds, and GEORADIUS's
 * STORE and STOREDIST keys (found by keyword, {@link KeySpec#keywordKeys}) with its source.
 *
 * <p>Cost: one CRC16 per key.
 */
final class CrossSlotCheck {
    private static final int[][] NO_KEYWORD_KEYS = {};

    private CrossSlotCheck() {
    }

    /**
     * The one slot of a command line's keys, {@link HashSlots#NO_KEYS} if it names none, or
     * {@link HashSlots#CROSS_SLOT}; also what a script's {@code redis.call} is checked against.
     */
    static int slot(CommandSpec spec, byte[][] argv) {
        return slot(spec, argv, null);
    }

    /** As {@link #slot(CommandSpec, byte[][])}, also adding every key it looks at to {@code keys} when not null. */
    static int slot(CommandSpec spec, byte[][] argv, java.util.List<byte[]> keys) {
        int[] numkeys = CommandKeys.numkeys(spec);
        if (numkeys != null) {
            return numkeysSlot(argv, numkeys[0], numkeys[1] == 1, HashSlots.NO_KEYS, keys);
        }
        int[] movable = spec.movableKeys(argv);
        if (movable != null) {
            return movableSlot(argv, movable, HashSlots.NO_KEYS, keys);
        }
        int[][] keywordKeys = spec.keySpecs().isEmpty() ? NO_KEYWORD_KEYS : KeySpec.keywordKeys(spec, argv);
        int slot = HashSlots.commonSlot(spec, argv, HashSlots.NO_KEYS);
        if (keys != null) {
            positionKeys(spec, argv, keys);
        }
        for (int[] key : keywordKeys) {
            slot = fold(slot, argv[key[0]], keys);
        }
        return slot;
    }

    /** The keys at the command table's first/last/step positions. */
    private static void positionKeys(CommandSpec spec, byte[][] argv, java.util.List<byte[]> keys) {
        int first = spec.firstKey();
        if (first <= 0 || first >= argv.length) {
            return;
        }
        int last = spec.lastKey() < 0 ? argv.length + spec.lastKey() : Math.min(spec.lastKey(), argv.length - 1);
        for (int i = first; i <= last; i += Math.max(1, spec.keyStep())) {
            keys.add(argv[i]);
        }
    }

    /** The common slot of a transaction's queued commands, adding their keys to {@code keys} when not null. */
    static int transactionSlot(Client c, java.util.List<byte[]> keys) {
        Transaction t = c.transaction();
        int slot = HashSlots.NO_KEYS;
        for (int i = 0, n = t.size(); i < n && slot != HashSlots.CROSS_SLOT; i++) {
            int s = slot(t.spec(i), t.argv(i), keys);
            if (s == HashSlots.CROSS_SLOT || (s != HashSlots.NO_KEYS && slot != HashSlots.NO_KEYS && s != slot)) {
                return HashSlots.CROSS_SLOT;
            }
            if (s != HashSlots.NO_KEYS) {
                slot = s;
            }
        }
        return slot;
    }

    /** The common slot of the keys a spec's key finder found (SORT … STORE), folded into {@code slot}. */
    private static int movableSlot(byte[][] argv, int[] positions, int slot, java.util.List<byte[]> keys) {
        for (int i = 0; i < positions.length && slot != HashSlots.CROSS_SLOT; i++) {
            slot = fold(slot, argv[positions[i]], keys);
        }
        return slot;
    }

    /**
     * The common slot of a numkeys command's keys (and its destination), folded into
     * {@code slot}. A malformed numkeys counts as no keys: the command itself answers the error.
     */
    private static int numkeysSlot(byte[][] argv, int numkeysIndex, boolean destination, int slot,
            java.util.List<byte[]> keys) {
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
            slot = fold(slot, argv[1], keys);
        }
        for (int i = numkeysIndex + 1; i <= numkeysIndex + n && slot != HashSlots.CROSS_SLOT; i++) {
            slot = fold(slot, argv[i], keys);
        }
        return slot;
    }

    private static int fold(int slot, byte[] key, java.util.List<byte[]> keys) {
        if (keys != null) {
            keys.add(key);
        }
        int s = HashSlots.slot(key);
        return slot == HashSlots.NO_KEYS || slot == s ? s : HashSlots.CROSS_SLOT;
    }
}
