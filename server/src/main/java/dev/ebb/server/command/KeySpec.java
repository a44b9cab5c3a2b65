package dev.ebb.server.command;

import java.util.List;

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
}
