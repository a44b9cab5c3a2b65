package dev.ebb.server.config;

import java.util.Locale;

/**
 * {@code client-output-buffer-limit}: per client class, a hard limit in bytes (disconnect at once when the pending
 * output exceeds it) and a soft limit (disconnect when exceeded continuously for {@code softLimitSeconds}). Zero
 * disables a limit.
 *
 * @param normal  ordinary clients
 * @param replica replicas (Redis's {@code slave} class; both names are accepted)
 * @param pubsub  clients subscribed to at least one channel or pattern
 */
public record ClientOutputBufferLimits(Limit normal, Limit replica, Limit pubsub) {
    /** Redis's defaults: {@code normal 0 0 0 slave 256mb 64mb 60 pubsub 32mb 8mb 60}. */
    public static final ClientOutputBufferLimits DEFAULTS = new ClientOutputBufferLimits(
            new Limit(0, 0, 0),
            new Limit(256L * 1024 * 1024, 64L * 1024 * 1024, 60),
            new Limit(32L * 1024 * 1024, 8L * 1024 * 1024, 60));

    /** The limits of one client class. */
    public record Limit(long hardLimitBytes, long softLimitBytes, long softLimitSeconds) {
        public Limit {
            if (hardLimitBytes < 0 || softLimitBytes < 0 || softLimitSeconds < 0) {
                throw new IllegalArgumentException("limits must not be negative: hard=" + hardLimitBytes
                        + ", soft=" + softLimitBytes + ", softSeconds=" + softLimitSeconds);
            }
        }
    }

    /** The client classes, with the name Redis prints in CONFIG GET and the one it writes in CONFIG REWRITE. */
    enum ClientClass {
        NORMAL("normal", "normal"),
        REPLICA("slave", "replica"),
        PUBSUB("pubsub", "pubsub");

        final String replyName;
        final String rewriteName;

        ClientClass(String replyName, String rewriteName) {
            this.replyName = replyName;
            this.rewriteName = rewriteName;
        }

        /** Redis's class names, case-insensitive; {@code master} is a real class but has no limits, so it is refused. */
        static ClientClass byName(String name) {
            switch (name.toLowerCase(Locale.ROOT)) {
                case "normal":
                    return NORMAL;
                case "slave":
                case "replica":
                    return REPLICA;
                case "pubsub":
                    return PUBSUB;
                default:
                    return null;
            }
        }
    }

    Limit limit(ClientClass clientClass) {
        switch (clientClass) {
            case NORMAL:
                return normal;
            case REPLICA:
                return replica;
            default:
                return pubsub;
        }
    }

    ClientOutputBufferLimits with(ClientClass clientClass, Limit limit) {
        switch (clientClass) {
            case NORMAL:
                return new ClientOutputBufferLimits(limit, replica, pubsub);
            case REPLICA:
                return new ClientOutputBufferLimits(normal, limit, pubsub);
            default:
                return new ClientOutputBufferLimits(normal, replica, limit);
        }
    }
}
