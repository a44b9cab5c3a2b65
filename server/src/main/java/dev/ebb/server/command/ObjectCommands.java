package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.container;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.config.MaxmemoryPolicy;
import java.util.List;

/**
 * Object introspection: OBJECT ENCODING/IDLETIME/FREQ/REFCOUNT/HELP (MEMORY is {@link MemoryCommands}).
 * Registered through {@link KeyCommands#specs()}.
 */
public final class ObjectCommands {
    /**
     * Per-key bytes of the keyspace tables: the key's slot in the main dict (key reference, value
     * reference and the access-time int, 4 bytes each) and, for a volatile key, its slot in
     * {@code expires} (key reference and a long). The empty slots of the tables are not apportioned
     * to keys.
     */
    static final long MAIN_SLOT_BYTES = 12;
    static final long EXPIRES_SLOT_BYTES = 12;

    /** The reference count Redis reports for a shared object (OBJ_SHARED_REFCOUNT). */
    private static final long SHARED_REFCOUNT = Integer.MAX_VALUE;

    private static final String[] OBJECT_HELP = {
        "OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "ENCODING <key>",
        "    Return the kind of internal representation used in order to store the value",
        "    associated with a <key>.",
        "FREQ <key>",
        "    Return the access frequency index of the <key>. The returned integer is",
        "    proportional to the logarithm of the recent access frequency of the key.",
        "IDLETIME <key>",
        "    Return the idle time of the <key>, that is the approximated number of",
        "    seconds elapsed since the last access to the key.",
        "REFCOUNT <key>",
        "    Return the number of references of the value associated with the specified",
        "    <key>.",
        "HELP",
        "    Print this help.",
    };

    private ObjectCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                container("object", -2, 0)
                        .doc(CommandGroup.GENERIC, "2.2.3", "A container for object introspection commands.", "")
                        .sub(spec("encoding", 3, READONLY, 2, 2, 1, ObjectCommands::encoding)
                                .doc(CommandGroup.GENERIC, "2.2.3", "Returns the internal encoding of a Redis object.",
                                        "key"))
                        .sub(spec("freq", 3, READONLY, 2, 2, 1, ObjectCommands::freq)
                                .doc(CommandGroup.GENERIC, "4.0.0",
                                        "Returns the logarithmic access frequency counter of a Redis object.", "key"))
                        .sub(spec("idletime", 3, READONLY, 2, 2, 1, ObjectCommands::idletime)
                                .doc(CommandGroup.GENERIC, "2.2.3",
                                        "Returns the time since the last access to a Redis object.", "key"))
                        .sub(spec("refcount", 3, READONLY, 2, 2, 1, ObjectCommands::refcount)
                                .doc(CommandGroup.GENERIC, "2.2.3", "Returns the reference count of a value of a key.",
                                        "key"))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, ObjectCommands::objectHelp)
                                .doc(CommandGroup.GENERIC, "6.2.0",
                                        "Returns helpful text about the different subcommands.", "")));
    }

    /**
     * The value at {@code argv[2]} for OBJECT, or null after replying nil. A read lookup that
     * leaves the access time alone and counts in keyspace hits/misses, as Redis's.
     */
    private static Object lookupOrReplyNull(Client c, byte[][] argv) {
        Object value = KeyCommands.lookupReadNoTouch(c, argv[2]);
        if (value == null) {
            c.reply().nullBulk();
        }
        return value;
    }

    static void encoding(Client c, byte[][] argv) {
        Object value = lookupOrReplyNull(c, argv);
        if (value != null) {
            c.reply().bulk(Types.encoding(value));
        }
    }

    /** OBJECT IDLETIME: seconds since the last access, from the database's access clock. */
    static void idletime(Client c, byte[][] argv) {
        Object value = lookupOrReplyNull(c, argv);
        if (value == null) {
            return;
        }
        if (lfuPolicy(c)) {
            c.reply().error(Errors.LFU_SELECTED);
            return;
        }
        c.reply().integer(c.db().idleMs(argv[2], c.server().nowMs()) / 1000);
    }

    /** OBJECT FREQ: the key's LFU counter after decay; refused unless an LFU maxmemory-policy is set, as in Redis. */
    static void freq(Client c, byte[][] argv) {
        Object value = lookupOrReplyNull(c, argv);
        if (value == null) {
            return;
        }
        if (!lfuPolicy(c)) {
            c.reply().error(Errors.LFU_NOT_SELECTED);
            return;
        }
        c.reply().integer(c.db().lfuFrequency(argv[2], c.server().nowMs()));
    }

    /**
     * OBJECT REFCOUNT. A JVM value has no reference count; Ebb answers what Redis would for the
     * same value: its shared-object count for the integers 0..9999 that Redis shares (decided when
     * the value was stored, see {@link Strings#stored}), otherwise 1.
     */
    static void refcount(Client c, byte[][] argv) {
        Object value = lookupOrReplyNull(c, argv);
        if (value == null) {
            return;
        }
        c.reply().integer(Strings.isSharedInteger(value) ? SHARED_REFCOUNT : 1);
    }

    private static boolean lfuPolicy(Client c) {
        MaxmemoryPolicy policy = c.server().config().maxmemoryPolicy();
        return policy == MaxmemoryPolicy.ALLKEYS_LFU || policy == MaxmemoryPolicy.VOLATILE_LFU;
    }

    static void objectHelp(Client c, byte[][] argv) {
        replyHelp(c, OBJECT_HELP);
    }

    /** A HELP reply: an array of status lines, as Redis's addReplyHelp. */
    static void replyHelp(Client c, String[] lines) {
        c.reply().arrayHeader(lines.length);
        for (String line : lines) {
            c.reply().simple(line);
        }
    }
}
