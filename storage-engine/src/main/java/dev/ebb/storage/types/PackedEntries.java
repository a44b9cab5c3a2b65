package dev.ebb.storage.types;

import java.util.Arrays;

/**
 * The compact ("listpack") layout shared by the small aggregates: entries one after another in a
 * single {@code byte[]}, each a length (unsigned LEB128 varint: 1 byte below 128, at most 5) and
 * then its bytes. The array is always exactly as long as its contents, so a small value costs one
 * array header plus its bytes plus one length byte per entry, like Redis's listpack.
 *
 * <p>Every operation is a linear walk or an array copy, O(total bytes): meant for the at most a
 * few hundred short entries the thresholds allow. Stateless helpers; thread-safe.
 */
final class PackedEntries {
    static final byte[] EMPTY = new byte[0];

    private PackedEntries() {
    }

    /** The length stored in the entry at {@code at}. */
    static int length(byte[] p, int at) {
        int len = 0;
        int shift = 0;
        int b;
        do {
            b = p[at++];
            len |= (b & 0x7f) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        return len;
    }

    /** Bytes of the length header for {@code len}. */
    static int headerSize(int len) {
        return len < 1 << 7 ? 1 : len < 1 << 14 ? 2 : len < 1 << 21 ? 3 : len < 1 << 28 ? 4 : 5;
    }

    /** Offset of the data of the entry at {@code at}. */
    static int dataStart(byte[] p, int at) {
        return at + headerSize(length(p, at));
    }

    /** Offset just past the entry at {@code at}. */
    static int next(byte[] p, int at) {
        int len = length(p, at);
        return at + headerSize(len) + len;
    }

    /** Total bytes an entry holding {@code data} takes. */
    static int entrySize(byte[] data) {
        return headerSize(data.length) + data.length;
    }

    /** A copy of the data of the entry at {@code at}. */
    static byte[] copyOut(byte[] p, int at) {
        int start = dataStart(p, at);
        return Arrays.copyOfRange(p, start, start + length(p, at));
    }

    /** Whether the entry at {@code at} holds exactly {@code data}. */
    static boolean equalsAt(byte[] p, int at, byte[] data) {
        int len = length(p, at);
        if (len != data.length) {
            return false;
        }
        int start = at + headerSize(len);
        return Arrays.equals(p, start, start + len, data, 0, len);
    }

    /** Writes an entry for {@code data} at {@code at}; returns the offset after it. */
    static int write(byte[] p, int at, byte[] data) {
        int len = data.length;
        while (len >= 0x80) {
            p[at++] = (byte) (len | 0x80);
            len >>>= 7;
        }
        p[at++] = (byte) len;
        System.arraycopy(data, 0, p, at, data.length);
        return at + data.length;
    }

    /** {@code p} with bytes {@code [from, to)} replaced by entries for {@code entries}, in a new exact array. */
    static byte[] splice(byte[] p, int from, int to, byte[]... entries) {
        int added = 0;
        for (byte[] e : entries) {
            added += entrySize(e);
        }
        byte[] out = new byte[p.length - (to - from) + added];
        System.arraycopy(p, 0, out, 0, from);
        int at = from;
        for (byte[] e : entries) {
            at = write(out, at, e);
        }
        System.arraycopy(p, to, out, at, p.length - to);
        return out;
    }
}
