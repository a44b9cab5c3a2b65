package dev.ebb.server.config;

/**
 * {@code notify-keyspace-events}: which keyspace notifications are published, as a bit set. The bit values are
 * Redis's, so the pub/sub code can test them directly: {@code (flags & KEYSPACE) != 0}.
 *
 * <p>Letters: K keyspace channel, E keyevent channel, g generic (DEL, EXPIRE, RENAME...), $ string, l list, s set,
 * h hash, z sorted set, x expired, e evicted, t stream, m key miss, d module, n new key, A alias for g$lshzxetd.
 */
public final class NotifyKeyspaceEvents {
    public static final int KEYSPACE = 1;
    public static final int KEYEVENT = 1 << 1;
    public static final int GENERIC = 1 << 2;
    public static final int STRING = 1 << 3;
    public static final int LIST = 1 << 4;
    public static final int SET = 1 << 5;
    public static final int HASH = 1 << 6;
    public static final int ZSET = 1 << 7;
    public static final int EXPIRED = 1 << 8;
    public static final int EVICTED = 1 << 9;
    public static final int STREAM = 1 << 10;
    public static final int KEY_MISS = 1 << 11;
    public static final int MODULE = 1 << 13;
    public static final int NEW = 1 << 14;
    /** What 'A' stands for: every class except key-miss and new-key events. */
    public static final int ALL = GENERIC | STRING | LIST | SET | HASH | ZSET | EXPIRED | EVICTED | STREAM | MODULE;

    static final String INVALID_CLASS = "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.";

    private static final String CLASS_LETTERS = "g$lshzxetd";
    private static final int[] CLASS_BITS = {GENERIC, STRING, LIST, SET, HASH, ZSET, EXPIRED, EVICTED, STREAM, MODULE};

    private NotifyKeyspaceEvents() {
    }

    /** Parses a flag string; returns -1 if it holds a character outside {@code Ag$lshzxeKEtmdn}. */
    public static int parse(String letters) {
        int flags = 0;
        for (int i = 0; i < letters.length(); i++) {
            char c = letters.charAt(i);
            int bit = bitOf(c);
            if (bit == 0) {
                return -1;
            }
            flags |= bit;
        }
        return flags;
    }

    private static int bitOf(char c) {
        switch (c) {
            case 'A':
                return ALL;
            case 'K':
                return KEYSPACE;
            case 'E':
                return KEYEVENT;
            case 'm':
                return KEY_MISS;
            case 'n':
                return NEW;
            default:
                int index = CLASS_LETTERS.indexOf(c);
                return index < 0 ? 0 : CLASS_BITS[index];
        }
    }

    /**
     * The normalized form Redis prints in CONFIG GET: "A" when every class of 'A' is on, otherwise the class letters
     * in the order g$lshzxetd followed by n; then K, E and m. Like Redis, the 'n' flag is not shown when 'A' is
     * (so "AKEn" prints as "AKE" although 'n' stays on).
     */
    public static String format(int flags) {
        StringBuilder out = new StringBuilder();
        if ((flags & ALL) == ALL) {
            out.append('A');
        } else {
            appendClasses(out, flags);
            if ((flags & NEW) != 0) {
                out.append('n');
            }
        }
        appendChannels(out, flags);
        return out.toString();
    }

    /**
     * The form written by CONFIG REWRITE: like {@link #format} but never drops 'n', so a rewritten file reloads to
     * the same flags (Redis loses 'n' next to 'A' here; Ebb deliberately does not).
     */
    static String lossless(int flags) {
        StringBuilder out = new StringBuilder();
        if ((flags & ALL) == ALL) {
            out.append('A');
        } else {
            appendClasses(out, flags);
        }
        if ((flags & NEW) != 0) {
            out.append('n');
        }
        appendChannels(out, flags);
        return out.toString();
    }

    private static void appendClasses(StringBuilder out, int flags) {
        for (int i = 0; i < CLASS_BITS.length; i++) {
            if ((flags & CLASS_BITS[i]) != 0) {
                out.append(CLASS_LETTERS.charAt(i));
            }
        }
    }

    private static void appendChannels(StringBuilder out, int flags) {
        if ((flags & KEYSPACE) != 0) {
            out.append('K');
        }
        if ((flags & KEYEVENT) != 0) {
            out.append('E');
        }
        if ((flags & KEY_MISS) != 0) {
            out.append('m');
        }
    }
}
