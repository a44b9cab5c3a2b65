package dev.ebb.storage.rdb;

import dev.ebb.storage.types.IntegerText;
import java.util.Arrays;

/**
 * Builds a listpack byte for byte as Redis's listpack.c does, for RDB values stored as listpacks
 * (hashes, sets, sorted sets, list nodes).
 *
 * <p>Layout: total bytes (uint32 LE), element count (uint16 LE, 65535 when it does not fit),
 * entries, the end byte 0xFF. An entry is an encoding header with its data, then a back-length
 * (the header-and-data size, 7 bits a byte, read right to left). Strings that are the canonical
 * text of a 64-bit integer are stored as integers (lpAppend's lpStringToInt64), in the smallest of
 * the 7-bit, 13-bit, 16, 24, 32 or 64-bit forms; other strings with a 6-bit, 12-bit or 32-bit
 * length.
 *
 * <p>Append is O(entry) amortised; the buffer doubles. Not thread-safe; reusable after
 * {@link #reset()}.
 */
final class ListpackWriter {
    static final int HEADER_SIZE = 6;
    static final int EOF = 0xFF;
    static final int COUNT_UNKNOWN = 65535;

    private byte[] buf = new byte[64];
    private int pos = HEADER_SIZE;
    private int count;

    void reset() {
        pos = HEADER_SIZE;
        count = 0;
    }

    /** Appends a string, as an integer entry when it is one's canonical text. */
    void append(byte[] s) {
        long v = IntegerText.parse(s);
        if (IntegerText.isInteger(v, s)) {
            appendInteger(v);
        } else {
            appendString(s, 0, s.length);
        }
    }

    void appendString(byte[] s, int off, int len) {
        ensure(len + 11);
        int start = pos;
        if (len < 64) {
            buf[pos++] = (byte) (0x80 | len);
        } else if (len < 4096) {
            buf[pos++] = (byte) (0xE0 | (len >> 8));
            buf[pos++] = (byte) len;
        } else {
            buf[pos++] = (byte) 0xF0;
            putLe(len, 4);
        }
        System.arraycopy(s, off, buf, pos, len);
        pos += len;
        backlen(pos - start);
    }

    void appendInteger(long v) {
        ensure(16);
        int start = pos;
        if (v >= 0 && v <= 127) {
            buf[pos++] = (byte) v;
        } else if (v >= -4096 && v <= 4095) {
            long u = v < 0 ? (1 << 13) + v : v;
            buf[pos++] = (byte) (0xC0 | (u >> 8));
            buf[pos++] = (byte) u;
        } else if (v >= -32768 && v <= 32767) {
            buf[pos++] = (byte) 0xF1;
            putLe(v, 2);
        } else if (v >= -8388608 && v <= 8388607) {
            buf[pos++] = (byte) 0xF2;
            putLe(v, 3);
        } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            buf[pos++] = (byte) 0xF3;
            putLe(v, 4);
        } else {
            buf[pos++] = (byte) 0xF4;
            putLe(v, 8);
        }
        backlen(pos - start);
    }

    int count() {
        return count;
    }

    /** The finished listpack: header filled in, end byte appended. */
    byte[] toBytes() {
        ensure(1);
        buf[pos] = (byte) EOF;
        int total = pos + 1;
        byte[] out = Arrays.copyOf(buf, total);
        for (int i = 0; i < 4; i++) {
            out[i] = (byte) (total >>> (8 * i));
        }
        int n = count < COUNT_UNKNOWN ? count : COUNT_UNKNOWN;
        out[4] = (byte) n;
        out[5] = (byte) (n >>> 8);
        return out;
    }

    /** lpEncodeBacklen: most significant 7-bit group first, every byte but the first flagged 128. */
    private void backlen(int l) {
        count++;
        if (l <= 127) {
            buf[pos++] = (byte) l;
        } else if (l < 16383) {
            buf[pos++] = (byte) (l >> 7);
            buf[pos++] = (byte) ((l & 127) | 128);
        } else if (l < 2097151) {
            buf[pos++] = (byte) (l >> 14);
            buf[pos++] = (byte) (((l >> 7) & 127) | 128);
            buf[pos++] = (byte) ((l & 127) | 128);
        } else if (l < 268435455) {
            buf[pos++] = (byte) (l >> 21);
            buf[pos++] = (byte) (((l >> 14) & 127) | 128);
            buf[pos++] = (byte) (((l >> 7) & 127) | 128);
            buf[pos++] = (byte) ((l & 127) | 128);
        } else {
            buf[pos++] = (byte) (l >>> 28);
            buf[pos++] = (byte) (((l >> 21) & 127) | 128);
            buf[pos++] = (byte) (((l >> 14) & 127) | 128);
            buf[pos++] = (byte) (((l >> 7) & 127) | 128);
            buf[pos++] = (byte) ((l & 127) | 128);
        }
    }

    private void putLe(long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            buf[pos++] = (byte) (v >>> (8 * i));
        }
    }

    private void ensure(int more) {
        if (buf.length - pos < more) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + more));
        }
    }
}
