package dev.ebb.server.acl;

import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.CommandTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The commands ACL rules name: every command and subcommand of the table by its original full name
 * ({@code get}, {@code config|get}; rename-command does not change what ACL rules call it, as in
 * Redis), and the size of a selector's command bit set. Immutable.
 */
final class CommandIndex {
    private final Map<String, CommandSpec> byName = new HashMap<>();
    private final List<CommandSpec> all;
    private final int words;

    CommandIndex(CommandTable table) {
        List<CommandSpec> specs = new ArrayList<>();
        int max = 0;
        for (CommandSpec spec : table.all()) {
            specs.add(spec);
            for (CommandSpec sub : spec.subcommands()) {
                specs.add(sub);
            }
        }
        for (CommandSpec spec : specs) {
            byName.put(spec.fullName(), spec);
            max = Math.max(max, spec.ordinal());
        }
        this.all = Collections.unmodifiableList(specs);
        this.words = (max >>> 6) + 1;
    }

    /** Every command and subcommand. */
    List<CommandSpec> all() {
        return all;
    }

    /** The command named {@code name} or {@code container|sub}, any case, or null. */
    CommandSpec lookup(String name) {
        return byName.get(name.toLowerCase(Locale.ROOT));
    }

    /** Longs in a selector's command bit set. */
    int words() {
        return words;
    }
}
