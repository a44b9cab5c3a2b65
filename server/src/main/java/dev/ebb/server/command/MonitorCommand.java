package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import java.util.List;

/** MONITOR: streams every command the server runs to this client; the feed is {@link dev.ebb.server.pubsub.Monitors}. */
public final class MonitorCommand {
    private MonitorCommand() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(spec("monitor", 1, ADMIN | NOSCRIPT | LOADING | STALE, 0, 0, 0, MonitorCommand::monitor)
                .doc(CommandGroup.SERVER, "1.0.0", "Listens for all requests received by the server in real-time.",
                        ""));
    }

    /** Replies OK and starts the feed; a second MONITOR on the same connection is ignored without a reply, as in Redis. */
    static void monitor(Client c, byte[][] argv) {
        if (c.server().monitors().add(c)) {
            c.reply().ok();
        }
    }
}
