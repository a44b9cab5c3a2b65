package dev.ebb.storage.rdb;

import dev.ebb.storage.types.IntegerText;

/**
 * Reads the entries of a ziplist (ziplist.c), the compact encoding of RDB versions before 10
 * (Redis 6.x and earlier): lists, hashes and sorted sets. Read only; Ebb never writes ziplists.
 *
 * <p>Layout: total bytes (uint32 LE), offset of the last entry (uint32 LE), count (uint16 LE,
 * 65535 when unknown), entries, end byte 0xFF. An entry is the previous entry's length (1 byte,
 * or 0xFE and a uint32 LE), an encoding (strings: 6-bit, 14-bit big-endian or 32-bit big-endian
 * lengths; integers: int16, int32, int64, int24, int8 or an immediate 0..12), then the data.
 * Every entry is bounds-checked and its previous-length compared with the real one.
 *
 * <p>Not thread-safe; one instance per ziplist.
 */
final class ZiplistReader {
    private static final int HEADER_SIZE = 10;
    private static final int EOF = 0xFF;

    private final byte[] zl;
    private int pos = HEADER_SIZE;
    private int prevLength;

    ZiplistReader(byte[] zl) throws RdbException {
        if (zl.length < HEADER_SIZE + 1) {
            throw new RdbException("ziplist shorter than its header");
        }
        long total = le(zl, 0, 4) & 0xFFFFFFFFL;
        if (total != zl.length || (zl[zl.length - 1] & 0xFF) != EOF) {
            throw new RdbException("ziplist header does not match its " + zl.length + " bytes");
        }
        this.zl = zl;
    }

    boolean hasNext() throws RdbException {
        if ((zl[pos] & 0xFF) != EOF) {
            return true;
        }
        if (pos != zl.length - 1) {
            throw new RdbException("ziplist end byte before its end");
        }
        return false;
    }

    byte[] next() throws RdbException {
        int start = pos;
        int prev = zl[pos] & 0xFF;
        if (prev == 0xFE) {
            need(5);
            prev = (int) le(zl, pos + 1, 4);
            pos += 5;
        } else {
            pos += 1;
        }
        if (prev != prevLength) {
            throw new RdbException("ziplist previous-entry length " + prev + ", expected " + prevLength);
        }
        need(1);
        int enc = zl[pos] & 0xFF;
        byte[] out;
        switch (enc >> 6) {
            case 0 -> out = string(pos + 1, enc & 0x3F);
            case 1 -> {
                need(2);
                out = string(pos + 2, ((enc & 0x3F) << 8) | (zl[pos + 1] & 0xFF));
            }
            case 2 -> {
                need(5);
                long len = (zl[pos + 1] & 0xFFL) << 24 | (zl[pos + 2] & 0xFFL) << 16
                        | (zl[pos + 3] & 0xFFL) << 8 | (zl[pos + 4] & 0xFFL);
                if (len > zl.length) {
                    throw new RdbException("ziplist string past its end");
                }
                out = string(pos + 5, (int) len);
            }
            default -> out = integer(enc);
        }
        prevLength = pos - start;
        return out;
    }

    private byte[] integer(int enc) throws RdbException {
        int width;
        switch (enc) {
            case 0xC0 -> width = 2;
            case 0xD0 -> width = 4;
            case 0xE0 -> width = 8;
            case 0xF0 -> width = 3;
            case 0xFE -> width = 1;
            default -> {
                if (enc >= 0xF1 && enc <= 0xFD) {
                    pos += 1;
                    return IntegerText.bytes((enc & 0x0F) - 1);
                }
                throw new RdbException("ziplist entry with invalid encoding byte " + enc);
            }
        }
        need(1 + width);
        int shift = 64 - 8 * width;
        long v = (le(zl, pos + 1, width) << shift) >> shift;
        pos += 1 + width;
        return IntegerText.bytes(v);
    }

    private byte[] string(int from, int len) throws RdbException {
        if (from + (long) len > zl.length - 1) {
            throw new RdbException("ziplist string past its end");
        }
        byte[] s = new byte[len];
        System.arraycopy(zl, from, s, 0, len);
        pos = from + len;
        return s;
    }

    private void need(int bytes) throws RdbException {
        if (pos + (long) bytes > zl.length - 1) {
            throw new RdbException("ziplist entry past its end");
        }
    }

    static long le(byte[] b, int at, int width) {
        long v = 0;
        for (int i = width - 1; i >= 0; i--) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }
}
