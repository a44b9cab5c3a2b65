package dev.ebb.server;

import dev.ebb.server.acl.Acl;
import dev.ebb.server.acl.AclLog;
import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.Errors;
import dev.ebb.server.command.PubSubCommands;

/**
 * The refusals {@link Server}'s dispatch applies to a command whose spec and arity it has checked, before it is
 * paused, queued in MULTI or run. In Redis's processCommand order, which decides which error a client sees when
 * several apply: protected DEBUG, NOAUTH, NOPERM (ACL), cluster redirections, the RESP2 subscribed context, MONITOR,
 * OOM, MISCONF, NOREPLICAS, a replica's READONLY and MASTERDOWN, LOADING. Every refusal is answered through
 * {@link Server#reject} (or {@link Server#rejectForCluster}). Loop thread only.
 */
final class DispatchChecks {
    private DispatchChecks() {
    }

    /** @return true if the command was refused (and answered) */
    static boolean refused(Server server, Client c, CommandSpec spec, byte[][] argv) {
        // Redis's protected-command check comes after arity and before authentication.
        if (spec.name().equals("debug")
                && !server.config().enableDebugCommand().allows(ConnectionGate.isLocal(c.channel().remoteAddress()))) {
            server.reject(c, spec, Errors.DEBUG_NOT_ALLOWED);
            return true;
        }
        if (c.authRequired() && !spec.has(CommandFlags.NO_AUTH)) {
            server.reject(c, spec, Errors.NOAUTH);
            return true;
        }
        if (!c.user().unrestricted() && aclDenied(server, c, spec, argv)) {
            return true;
        }
        // Redirections come right after the ACL check, as in Redis: a replica answers MOVED, not READONLY.
        if (server.clusterEnabled() && ClusterRouting.rejected(server, c, spec, argv)) {
            return true;
        }
        if (c.protocol() == 2 && c.subscriptions().active() && !PubSubCommands.allowedWhileSubscribed(spec)) {
            server.reject(c, spec, Errors.onlySubscribeAllowed(spec.fullName()));
            return true;
        }
        if (c.hasFlag(Client.FLAG_MONITOR)
                && spec.has(CommandFlags.WRITE | CommandFlags.READONLY | CommandFlags.MAY_REPLICATE)) {
            server.reject(c, spec, Errors.MONITOR_KEYSPACE);
            return true;
        }
        if (!server.memoryGuard().admit(spec.flags(c, argv))) {
            server.reject(c, spec, Errors.OOM);
            return true;
        }
        // Redis refuses PING too while writes are refused, and EXEC when it queued a write.
        if (server.persistence().deniesWrites() && (spec.has(CommandFlags.WRITE) || spec.name().equals("ping")
                || (spec.name().equals("exec") && c.inMulti() && queuedWrite(c.transaction())))) {
            server.reject(c, spec, Errors.MISCONF);
            return true;
        }
        if ((spec.has(CommandFlags.WRITE) || (spec.name().equals("exec") && c.inMulti() && queuedWrite(c.transaction())))
                && server.replicationPrimary().tooFewGoodReplicas()) {
            server.reject(c, spec, Errors.NOREPLICAS);
            return true;
        }
        if (server.primaryLink().active() && replicaRefuses(server, c, spec)) {
            return true;
        }
        if (server.persistence().loading() && !spec.has(CommandFlags.LOADING)) {
            server.reject(c, spec, Errors.LOADING);
            return true;
        }
        return false;
    }

    /**
     * A replica's refusals, as Redis's processCommand: writes under {@code replica-read-only} (READONLY), and, while
     * the link is down under {@code replica-serve-stale-data no}, every command without the stale flag (MASTERDOWN).
     * EXEC counts as what it queued.
     *
     * @return true if the command was refused
     */
    private static boolean replicaRefuses(Server server, Client c, CommandSpec spec) {
        boolean exec = spec.name().equals("exec") && c.inMulti();
        if (server.config().replication().replicaReadOnly()
                && (spec.has(CommandFlags.WRITE) || (exec && queuedWrite(c.transaction())))) {
            server.reject(c, spec, Errors.READONLY_REPLICA);
            return true;
        }
        if (!server.config().replication().replicaServeStaleData() && !server.primaryLink().connected()
                && (!spec.has(CommandFlags.STALE) || (exec && queuedDenyStale(c.transaction())))) {
            server.reject(c, spec, Errors.MASTERDOWN);
            return true;
        }
        return false;
    }

    private static boolean queuedDenyStale(Transaction t) {
        for (int i = 0; i < t.size(); i++) {
            if (!t.spec(i).has(CommandFlags.STALE)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a transaction queued a write command (Redis's mstate.cmd_flags & CMD_WRITE). */
    private static boolean queuedWrite(Transaction t) {
        for (int i = 0; i < t.size(); i++) {
            if (t.spec(i).has(CommandFlags.WRITE)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The ACL check of dispatch, for a client whose user is restricted: a denied command is logged
     * (context {@code multi} inside MULTI) and refused with Redis's NOPERM text, flagging any
     * transaction as every refusal does.
     *
     * @return true if the command was refused
     */
    private static boolean aclDenied(Server server, Client c, CommandSpec spec, byte[][] argv) {
        int result = server.acl().check(c.user(), spec, argv);
        if (result == Acl.OK) {
            return false;
        }
        int position = server.acl().errorPosition();
        AclLog.Context context = c.inMulti() ? AclLog.Context.MULTI : AclLog.Context.TOPLEVEL;
        server.logAclDenial(c, result, context, spec, argv, position);
        server.reject(c, spec, "NOPERM " + Acl.message(result, c.user(), spec, argv[position], false));
        return true;
    }
}
