package dev.ebb.server;

import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.Errors;

/**
 * The dispatcher's side of MULTI: which commands are queued, which run at once, and how a refusal
 * inside a transaction is answered. Redis's rules: while a transaction is open every command is
 * queued ({@code +QUEUED}) except EXEC, DISCARD, MULTI, WATCH, QUIT and RESET, which run at once;
 * a command refused at dispatch (unknown, wrong arity, {@code no_multi} flag, NOAUTH, CROSSSLOT)
 * flags the transaction so that EXEC aborts, and a refused EXEC discards it.
 */
final class Transactions {
    private Transactions() {
    }

    /**
     * Called by {@link Server#call} for a client inside MULTI, after the command passed the
     * lookup, arity and authentication checks.
     *
     * @return true if the command was queued or refused (answered); false if it runs now
     */
    static boolean queueOrReject(Client c, CommandSpec spec, byte[][] argv) {
        if (spec.has(CommandFlags.NO_MULTI)) {
            c.server().reject(c, spec, Errors.NOT_ALLOWED_IN_MULTI);
            return true;
        }
        if (runsImmediately(spec)) {
            return false;
        }
        c.touch(c.server().nowMs(), spec);
        c.transaction().queue(spec, argv);
        c.reply().queued();
        return true;
    }

    /** EXEC, DISCARD, MULTI, WATCH, QUIT and RESET are never queued. */
    private static boolean runsImmediately(CommandSpec spec) {
        switch (spec.fullName()) {
            case "exec", "discard", "multi", "watch", "quit", "reset":
                return true;
            default:
                return false;
        }
    }

    /**
     * The error to send for a command refused inside MULTI, after flagging the transaction; for
     * EXEC itself the transaction is discarded and the error becomes
     * {@code EXECABORT Transaction discarded because of: <error without ERR>}.
     */
    static String rejectedInMulti(Client c, CommandSpec spec, String error) {
        if (spec != null && spec.fullName().equals("exec")) {
            c.discardTransaction();
            return Errors.EXECABORT_BECAUSE + (error.startsWith("ERR ") ? error.substring(4) : error);
        }
        c.transaction().flagQueueError();
        return error;
    }
}
