package dev.ebb.server.command;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
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
    private final int mask;
    private final List<CommandSpec> all;

    private CommandTable(List<CommandSpec> specs) {
        int capacity = Integer.highestOneBit(Math.max(16, specs.size() * 4) - 1) << 1;
        this.slots = new CommandSpec[capacity];
        this.mask = capacity - 1;
        for (CommandSpec spec : specs) {
            byte[] name = spec.name().getBytes(StandardCharsets.US_ASCII);
            int i = foldedHash(name) & mask;
            while (slots[i] != null) {
                i = (i + 1) & mask;
            }
            slots[i] = spec;
        }
        this.all = Collections.unmodifiableList(new ArrayList<>(specs));
    }

    /** Builds and checks a table from the rows of each family. */
    @SafeVarargs
    public static CommandTable of(List<CommandSpec.Builder>... families) {
        List<CommandSpec> specs = new ArrayList<>();
        Set<String> names = new HashSet<>();
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
        return new CommandTable(specs);
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

    /** The spec for {@code name} in any letter case, or null. O(1), allocation-free. */
    public CommandSpec lookup(byte[] name) {
        int i = foldedHash(name) & mask;
        CommandSpec spec;
        while ((spec = slots[i]) != null) {
            if (equalsIgnoreAsciiCase(spec.name(), name)) {
                return spec;
            }
            i = (i + 1) & mask;
        }
        return null;
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
