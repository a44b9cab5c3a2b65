package dev.ebb.server;

import dev.ebb.server.persistence.Persistence;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How Ebb stops when asked: the one path for SHUTDOWN and for SIGTERM/SIGINT, after Redis's
 * {@code prepareForShutdown} and {@code finishShutdown}, with their log lines: a running BGSAVE is
 * stopped (its temporary file deleted), and so is a running AOF rewrite (refusing without FORCE while it
 * writes the first base of an appendonly just switched on), then the RDB file is saved if SAVE says so or save points are
 * configured and NOSAVE does not say otherwise. A failed save refuses the shutdown
 * ({@code -ERR Errors trying to SHUTDOWN. Check logs.}) unless FORCE says to exit anyway. While the
 * dataset is still loading nothing is saved, as in Redis, so an unfinished load never overwrites the
 * file.
 *
 * <p>Loop thread only.
 */
public final class ShutdownSequence {
    private static final Logger LOG = LoggerFactory.getLogger(ShutdownSequence.class);

    private ShutdownSequence() {
    }

    /**
     * Stops {@code server} as SHUTDOWN [SAVE|NOSAVE] [FORCE] asks (NOW and ABORT are the caller's:
     * there is never a replica to wait for nor a shutdown in progress).
     *
     * @return true if the server is stopping, false if it refused (the reason is logged)
     */
    public static boolean run(Server server, boolean save, boolean nosave, boolean force) {
        LOG.info("User requested shutdown...");
        Persistence persistence = server.persistence();
        if (persistence.bgsaveInProgress()) {
            LOG.warn("There is a child saving an .rdb. Killing it!");
            persistence.killBgsave();
        }
        if (!server.aof().prepareShutdown(force)) {
            LOG.warn("Errors trying to shut down the server. Check the logs for more information.");
            return false;
        }
        boolean saving = !persistence.loading() && (save || (!nosave && !server.config().save().isEmpty()));
        if (saving) {
            LOG.info("Saving the final RDB snapshot before exiting.");
            if (!persistence.save()) {
                if (!force) {
                    LOG.warn("Error trying to save the DB, can't exit.");
                    LOG.warn("Errors trying to shut down the server. Check the logs for more information.");
                    return false;
                }
                LOG.warn("Error trying to save the DB. Exit anyway.");
            }
        }
        server.shutdown();
        return true;
    }
}
