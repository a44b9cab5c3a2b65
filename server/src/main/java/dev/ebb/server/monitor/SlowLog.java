package dev.ebb.server.monitor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;

/**
 * The slow log (SLOWLOG): the most recent {@code slowlog-max-len} commands whose own execution
 * took at least {@code slowlog-log-slower-than} microseconds, newest first.
 *
 * <p>As Redis records an entry: at most {@value #MAX_ARGS} arguments, the last of them replaced by
 * {@code ... (N more arguments)} when there are more; each argument at most {@value #MAX_ARG_BYTES}
 * bytes followed by {@code ... (N more bytes)}. Arguments that a command redacted (AUTH passwords)
 * arrive here already replaced by {@code (redacted)}. Short arguments are kept by reference: they
 * are the command's own arrays, which nobody modifies after the command ran.
 *
 * <p>Costs: {@link #record} O(arguments) for an entry logged, O(1) otherwise; memory is bounded by
 * max-len entries of at most 32 arguments of 128 bytes. Not thread-safe: loop thread only.
 */
public final class SlowLog {
    static final int MAX_ARGS = 32;
    static final int MAX_ARG_BYTES = 128;

    /** One logged command. */
    public static final class Entry {
        private final long id;
        private final long unixSeconds;
        private final long durationMicros;
        private final byte[][] args;
        private final String addr;
        private final byte[] clientName;

        Entry(long id, long unixSeconds, long durationMicros, byte[][] args, String addr, byte[] clientName) {
            this.id = id;
            this.unixSeconds = unixSeconds;
            this.durationMicros = durationMicros;
            this.args = args;
            this.addr = addr;
            this.clientName = clientName;
        }

        public long id() {
            return id;
        }

        public long unixSeconds() {
            return unixSeconds;
        }

        public long durationMicros() {
            return durationMicros;
        }

        /** The trimmed arguments; do not modify. */
        public byte[][] args() {
            return args;
        }

        /** The client's {@code ip:port}. */
        public String addr() {
            return addr;
        }

        /** The client's name when the command ran; empty if it had none. */
        public byte[] clientName() {
            return clientName;
        }
    }

    private static final byte[] NO_NAME = new byte[0];
    private static final byte[] REDACTED = "(redacted)".getBytes(StandardCharsets.US_ASCII);

    /**
     * Replaces {@code argv[index]} with {@code (redacted)} so that the slow log (and MONITOR) never
     * see it, as Redis's redactClientCommandArgument. Call once the command has used the argument.
     */
    public static void redact(byte[][] argv, int index) {
        argv[index] = REDACTED;
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private long nextId;

    /**
     * Logs a command if {@code durationMicros >= slowerThanMicros} (and that threshold is not
     * negative), then drops the oldest entries beyond {@code maxLen}.
     */
    public void record(byte[][] argv, long durationMicros, long slowerThanMicros, long maxLen, long nowMs,
            String addr, byte[] clientName) {
        if (slowerThanMicros < 0 || durationMicros < slowerThanMicros) {
            return;
        }
        entries.addFirst(new Entry(nextId++, nowMs / 1000, durationMicros, trim(argv), addr,
                clientName == null ? NO_NAME : clientName));
        while (entries.size() > maxLen) {
            entries.removeLast();
        }
    }

    private static byte[][] trim(byte[][] argv) {
        int kept = Math.min(argv.length, MAX_ARGS);
        byte[][] args = new byte[kept][];
        for (int i = 0; i < kept; i++) {
            if (kept != argv.length && i == kept - 1) {
                args[i] = ascii("... (" + (argv.length - MAX_ARGS + 1) + " more arguments)");
            } else if (argv[i].length > MAX_ARG_BYTES) {
                byte[] more = ascii("... (" + (argv[i].length - MAX_ARG_BYTES) + " more bytes)");
                byte[] cut = Arrays.copyOf(argv[i], MAX_ARG_BYTES + more.length);
                System.arraycopy(more, 0, cut, MAX_ARG_BYTES, more.length);
                args[i] = cut;
            } else {
                args[i] = argv[i];
            }
        }
        return args;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Number of entries (SLOWLOG LEN). */
    public int size() {
        return entries.size();
    }

    /** Entries, newest first. */
    public Iterator<Entry> newestFirst() {
        return entries.iterator();
    }

    /** SLOWLOG RESET: drops every entry; ids keep increasing, as in Redis. */
    public void reset() {
        entries.clear();
    }
}
