package dev.ebb.server.acl;

import dev.ebb.server.command.CommandSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What ACLs need to know of each command that the command table does not say: its ACL categories
 * and the permission (read, write, both) each of its key specs asks for, exactly as Redis 7.2.4's
 * COMMAND INFO reports them. The table is the resource {@code command-acl.txt}, generated from the
 * reference server by {@code server/src/test/acl/generate-command-acl.py}; it is data about Redis's
 * behaviour, not a copy of Redis's metadata files. Immutable once loaded; thread-safe.
 */
public final class CommandAcl {
    /** A key the spec reads (key spec flag {@code access}). */
    public static final int READ = 1;
    /** A key the spec writes (key spec flags {@code insert}, {@code update}, {@code delete}). */
    public static final int WRITE = 2;

    private static final Map<String, Row> ROWS = load();

    private CommandAcl() {
    }

    /** One command's categories and per-key-spec permissions. */
    private record Row(long categories, int[] keyPermissions) {
    }

    /**
     * The categories of the command with this full name ({@code get}, {@code config|get}) as a bit
     * set of {@link AclCategory} ordinals, or -1 when Redis 7.2.4 has no such command.
     */
    public static long categories(String fullName) {
        Row row = ROWS.get(fullName);
        return row == null ? -1 : row.categories;
    }

    /** The categories of {@code spec}, or -1 when Redis has no such command. */
    public static long categories(CommandSpec spec) {
        return categories(spec.fullName());
    }

    /**
     * The permission ({@link #READ} | {@link #WRITE}, possibly 0) the {@code n}th key of a command
     * line needs: that of its {@code n}th key spec, the last spec's for keys past the last spec (a
     * range spec covers every key after it). {@code READ | WRITE} for commands Redis lacks.
     */
    public static int keyPermission(CommandSpec spec, int n) {
        Row row = ROWS.get(spec.fullName());
        if (row == null || row.keyPermissions.length == 0) {
            return READ | WRITE;
        }
        return row.keyPermissions[Math.min(n, row.keyPermissions.length - 1)];
    }

    /**
     * The permission the {@code n}th key of {@code argv} needs, with the two commands whose key flags
     * depend on their arguments (Redis's {@code variable_flags}): SET writes only, unless GET makes it
     * read too; BITFIELD with only GET (and OVERFLOW) operations reads only.
     */
    public static int keyPermission(CommandSpec spec, byte[][] argv, int n) {
        String name = spec.fullName();
        if (name.equals("set")) {
            for (int i = 3; i < argv.length; i++) {
                if (new String(argv[i], StandardCharsets.ISO_8859_1).equalsIgnoreCase("get")) {
                    return READ | WRITE;
                }
            }
            return WRITE;
        }
        if (name.equals("bitfield")) {
            return bitfieldReadOnly(argv) ? READ : READ | WRITE;
        }
        return keyPermission(spec, n);
    }

    private static boolean bitfieldReadOnly(byte[][] argv) {
        for (int i = 2; i < argv.length; i++) {
            int remaining = argv.length - i - 1;
            String arg = new String(argv[i], StandardCharsets.ISO_8859_1);
            if (arg.equalsIgnoreCase("get") && remaining >= 2) {
                i += 2;
            } else if (arg.equalsIgnoreCase("overflow") && remaining >= 1) {
                i += 1;
            } else {
                return false;
            }
        }
        return true;
    }

    /** Parses Redis's key spec flags ({@code RW access update}) into a permission. */
    public static int permissionOf(String keySpecFlags) {
        int perm = 0;
        for (String flag : keySpecFlags.split(" ")) {
            switch (flag.toLowerCase(java.util.Locale.ROOT)) {
                case "access" -> perm |= READ;
                case "insert", "update", "delete" -> perm |= WRITE;
                default -> {
                }
            }
        }
        return perm;
    }

    private static Map<String, Row> load() {
        Map<String, Row> rows = new HashMap<>();
        try (InputStream in = CommandAcl.class.getResourceAsStream("command-acl.txt")) {
            if (in == null) {
                throw new IllegalStateException("resource missing: dev/ebb/server/acl/command-acl.txt");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.split("\t", -1);
                if (fields.length != 3) {
                    throw new IllegalStateException("bad line in command-acl.txt: " + line);
                }
                rows.put(fields[0], new Row(parseCategories(fields[1], line), parsePermissions(fields[2])));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.copyOf(rows);
    }

    private static long parseCategories(String field, String line) {
        long bits = 0;
        for (String name : field.split(" ")) {
            if (name.isEmpty()) {
                continue;
            }
            AclCategory category = AclCategory.byName(name.substring(1));
            if (category == null) {
                throw new IllegalStateException("unknown category in command-acl.txt: " + line);
            }
            bits |= category.bit();
        }
        return bits;
    }

    private static int[] parsePermissions(String field) {
        if (field.isEmpty()) {
            return new int[0];
        }
        List<Integer> perms = new ArrayList<>();
        for (String p : field.split(",")) {
            perms.add((p.contains("R") ? READ : 0) | (p.contains("W") ? WRITE : 0));
        }
        return perms.stream().mapToInt(Integer::intValue).toArray();
    }
}
