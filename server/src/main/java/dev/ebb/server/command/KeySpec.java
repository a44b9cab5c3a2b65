package dev.ebb.server.command;

import java.util.List;
import java.util.Locale;

/**
 * One key spec of COMMAND INFO, for a command whose keys the table's first/last/step positions
 * do not describe (Redis 7 declares these per command: GEORADIUS's STORE key is found by its
 * keyword, GEOSEARCHSTORE's destination and source have different flags). A command with none
 * declared gets one spec derived from its positions. Each spec finds one key here: where the
 * search begins (an argv index, or the argument after a keyword looked for from
 * {@code startFrom}), then a range of length 0. Immutable.
 *
 * @param flags Redis's key spec flags, e.g. {@code RO access} or {@code OW update}
 * @param index the argv index of the key, or 0 for a keyword search
 * @param keyword the keyword before the key, or null for an index
 * @param startFrom where the keyword search starts
 */
public record KeySpec(List<String> flags, int index, String keyword, int startFrom) {

    /** The key at argv[{@code index}]. */
    public static KeySpec atIndex(int index, String... flags) {
        return new KeySpec(List.of(flags), index, null, 0);
    }

    /** The argument after {@code keyword}, looked for from argv[{@code startFrom}]. */
    public static KeySpec afterKeyword(String keyword, int startFrom, String... flags) {
        return new KeySpec(List.of(flags), 0, keyword, startFrom);
    }

    /**
     * The argv index of the key this keyword spec finds in a command line, or -1: the argument
     * after the first {@code keyword} (any case) from {@code startFrom} up to the last argument
     * but one, as Redis's keyword search goes.
     */
    int keywordKey(byte[][] argv) {
        String lower = keyword.toLowerCase(Locale.ROOT);
        for (int i = startFrom; i < argv.length - 1; i++) {
            if (Arguments.is(argv[i], lower)) {
                return i + 1;
            }
        }
        return -1;
    }

    /**
     * The keys of a command line that {@code spec}'s keyword specs find (GEORADIUS's STORE and
     * STOREDIST keys), in spec order, as {argv index, spec ordinal} pairs; empty when it has
     * none. These are the movable keys the table's positions miss, for COMMAND GETKEYS and the
     * cluster's CROSSSLOT check. Cost: one pass over the arguments per keyword spec.
     */
    public static int[][] keywordKeys(CommandSpec spec, byte[][] argv) {
        List<KeySpec> specs = spec.keySpecs();
        int found = 0;
        int[][] keys = new int[specs.size()][];
        for (int s = 0; s < specs.size(); s++) {
            KeySpec key = specs.get(s);
            int at = key.keyword == null ? -1 : key.keywordKey(argv);
            if (at >= 0) {
                keys[found++] = new int[] {at, s};
            }
        }
        return found == keys.length ? keys : java.util.Arrays.copyOf(keys, found);
    }
}
