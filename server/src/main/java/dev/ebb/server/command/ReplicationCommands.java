package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.ALLOW_BUSY;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.NO_MULTI;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.replication.ReplicaLink;
import dev.ebb.server.replication.ReplicationPrimary;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The primary's side of the replication protocol: SYNC, PSYNC and REPLCONF as a replica sends them,
 * and WAIT. The links and the sync itself are {@link ReplicationPrimary}'s; this class parses and
 * answers with Redis 7.2's replies and errors (REPLCONF ACK and GETACK reply nothing).
 */
public final class ReplicationCommands {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicationCommands.class);

    private ReplicationCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("psync", -3, ADMIN | NOSCRIPT | NO_MULTI, 0, 0, 0, ReplicationCommands::psync)
                        .doc(CommandGroup.SERVER, "2.8.0", "An internal command used in replication.",
                                "replicationid offset"),
                spec("sync", 1, ADMIN | NOSCRIPT | NO_MULTI, 0, 0, 0, ReplicationCommands::sync)
                        .doc(CommandGroup.SERVER, "1.0.0", "An internal command used in replication.", ""),
                spec("replconf", -1, ADMIN | NOSCRIPT | LOADING | STALE | ALLOW_BUSY, 0, 0, 0,
                        ReplicationCommands::replconf)
                        .doc(CommandGroup.SERVER, "3.0.0", "An internal command for configuring the replication"
                                + " stream.", ""),
                spec("wait", 3, NOSCRIPT, 0, 0, 0, ReplicationCommands::waitCommand)
                        .doc(CommandGroup.GENERIC, "3.0.0", "Blocks until the asynchronous replication of all"
                                + " preceding write commands sent by the connection is completed.",
                                "numreplicas timeout"));
    }

    /**
     * PSYNC replid offset [FAILOVER]: +CONTINUE and the backlog from offset, or +FULLRESYNC and a
     * snapshot. With FAILOVER (a primary handing over to this replica) and our replid, this node is
     * promoted first, so that the old primary continues here as a replica.
     */
    static void psync(Client c, byte[][] argv) {
        boolean alreadyReplica = c.replicaLink() != null && c.replicaLink().isReplica();
        if (argv.length > 3 && Arguments.is(argv[3], "failover") && !alreadyReplica && !takeOver(c, argv[1])) {
            return;
        }
        long from;
        try {
            from = Arguments.parseLong(argv[2]);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.NOT_INTEGER);
            return;
        }
        c.server().replicationPrimary().sync(c, new String(argv[1], StandardCharsets.ISO_8859_1), from);
    }

    /** The target's side of FAILOVER; false (after an error reply) if the request is refused. */
    private static boolean takeOver(Client c, byte[] replid) {
        String id = new String(replid, StandardCharsets.ISO_8859_1);
        LOG.info("Failover request received for replid {}.", id);
        if (!c.server().primaryLink().active()) {
            c.reply().error(Errors.PSYNC_FAILOVER_ON_MASTER);
            return false;
        }
        if (!id.equals(c.server().replication().replid())) {
            c.reply().error(Errors.PSYNC_FAILOVER_REPLID);
            return false;
        }
        c.server().primaryLink().promote();
        LOG.info("MASTER MODE enabled (failover request from '{}')", c.addr());
        return true;
    }

    /** SYNC: the old protocol, a snapshot (no +FULLRESYNC line) then the stream. */
    static void sync(Client c, byte[][] argv) {
        c.server().replicationPrimary().sync(c, null, -1);
    }

    /**
     * REPLCONF option value …: listening-port, ip-address, capa, ack, getack, rdb-only,
     * rdb-filter-only, checked in order as Redis does (an error stops at that option).
     */
    static void replconf(Client c, byte[][] argv) {
        if (argv.length % 2 == 0) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        ReplicationPrimary primary = c.server().replicationPrimary();
        for (int i = 1; i < argv.length; i += 2) {
            byte[] option = argv[i];
            byte[] value = argv[i + 1];
            if (Arguments.is(option, "listening-port")) {
                long port;
                try {
                    port = Arguments.parseLong(value);
                } catch (NumberFormatException e) {
                    c.reply().error(Errors.NOT_INTEGER);
                    return;
                }
                primary.link(c).listeningPort((int) port);
            } else if (Arguments.is(option, "ip-address")) {
                if (value.length >= 46) {
                    c.reply().error("ERR REPLCONF ip-address provided by replica instance is too long: "
                            + value.length + " bytes");
                    return;
                }
                primary.link(c).announcedIp(new String(value, StandardCharsets.ISO_8859_1));
            } else if (Arguments.is(option, "capa")) {
                primary.link(c).capability(value);
            } else if (Arguments.is(option, "ack")) {
                ack(c, argv, i, primary);
                return;
            } else if (Arguments.is(option, "getack")) {
                // On a primary GETACK from a client is ignored; a replica answers its own primary's.
                return;
            } else if (Arguments.is(option, "rdb-only")) {
                long only;
                try {
                    only = Arguments.parseLong(value);
                } catch (NumberFormatException e) {
                    c.reply().error(Errors.NOT_INTEGER);
                    return;
                }
                if (only != 0 && only != 1) {
                    c.reply().error(Errors.RDB_ONLY_RANGE);
                    return;
                }
                primary.link(c).rdbOnly(only == 1);
            } else if (Arguments.is(option, "rdb-filter-only")) {
                boolean functionsOnly = false;
                for (String filter : new String(value, StandardCharsets.ISO_8859_1).split(" ")) {
                    if (filter.equalsIgnoreCase("functions")) {
                        functionsOnly = true;
                    } else if (!filter.isEmpty()) {
                        c.reply().error("ERR Unsupported rdb-filter-only option: " + filter);
                        return;
                    }
                }
                primary.link(c).functionsOnly(functionsOnly);
            } else {
                c.reply().error("ERR Unrecognized REPLCONF option: " + Errors.printable(option));
                return;
            }
        }
        c.reply().ok();
    }

    /** REPLCONF ACK offset [FACK offset]: from a replica only, and never answered. */
    private static void ack(Client c, byte[][] argv, int i, ReplicationPrimary primary) {
        ReplicaLink link = c.replicaLink();
        if (link == null || !link.isReplica()) {
            return;
        }
        long offset;
        try {
            offset = Arguments.parseLong(argv[i + 1]);
        } catch (NumberFormatException e) {
            return;
        }
        primary.ack(link, offset);
    }

    /** WAIT numreplicas timeout: how many replicas acknowledged this connection's last write. */
    static void waitCommand(Client c, byte[][] argv) {
        long replicas;
        try {
            replicas = Arguments.parseLong(argv[1]);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.NOT_INTEGER);
            return;
        }
        long timeout;
        try {
            timeout = Arguments.parseLong(argv[2]);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.TIMEOUT_NOT_INTEGER);
            return;
        }
        if (timeout < 0) {
            c.reply().error(Errors.TIMEOUT_NEGATIVE);
            return;
        }
        if (c.server().replication().replica()) {
            c.reply().error(Errors.WAIT_ON_REPLICA);
            return;
        }
        c.server().replicationPrimary().waits().waitFor(c, (int) Math.min(Integer.MAX_VALUE, replicas), timeout);
    }
}
