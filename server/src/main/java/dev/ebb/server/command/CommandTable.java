package dev.ebb.server.command;

import dev.ebb.server.config.ConfigException;
import dev.ebb.server.config.RenamedCommand;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The command table: the single source of truth for dispatch, arity, flags, key positions and
 * COMMAND output. Each command family declares its rows ({@code specs()}); the table checks them
 * when it is built (duplicate names, contradictory flags, missing documentation) so a bad row fails
 * at start-up, not in production.
 *
 * <p>Lookup is case-insensitive on the raw {@code argv[0]} bytes and allocates nothing: an
 * open-addressing array keyed by an ASCII-case-folded hash. Immutable; safe to share.
 */
public final class CommandTable {
    private final CommandSpec[] slots;
    private final String[] slotNames;
    private final int mask;
    private final List<CommandSpec> all;

    /** Indexes each spec under {@code names[i]} (its own name, or the name rename-command gave it). */
    private CommandTable(List<CommandSpec> specs, List<String> names) {
        int capacity = Integer.highestOneBit(Math.max(16, specs.size() * 4) - 1) << 1;
        this.slots = new CommandSpec[capacity];
        this.slotNames = new String[capacity];
        this.mask = capacity - 1;
        for (int n = 0; n < specs.size(); n++) {
            String name = names.get(n);
            int i = foldedHash(name.getBytes(StandardCharsets.ISO_8859_1)) & mask;
            while (slots[i] != null) {
                i = (i + 1) & mask;
            }
            slots[i] = specs.get(n);
            slotNames[i] = name;
        }
        this.all = Collections.unmodifiableList(new ArrayList<>(specs));
    }

    /** Builds and checks a table from the rows of each family. */
    @SafeVarargs
    public static CommandTable of(List<CommandSpec.Builder>... families) {
        List<CommandSpec> specs = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (List<CommandSpec.Builder> family : families) {
            for (CommandSpec.Builder b : family) {
                CommandSpec spec = b.build();
                if (!names.add(spec.name())) {
                    throw new IllegalStateException("duplicate command in table: " + spec.name());
                }
                check(spec);
                specs.add(spec);
            }
        }
        return new CommandTable(specs, new ArrayList<>(names));
    }

    /**
     * This table with {@code rename-command} applied: a command is found under its new name only,
     * or not at all when the new name is empty. As in Redis the command keeps its own name in
     * errors and COMMAND output; only dispatch changes.
     *
     * @throws IllegalArgumentException with Redis's fatal config error text, naming the line
     */
    public CommandTable renamed(List<RenamedCommand> renames) {
        if (renames.isEmpty()) {
            return this;
        }
        List<CommandSpec> specs = new ArrayList<>(all);
        List<String> names = new ArrayList<>();
        for (CommandSpec spec : specs) {
            names.add(spec.name());
        }
        for (RenamedCommand rename : renames) {
            int index = names.indexOf(rename.from().toLowerCase(Locale.ROOT));
            if (index < 0) {
                throw renameError(rename, "No such command in rename-command");
            }
            if (rename.disables()) {
                specs.remove(index);
                names.remove(index);
                continue;
            }
            String to = rename.to().toLowerCase(Locale.ROOT);
            if (names.contains(to)) {
                throw renameError(rename, "Target command name already exists");
            }
            names.set(index, to);
        }
        return new CommandTable(specs, names);
    }

    private static void check(CommandSpec spec) {
        if (spec.has(CommandFlags.WRITE) && spec.has(CommandFlags.READONLY)) {
            throw new IllegalStateException("command is both write and readonly: " + spec.fullName());
        }
        if (spec.firstKey() < 0 || (spec.firstKey() == 0 && spec.lastKey() != 0)) {
            throw new IllegalStateException("bad key positions: " + spec.fullName());
        }
        if (spec.firstKey() > 0 && spec.keyStep() <= 0) {
            throw new IllegalStateException("key step must be positive: " + spec.fullName());
        }
        Set<String> subNames = new HashSet<>();
        for (CommandSpec sub : spec.subcommands()) {
            if (!subNames.add(sub.name())) {
                throw new IllegalStateException("duplicate subcommand: " + sub.fullName());
            }
            check(sub);
        }
    }

    private static IllegalArgumentException renameError(RenamedCommand rename, String reason) {
        return new IllegalArgumentException(ConfigException.at(rename.location(), reason).getMessage());
    }

    /** The spec for {@code name} in any letter case, or null. O(1), allocation-free. */
    public CommandSpec lookup(byte[] name) {
        int i = foldedHash(name) & mask;
        CommandSpec spec;
        while ((spec = slots[i]) != null) {
            if (equalsIgnoreAsciiCase(slotNames[i], name)) {
                return spec;
            }
            i = (i + 1) & mask;
        }
        return null;
    }

    /**
     * The spec a replayed command runs as (a primary's stream, an AOF): the command's, or its
     * subcommand's when it has subcommands and argv names one; null if either is unknown.
     */
    public CommandSpec resolve(byte[][] argv) {
        CommandSpec spec = lookup(argv[0]);
        if (spec != null && !spec.subcommands().isEmpty() && argv.length > 1) {
            return spec.subcommand(argv[1]);
        }
        return spec;
    }

    /** The spec named {@code name} (lower case), or null. */
    public CommandSpec lookup(String name) {
        return lookup(name.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Every top-level command, in declaration order. */
    public List<CommandSpec> all() {
        return all;
    }

    public int size() {
        return all.size();
    }

    private static int foldedHash(byte[] name) {
        int h = 0;
        for (byte b : name) {
            h = 31 * h + lower(b);
        }
        return h ^ (h >>> 16);
    }

    private static boolean equalsIgnoreAsciiCase(String lowerName, byte[] name) {
        int n = lowerName.length();
        if (n != name.length) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (lowerName.charAt(i) != lower(name[i])) {
                return false;
            }
        }
        return true;
    }

    private static int lower(byte b) {
        return b >= 'A' && b <= 'Z' ? b + 32 : b & 0xff;
    }
}
