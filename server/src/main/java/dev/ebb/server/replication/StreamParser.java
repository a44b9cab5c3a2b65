package dev.ebb.server.replication;

import java.util.Arrays;

/**
 * Splits the primary's write stream into commands, keeping the raw bytes, so that a replica can
 * count its offset in bytes of complete commands (Redis's {@code reploff}) and hand exactly those
 * bytes on to its own replicas.
 *
 * <p>The stream is RESP multibulk ({@code *N\r\n$len\r\narg\r\n...}), as every Redis and Ebb primary
 * sends it; a bare newline (a keepalive) is a command of its own with no arguments. Bytes are
 * appended as they arrive; {@link #next} returns one complete command at a time, or null when the
 * buffer holds only part of one. Bytes before {@link #mark} are dropped when the buffer compacts.
 *
 * <p>Not thread-safe: the loop thread only.
 */
final class StreamParser {
    /** The arguments of the keepalive newline: none. */
    static final byte[][] KEEPALIVE = new byte[0][];

    private byte[] buf = new byte[1 << 16];
    private int start;
    private int end;
    /** The position before which bytes are no longer needed (fed on or discarded). */
    private int mark;
    private int commandStart;
    private int commandEnd;

    /** Appends stream bytes. */
    void append(byte[] bytes, int off, int len) {
        if (end + len > buf.length) {
            int keep = end - mark;
            if (keep + len > buf.length || mark == 0) {
                buf = Arrays.copyOfRange(buf, mark, mark + Math.max(buf.length * 2, keep + len));
            } else {
                System.arraycopy(buf, mark, buf, 0, keep);
            }
            start -= mark;
            end -= mark;
            mark = 0;
        }
        System.arraycopy(bytes, off, buf, end, len);
        end += len;
    }

    /**
     * The next complete command, or null if the buffer ends inside one.
     *
     * @throws IllegalStateException if the stream is not RESP multibulk
     */
    byte[][] next() {
        if (start >= end) {
            return null;
        }
        int p = start;
        if (buf[p] == '\n' || buf[p] == '\r') {
            int nl = indexOfNewline(p);
            if (nl < 0) {
                return null;
            }
            return complete(p, nl + 1, KEEPALIVE);
        }
        if (buf[p] != '*') {
            throw new IllegalStateException("protocol error from the primary: expected '*', got byte " + buf[p]);
        }
        int nl = indexOfNewline(p);
        if (nl < 0) {
            return null;
        }
        int count = (int) parseNumber(p + 1, nl);
        p = nl + 1;
        byte[][] argv = new byte[count][];
        for (int i = 0; i < count; i++) {
            if (p >= end) {
                return null;
            }
            if (buf[p] != '$') {
                throw new IllegalStateException("protocol error from the primary: expected '$', got byte " + buf[p]);
            }
            nl = indexOfNewline(p);
            if (nl < 0) {
                return null;
            }
            int len = (int) parseNumber(p + 1, nl);
            p = nl + 1;
            if (p + len + 2 > end) {
                return null;
            }
            argv[i] = Arrays.copyOfRange(buf, p, p + len);
            p += len + 2;
        }
        return complete(start, p, argv);
    }

    private byte[][] complete(int from, int to, byte[][] argv) {
        commandStart = from;
        commandEnd = to;
        start = to;
        return argv;
    }

    /** The buffer holding the last command's bytes (valid until the next {@link #append}). */
    byte[] buffer() {
        return buf;
    }

    /** Where the last command returned by {@link #next} begins in {@link #buffer()}. */
    int commandStart() {
        return commandStart;
    }

    /** One past the last command's last byte. */
    int commandEnd() {
        return commandEnd;
    }

    /** Where the bytes not yet released by {@link #release} begin. */
    int mark() {
        return mark;
    }

    /** Bytes up to {@code position} are no longer needed. */
    void release(int position) {
        mark = position;
    }

    /** Forgets everything buffered (a new link). */
    void reset() {
        start = 0;
        end = 0;
        mark = 0;
        commandStart = 0;
        commandEnd = 0;
    }

    /** Bytes received but not yet part of a complete command. */
    int pending() {
        return end - start;
    }

    private int indexOfNewline(int from) {
        for (int i = from; i < end; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The decimal number in {@code [from, to)}, a trailing CR excluded by the caller. */
    private long parseNumber(int from, int to) {
        if (to > from && buf[to - 1] == '\r') {
            to--;
        }
        if (to <= from) {
            throw new IllegalStateException("protocol error from the primary: empty length");
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            int d = buf[i] - '0';
            if (d < 0 || d > 9) {
                throw new IllegalStateException("protocol error from the primary: bad length");
            }
            n = n * 10 + d;
        }
        return n;
    }
}
