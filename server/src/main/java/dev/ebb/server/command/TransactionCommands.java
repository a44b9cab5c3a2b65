package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ALLOW_BUSY;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.SKIP_SLOWLOG;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.server.acl.Acl;
import dev.ebb.server.acl.AclLog;
import dev.ebb.server.Transaction;
import java.util.List;

/**
 * Transactions: MULTI, EXEC, DISCARD, WATCH, UNWATCH, with Redis 7's semantics. Queueing itself
 * happens in the dispatcher (see {@code Transactions} in the server package): between MULTI and
 * EXEC every other command is answered {@code +QUEUED}.
 *
 * <p>EXEC runs the queue atomically (nothing else runs on the command loop meanwhile) and replies
 * one array with each command's reply; a command failing at run time does not undo the others.
 * It aborts with EXECABORT when a command was refused while queueing, and replies a null array when
 * a WATCHed key changed (any write by any client, expiry, FLUSHDB/FLUSHALL, SWAPDB) or expired
 * since WATCH. Either way the transaction ends and every key is unwatched.
 */
public final class TransactionCommands {
    private TransactionCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        long flags = NOSCRIPT | LOADING | STALE | FAST | ALLOW_BUSY;
        return List.of(
                spec("multi", 1, flags, 0, 0, 0, TransactionCommands::multi)
                        .doc(CommandGroup.TRANSACTIONS, "1.2.0", "Starts a transaction.", "")
                        .complexity("O(1)"),
                spec("exec", 1, NOSCRIPT | LOADING | STALE | SKIP_SLOWLOG, 0, 0, 0, TransactionCommands::exec)
                        .doc(CommandGroup.TRANSACTIONS, "1.2.0", "Executes all commands in a transaction.", "")
                        .complexity("Depends on commands in the transaction"),
                spec("discard", 1, flags, 0, 0, 0, TransactionCommands::discard)
                        .doc(CommandGroup.TRANSACTIONS, "2.0.0", "Discards a transaction.", "")
                        .complexity("O(N), when N is the number of queued commands"),
                spec("watch", -2, flags, 1, -1, 1, TransactionCommands::watch)
                        .doc(CommandGroup.TRANSACTIONS, "2.2.0",
                                "Monitors changes to keys to determine the execution of a transaction.", "key [key ...]")
                        .complexity("O(1) for every key."),
                spec("unwatch", 1, flags, 0, 0, 0, TransactionCommands::unwatch)
                        .doc(CommandGroup.TRANSACTIONS, "2.2.0",
                                "Forgets about watched keys of a transaction.", "")
                        .complexity("O(1)"));
    }

    static void multi(Client c, byte[][] argv) {
        if (c.inMulti()) {
            c.reply().error(Errors.MULTI_NESTED);
            return;
        }
        c.transaction().begin();
        c.reply().ok();
    }

    /** EXEC: see the class comment. Blocking commands see {@link Client#inMulti()} while the queue runs. */
    static void exec(Client c, byte[][] argv) {
        if (!c.inMulti()) {
            c.reply().error(Errors.EXEC_WITHOUT_MULTI);
            return;
        }
        Transaction t = c.transaction();
        Server server = c.server();
        if (t.queueFailed()) {
            t.discard();
            c.reply().error(Errors.EXECABORT);
            return;
        }
        if (t.watchTouched(server.nowMs())) {
            t.discard();
            c.reply().nullArray();
            return;
        }
        t.unwatchAll();
        int n = t.size();
        c.reply().arrayHeader(n);
        // t.open() turns false only if a queued command ended this client's session (its state
        // discarded); nothing is left to run for it then.
        for (int i = 0; i < n && t.open(); i++) {
            if (c.user().unrestricted() || aclAllows(c, t.spec(i), t.argv(i))) {
                server.execute(c, t.spec(i), t.argv(i));
            }
        }
        t.discard();
    }

    /**
     * Checks a queued command's ACL again at EXEC, as Redis does in case the rules changed since it was
     * queued; a denial is logged and answers Redis's NOPERM error in the command's place.
     */
    private static boolean aclAllows(Client c, CommandSpec spec, byte[][] argv) {
        Server server = c.server();
        int result = server.acl().check(c.user(), spec, argv);
        if (result == Acl.OK) {
            return true;
        }
        server.logAclDenial(c, result, AclLog.Context.MULTI, spec, argv, server.acl().errorPosition());
        String reason = switch (result) {
            case Acl.DENIED_CMD -> "no permission to execute the command or subcommand";
            case Acl.DENIED_KEY -> "no permission to touch the specified keys";
            case Acl.DENIED_CHANNEL -> "no permission to access one of the channels used as arguments";
            default -> "no permission";
        };
        c.reply().error("NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC"
                + " call. This command is no longer allowed for the following reason: " + reason);
        return false;
    }

    static void discard(Client c, byte[][] argv) {
        if (!c.inMulti()) {
            c.reply().error(Errors.DISCARD_WITHOUT_MULTI);
            return;
        }
        c.discardTransaction();
        c.reply().ok();
    }

    static void watch(Client c, byte[][] argv) {
        if (c.inMulti()) {
            c.reply().error(Errors.WATCH_INSIDE_MULTI);
            return;
        }
        Transaction t = c.transaction();
        long now = c.server().nowMs();
        for (int i = 1; i < argv.length; i++) {
            t.watch(c.db(), argv[i], now);
        }
        c.reply().ok();
    }

    static void unwatch(Client c, byte[][] argv) {
        Transaction t = c.transaction();
        t.unwatchAll();
        t.clearTouched();
        c.reply().ok();
    }
}
