package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.container;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.monitor.SlowLog;
import java.util.Iterator;
import java.util.List;

/** SLOWLOG GET/LEN/RESET/HELP over the server's {@link SlowLog}. */
public final class SlowlogCommands {
    private static final String COUNT_RANGE = "ERR count should be greater than or equal to -1";
    private static final int DEFAULT_COUNT = 10;

    private SlowlogCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        long admin = ADMIN | LOADING | STALE;
        return List.of(
                container("slowlog", -2, 0)
                        .doc(CommandGroup.SERVER, "2.2.12", "A container for slow log commands.", "")
                        .complexity("Depends on subcommand.")
                        .sub(spec("get", -2, admin, 0, 0, 0, SlowlogCommands::get)
                                .doc(CommandGroup.SERVER, "2.2.12", "Returns the slow log's entries.", "[count]")
                                .complexity("O(N) where N is the number of entries returned"))
                        .sub(spec("len", 2, admin, 0, 0, 0, SlowlogCommands::len)
                                .doc(CommandGroup.SERVER, "2.2.12", "Returns the number of entries in the slow log.", "")
                                .complexity("O(1)"))
                        .sub(spec("reset", 2, admin, 0, 0, 0, SlowlogCommands::reset)
                                .doc(CommandGroup.SERVER, "2.2.12", "Clears all entries from the slow log.", "")
                                .complexity("O(N) where N is the number of entries in the slowlog"))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0, SlowlogCommands::slowlogHelp)
                                .doc(CommandGroup.SERVER, "6.2.0", "Show helpful text about the different subcommands",
                                        "")
                                .complexity("O(1)")));
    }

    /** SLOWLOG GET [count]: the newest {@code count} entries (10 by default, -1 for all). */
    static void get(Client c, byte[][] argv) {
        if (argv.length > 3) {
            c.reply().error(Errors.wrongArity("slowlog|get"));
            return;
        }
        SlowLog log = c.server().slowLog();
        long count = DEFAULT_COUNT;
        if (argv.length == 3) {
            count = Arguments.longOrReply(c, argv[2], COUNT_RANGE);
            if (count == Arguments.INVALID) {
                return;
            }
            if (count < -1) {
                c.reply().error(COUNT_RANGE);
                return;
            }
        }
        int n = count == -1 ? log.size() : (int) Math.min(count, log.size());
        RespWriter w = c.reply();
        w.arrayHeader(n);
        Iterator<SlowLog.Entry> it = log.newestFirst();
        for (int i = 0; i < n; i++) {
            SlowLog.Entry e = it.next();
            w.arrayHeader(6);
            w.integer(e.id());
            w.integer(e.unixSeconds());
            w.integer(e.durationMicros());
            w.arrayHeader(e.args().length);
            for (byte[] arg : e.args()) {
                w.bulk(arg);
            }
            w.bulk(e.addr());
            w.bulk(e.clientName());
        }
    }

    static void len(Client c, byte[][] argv) {
        c.reply().integer(c.server().slowLog().size());
    }

    static void reset(Client c, byte[][] argv) {
        c.server().slowLog().reset();
        c.reply().ok();
    }

    static void slowlogHelp(Client c, byte[][] argv) {
        CommandDocs.replyHelp(c, "SLOWLOG",
                "GET [<count>]",
                "    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
                "    Entries are made of:",
                "    id, timestamp, time in microseconds, arguments array, client IP and port,",
                "    client name",
                "LEN",
                "    Return the length of the slowlog.",
                "RESET",
                "    Reset the slowlog.");
    }
}
