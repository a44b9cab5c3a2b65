package dev.ebb.storage.types;

import java.util.Arrays;

/**
 * The compact layout of a hash whose fields may carry a time to live (Redis's "listpackex" idea):
 * pairs one after another in a single exactly sized {@code byte[]},
 *
 * <pre>
 *   field header  varint (fieldLength &lt;&lt; 1 | volatileBit)
 *   field bytes
 *   expiry        8 bytes, big-endian unix ms  -- only when volatileBit is 1
 *   value         a {@link PackedEntries} entry (varint length, bytes)
 * </pre>
 *
 * A persistent field costs what it costs in the plain listpack layout (its header grows by a byte
 * only for field lengths 64..127, 8192..16383 …), a volatile one 8 bytes more: the TTL is paid
 * for by the fields that have one. Every operation is a linear walk or an array copy, O(total
 * bytes), as for the other compact encodings. Stateless helpers; thread-safe.
 */
final class HashPack {
    /** Expiry of a persistent field, as returned by {@link #expiry}. */
    static final long NO_TTL = -1;

    private HashPack() {
    }

    private static long header(byte[] p, int at) {
        long v = 0;
        int shift = 0;
        int b;
        do {
            b = p[at++];
            v |= (long) (b & 0x7f) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        return v;
    }

    private static int varintSize(long v) {
        int n = 1;
        while (v >= 0x80) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    private static int writeVarint(byte[] p, int at, long v) {
        while (v >= 0x80) {
            p[at++] = (byte) (v | 0x80);
            v >>>= 7;
        }
        p[at++] = (byte) v;
        return at;
    }

    static int fieldLength(byte[] p, int at) {
        return (int) (header(p, at) >>> 1);
    }

    static boolean isVolatile(byte[] p, int at) {
        return (header(p, at) & 1) != 0;
    }

    private static int fieldStart(byte[] p, int at) {
        return at + varintSize(header(p, at));
    }

    /** Offset of the value entry of the pair at {@code at}. */
    static int valueAt(byte[] p, int at) {
        long h = header(p, at);
        return at + varintSize(h) + (int) (h >>> 1) + ((h & 1) != 0 ? Long.BYTES : 0);
    }

    /** Offset of the pair after the pair at {@code at}. */
    static int next(byte[] p, int at) {
        return PackedEntries.next(p, valueAt(p, at));
    }

    /** The field's absolute expiry in unix ms, or {@link #NO_TTL}. */
    static long expiry(byte[] p, int at) {
        long h = header(p, at);
        if ((h & 1) == 0) {
            return NO_TTL;
        }
        int ttlAt = at + varintSize(h) + (int) (h >>> 1);
        long v = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            v = (v << 8) | (p[ttlAt + i] & 0xff);
        }
        return v;
    }

    static byte[] copyField(byte[] p, int at) {
        int start = fieldStart(p, at);
        return Arrays.copyOfRange(p, start, start + fieldLength(p, at));
    }

    static byte[] copyValue(byte[] p, int at) {
        return PackedEntries.copyOut(p, valueAt(p, at));
    }

    static boolean fieldEquals(byte[] p, int at, byte[] field) {
        if (fieldLength(p, at) != field.length) {
            return false;
        }
        int start = fieldStart(p, at);
        return Arrays.equals(p, start, start + field.length, field, 0, field.length);
    }

    /** Bytes a pair of {@code field}, {@code value} and (if not {@link #NO_TTL}) an expiry takes. */
    static int pairSize(byte[] field, byte[] value, long expiry) {
        long h = ((long) field.length << 1) | (expiry == NO_TTL ? 0 : 1);
        return varintSize(h) + field.length + (expiry == NO_TTL ? 0 : Long.BYTES) + PackedEntries.entrySize(value);
    }

    /** Writes a pair at {@code at}; returns the offset after it. */
    static int writePair(byte[] p, int at, byte[] field, byte[] value, long expiry) {
        boolean ttl = expiry != NO_TTL;
        at = writeVarint(p, at, ((long) field.length << 1) | (ttl ? 1 : 0));
        System.arraycopy(field, 0, p, at, field.length);
        at += field.length;
        if (ttl) {
            for (int i = Long.BYTES - 1; i >= 0; i--) {
                p[at++] = (byte) (expiry >>> (8 * i));
            }
        }
        return PackedEntries.write(p, at, value);
    }

    /** {@code p} with bytes {@code [from, to)} replaced by one pair (or nothing if {@code field} is null). */
    static byte[] splice(byte[] p, int from, int to, byte[] field, byte[] value, long expiry) {
        int added = field == null ? 0 : pairSize(field, value, expiry);
        byte[] out = new byte[p.length - (to - from) + added];
        System.arraycopy(p, 0, out, 0, from);
        int at = field == null ? from : writePair(out, from, field, value, expiry);
        System.arraycopy(p, to, out, at, p.length - to);
        return out;
    }
}
