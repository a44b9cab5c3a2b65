package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.persistence.AppendOnlyFile;
import java.util.List;

/**
 * BGREWRITEAOF: rewrites the append-only file ({@link AppendOnlyFile#rewrite}). Inside MULTI the
 * rewrite is scheduled for the next cron tick, as Redis schedules it while a transaction runs: the
 * transaction's earlier writes are already in the dataset but not yet in the stream, and a base
 * written now would have them twice. Ebb writes the base on the loop (see {@link AppendOnlyFile}),
 * so "started" means the rewrite has already finished.
 */
final class AofCommands {
    private AofCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("bgrewriteaof", 1, ADMIN | NOSCRIPT, 0, 0, 0, AofCommands::bgrewriteaof)
                        .doc(CommandGroup.SERVER, "1.0.0", "Asynchronously rewrites the append-only file to disk.", "")
                        .complexity("O(1)"));
    }

    static void bgrewriteaof(Client c, byte[][] argv) {
        AppendOnlyFile aof = c.server().aof();
        if (c.server().propagation().nested()) {
            aof.scheduleRewrite();
            c.reply().simple("Background append only file rewriting scheduled");
        } else if (aof.rewrite()) {
            c.reply().simple("Background append only file rewriting started");
        } else {
            c.reply().error(Errors.AOF_REWRITE_FAILED);
        }
    }
}
