package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ALLOW_BUSY;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.MAY_REPLICATE;
import static dev.ebb.server.command.CommandFlags.MOVABLE_KEYS;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.NO_MANDATORY_KEYS;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.SKIP_MONITOR;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.container;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.script.Scripting;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Lua scripting: EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT LOAD/EXISTS/FLUSH/KILL/HELP. The
 * engine is {@link Scripting}; this family parses arguments and picks the script.
 */
public final class ScriptingCommands {
    static final String NOSCRIPT_ERROR = "NOSCRIPT No matching script. Please use EVAL.";
    static final String NEGATIVE_KEYS = "ERR Number of keys can't be negative";
    static final String TOO_MANY_KEYS = "ERR Number of keys can't be greater than number of args";
    static final String FLUSH_SYNTAX = "ERR SCRIPT FLUSH only support SYNC|ASYNC option";

    private static final String[] SCRIPT_HELP = {
        "SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "EXISTS <sha1> [<sha1> ...]",
        "    Return information about the existence of the scripts in the script cache.",
        "FLUSH [ASYNC|SYNC]",
        "    Flush the Lua scripts cache. Very dangerous on replicas.",
        "    When called without the optional mode argument, the behavior is determined by the",
        "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
        "    * ASYNC: Asynchronously flush the scripts cache.",
        "    * SYNC: Synchronously flush the scripts cache.",
        "KILL",
        "    Kill the currently executing Lua script.",
        "LOAD <script>",
        "    Load a script into the scripts cache without executing it.",
        "HELP",
        "    Print this help.",
    };

