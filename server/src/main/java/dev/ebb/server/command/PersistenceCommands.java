package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.ADMIN;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.NO_MULTI;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.persistence.Persistence;
import java.util.List;

/**
 * SAVE and BGSAVE [SCHEDULE], as Redis 7.2's saveCommand and bgsaveCommand: the replies and their
 * order of checks. The work is {@link Persistence}'s; LASTSAVE, SHUTDOWN's save and DEBUG RELOAD are
 * with the other server commands.
 */
public final class PersistenceCommands {
    private PersistenceCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("save", 1, ADMIN | NOSCRIPT | NO_MULTI, 0, 0, 0, PersistenceCommands::save)
                        .doc(CommandGroup.SERVER, "1.0.0", "Synchronously saves the database(s) to disk.", "")
                        .complexity("O(N) where N is the total number of keys in all databases"),
                spec("bgsave", -1, ADMIN | NOSCRIPT, 0, 0, 0, PersistenceCommands::bgsave)
                        .doc(CommandGroup.SERVER, "1.0.0", "Asynchronously saves the database(s) to disk.",
                                "[SCHEDULE]")
                        .complexity("O(1)"));
    }

    /** SAVE: refused while a BGSAVE runs; otherwise writes the file on the loop, {@code -ERR} if that fails. */
    static void save(Client c, byte[][] argv) {
        Persistence p = c.server().persistence();
        if (p.bgsaveInProgress()) {
            c.reply().error(Errors.BGSAVE_IN_PROGRESS);
        } else if (p.save()) {
            c.reply().ok();
        } else {
            c.reply().error("ERR");
        }
    }

    /**
     * BGSAVE [SCHEDULE]: refused while one runs; while an AOF rewrite runs, scheduled with SCHEDULE and
     * refused without (one snapshot at a time, as Redis's one child); inside MULTI it is scheduled (the
     * cron starts it), as Redis does because a fork inside EXEC would see half a transaction.
     */
    static void bgsave(Client c, byte[][] argv) {
        boolean schedule = false;
        if (argv.length > 1) {
            if (argv.length == 2 && Arguments.is(argv[1], "schedule")) {
                schedule = true;
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        Persistence p = c.server().persistence();
        if (p.bgsaveInProgress()) {
            c.reply().error(Errors.BGSAVE_IN_PROGRESS);
        } else if (c.server().aof().rewriteInProgress() || c.inMulti()) {
            if (schedule || c.inMulti()) {
                p.scheduleBgsave();
                c.reply().simple("Background saving scheduled");
            } else {
                c.reply().error(Errors.BGSAVE_CHILD_ACTIVE);
            }
        } else if (p.startBgsave()) {
            c.reply().simple("Background saving started");
        } else {
            c.reply().error("ERR");
        }
    }
}
