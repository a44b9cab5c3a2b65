package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.util.Glob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The COMMAND family: the command table described to clients (COMMAND, COUNT, INFO, DOCS, LIST,
 * GETKEYS, GETKEYSANDFLAGS, HELP), in Redis 7.2's reply shapes. Everything is derived from the
 * table's rows; nothing is copied from Redis's command metadata:
 * <ul>
 *   <li><b>ACL categories</b> ({@link #aclCategories}): Redis 7.2.4's, from
 *       {@link dev.ebb.server.acl.CommandAcl}'s table (generated from the reference server). A command
 *       Redis lacks gets the group's category ({@code @string}, {@code @connection} …) plus those
 *       Redis implies from the flags ({@code @write}, {@code @read}, {@code @admin @dangerous},
 *       {@code @pubsub}, {@code @fast} or else {@code @slow}, {@code @blocking}).</li>
 *   <li><b>Key specs</b> ({@link #writeKeySpecs}): one {@code index}/{@code range} spec derived from
 *       first/last/step. Its flags are {@code RO access} for read-only commands, {@code RW} for
 *       write commands (Ebb does not track Redis's finer {@code OW}/{@code RM}/{@code insert}/
 *       {@code delete}) and {@code RO} otherwise. A row may declare its key specs instead
 *       ({@link KeySpec}: by index or after a keyword, with Redis's flags), as the geo family does
 *       for GEORADIUS's STORE keys; GETKEYS then also lists the keys the keyword specs find, and
 *       DOCS numbers the key arguments in order as their {@code key_spec_index}.</li>
 *   <li><b>Tips</b> are always empty.</li>
 *   <li><b>Docs</b>: summary, since, group and complexity from the row; the argument tree parsed
 *       from its syntax line by {@link CommandSyntax}, cached per spec. No history.</li>
 * </ul>
 * Type fidelity matters: redis-cli 7 builds its hints from COMMAND DOCS and gives up on a reply
 * whose element types differ from Redis's (bulk strings, integers, sets of simple strings, maps).
 */
public final class CommandDocs {
    /** The order Redis lists ACL categories in (its category bit order). */
    private static final String[] CATEGORY_ORDER = {
        "@keyspace", "@read", "@write", "@set", "@sortedset", "@list", "@hash", "@string", "@bitmap",
        "@hyperloglog", "@geo", "@stream", "@pubsub", "@admin", "@fast", "@slow", "@blocking", "@dangerous",
        "@connection", "@transaction", "@scripting",
    };
    private static final Map<CommandSpec, List<CommandSyntax.Argument>> ARGUMENTS = new ConcurrentHashMap<>();

    private CommandDocs() {
    }

    static List<CommandSpec.Builder> specs() {
        long flags = LOADING | STALE;
        return List.of(
                spec("command", -1, flags, 0, 0, 0, CommandDocs::command)
                        .doc(CommandGroup.SERVER, "2.8.13", "Returns detailed information about all commands.", "")
                        .complexity("O(N) where N is the total number of Redis commands")
                        .sub(spec("count", 2, flags, 0, 0, 0, CommandDocs::count)
                                .doc(CommandGroup.SERVER, "2.8.13", "Returns a count of commands.", "")
                                .complexity("O(1)"))
                        .sub(spec("docs", -2, flags, 0, 0, 0, CommandDocs::docs)
                                .doc(CommandGroup.SERVER, "7.0.0",
                                        "Returns documentary information about one, multiple or all commands.",
                                        "[command-name [command-name ...]]")
                                .complexity("O(N) where N is the number of commands to look up"))
                        .sub(spec("getkeys", -3, flags, 0, 0, 0, CommandDocs::getkeys)
                                .doc(CommandGroup.SERVER, "2.8.13", "Extracts the key names from an arbitrary command.",
                                        "command [arg [arg ...]]")
                                .complexity("O(N) where N is the number of arguments to the command"))
                        .sub(spec("getkeysandflags", -3, flags, 0, 0, 0, CommandDocs::getkeysandflags)
                                .doc(CommandGroup.SERVER, "7.0.0",
                                        "Extracts the key names and access flags for an arbitrary command.",
                                        "command [arg [arg ...]]")
                                .complexity("O(N) where N is the number of arguments to the command"))
                        .sub(spec("help", 2, flags, 0, 0, 0, CommandDocs::help)
                                .doc(CommandGroup.SERVER, "5.0.0",
                                        "Returns helpful text about the different subcommands.", "")
                                .complexity("O(1)"))
                        .sub(spec("info", -2, flags, 0, 0, 0, CommandDocs::info)
                                .doc(CommandGroup.SERVER, "2.8.13",
                                        "Returns information about one, multiple or all commands.",
                                        "[command-name [command-name ...]]")
                                .complexity("O(N) where N is the number of commands to look up"))
                        .sub(spec("list", -2, flags, 0, 0, 0, CommandDocs::list)
                                .doc(CommandGroup.SERVER, "7.0.0", "Returns a list of command names.",
                                        "[FILTERBY <MODULE module-name | ACLCAT category | PATTERN pattern>]")
                                .complexity("O(N) where N is the total number of Redis commands")));
    }

    /** COMMAND: every command's COMMAND INFO entry. */
    static void command(Client c, byte[][] argv) {
        List<CommandSpec> all = c.server().commands().all();
        RespWriter w = c.reply();
        w.arrayHeader(all.size());
        for (CommandSpec spec : all) {
            writeInfo(w, spec);
        }
    }

    static void count(Client c, byte[][] argv) {
        c.reply().integer(c.server().commands().size());
    }

    /** COMMAND INFO [name …]: one entry per name (null for an unknown one), or all commands. */
    static void info(Client c, byte[][] argv) {
        if (argv.length == 2) {
            command(c, argv);
            return;
        }
        RespWriter w = c.reply();
        w.arrayHeader(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            CommandSpec spec = lookupByFullName(c, argv[i]);
            if (spec == null) {
                w.nullBulk();
            } else {
                writeInfo(w, spec);
            }
        }
    }

    /** COMMAND DOCS [name …]: a map of name to docs; unknown names are left out. */
    static void docs(Client c, byte[][] argv) {
        List<CommandSpec> found;
        if (argv.length == 2) {
            found = c.server().commands().all();
        } else {
            found = new ArrayList<>(argv.length - 2);
            for (int i = 2; i < argv.length; i++) {
                CommandSpec spec = lookupByFullName(c, argv[i]);
                if (spec != null) {
                    found.add(spec);
                }
            }
        }
        RespWriter w = c.reply();
        w.mapHeader(found.size());
        for (CommandSpec spec : found) {
            w.bulk(spec.fullName());
            writeDocs(w, spec);
        }
    }

    /** COMMAND LIST [FILTERBY MODULE name | ACLCAT category | PATTERN pattern]: names, subcommands included. */
    static void list(Client c, byte[][] argv) {
        Glob pattern = null;
        String category = null;
        boolean none = false;
        if (argv.length == 5 && Arguments.is(argv[2], "filterby")) {
            if (Arguments.is(argv[3], "module")) {
                none = true;
            } else if (Arguments.is(argv[3], "aclcat")) {
                category = "@" + new String(argv[4], StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
            } else if (Arguments.is(argv[3], "pattern")) {
                pattern = Glob.compile(argv[4], true);
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        } else if (argv.length != 2) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        List<String> names = new ArrayList<>();
        if (!none) {
            for (CommandSpec spec : c.server().commands().all()) {
                addListed(names, spec, pattern, category);
                for (CommandSpec sub : spec.subcommands()) {
                    addListed(names, sub, pattern, category);
                }
            }
        }
        RespWriter w = c.reply();
        w.arrayHeader(names.size());
        for (String name : names) {
            w.bulk(name);
        }
    }

    private static void addListed(List<String> names, CommandSpec spec, Glob pattern, String category) {
        if (pattern != null && !pattern.matches(spec.fullName().getBytes(StandardCharsets.ISO_8859_1))) {
            return;
        }
        if (category != null && !aclCategories(spec).contains(category)) {
            return;
        }
        names.add(spec.fullName());
    }

    static void getkeys(Client c, byte[][] argv) {
        getkeys(c, argv, false);
    }

    static void getkeysandflags(Client c, byte[][] argv) {
        getkeys(c, argv, true);
    }

    /**
     * COMMAND GETKEYS / GETKEYSANDFLAGS command [arg …]: the keys the table's first/last/step
     * positions pick out of the given command line, or its {@link CommandSpec#movableKeys} finder
     * (SORT), and those its keyword key specs find (GEORADIUS's STORE keys). Other commands whose
     * keys move (MOVABLE_KEYS) without fixed positions are not supported and answer that they have
     * no key arguments.
     */
    private static void getkeys(Client c, byte[][] argv, boolean withFlags) {
        CommandSpec spec = c.server().commands().lookup(argv[2]);
        if (spec != null && !spec.subcommands().isEmpty() && argv.length > 3) {
            spec = spec.subcommand(argv[3]);
        }
        if (spec == null) {
            c.reply().error(Errors.INVALID_COMMAND_SPECIFIED);
            return;
        }
        if (spec.firstKey() <= 0) {
            c.reply().error(Errors.COMMAND_HAS_NO_KEYS);
            return;
        }
        int argc = argv.length - 2;
        if (!spec.arityAccepts(argc)) {
            c.reply().error(Errors.INVALID_NUMBER_OF_ARGUMENTS);
            return;
        }
        int[] movable = spec.movableKeys(Arrays.copyOfRange(argv, 2, argv.length));
        if (movable != null) {
            writeKeys(c.reply(), spec, argv, movable, withFlags);
            return;
        }
        int last = spec.lastKey() < 0 ? argc + spec.lastKey() : Math.min(spec.lastKey(), argc - 1);
        int count = 0;
        for (int i = spec.firstKey(); i <= last; i += spec.keyStep()) {
            count++;
        }
        int[][] keywordKeys = KeySpec.keywordKeys(spec, Arrays.copyOfRange(argv, 2, argv.length));
        if (count == 0) {
            if (spec.has(CommandFlags.NO_MANDATORY_KEYS)) {
                c.reply().emptyArray();
            } else {
                c.reply().error(Errors.INVALID_ARGUMENTS_FOR_COMMAND);
            }
            return;
        }
        RespWriter w = c.reply();
        w.arrayHeader(count + keywordKeys.length);
        for (int i = spec.firstKey(); i <= last; i += spec.keyStep()) {
            writeKey(w, spec, i, argv[2 + i], withFlags);
        }
        for (int[] key : keywordKeys) {
            if (withFlags) {
                w.arrayHeader(2);
                w.bulk(argv[2 + key[0]]);
                writeFlags(w, spec.keySpecs().get(key[1]).flags());
            } else {
                w.bulk(argv[2 + key[0]]);
            }
        }
    }

    /** The GETKEYS reply for the keys at {@code positions} of the command line {@code argv[2..]}. */
    private static void writeKeys(RespWriter w, CommandSpec spec, byte[][] argv, int[] positions, boolean withFlags) {
        w.arrayHeader(positions.length);
        for (int n = 0; n < positions.length; n++) {
            byte[] key = argv[2 + positions[n]];
            if (!withFlags) {
                w.bulk(key);
                continue;
            }
            w.arrayHeader(2);
            w.bulk(key);
            String flags = spec.movableKeyFlags(n);
            if (flags == null) {
                writeKeySpecFlags(w, spec);
            } else {
                String[] each = flags.split(" ");
                w.setHeader(each.length);
                for (String flag : each) {
                    w.simple(flag);
                }
            }
        }
    }

    private static void writeKey(RespWriter w, CommandSpec spec, int index, byte[] key, boolean withFlags) {
        if (!withFlags) {
            w.bulk(key);
            return;
        }
        w.arrayHeader(2);
        w.bulk(key);
        for (KeySpec declared : spec.keySpecs()) {
            if (declared.keyword() == null && declared.index() == index) {
                writeFlags(w, declared.flags());
                return;
            }
        }
        writeKeySpecFlags(w, spec);
    }

    static void help(Client c, byte[][] argv) {
        replyHelp(c, "COMMAND",
                "(no subcommand)",
                "    Return details about all Redis commands.",
                "COUNT",
                "    Return the total number of commands in this Redis server.",
                "LIST",
                "    Return a list of all commands in this Redis server.",
                "INFO [<command-name> ...]",
                "    Return details about multiple Redis commands.",
                "    If no command names are given, documentation details for all",
                "    commands are returned.",
                "DOCS [<command-name> ...]",
                "    Return documentation details about multiple Redis commands.",
                "    If no command names are given, documentation details for all",
                "    commands are returned.",
                "GETKEYS <full-command>",
                "    Return the keys from a full Redis command.",
                "GETKEYSANDFLAGS <full-command>",
                "    Return the keys and the access flags from a full Redis command.");
    }

    /**
     * Replies a container's HELP as Redis does: a header line naming the container, the given
     * lines, and the HELP entry, each as a simple string.
     */
    static void replyHelp(Client c, String container, String... lines) {
        RespWriter w = c.reply();
        w.arrayHeader(lines.length + 3);
        w.simple(container + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        for (String line : lines) {
            w.simple(line);
        }
        w.simple("HELP");
        w.simple("    Print this help.");
    }

    /** A command by its Redis full name ({@code get}, {@code config|get}) in any case, or null. */
    private static CommandSpec lookupByFullName(Client c, byte[] name) {
        int bar = -1;
        for (int i = 0; i < name.length; i++) {
            if (name[i] == '|') {
                bar = i;
                break;
            }
        }
        if (bar < 0) {
            return c.server().commands().lookup(name);
        }
        CommandSpec parent = c.server().commands().lookup(Arrays.copyOf(name, bar));
        return parent == null ? null : parent.subcommand(Arrays.copyOfRange(name, bar + 1, name.length));
    }

    /** The ten-element COMMAND INFO entry of {@code spec}, its subcommands nested. */
    static void writeInfo(RespWriter w, CommandSpec spec) {
        w.arrayHeader(10);
        w.bulk(spec.fullName());
        w.integer(spec.arity());
        String[] flags = CommandFlags.names(spec.flags());
        w.setHeader(flags.length);
        for (String flag : flags) {
            w.simple(flag);
        }
        w.integer(spec.firstKey());
        w.integer(spec.lastKey());
        w.integer(spec.keyStep());
        List<String> categories = aclCategories(spec);
        w.setHeader(categories.size());
        for (String category : categories) {
            w.simple(category);
        }
        w.setHeader(0);
        writeKeySpecs(w, spec);
        if (spec.subcommands().isEmpty()) {
            w.setHeader(0);
        } else {
            w.arrayHeader(spec.subcommands().size());
            for (CommandSpec sub : spec.subcommands()) {
                writeInfo(w, sub);
            }
        }
    }

    /**
     * The ACL categories of {@code spec}, with their {@code @}, in Redis's order: the group's own
     * category (not for containers) and those Redis implies from the flags.
     */
    static List<String> aclCategories(CommandSpec spec) {
        long known = dev.ebb.server.acl.CommandAcl.categories(spec);
        if (known != -1) {
            List<String> names = new ArrayList<>(4);
            for (dev.ebb.server.acl.AclCategory category : dev.ebb.server.acl.AclCategory.values()) {
                if ((known & category.bit()) != 0) {
                    names.add("@" + category.label());
                }
            }
            return names;
        }
        List<String> present = new ArrayList<>(4);
        String group = spec.subcommands().isEmpty() ? spec.group().aclCategory() : null;
        if (group != null) {
            present.add(group);
        }
        if (spec.has(CommandFlags.WRITE)) {
            present.add("@write");
        }
        if (spec.has(CommandFlags.READONLY) && spec.group() != CommandGroup.SCRIPTING) {
            present.add("@read");
        }
        if (spec.has(CommandFlags.ADMIN)) {
            present.add("@admin");
            present.add("@dangerous");
        }
        if (spec.has(CommandFlags.PUBSUB)) {
            present.add("@pubsub");
        }
        present.add(spec.has(CommandFlags.FAST) ? "@fast" : "@slow");
        if (spec.has(CommandFlags.BLOCKING)) {
            present.add("@blocking");
        }
        List<String> ordered = new ArrayList<>(present.size());
        for (String category : CATEGORY_ORDER) {
            if (present.contains(category) && !ordered.contains(category)) {
                ordered.add(category);
            }
        }
        return ordered;
    }

    /**
     * The key specs of {@code spec}: those it declares, else none, or one range spec derived from
     * first/last/step.
     */
    private static void writeKeySpecs(RespWriter w, CommandSpec spec) {
        if (!spec.keySpecs().isEmpty()) {
            w.setHeader(spec.keySpecs().size());
            for (KeySpec key : spec.keySpecs()) {
                writeDeclaredKeySpec(w, key);
            }
            return;
        }
        if (spec.firstKey() <= 0) {
            w.setHeader(0);
            return;
        }
        w.setHeader(1);
        w.mapHeader(3);
        w.bulk("flags");
        writeKeySpecFlags(w, spec);
        w.bulk("begin_search");
        w.mapHeader(2);
        w.bulk("type");
        w.bulk("index");
        w.bulk("spec");
        w.mapHeader(1);
        w.bulk("index");
        w.integer(spec.firstKey());
        w.bulk("find_keys");
        w.mapHeader(2);
        w.bulk("type");
        w.bulk("range");
        w.bulk("spec");
        w.mapHeader(3);
        w.bulk("lastkey");
        w.integer(spec.lastKey() >= 0 ? spec.lastKey() - spec.firstKey() : spec.lastKey());
        w.bulk("keystep");
        w.integer(spec.keyStep());
        w.bulk("limit");
        w.integer(0);
    }

    private static void writeDeclaredKeySpec(RespWriter w, KeySpec key) {
        w.mapHeader(3);
        w.bulk("flags");
        writeFlags(w, key.flags());
        w.bulk("begin_search");
        w.mapHeader(2);
        w.bulk("type");
        if (key.keyword() == null) {
            w.bulk("index");
            w.bulk("spec");
            w.mapHeader(1);
            w.bulk("index");
            w.integer(key.index());
        } else {
            w.bulk("keyword");
            w.bulk("spec");
            w.mapHeader(2);
            w.bulk("keyword");
            w.bulk(key.keyword());
            w.bulk("startfrom");
            w.integer(key.startFrom());
        }
        w.bulk("find_keys");
        w.mapHeader(2);
        w.bulk("type");
        w.bulk("range");
        w.bulk("spec");
        w.mapHeader(3);
        w.bulk("lastkey");
        w.integer(0);
        w.bulk("keystep");
        w.integer(1);
        w.bulk("limit");
        w.integer(0);
    }

    private static void writeFlags(RespWriter w, List<String> flags) {
        w.setHeader(flags.size());
        for (String flag : flags) {
            w.simple(flag);
        }
    }

    private static void writeKeySpecFlags(RespWriter w, CommandSpec spec) {
        if (spec.has(CommandFlags.WRITE)) {
            w.setHeader(1);
            w.simple("RW");
        } else if (spec.has(CommandFlags.READONLY)) {
            w.setHeader(2);
            w.simple("RO");
            w.simple("access");
        } else {
            w.setHeader(1);
            w.simple("RO");
        }
    }

    /** The COMMAND DOCS map of {@code spec}: summary, since, group, complexity, arguments, subcommands. */
    static void writeDocs(RespWriter w, CommandSpec spec) {
        List<CommandSyntax.Argument> arguments = arguments(spec);
        boolean complexity = !spec.complexity().isEmpty();
        w.mapHeader(3 + (complexity ? 1 : 0) + (arguments.isEmpty() ? 0 : 1)
                + (spec.subcommands().isEmpty() ? 0 : 1));
        w.bulk("summary");
        w.bulk(spec.summary());
        w.bulk("since");
        w.bulk(spec.since());
        w.bulk("group");
        w.bulk(spec.group().docName());
        if (complexity) {
            w.bulk("complexity");
            w.bulk(spec.complexity());
        }
        if (!arguments.isEmpty()) {
            w.bulk("arguments");
            // key arguments are numbered in order when the command declares its key specs
            writeArguments(w, arguments, spec.firstKey() > 0, spec.keySpecs().isEmpty() ? null : new int[1]);
        }
        if (!spec.subcommands().isEmpty()) {
            w.bulk("subcommands");
            w.mapHeader(spec.subcommands().size());
            for (CommandSpec sub : spec.subcommands()) {
                w.bulk(sub.fullName());
                writeDocs(w, sub);
            }
        }
    }

    /** The parsed argument tree of {@code spec}'s syntax line, parsed once per spec. */
    static List<CommandSyntax.Argument> arguments(CommandSpec spec) {
        return ARGUMENTS.computeIfAbsent(spec, CommandSyntax::arguments);
    }

    private static void writeArguments(RespWriter w, List<CommandSyntax.Argument> arguments, boolean hasKeySpec,
            int[] nextKeySpec) {
        w.arrayHeader(arguments.size());
        for (CommandSyntax.Argument arg : arguments) {
            boolean keySpecIndex = hasKeySpec && arg.type.equals(CommandSyntax.KEY);
            int flagCount = (arg.optional ? 1 : 0) + (arg.multiple ? 1 : 0) + (arg.multipleToken ? 1 : 0);
            w.mapHeader(2 + (keySpecIndex ? 1 : 0) + (arg.token != null ? 1 : 0) + (flagCount > 0 ? 1 : 0)
                    + (arg.arguments.isEmpty() ? 0 : 1));
            w.bulk("name");
            w.bulk(arg.name);
            w.bulk("type");
            w.bulk(arg.type);
            if (keySpecIndex) {
                w.bulk("key_spec_index");
                w.integer(nextKeySpec == null ? 0 : nextKeySpec[0]++);
            }
            if (arg.token != null) {
                w.bulk("token");
                w.bulk(arg.token);
            }
            if (flagCount > 0) {
                w.bulk("flags");
                w.setHeader(flagCount);
                if (arg.optional) {
                    w.simple("optional");
                }
                if (arg.multiple) {
                    w.simple("multiple");
                }
                if (arg.multipleToken) {
                    w.simple("multiple_token");
                }
            }
            if (!arg.arguments.isEmpty()) {
                w.bulk("arguments");
                writeArguments(w, arg.arguments, hasKeySpec, nextKeySpec);
            }
        }
    }
}
