package dev.ebb.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How Ebb stops when asked: the one path for SHUTDOWN and for SIGTERM/SIGINT, after Redis's
 * {@code prepareForShutdown}, with its log lines.
 *
 * <p>Persistence: Ebb keeps no RDB yet. An explicit SAVE therefore fails as a Redis whose final save
 * fails does: the reason is logged, and the shutdown is refused ({@code -ERR Errors trying to
 * SHUTDOWN. Check logs.}) unless FORCE says to exit anyway. Configured save points are where Ebb
 * deliberately differs: Redis saves on a plain SHUTDOWN or SIGTERM and refuses to exit when that
 * fails; Ebb, whose save could never succeed, logs that it is not saving and stops, so that a
 * redis.conf with {@code save} lines can still be stopped by SHUTDOWN or a service manager's signal.
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
        if (save) {
            LOG.info("Saving the final RDB snapshot before exiting.");
            LOG.warn("Failed saving the final RDB snapshot {} (in server root dir {}): Ebb has no persistence yet",
                    server.config().dbFilename(), server.config().dir());
            if (!force) {
                LOG.warn("Error trying to save the DB, can't exit.");
                LOG.warn("Errors trying to shut down the server. Check the logs for more information.");
                return false;
            }
            LOG.warn("Error trying to save the DB. Exit anyway.");
        } else if (!nosave && !server.config().save().isEmpty()) {
            LOG.warn("Not saving the final RDB snapshot: Ebb has no persistence yet, the save points are ignored.");
        }
        server.shutdown();
        return true;
    }
}
