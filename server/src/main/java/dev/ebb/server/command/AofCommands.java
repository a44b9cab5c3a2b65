package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.persistence.AppendOnlyFile;
import java.util.List;

/**
 * BGREWRITEAOF, as Redis 7.2's bgrewriteaofCommand: refused while a rewrite runs; scheduled for the cron
 * while a BGSAVE runs (one snapshot at a time, as Redis's one child) or inside MULTI (the transaction's
 * earlier writes are already in the dataset but not yet in the stream, so a snapshot now would have them
 * twice); else started in the background ({@link AppendOnlyFile#startRewrite}).
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
        if (aof.rewriteInProgress()) {
            c.reply().error(Errors.AOF_REWRITE_IN_PROGRESS);
        } else if (c.server().persistence().bgsaveInProgress() || c.server().propagation().nested()) {
            aof.scheduleRewrite();
            c.reply().simple("Background append only file rewriting scheduled");
        } else if (aof.startRewrite()) {
            c.reply().simple("Background append only file rewriting started");
        } else {
            c.reply().error(Errors.AOF_REWRITE_FAILED);
        }
    }
}
