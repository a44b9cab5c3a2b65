package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.replication.Failover;
import dev.ebb.server.replication.PrimaryLink;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The commands that change a node's role (the primary side's protocol is {@link ReplicationCommands}):
 * REPLICAOF host port / REPLICAOF NO ONE and its old name SLAVEOF, and FAILOVER, with Redis 7.2.4's
 * replies. The work is {@link PrimaryLink}'s and {@link Failover}'s.
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
                        .complexity("O(1)"),
                spec("failover", -1, ADMIN | NOSCRIPT | STALE, 0, 0, 0, ReplicaOfCommands::failover)
                        .doc(CommandGroup.SERVER, "6.2.0", "Starts a coordinated failover from a server to one of"
                                + " its replicas.", "[TO host port [FORCE]] [ABORT] [TIMEOUT milliseconds]")
                        .complexity("O(1)"));
    }

    /** REPLICAOF host port | NO ONE (and SLAVEOF). */
    static void replicaof(Client c, byte[][] argv) {
        if (c.server().clusterEnabled()) {
            c.reply().error(Errors.REPLICAOF_IN_CLUSTER);
            return;
        }
        if (c.server().replicationPrimary().failover().inProgress()) {
            c.reply().error(Errors.REPLICAOF_FAILING_OVER);
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

    /** FAILOVER [TO host port [FORCE]] [ABORT] [TIMEOUT ms], parsed and checked in Redis 7.2.4's order. */
    static void failover(Client c, byte[][] argv) {
        if (c.server().clusterEnabled()) {
            c.reply().error(Errors.FAILOVER_IN_CLUSTER);
            return;
        }
        Failover failover = c.server().replicationPrimary().failover();
        if (argv.length == 2 && Arguments.is(argv[1], "abort")) {
            if (failover.abort()) {
                c.reply().ok();
            } else {
                c.reply().error(Errors.FAILOVER_NOT_IN_PROGRESS);
            }
            return;
        }
        long timeoutMs = 0;
        boolean force = false;
        long port = 0;
        String host = null;
        for (int j = 1; j < argv.length; j++) {
            if (Arguments.is(argv[j], "timeout") && j + 1 < argv.length && timeoutMs == 0) {
                if (!Arguments.isLongOrReply(c, argv[j + 1])) {
                    return;
                }
                timeoutMs = Arguments.parseLong(argv[j + 1]);
                if (timeoutMs <= 0) {
                    c.reply().error(Errors.FAILOVER_TIMEOUT);
                    return;
                }
                j++;
            } else if (Arguments.is(argv[j], "to") && j + 2 < argv.length && host == null) {
                if (!Arguments.isLongOrReply(c, argv[j + 2])) {
                    return;
                }
                port = Arguments.parseLong(argv[j + 2]);
                host = new String(argv[j + 1], StandardCharsets.ISO_8859_1);
                j += 2;
            } else if (Arguments.is(argv[j], "force") && !force) {
                force = true;
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        String error = failover.start(host, port < 0 || port > 65535 ? -1 : (int) port, timeoutMs, force);
        if (error != null) {
            c.reply().error(error);
        } else {
            c.reply().ok();
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
