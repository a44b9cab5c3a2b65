package dev.ebb.server.command;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * The keys of one command line, by every means the command table has to describe them: the
 * {@code numkeys} argument of EVAL, ZUNION, LMPOP … ({@link #numkeys}), a spec's key finder (SORT's
 * STORE destination), its keyword key specs (GEORADIUS's STORE keys) and its first/last/step
 * positions. ACLs check these keys; the cluster's CROSSSLOT rule folds their slots. Stateless.
 */
public final class CommandKeys {
    private static final int[] NONE = {};

    /**
     * Commands whose keys are counted by a {@code numkeys} argument (movable keys, so the table's
     * fixed positions do not describe them): the index of {@code numkeys}, and whether a
     * destination key precedes it at index 1.
     */
    private static final Map<String, int[]> NUMKEYS_COMMANDS = Map.ofEntries(
            Map.entry("eval", new int[] {2, 0}), Map.entry("evalsha", new int[] {2, 0}),
            Map.entry("eval_ro", new int[] {2, 0}), Map.entry("evalsha_ro", new int[] {2, 0}),
            Map.entry("fcall", new int[] {2, 0}), Map.entry("fcall_ro", new int[] {2, 0}),
            Map.entry("zunion", new int[] {1, 0}), Map.entry("zinter", new int[] {1, 0}),
            Map.entry("zdiff", new int[] {1, 0}), Map.entry("zintercard", new int[] {1, 0}),
            Map.entry("sintercard", new int[] {1, 0}), Map.entry("lmpop", new int[] {1, 0}),
            Map.entry("zmpop", new int[] {1, 0}), Map.entry("blmpop", new int[] {2, 0}),
            Map.entry("bzmpop", new int[] {2, 0}), Map.entry("zunionstore", new int[] {2, 1}),
            Map.entry("zinterstore", new int[] {2, 1}), Map.entry("zdiffstore", new int[] {2, 1}));

    private CommandKeys() {
    }

    /**
     * For a command whose keys follow a {@code numkeys} argument: {numkeys index, 1 if a destination
     * key precedes it at index 1 else 0}; null for any other command.
     */
    public static int[] numkeys(CommandSpec spec) {
        return NUMKEYS_COMMANDS.get(spec.fullName());
    }

    /**
     * The argv indexes of the keys of {@code argv} (which satisfies {@code spec}'s arity), in the
     * order Redis's key specs list them. A malformed {@code numkeys} counts as no keys: the command
     * itself answers the error. Allocates the result.
     */
    public static int[] positions(CommandSpec spec, byte[][] argv) {
        int[] numkeys = NUMKEYS_COMMANDS.get(spec.fullName());
        if (numkeys != null) {
            return numkeysPositions(argv, numkeys[0], numkeys[1] == 1);
        }
        int[] movable = spec.movableKeys(argv);
        if (movable != null) {
            return movable;
        }
        int first = spec.firstKey();
        int[] fixed = NONE;
        if (first > 0 && first < argv.length) {
            int last = spec.lastKey() < 0 ? argv.length + spec.lastKey() : Math.min(spec.lastKey(), argv.length - 1);
            int step = Math.max(1, spec.keyStep());
            int count = last < first ? 0 : (last - first) / step + 1;
            fixed = new int[count];
            for (int i = 0; i < count; i++) {
                fixed[i] = first + i * step;
            }
        }
        if (spec.keySpecs().isEmpty()) {
            return fixed;
        }
        int[][] keyword = KeySpec.keywordKeys(spec, argv);
        if (keyword.length == 0) {
            return fixed;
        }
        int[] all = Arrays.copyOf(fixed, fixed.length + keyword.length);
        for (int i = 0; i < keyword.length; i++) {
            all[fixed.length + i] = keyword[i][0];
        }
        return all;
    }

    private static int[] numkeysPositions(byte[][] argv, int numkeysIndex, boolean destination) {
        if (numkeysIndex >= argv.length) {
            return NONE;
        }
        long n;
        try {
            n = Long.parseLong(new String(argv[numkeysIndex], StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return NONE;
        }
        if (n < 0 || n > argv.length - numkeysIndex - 1) {
            return NONE;
        }
        int d = destination ? 1 : 0;
        int[] keys = new int[(int) n + d];
        if (destination) {
            keys[0] = 1;
        }
        for (int i = 0; i < n; i++) {
            keys[d + i] = numkeysIndex + 1 + i;
        }
        return keys;
    }
}
