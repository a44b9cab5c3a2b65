package dev.ebb.server.command;

/**
 * Command flags, as Redis names them in COMMAND INFO. A spec's flags are a bitmask of these;
 * {@link #names(long)} gives the reply order.
 */
public final class CommandFlags {
    public static final long WRITE = 1L;
    public static final long READONLY = 1L << 1;
    public static final long DENYOOM = 1L << 2;
    public static final long ADMIN = 1L << 3;
    public static final long PUBSUB = 1L << 4;
    public static final long NOSCRIPT = 1L << 5;
    public static final long BLOCKING = 1L << 6;
    public static final long LOADING = 1L << 7;
    public static final long STALE = 1L << 8;
    public static final long SKIP_MONITOR = 1L << 9;
    public static final long SKIP_SLOWLOG = 1L << 10;
    public static final long FAST = 1L << 11;
    public static final long NO_AUTH = 1L << 12;
    public static final long MAY_REPLICATE = 1L << 13;
    public static final long NO_MANDATORY_KEYS = 1L << 14;
    public static final long NO_MULTI = 1L << 15;
    public static final long MOVABLE_KEYS = 1L << 16;
    public static final long ALLOW_BUSY = 1L << 17;

    private static final String[] NAMES = {
        "write", "readonly", "denyoom", "admin", "pubsub", "noscript", "blocking", "loading", "stale",
        "skip_monitor", "skip_slowlog", "fast", "no_auth", "may_replicate", "no_mandatory_keys", "no_multi",
        "movablekeys", "allow_busy",
    };

    private CommandFlags() {
    }

    /** Flags COMMAND INFO does not list: Redis hides may_replicate on purpose. */
    private static final long HIDDEN = MAY_REPLICATE;

    /** The Redis names of the flags set in {@code flags} that COMMAND INFO shows, in bit order. */
    public static String[] names(long flags) {
        flags &= ~HIDDEN;
        String[] out = new String[Long.bitCount(flags)];
        int n = 0;
        for (int bit = 0; bit < NAMES.length; bit++) {
            if ((flags & (1L << bit)) != 0) {
                out[n++] = NAMES[bit];
            }
        }
        return out;
    }
}
