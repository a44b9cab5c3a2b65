package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.ALLOW_BUSY;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.NO_MULTI;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.server.ShutdownSequence;
import dev.ebb.server.config.ConfigCommandException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Server administration: CONFIG (GET, SET, RESETSTAT, REWRITE, HELP), SHUTDOWN, DEBUG (SLEEP,
 * HELP), ROLE and LASTSAVE.
 *
 * <p>Persistence: Ebb has none, and answers as a Redis that has never saved would. LASTSAVE is the
 * start time; SHUTDOWN stops at once (save points are not honoured), but SHUTDOWN SAVE fails as a
 * Redis whose save fails does, unless FORCE is given. SAVE and BGSAVE are not offered at all:
 * replying OK would claim a snapshot that does not exist.
 *
 * <p>DEBUG: refused at dispatch ({@code Server.call}) unless {@code enable-debug-command} allows the
 * client, as in Redis 7, whose default is "no".
 */
public final class ServerCommands {
    /** The leading number of a strtod argument: Redis's DEBUG SLEEP reads "0.5s" as 0.5 and "abc" as 0. */
    private static final Pattern LEADING_NUMBER = Pattern.compile("^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private ServerCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        long admin = ADMIN | NOSCRIPT | LOADING | STALE;
        return List.of(
                CommandSpec.container("config", -2, 0)
                        .doc(CommandGroup.SERVER, "2.0.0", "A container for server configuration commands.", "")
                        .complexity("Depends on subcommand.")
                        .sub(spec("get", -3, admin, 0, 0, 0, ServerCommands::configGet)
                                .doc(CommandGroup.SERVER, "2.0.0",
                                        "Returns the effective values of configuration parameters.",
                                        "parameter [parameter ...]")
                                .complexity("O(N) when N is the number of configuration parameters provided"))
                        .sub(spec("set", -4, admin, 0, 0, 0, ServerCommands::configSet)
                                .doc(CommandGroup.SERVER, "2.0.0", "Sets configuration parameters in-flight.",
                                        "parameter value [parameter value ...]")
                                .complexity("O(N) when N is the number of configuration parameters provided"))
                        .sub(spec("resetstat", 2, admin, 0, 0, 0, ServerCommands::configResetstat)
                                .doc(CommandGroup.SERVER, "2.0.0", "Resets the server's statistics.", "")
                                .complexity("O(1)"))
                        .sub(spec("rewrite", 2, admin, 0, 0, 0, ServerCommands::configRewrite)
                                .doc(CommandGroup.SERVER, "2.8.0", "Persists the effective configuration to file.", "")
                                .complexity("O(1)"))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, ServerCommands::configHelp)
                                .doc(CommandGroup.SERVER, "5.0.0",
                                        "Returns helpful text about the different subcommands.", "")
                                .complexity("O(1)")),
                spec("shutdown", -1, admin | NO_MULTI | ALLOW_BUSY, 0, 0, 0, ServerCommands::shutdown)
                        .doc(CommandGroup.SERVER, "1.0.0",
                                "Synchronously saves the database(s) to disk and shuts down the Redis server.",
                                "[NOSAVE | SAVE] [NOW] [FORCE] [ABORT]")
                        .complexity("O(N) when saving, where N is the total number of keys in all databases when"
                                + " saving data, otherwise O(1)"),
                spec("debug", -2, admin, 0, 0, 0, ServerCommands::debug)
                        .doc(CommandGroup.SERVER, "1.0.0", "A container for debugging commands.",
                                "<RELOAD [NOSAVE] | SLEEP delay | HELP>")
                        .complexity("Depends on subcommand."),
                spec("role", 1, NOSCRIPT | LOADING | STALE | FAST, 0, 0, 0, ServerCommands::role)
                        .doc(CommandGroup.SERVER, "2.8.12", "Returns the replication role.", "")
                        .complexity("O(1)"),
                spec("lastsave", 1, LOADING | STALE | FAST, 0, 0, 0, ServerCommands::lastsave)
                        .doc(CommandGroup.SERVER, "1.0.0",
                                "Returns the Unix timestamp of the last successful save to disk.", "")
                        .complexity("O(1)"),
                spec("time", 1, LOADING | STALE | FAST, 0, 0, 0, ServerCommands::time)
                        .doc(CommandGroup.SERVER, "2.6.0", "Returns the server time.", "")
                        .complexity("O(1)"));
    }

    /** CONFIG GET pattern …: a map of directive to value, each directive once. */
    static void configGet(Client c, byte[][] argv) {
        String[] patterns = new String[argv.length - 2];
        for (int i = 2; i < argv.length; i++) {
            patterns[i - 2] = new String(argv[i], StandardCharsets.ISO_8859_1);
        }
        List<Map.Entry<String, String>> entries = c.server().config().configGet(patterns);
        RespWriter w = c.reply();
        w.mapHeader(entries.size());
        for (Map.Entry<String, String> entry : entries) {
            w.bulk(entry.getKey());
            w.bulk(entry.getValue());
        }
    }

    /** CONFIG SET name value …: all or nothing, with the config subsystem's Redis error texts. */
    static void configSet(Client c, byte[][] argv) {
        List<String> pairs = new ArrayList<>(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            pairs.add(Arguments.text(argv[i]));
        }
        for (int i = 2; i + 1 < argv.length; i += 2) {
            if (c.server().config().isSensitive(pairs.get(i - 2))) {
                dev.ebb.server.monitor.SlowLog.redact(argv, i + 1);
            }
        }
        try {
            c.server().config().configSet(pairs);
        } catch (ConfigCommandException e) {
            c.reply().error(e.getMessage());
            return;
        }
        c.reply().ok();
    }

    /**
     * CONFIG RESETSTAT: the INFO counters, the expired-key counts, the active expiry statistics,
     * commandstats and errorstats.
     */
    static void configResetstat(Client c, byte[][] argv) {
        Server s = c.server();
        s.stats().reset();
        s.memoryGuard().resetStats();
        for (int i = 0; i < s.databases(); i++) {
            s.db(i).resetStats();
        }
        s.expireCycle().resetStats();
        s.commandStats().reset();
        s.errorStats().reset();
        c.reply().ok();
    }

    static void configRewrite(Client c, byte[][] argv) {
        try {
            c.server().config().configRewrite();
        } catch (ConfigCommandException e) {
            c.reply().error(e.getMessage());
            return;
        }
        c.reply().ok();
    }

    static void configHelp(Client c, byte[][] argv) {
        CommandDocs.replyHelp(c, "CONFIG",
                "GET <pattern>",
                "    Return parameters matching the glob-like <pattern> and their values.",
                "SET <directive> <value>",
                "    Set the configuration <directive> to <value>.",
                "RESETSTAT",
                "    Reset statistics reported by the INFO command.",
                "REWRITE",
                "    Rewrite the configuration file.");
    }

    /**
     * SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT]. There is never a shutdown in progress to abort:
     * Ebb stops as soon as it is asked, by {@link ShutdownSequence} (saving first as SAVE, NOSAVE and
     * the save points say; a failed save refuses unless FORCE). On success no reply is sent; the connection closes as the server stops.
     */
    static void shutdown(Client c, byte[][] argv) {
        boolean save = false;
        boolean nosave = false;
        boolean force = false;
        boolean abort = false;
        boolean now = false;
        for (int i = 1; i < argv.length; i++) {
            if (Arguments.is(argv[i], "nosave")) {
                nosave = true;
            } else if (Arguments.is(argv[i], "save")) {
                save = true;
            } else if (Arguments.is(argv[i], "now")) {
                now = true;
            } else if (Arguments.is(argv[i], "force")) {
                force = true;
            } else if (Arguments.is(argv[i], "abort")) {
                abort = true;
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        if ((abort && (save || nosave || now || force)) || (save && nosave)) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        if (abort) {
            c.reply().error(Errors.NO_SHUTDOWN_IN_PROGRESS);
            return;
        }
        if (!ShutdownSequence.run(c.server(), save, nosave, force)) {
            c.reply().error(Errors.SHUTDOWN_FAILED);
        }
    }

    /** DEBUG subcommand …, dispatched here as Redis does (its errors name the subcommand). */
    static void debug(Client c, byte[][] argv) {
        if (Arguments.is(argv[1], "help") && argv.length == 2) {
            CommandDocs.replyHelp(c, "DEBUG",
                    "LOADAOF",
                    "    Flush the AOF buffers on disk and reload the AOF in memory.",
                    "POPULATE <count> [<prefix>] [<size>]",
                    "    Create <count> string keys named key:<num>. If <prefix> is specified then",
                    "    it is used instead of the 'key' prefix. These are not propagated to",
                    "    replicas. Cluster slots are not respected so keys not belonging to the",
                    "    current node can be created in cluster mode.",
                    "RELOAD [NOSAVE]",
                    "    Save the RDB on disk and reload it back to memory. With NOSAVE, load the",
                    "    existing RDB file without saving first.",
                    "SLEEP <seconds>",
                    "    Stop the server for <seconds>. Decimals allowed.");
        } else if (Arguments.is(argv[1], "sleep") && argv.length == 3) {
            debugSleep(c, argv[2]);
        } else if (Arguments.is(argv[1], "reload")) {
            debugReload(c, argv);
        } else if (Arguments.is(argv[1], "loadaof")) {
            String error = c.server().aof().debugLoad(c);
            if (error == null) {
                c.reply().ok();
            } else {
                c.reply().error(error);
            }
        } else if (Arguments.is(argv[1], "populate") && argv.length >= 3 && argv.length <= 5) {
            debugPopulate(c, argv);
        } else {
            c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "DEBUG"));
        }
    }

    /**
     * DEBUG RELOAD [MERGE] [NOFLUSH] [NOSAVE], as Redis's: saves the RDB file (unless NOSAVE), then
     * replaces the dataset with the file's; NOFLUSH adds the file's keys to the dataset instead, and
     * MERGE lets a key of the file replace one that exists (see {@code Persistence.debugReload}).
     */
    private static void debugReload(Client c, byte[][] argv) {
        boolean save = true;
        boolean merge = false;
        boolean noflush = false;
        for (int i = 2; i < argv.length; i++) {
            if (Arguments.is(argv[i], "nosave")) {
                save = false;
            } else if (Arguments.is(argv[i], "merge")) {
                merge = true;
            } else if (Arguments.is(argv[i], "noflush")) {
                noflush = true;
            } else {
                c.reply().error("ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.");
                return;
            }
        }
        String error = c.server().persistence().debugReload(save, merge, noflush);
        if (error == null) {
            c.reply().ok();
        } else {
            c.reply().error(error);
        }
    }

    /**
     * DEBUG POPULATE count [prefix] [size], as Redis's: keys {@code prefix:N} (prefix {@code key})
     * for N in [0, count) holding {@code value:N}, or, with a size, that text cut or zero-padded to
     * size bytes; a key that exists is left alone. Not propagated, cluster slots not checked (as in
     * Redis); WATCH and client tracking see the new keys.
     */
    private static void debugPopulate(Client c, byte[][] argv) {
        long count = positiveOrReply(c, argv[2]);
        long size = argv.length == 5 ? positiveOrReply(c, argv[4]) : 0;
        if (count < 0 || size < 0) {
            return;
        }
        if (size > c.server().config().protoMaxBulkLen()) {
            // Ebb's guard (a Java array has at most 2^31 bytes); Redis would try to allocate it.
            c.reply().error("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
            return;
        }
        String prefix = argv.length >= 4 ? new String(argv[3], StandardCharsets.ISO_8859_1) + ":" : "key:";
        dev.ebb.storage.Database db = c.db();
        long now = c.server().nowMs();
        for (long j = 0; j < count; j++) {
            byte[] key = (prefix + j).getBytes(StandardCharsets.ISO_8859_1);
            if (db.lookupWrite(key, now) != null) {
                continue;
            }
            byte[] text = ("value:" + j).getBytes(StandardCharsets.US_ASCII);
            byte[] value = size == 0 ? text : java.util.Arrays.copyOf(text, (int) size);
            db.add(key, Strings.stored(c, value), now);
        }
        c.reply().ok();
    }

    /** A non-negative integer argument, or -1 after replying Redis's getPositiveLongFromObjectOrReply error. */
    private static long positiveOrReply(Client c, byte[] arg) {
        long v;
        try {
            v = Arguments.parseLong(arg);
        } catch (NumberFormatException e) {
            v = -1;
        }
        if (v < 0) {
            c.reply().error(Errors.NOT_POSITIVE);
            return -1;
        }
        return v;
    }

    /**
     * DEBUG SLEEP seconds: blocks the command loop, and so every client, like Redis. The argument is
     * read as C's strtod would: its leading number, 0 if there is none.
     */
    private static void debugSleep(Client c, byte[] arg) {
        Matcher m = LEADING_NUMBER.matcher(new String(arg, StandardCharsets.ISO_8859_1));
        double seconds = m.find() ? Double.parseDouble(m.group().trim()) : 0;
        long micros = (long) (seconds * 1_000_000);
        if (micros > 0) {
            try {
                TimeUnit.MICROSECONDS.sleep(micros);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        c.reply().ok();
    }

    /** ROLE of a primary: {@code master}, the replication offset, and each online replica's address and acked offset. */
    static void role(Client c, byte[][] argv) {
        if (c.server().primaryLink().active()) {
            c.server().primaryLink().role(c.reply());
            return;
        }
        c.server().replicationPrimary().role(c.reply());
    }

    /** LASTSAVE: unix seconds of the last successful save; the start time before any, as in Redis. */
    static void lastsave(Client c, byte[][] argv) {
        c.reply().integer(c.server().persistence().lastSaveSeconds());
    }

    /**
     * TIME: the wall clock as unix seconds and the microseconds within that second, two bulk
     * strings, as Redis's ustime(). It reads the real clock, not the command clock, which a test's
     * manual clock may hold still.
     */
    static void time(Client c, byte[][] argv) {
        java.time.Instant now = java.time.Instant.now();
        c.reply().arrayHeader(2).bulk(now.getEpochSecond()).bulk(now.getNano() / 1000);
    }
}
