package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.replication.PrimaryLink;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The replica side's commands (the primary side's are {@link ReplicationCommands}): REPLICAOF host port / REPLICAOF NO ONE and its old name SLAVEOF, with
 * Redis 7.2.4's replies. The work is {@link PrimaryLink}'s.
 */
public final class ReplicaOfCommands {
    private ReplicaOfCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("replicaof", 3, ADMIN | NOSCRIPT | STALE, 0, 0, 0, ReplicaOfCommands::replicaof)
                        .doc(CommandGroup.SERVER, "5.0.0", "Configures a server as replica of another, or promotes it"
                                + " to a master.", "host port")
                        .complexity("O(1)"),
                spec("slaveof", 3, ADMIN | NOSCRIPT | STALE, 0, 0, 0, ReplicaOfCommands::replicaof)
                        .doc(CommandGroup.SERVER, "1.0.0", "Sets a Redis server as a replica of another, or promotes"
                                + " it to being a master.", "host port")
                        .complexity("O(1)"));
    }

    /** REPLICAOF host port | NO ONE (and SLAVEOF). */
    static void replicaof(Client c, byte[][] argv) {
        if (c.server().clusterEnabled()) {
            c.reply().error(Errors.REPLICAOF_IN_CLUSTER);
            return;
        }
        PrimaryLink link = c.server().primaryLink();
        if (Arguments.is(argv[1], "no") && Arguments.is(argv[2], "one")) {
            link.promote();
            c.reply().ok();
            return;
        }
        int port = parsePort(argv[2]);
        if (port < 0) {
            c.reply().error(Errors.INVALID_MASTER_PORT);
            return;
        }
        String host = new String(argv[1], StandardCharsets.ISO_8859_1);
        if (link.replicaOf(host, port)) {
            c.reply().ok();
        } else {
            c.reply().simple("OK Already connected to specified master");
        }
    }

    private static int parsePort(byte[] arg) {
        try {
            long port = Long.parseLong(new String(arg, StandardCharsets.ISO_8859_1));
            return port < 0 || port > 65535 ? -1 : (int) port;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
