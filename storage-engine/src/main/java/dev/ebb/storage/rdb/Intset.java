package dev.ebb.storage.rdb;

/**
 * Redis's intset blob (intset.c), the RDB form of a set of integers: encoding width in bytes
 * (uint32 LE: 2, 4 or 8), element count (uint32 LE), then the elements ascending, little-endian,
 * all in that width.
 *
 * <p>Ebb writes the smallest width that holds every element. Redis never narrows an intset after
 * removals, so a set that once held a wide integer may be written wider by Redis than by Ebb
 * (both read the same). Stateless.
 */
final class Intset {
    private static final int HEADER_SIZE = 8;

    private Intset() {
    }

    /** The blob for {@code values}, ascending and distinct. O(n). */
    static byte[] encode(long[] values, int count) {
        int width = 2;
        for (int i = 0; i < count; i++) {
            long v = values[i];
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                width = 8;
                break;
            }
            if (v < Short.MIN_VALUE || v > Short.MAX_VALUE) {
                width = 4;
            }
        }
        byte[] out = new byte[HEADER_SIZE + count * width];
        putLe(out, 0, width, 4);
        putLe(out, 4, count, 4);
        for (int i = 0; i < count; i++) {
            putLe(out, HEADER_SIZE + i * width, values[i], width);
        }
        return out;
    }

    /**
     * The elements of an intset blob, checked as Redis's intsetValidateIntegrity: a valid width,
     * a size that matches the count, elements strictly ascending.
     */
    static long[] decode(byte[] blob) throws RdbException {
        if (blob.length < HEADER_SIZE) {
            throw new RdbException("intset shorter than its header");
        }
        long width = le(blob, 0, 4);
        if (width != 2 && width != 4 && width != 8) {
            throw new RdbException("intset with invalid encoding " + width);
        }
        long count = le(blob, 4, 4) & 0xFFFFFFFFL;
        if (count == 0 || HEADER_SIZE + count * width != blob.length) {
            throw new RdbException("intset of " + count + " elements in " + blob.length + " bytes");
        }
        long[] values = new long[(int) count];
        int shift = 64 - 8 * (int) width;
        for (int i = 0; i < count; i++) {
            long v = (le(blob, HEADER_SIZE + i * (int) width, (int) width) << shift) >> shift;
            if (i > 0 && v <= values[i - 1]) {
                throw new RdbException("intset elements not ascending");
            }
            values[i] = v;
        }
        return values;
    }

    private static void putLe(byte[] out, int at, long v, int width) {
        for (int i = 0; i < width; i++) {
            out[at + i] = (byte) (v >>> (8 * i));
        }
    }

    private static long le(byte[] b, int at, int width) {
        long v = 0;
        for (int i = width - 1; i >= 0; i--) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }
}
