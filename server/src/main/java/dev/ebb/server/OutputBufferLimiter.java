package dev.ebb.server;

import dev.ebb.server.config.ClientOutputBufferLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code client-output-buffer-limit}: a client whose pending output is at or over its
 * class's hard limit is closed at once; one at or over the soft limit continuously for longer than
 * the soft seconds is closed too. Pending output is what {@link Client#outputBytes()} measures:
 * encoded replies not yet handed to the channel plus Netty's count of bytes written to the channel
 * and not yet accepted by the socket (a volatile the IO thread keeps, which also counts writes
 * still queued for the IO thread, so the reading is exact at the moment it is taken, and cheap).
 *
 * <p>When it runs: after every command whose client's pending output has reached the smallest
 * configured limit ({@link #floor}), after anything is written to a client from outside its own
 * command (pub/sub messages, MONITOR lines), before each flush of a client's replies, and for every
 * client on each cron tick (so soft limits are enforced within one cron period even when nothing
 * is written).
 * A closed client's pending replies are dropped at once and nothing more is written for it, so
 * the memory a slow consumer holds is bounded by its hard limit plus one message.
 *
 * <p>Class: see {@link #limitOf}. Command loop thread only.
 */
final class OutputBufferLimiter {
    /** {@link Client#softLimitReachedMs} while the client is under its soft limit. */
    static final long NOT_OVER = Long.MIN_VALUE;
    private static final Logger LOG = LoggerFactory.getLogger(OutputBufferLimiter.class);

    private OutputBufferLimiter() {
    }

    /**
     * The limits of {@code c}'s class: {@code replica} for a replica link, {@code pubsub} for a client
     * subscribed to anything, otherwise {@code normal} (MONITOR clients are normal, as in Redis).
     */
    static ClientOutputBufferLimits.Limit limitOf(ClientOutputBufferLimits limits, Client c) {
        if (c.replicaLink() != null && c.replicaLink().isReplica()) {
            return limits.replica();
        }
        return c.subscriptions().active() ? limits.pubsub() : limits.normal();
    }

    /**
     * The smallest limit, hard or soft, of any class, or {@code Long.MAX_VALUE} if none is set: a
     * client whose pending output is below it cannot be over any limit, so the loop checks a client
     * after a command only from this size on.
     */
    static long floor(ClientOutputBufferLimits limits) {
        long floor = Long.MAX_VALUE;
        for (ClientOutputBufferLimits.Limit limit : new ClientOutputBufferLimits.Limit[] {
                limits.normal(), limits.replica(), limits.pubsub()}) {
            if (limit.hardLimitBytes() > 0) {
                floor = Math.min(floor, limit.hardLimitBytes());
            }
            if (limit.softLimitBytes() > 0) {
                floor = Math.min(floor, limit.softLimitBytes());
            }
        }
        return floor;
    }

    /** Closes {@code c} if it is over a limit; returns true if it did (or it was closed already). */
    static boolean enforce(Server server, Client c, long nowMs) {
        if (c.closed()) {
            return true;
        }
        ClientOutputBufferLimits.Limit limit = limitOf(server.config().clientOutputBufferLimits(), c);
        long hard = limit.hardLimitBytes();
        long soft = limit.softLimitBytes();
        if (hard == 0 && soft == 0) {
            c.softLimitReachedMs = NOT_OVER;
            return false;
        }
        long used = c.outputBytes();
        if (c.replicaLink() != null) {
            // A syncing replica's stream waits in its link until the snapshot is sent: it counts too.
            used += c.replicaLink().pendingBytes();
        }
        boolean over = hard > 0 && used >= hard;
        if (soft > 0 && used >= soft) {
            if (c.softLimitReachedMs == NOT_OVER) {
                c.softLimitReachedMs = nowMs;
            } else if (nowMs - c.softLimitReachedMs > limit.softLimitSeconds() * 1000) {
                over = true;
            }
        } else {
            c.softLimitReachedMs = NOT_OVER;
        }
        if (over) {
            LOG.warn("Client {} scheduled to be closed ASAP for overcoming of output buffer limits.",
                    dev.ebb.server.command.ClientCommands.describe(c, nowMs));
            server.stats().clientOutputBufferLimitDisconnections++;
            c.kill();
            c.reply().release();
        }
        return over;
    }
}
