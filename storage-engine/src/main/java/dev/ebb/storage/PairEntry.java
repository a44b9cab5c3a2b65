package dev.ebb.storage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The layout of one field and its value packed into a single {@code byte[]}, the entry of a large hash
 * ({@link EntryTable#forPairs}): one array header (16 bytes) and one alignment pad instead of two.
 *
 * <pre>
 *   [len] [field bytes] [value bytes]          field of 0 to 254 bytes: len is one byte, the field's length
 *   [0xFF] [len, 4 bytes big-endian] [field] [value]     a longer field
 * </pre>
 * The value is the rest of the array, so its length costs nothing. A field {@code field:0000001} with an
 * 8-byte value is a 22-byte entry, 40 bytes of heap, against 32 + 24 as two arrays.
 *
 * <p>Entries are immutable once stored (copies of a hash share them). Stateless and thread-safe.
 */
public final class PairEntry {
    /** The first byte of an entry whose field length follows as a 4-byte int. */
    private static final int LONG_FIELD = 0xFF;
    private static final VarHandle INT_BE =
        MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private PairEntry() {
    }

    /**
     * A new entry holding copies of {@code field} and {@code value}. O(field + value).
     *
     * @param field the field bytes
     * @param value the value bytes
     * @return the packed entry
     */
    public static byte[] of(final byte[] field, final byte[] value) {
        final int header = field.length < LONG_FIELD ? 1 : 1 + Integer.BYTES;
        final byte[] entry = new byte[header + field.length + value.length];
        if (header == 1) {
            entry[0] = (byte) field.length;
        } else {
            entry[0] = (byte) LONG_FIELD;
            INT_BE.set(entry, 1, field.length);
        }
        System.arraycopy(field, 0, entry, header, field.length);
        System.arraycopy(value, 0, entry, header + field.length, value.length);
        return entry;
    }

    /** Offset of the field's first byte in {@code entry}. O(1). */
    public static int fieldOffset(final byte[] entry) {
        return (entry[0] & 0xFF) != LONG_FIELD ? 1 : 1 + Integer.BYTES;
    }

    /** The field's length. O(1). */
    public static int fieldLength(final byte[] entry) {
        final int first = entry[0] & 0xFF;
        return first != LONG_FIELD ? first : (int) INT_BE.get(entry, 1);
    }

    /** Offset of the value's first byte; the value runs to the end of the entry. O(1). */
    public static int valueOffset(final byte[] entry) {
        return fieldOffset(entry) + fieldLength(entry);
    }

    /** A copy of the field. O(field). */
    public static byte[] copyField(final byte[] entry) {
        final int from = fieldOffset(entry);
        return Arrays.copyOfRange(entry, from, from + fieldLength(entry));
    }

    /** A copy of the value. O(value). */
    public static byte[] copyValue(final byte[] entry) {
        return Arrays.copyOfRange(entry, valueOffset(entry), entry.length);
    }
}
