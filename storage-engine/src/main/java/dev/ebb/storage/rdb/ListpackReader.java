package dev.ebb.storage.rdb;

import dev.ebb.storage.types.IntegerText;

/**
 * Reads the entries of a listpack (see {@link ListpackWriter} for the layout), validating as it
 * goes what Redis's lpValidateIntegrity checks deeply: the header's total bytes, every entry within
 * bounds with a back-length that matches its size, the end byte exactly at the end, and the
 * header's count when it is not 65535. Integers come back as their decimal text.
 *
 * <p>Each {@link #next()} is O(entry). Not thread-safe; one instance per listpack.
 */
final class ListpackReader {
    private final byte[] lp;
    private final int declaredCount;
    private int pos = ListpackWriter.HEADER_SIZE;
    private int seen;
    /** The integer value of the last entry when {@link #lastWasInteger}. */
    private long lastInteger;
    private boolean lastWasInteger;

    /**
     * @throws RdbException if the header does not describe {@code lp}
     */
    ListpackReader(byte[] lp) throws RdbException {
        if (lp.length < ListpackWriter.HEADER_SIZE + 1) {
            throw new RdbException("listpack shorter than its header");
        }
        long total = (lp[0] & 0xFFL) | (lp[1] & 0xFFL) << 8 | (lp[2] & 0xFFL) << 16 | (lp[3] & 0xFFL) << 24;
        if (total != lp.length) {
            throw new RdbException("listpack header length " + total + " does not match its " + lp.length + " bytes");
        }
        if ((lp[lp.length - 1] & 0xFF) != ListpackWriter.EOF) {
            throw new RdbException("listpack without its end byte");
        }
        this.lp = lp;
        this.declaredCount = (lp[4] & 0xFF) | (lp[5] & 0xFF) << 8;
    }

    /** Whether another entry follows; at the end, checks the count in the header. */
    boolean hasNext() throws RdbException {
        if ((lp[pos] & 0xFF) != ListpackWriter.EOF) {
            return true;
        }
        if (pos != lp.length - 1) {
            throw new RdbException("listpack end byte before its end");
        }
        if (declaredCount != ListpackWriter.COUNT_UNKNOWN && declaredCount != seen) {
            throw new RdbException("listpack header count " + declaredCount + " but " + seen + " entries");
        }
        return false;
    }

    /** The next entry as bytes (integers as their text). Call after {@link #hasNext()} said true. */
    byte[] next() throws RdbException {
        int start = pos;
        int b = lp[pos] & 0xFF;
        byte[] out = null;
        lastWasInteger = true;
        if ((b & 0x80) == 0) {
            lastInteger = b;
            pos += 1;
        } else if ((b & 0xC0) == 0x80) {
            out = string(pos + 1, b & 0x3F);
        } else if ((b & 0xE0) == 0xC0) {
            need(2);
            int u = ((b & 0x1F) << 8) | (lp[pos + 1] & 0xFF);
            lastInteger = u >= 1 << 12 ? u - (1 << 13) : u;
            pos += 2;
        } else if ((b & 0xF0) == 0xE0) {
            need(2);
            out = string(pos + 2, ((b & 0x0F) << 8) | (lp[pos + 1] & 0xFF));
        } else if (b == 0xF0) {
            need(5);
            long len = le(pos + 1, 4) & 0xFFFFFFFFL;
            if (len > lp.length) {
                throw new RdbException("listpack string length " + len + " past its end");
            }
            out = string(pos + 5, (int) len);
        } else if (b >= 0xF1 && b <= 0xF4) {
            int width = b == 0xF1 ? 2 : b == 0xF2 ? 3 : b == 0xF3 ? 4 : 8;
            need(1 + width);
            long v = le(pos + 1, width);
            int shift = 64 - 8 * width;
            lastInteger = (v << shift) >> shift;
            pos += 1 + width;
        } else {
            throw new RdbException("listpack entry with invalid encoding byte " + b);
        }
        checkBacklen(pos - start);
        seen++;
        if (out != null) {
            lastWasInteger = false;
            return out;
        }
        return IntegerText.bytes(lastInteger);
    }

    /** Whether the last {@link #next()} entry was stored as an integer, and its value. */
    boolean lastWasInteger() {
        return lastWasInteger;
    }

    long lastInteger() {
        return lastInteger;
    }

    private byte[] string(int from, int len) throws RdbException {
        if (from + (long) len > lp.length - 1) {
            throw new RdbException("listpack string past its end");
        }
        byte[] s = new byte[len];
        System.arraycopy(lp, from, s, 0, len);
        pos = from + len;
        return s;
    }

    /** Reads the back-length after an entry of {@code size} bytes and checks that it says so. */
    private void checkBacklen(int size) throws RdbException {
        int width = size <= 127 ? 1 : size < 16383 ? 2 : size < 2097151 ? 3 : size < 268435455 ? 4 : 5;
        need(width);
        long v = 0;
        for (int i = 0; i < width; i++) {
            v = (v << 7) | (lp[pos + i] & 0x7F);
        }
        if (v != size) {
            throw new RdbException("listpack back-length " + v + " for an entry of " + size + " bytes");
        }
        pos += width;
    }

    private void need(int bytes) throws RdbException {
        if (pos + (long) bytes > lp.length - 1) {
            throw new RdbException("listpack entry past its end");
        }
    }

    private long le(int at, int width) {
        long v = 0;
        for (int i = width - 1; i >= 0; i--) {
            v = (v << 8) | (lp[at + i] & 0xFF);
        }
        return v;
    }
}
