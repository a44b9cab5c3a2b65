package dev.ebb.storage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Content equality of two keys, tuned for the short keys a keyspace mostly holds.
 *
 * <p>{@link Arrays#equals(byte[], byte[])} compares arrays under eight bytes one byte at a time and calls out
 * to a vectorized routine above that; here keys of up to {@value #WORDWISE_MAX_BYTES} bytes are compared in
 * at most four 8-byte reads (the last one overlapping the previous when the length is not a multiple of 8),
 * two overlapping 4-byte reads for 4 to 7 bytes, and single bytes below that. Longer keys go to
 * {@code Arrays.equals}. Allocates nothing; stateless and thread-safe.
 */
final class KeyBytes {

    /** Longest key compared here rather than by {@link Arrays#equals(byte[], byte[])}. */
    static final int WORDWISE_MAX_BYTES = 32;

    private static final VarHandle LONG_LE =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
        MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private KeyBytes() {
    }

    /**
     * Whether two keys hold the same bytes.
     *
     * @param a a key, not null
     * @param b a key, not null
     * @return true if both have the same length and content
     */
    static boolean equal(final byte[] a, final byte[] b) {
        final int length = a.length;
        if (b.length != length) {
            return false;
        }
        if (length >= Long.BYTES) {
            if (length > WORDWISE_MAX_BYTES) {
                return Arrays.equals(a, b);
            }
            final int last = length - Long.BYTES;
            for (int offset = 0; offset < last; offset += Long.BYTES) {
                if ((long) LONG_LE.get(a, offset) != (long) LONG_LE.get(b, offset)) {
                    return false;
                }
            }
            return (long) LONG_LE.get(a, last) == (long) LONG_LE.get(b, last);
        }
        if (length >= Integer.BYTES) {
            final int last = length - Integer.BYTES;
            return (int) INT_LE.get(a, 0) == (int) INT_LE.get(b, 0)
                && (int) INT_LE.get(a, last) == (int) INT_LE.get(b, last);
        }
        for (int i = 0; i < length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code stored[from, from + length)} holds the same bytes as {@code key}, compared as
     * {@link #equal} compares whole keys.
     *
     * @param stored the array holding the range
     * @param from   the range's first byte
     * @param length the range's length
     * @param key    a key, not null
     * @return true if the range and the key have the same length and content
     */
    static boolean equalRange(final byte[] stored, final int from, final int length, final byte[] key) {
        if (key.length != length) {
            return false;
        }
        if (length >= Long.BYTES) {
            if (length > WORDWISE_MAX_BYTES) {
                return Arrays.equals(stored, from, from + length, key, 0, length);
            }
            final int last = length - Long.BYTES;
            for (int offset = 0; offset < last; offset += Long.BYTES) {
                if ((long) LONG_LE.get(stored, from + offset) != (long) LONG_LE.get(key, offset)) {
                    return false;
                }
            }
            return (long) LONG_LE.get(stored, from + last) == (long) LONG_LE.get(key, last);
        }
        if (length >= Integer.BYTES) {
            final int last = length - Integer.BYTES;
            return (int) INT_LE.get(stored, from) == (int) INT_LE.get(key, 0)
                && (int) INT_LE.get(stored, from + last) == (int) INT_LE.get(key, last);
        }
        for (int i = 0; i < length; i++) {
            if (stored[from + i] != key[i]) {
                return false;
            }
        }
        return true;
    }
}
