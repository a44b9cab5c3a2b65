package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ALLOW_BUSY;
import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.MAY_REPLICATE;
import static dev.ebb.server.command.CommandFlags.MOVABLE_KEYS;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.NO_MANDATORY_KEYS;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.SKIP_MONITOR;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.container;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.script.FunctionException;
import dev.ebb.server.script.FunctionLibrary;
import dev.ebb.server.script.Functions;
import dev.ebb.server.script.LibraryFunction;
import dev.ebb.server.script.Scripting;
import dev.ebb.server.util.Glob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Redis 7 Functions: FUNCTION LOAD/DELETE/FLUSH/LIST/DUMP/RESTORE/STATS/KILL/HELP, FCALL and
 * FCALL_RO. The libraries are {@link Functions}'; a function runs in the shared Lua engine
 * ({@link Scripting#call}), with EVAL's sandbox, {@code redis.call} bridge, busy handling and
 * KILL. A function's flags act as Redis's: {@link #commandFlags} gives FCALL the WRITE, DENYOOM
 * and STALE flags they imply, so the dispatcher refuses a function without {@code allow-oom} or
 * {@code no-writes} over maxmemory; {@code no-writes} makes the run read-only and lets FCALL_RO
 * run it; {@code no-cluster} refuses it in cluster mode; without {@code allow-cross-slot-keys}
 * its commands keep to one slot in cluster mode; {@code allow-stale} changes nothing while Ebb
 * has no replication.
 */
public final class FunctionCommands {
    static final String FUNCTION_NOT_FOUND = "ERR Function not found";
    static final String BAD_NUMKEYS = "ERR Bad number of keys provided";
    static final String NO_CLUSTER = "ERR Can not run script on cluster, 'no-cluster' flag is set.";
    static final String WRITE_WITH_RO = "ERR Can not execute a script with write flag using *_ro command.";
    static final String CODE_MISSING = "ERR Function code is missing";
    static final String LIBRARY_NOT_FOUND = "ERR Library not found";
    static final String NO_LIBRARY_NAME = "ERR library name argument was not given";
    static final String FLUSH_SYNTAX = "ERR FUNCTION FLUSH only supports SYNC|ASYNC option";
    static final String RESTORE_POLICY = "ERR Wrong restore policy given, value should be either FLUSH, APPEND or"
            + " REPLACE.";
    static final String BAD_PAYLOAD = "ERR DUMP payload version or checksum are wrong";

    private static final String[] HELP = {
        "FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "LOAD [REPLACE] <FUNCTION CODE>",
        "    Create a new library with the given library name and code.",
        "DELETE <LIBRARY NAME>",
        "    Delete the given library.",
        "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
        "    Return general information on all the libraries:",
        "    * Library name",
        "    * The engine used to run the Library",
        "    * Library description",
        "    * Functions list",
        "    * Library code (if WITHCODE is given)",
        "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
        "STATS",
        "    Return information about the current function running:",
        "    * Function name",
        "    * Command used to run the function",
        "    * Duration in MS that the function is running",
        "    If no function is running, return nil",
        "    In addition, returns a list of available engines.",
        "KILL",
        "    Kill the current running function.",
        "FLUSH [ASYNC|SYNC]",
        "    Delete all the libraries.",
        "    When called without the optional mode argument, the behavior is determined by the",
        "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
        "    * ASYNC: Asynchronously flush the libraries.",
        "    * SYNC: Synchronously flush the libraries.",
        "DUMP",
        "    Return a serialized payload representing the current libraries, can be restored using FUNCTION"
                + " RESTORE command",
        "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
        "    Restore the libraries represented by the given payload, it is possible to give a restore policy to",
        "    control how to handle existing libraries (default APPEND):",
        "    * FLUSH: delete all existing libraries.",
        "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
        "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old",
        "      libraries with the new libraries (notice that even on this option there is a chance of failure",
        "      in case of functions name collision with another library).",
        "HELP",
        "    Print this help.",
    };

    private FunctionCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        long fcallFlags = NOSCRIPT | SKIP_MONITOR | MAY_REPLICATE | NO_MANDATORY_KEYS | STALE | MOVABLE_KEYS;
        String fcallSyntax = "function numkeys [key [key ...]] [arg [arg ...]]";
        return Arrays.asList(
                spec("fcall", -3, fcallFlags, 0, 0, 0, FunctionCommands::fcall)
                        .flagsFrom(FunctionCommands::commandFlags)
                        .doc(CommandGroup.SCRIPTING, "7.0.0", "Invokes a function.", fcallSyntax),
                spec("fcall_ro", -3, READONLY | fcallFlags, 0, 0, 0, FunctionCommands::fcallReadOnly)
                        .flagsFrom(FunctionCommands::commandFlags)
                        .doc(CommandGroup.SCRIPTING, "7.0.0", "Invokes a read-only function.", fcallSyntax),
                container("function", -2, 0)
                        .doc(CommandGroup.SCRIPTING, "7.0.0", "A container for function commands.", "")
                        .sub(spec("load", -3, WRITE | DENYOOM | NOSCRIPT, 0, 0, 0, FunctionCommands::load)
                                .doc(CommandGroup.SCRIPTING, "7.0.0", "Creates a library.", "[REPLACE] function-code"))
                        .sub(spec("delete", 3, WRITE | NOSCRIPT, 0, 0, 0, FunctionCommands::delete)
                                .doc(CommandGroup.SCRIPTING, "7.0.0", "Deletes a library and its functions.",
                                        "library-name"))
                        .sub(spec("flush", -2, WRITE | NOSCRIPT, 0, 0, 0, FunctionCommands::flush)
                                .doc(CommandGroup.SCRIPTING, "7.0.0", "Deletes all libraries and functions.",
                                        "[ASYNC | SYNC]"))
                        .sub(spec("list", -2, NOSCRIPT, 0, 0, 0, FunctionCommands::list)
                                .doc(CommandGroup.SCRIPTING, "7.0.0", "Returns information about all libraries.",
                                        "[LIBRARYNAME library-name-pattern] [WITHCODE]"))
                        .sub(spec("dump", 2, NOSCRIPT, 0, 0, 0, FunctionCommands::dump)
                                .doc(CommandGroup.SCRIPTING, "7.0.0",
                                        "Dumps all libraries into a serialized binary payload.", ""))
                        .sub(spec("restore", -3, WRITE | DENYOOM | NOSCRIPT, 0, 0, 0, FunctionCommands::restore)
                                .doc(CommandGroup.SCRIPTING, "7.0.0",
                                        "Restores all libraries from a payload.",
                                        "serialized-value [FLUSH | APPEND | REPLACE]"))
                        .sub(spec("stats", 2, NOSCRIPT | ALLOW_BUSY, 0, 0, 0, FunctionCommands::stats)
                                .doc(CommandGroup.SCRIPTING, "7.0.0",
                                        "Returns information about a function during execution.", ""))
                        .sub(spec("kill", 2, NOSCRIPT | ALLOW_BUSY, 0, 0, 0, FunctionCommands::kill)
                                .doc(CommandGroup.SCRIPTING, "7.0.0", "Terminates a function during execution.", ""))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, FunctionCommands::help)
                                .doc(CommandGroup.SCRIPTING, "7.0.0",
                                        "Returns helpful text about the different subcommands.", "")));
    }

    /**
     * FCALL's flags for one command line, as Redis's scriptFlagsToCmdFlags: for a loaded function,
     * WRITE unless {@code no-writes}, DENYOOM unless {@code no-writes} or {@code allow-oom}, STALE
     * only with {@code allow-stale}, and no MAY_REPLICATE (its writes are known).
     */
    static long commandFlags(Client c, byte[][] argv, long declared) {
        LibraryFunction f = argv.length > 1 ? functions(c).function(argv[1]) : null;
        if (f == null) {
            return declared;
        }
        long flags = declared & ~(STALE | DENYOOM | WRITE | MAY_REPLICATE);
        if (!f.has(LibraryFunction.ALLOW_OOM) && !f.has(LibraryFunction.NO_WRITES)) {
            flags |= DENYOOM;
        }
        if (!f.has(LibraryFunction.NO_WRITES)) {
            flags |= WRITE;
        }
        if (f.has(LibraryFunction.ALLOW_STALE)) {
            flags |= STALE;
        }
        return flags;
    }

    private static Functions functions(Client c) {
        return c.server().scripting().functions();
    }

    static void fcall(Client c, byte[][] argv) {
        fcallGeneric(c, argv, false);
    }

    static void fcallReadOnly(Client c, byte[][] argv) {
        fcallGeneric(c, argv, true);
    }

    /** FCALL and FCALL_RO: feed MONITOR first, find the function, check numkeys and the flags, run it. */
    private static void fcallGeneric(Client c, byte[][] argv, boolean readOnly) {
        // As EVAL: fed to MONITOR before the commands the function runs.
        if (!c.server().monitors().isEmpty()) {
            c.server().monitors().feed(c.server(), c, argv);
        }
        LibraryFunction f = functions(c).function(argv[1]);
        if (f == null) {
            c.reply().error(FUNCTION_NOT_FOUND);
            return;
        }
        if (!Arguments.isLong(argv[2])) {
            c.reply().error(BAD_NUMKEYS);
            return;
        }
        long numKeys = Arguments.parseLong(argv[2]);
        if (numKeys > argv.length - 3) {
            c.reply().error(ScriptingCommands.TOO_MANY_KEYS);
            return;
        }
        if (numKeys < 0) {
            c.reply().error(ScriptingCommands.NEGATIVE_KEYS);
            return;
        }
        if (f.has(LibraryFunction.NO_CLUSTER) && c.server().clusterEnabled()) {
            c.reply().error(NO_CLUSTER);
            return;
        }
        if (readOnly && !f.has(LibraryFunction.NO_WRITES)) {
            c.reply().error(WRITE_WITH_RO);
            return;
        }
        int keysEnd = 3 + (int) numKeys;
        c.server().scripting().call(c, f, Arrays.copyOfRange(argv, 3, keysEnd),
                Arrays.copyOfRange(argv, keysEnd, argv.length), readOnly, argv);
    }

    /** FUNCTION LOAD [REPLACE] code. */
    static void load(Client c, byte[][] argv) {
        boolean replace = false;
        int pos = 2;
        while (pos < argv.length - 1) {
            byte[] option = argv[pos++];
            if (Arguments.is(option, "replace")) {
                replace = true;
                continue;
            }
            c.reply().error("ERR Unknown option given: " + Errors.printable(option));
            return;
        }
        if (pos >= argv.length) {
            c.reply().error(CODE_MISSING);
            return;
        }
        try {
            c.reply().bulk(functions(c).load(argv[pos], replace));
        } catch (FunctionException e) {
            c.reply().error("ERR " + e.getMessage());
        }
    }

    static void delete(Client c, byte[][] argv) {
        if (functions(c).delete(new String(argv[2], StandardCharsets.UTF_8))) {
            c.reply().ok();
        } else {
            c.reply().error(LIBRARY_NOT_FOUND);
        }
    }

    /** FUNCTION FLUSH [ASYNC|SYNC]: either way at once (the libraries are small and the JVM frees them). */
    static void flush(Client c, byte[][] argv) {
        if (argv.length > 3) {
            c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "FUNCTION"));
            return;
        }
        if (argv.length == 3 && !Arguments.is(argv[2], "sync") && !Arguments.is(argv[2], "async")) {
            c.reply().error(FLUSH_SYNTAX);
            return;
        }
        functions(c).flush();
        c.reply().ok();
    }

    /** FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE]: each library as a map, in load order. */
    static void list(Client c, byte[][] argv) {
        boolean withCode = false;
        byte[] pattern = null;
        for (int i = 2; i < argv.length; i++) {
            if (!withCode && Arguments.is(argv[i], "withcode")) {
                withCode = true;
                continue;
            }
            if (pattern == null && Arguments.is(argv[i], "libraryname")) {
                if (i >= argv.length - 1) {
                    c.reply().error(NO_LIBRARY_NAME);
                    return;
                }
                pattern = argv[++i];
                continue;
            }
            c.reply().error("ERR Unknown argument " + Errors.printable(argv[i]));
            return;
        }
        List<FunctionLibrary> matching = new ArrayList<>();
        for (FunctionLibrary library : functions(c).libraries()) {
            if (pattern == null || Glob.matches(pattern, library.name().getBytes(StandardCharsets.UTF_8), true)) {
                matching.add(library);
            }
        }
        c.reply().arrayHeader(matching.size());
        for (FunctionLibrary library : matching) {
            c.reply().mapHeader(withCode ? 4 : 3);
            c.reply().bulk("library_name").bulk(library.name());
            c.reply().bulk("engine").bulk(FunctionLibrary.ENGINE);
            c.reply().bulk("functions").arrayHeader(library.functions().size());
            for (LibraryFunction f : library.functions()) {
                c.reply().mapHeader(3);
                c.reply().bulk("name").bulk(f.name());
                c.reply().bulk("description");
                if (f.description() == null) {
                    c.reply().nullBulk();
                } else {
                    c.reply().bulk(f.description());
                }
                List<String> flags = f.flagNames();
                c.reply().bulk("flags").setHeader(flags.size());
                for (String flag : flags) {
                    c.reply().simple(flag);
                }
            }
            if (withCode) {
                c.reply().bulk("library_code").bulk(library.code());
            }
        }
    }

    static void dump(Client c, byte[][] argv) {
        c.reply().bulk(functions(c).dump());
    }

    /** FUNCTION RESTORE payload [FLUSH|APPEND|REPLACE]: APPEND by default. */
    static void restore(Client c, byte[][] argv) {
        if (argv.length > 4) {
            c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "FUNCTION"));
            return;
        }
        Functions.RestorePolicy policy = Functions.RestorePolicy.APPEND;
        if (argv.length == 4) {
            if (Arguments.is(argv[3], "append")) {
                policy = Functions.RestorePolicy.APPEND;
            } else if (Arguments.is(argv[3], "replace")) {
                policy = Functions.RestorePolicy.REPLACE;
            } else if (Arguments.is(argv[3], "flush")) {
                policy = Functions.RestorePolicy.FLUSH;
            } else {
                c.reply().error(RESTORE_POLICY);
                return;
            }
        }
        try {
            if (!functions(c).restore(argv[2], policy)) {
                c.reply().error(BAD_PAYLOAD);
                return;
            }
            c.reply().ok();
        } catch (FunctionException e) {
            c.reply().error("ERR " + e.getMessage());
        }
    }

    /** FUNCTION STATS: the running function (or null) and the engine's counts; EVAL's -BUSY while EVAL runs. */
    static void stats(Client c, byte[][] argv) {
        Scripting scripting = c.server().scripting();
        Scripting.RunningScript running = scripting.running();
        if (running != null && running.eval()) {
            c.reply().error(Scripting.BUSY_EVAL);
            return;
        }
        c.reply().mapHeader(2);
        c.reply().bulk("running_script");
        if (running == null) {
            c.reply().nullBulk();
        } else {
            c.reply().mapHeader(3);
            c.reply().bulk("name").bulk(running.name());
            c.reply().bulk("command").arrayHeader(running.argv().length);
            for (byte[] arg : running.argv()) {
                c.reply().bulk(arg);
            }
            c.reply().bulk("duration_ms").integer(running.durationMs());
        }
        c.reply().bulk("engines").mapHeader(1);
        c.reply().bulk(FunctionLibrary.ENGINE).mapHeader(2);
        c.reply().bulk("libraries_count").integer(scripting.functions().libraryCount());
        c.reply().bulk("functions_count").integer(scripting.functions().functionCount());
    }

    static void kill(Client c, byte[][] argv) {
        c.server().scripting().kill(c, false);
    }

    static void help(Client c, byte[][] argv) {
        c.reply().arrayHeader(HELP.length);
        for (String line : HELP) {
            c.reply().simple(line);
        }
    }
}