    private ScriptingCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        long evalFlags = NOSCRIPT | STALE | SKIP_MONITOR | NO_MANDATORY_KEYS | MOVABLE_KEYS;
        String evalSyntax = "script numkeys [key [key ...]] [arg [arg ...]]";
        String evalShaSyntax = "sha1 numkeys [key [key ...]] [arg [arg ...]]";
        return Arrays.asList(
                spec("eval", -3, evalFlags | MAY_REPLICATE, 0, 0, 0, ScriptingCommands::eval)
                        .doc(CommandGroup.SCRIPTING, "2.6.0", "Executes a server-side Lua script.", evalSyntax),
                spec("evalsha", -3, evalFlags | MAY_REPLICATE, 0, 0, 0, ScriptingCommands::evalSha)
                        .doc(CommandGroup.SCRIPTING, "2.6.0", "Executes a server-side Lua script by SHA1 digest.",
                                evalShaSyntax),
                spec("eval_ro", -3, READONLY | evalFlags, 0, 0, 0, ScriptingCommands::evalReadOnly)
                        .doc(CommandGroup.SCRIPTING, "7.0.0", "Executes a read-only server-side Lua script.",
                                evalSyntax),
                spec("evalsha_ro", -3, READONLY | evalFlags, 0, 0, 0, ScriptingCommands::evalShaReadOnly)
                        .doc(CommandGroup.SCRIPTING, "7.0.0",
                                "Executes a read-only server-side Lua script by SHA1 digest.", evalShaSyntax),
                container("script", -2, 0)
                        .doc(CommandGroup.SCRIPTING, "2.6.0", "A container for Lua scripts management commands.", "")
                        .sub(spec("load", 3, NOSCRIPT | STALE, 0, 0, 0, ScriptingCommands::scriptLoad)
                                .doc(CommandGroup.SCRIPTING, "2.6.0",
                                        "Loads a server-side Lua script to the script cache.", "script"))
                        .sub(spec("exists", -3, NOSCRIPT, 0, 0, 0, ScriptingCommands::scriptExists)
                                .doc(CommandGroup.SCRIPTING, "2.6.0",
                                        "Determines whether server-side Lua scripts exist in the script cache.",
                                        "sha1 [sha1 ...]"))
                        .sub(spec("flush", -2, NOSCRIPT, 0, 0, 0, ScriptingCommands::scriptFlush)
                                .doc(CommandGroup.SCRIPTING, "2.6.0",
                                        "Removes all server-side Lua scripts from the script cache.", "[ASYNC | SYNC]"))
                        .sub(spec("kill", 2, NOSCRIPT | ALLOW_BUSY, 0, 0, 0, ScriptingCommands::scriptKill)
                                .doc(CommandGroup.SCRIPTING, "2.6.0",
                                        "Terminates a server-side Lua script during execution.", ""))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, ScriptingCommands::scriptHelp)
                                .doc(CommandGroup.SCRIPTING, "5.0.0",
                                        "Returns helpful text about the different subcommands.", "")));
    }

    static void eval(Client c, byte[][] argv) {
        evalGeneric(c, argv, false, false);
    }

    static void evalSha(Client c, byte[][] argv) {
        evalGeneric(c, argv, true, false);
    }

    static void evalReadOnly(Client c, byte[][] argv) {
        evalGeneric(c, argv, false, true);
    }

    static void evalShaReadOnly(Client c, byte[][] argv) {
        evalGeneric(c, argv, true, true);
    }

    /** EVAL and its variants: feed MONITOR, check numkeys, find (or compile) the script, run it with KEYS and ARGV. */
    private static void evalGeneric(Client c, byte[][] argv, boolean bySha, boolean readOnly) {
        // As Redis: EVAL skips the usual after-command MONITOR feed and is fed here, first, so the
        // commands the script runs (fed as "lua") follow it, and a NOSCRIPT call still shows.
        if (!c.server().monitors().isEmpty()) {
            c.server().monitors().feed(c.server(), c, argv);
        }
        if (!Arguments.isLongOrReply(c, argv[2])) {
            return;
        }
        long numKeys = Arguments.parseLong(argv[2]);
        if (numKeys < 0) {
            c.reply().error(NEGATIVE_KEYS);
            return;
        }
        if (numKeys > argv.length - 3) {
            c.reply().error(TOO_MANY_KEYS);
            return;
        }
        Scripting scripting = c.server().scripting();
        String sha;
        if (bySha) {
            sha = shaArgument(argv[1]);
            if (sha == null || !scripting.exists(sha)) {
                c.reply().error(NOSCRIPT_ERROR);
                return;
            }
        } else {
            sha = scripting.load(c, argv[1]);
            if (sha == null) {
                return;
            }
        }
        int keysEnd = 3 + (int) numKeys;
        scripting.run(c, sha, Arrays.copyOfRange(argv, 3, keysEnd), Arrays.copyOfRange(argv, keysEnd, argv.length),
                readOnly);
    }

    /** The lower-case form of a SHA1 argument, or null if it cannot name a script (not 40 characters). */
    private static String shaArgument(byte[] arg) {
        if (arg.length != 40) {
            return null;
        }
        return new String(arg, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    }

    static void scriptLoad(Client c, byte[][] argv) {
        String sha = c.server().scripting().load(c, argv[2]);
        if (sha != null) {
            c.reply().bulk(sha);
        }
    }

    static void scriptExists(Client c, byte[][] argv) {
        Scripting scripting = c.server().scripting();
        c.reply().arrayHeader(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            String sha = shaArgument(argv[i]);
            c.reply().integer(sha != null && scripting.exists(sha) ? 1 : 0);
        }
    }

    static void scriptFlush(Client c, byte[][] argv) {
        if (argv.length > 3 || (argv.length == 3 && !Arguments.is(argv[2], "sync") && !Arguments.is(argv[2], "async"))) {
            c.reply().error(FLUSH_SYNTAX);
            return;
        }
        c.server().scripting().flush();
        c.reply().ok();
    }

    static void scriptKill(Client c, byte[][] argv) {
        c.server().scripting().kill(c, true);
    }

    static void scriptHelp(Client c, byte[][] argv) {
        c.reply().arrayHeader(SCRIPT_HELP.length);
        for (String line : SCRIPT_HELP) {
            c.reply().simple(line);
        }
    }
}
