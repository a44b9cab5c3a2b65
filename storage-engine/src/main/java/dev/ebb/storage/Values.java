package dev.ebb.storage;

/**
 * Memory estimates for keys and values, the unit of {@code used_memory}.
 *
 * <p>Layout assumptions (HotSpot, 64-bit, the defaults below 32 GB of heap): compressed oops and
 * compressed class pointers, 8-byte object alignment. An array then has a 16-byte header (8-byte
 * mark word, 4-byte class pointer, 4-byte length) and a {@code byte[n]} occupies
 * {@code 16 + n} rounded up to a multiple of 8. With larger heaps (no compressed oops) headers
 * and references grow; the estimate then under-counts by a few bytes per object. References held
 * in the dict's slot arrays are counted by the dict itself ({@link Dict#memoryBytes()}).
 *
 * <p>Stateless and thread-safe.
 */
public final class Values {
    /** Bytes of an array header under compressed class pointers. */
    public static final int ARRAY_HEADER_BYTES = 16;
    /** Object alignment of the JVM (default {@code -XX:ObjectAlignmentInBytes}). */
    public static final int OBJECT_ALIGNMENT = 8;
    /** Bytes of an object reference under compressed oops. */
    public static final int REFERENCE_BYTES = 4;

    private Values() {
    }

    /** Heap bytes of a {@code byte[length]}: header plus length, rounded up to the alignment. */
    public static long byteArrayBytes(int length) {
        return align(ARRAY_HEADER_BYTES + (long) length);
    }

    /** Heap bytes of an array of {@code length} elements of {@code elementBytes} each. */
    public static long arrayBytes(long length, int elementBytes) {
        return align(ARRAY_HEADER_BYTES + length * elementBytes);
    }

    /** Heap bytes of a stored key (keys are {@code byte[]}). */
    public static long keyBytes(byte[] key) {
        return byteArrayBytes(key.length);
    }

    /**
     * Heap bytes of a stored value: a {@code byte[]} string, or any {@link MemoryEstimated}.
     *
     * @throws IllegalArgumentException for any other type (a value type that forgot to report
     *     its memory), naming the class
     */
    public static long memoryOf(Object value) {
        if (value instanceof byte[]) {
            return byteArrayBytes(((byte[]) value).length);
        }
        if (value instanceof MemoryEstimated) {
            return ((MemoryEstimated) value).memoryBytes();
        }
        throw new IllegalArgumentException("value type has no memory estimate: "
                + (value == null ? "null" : value.getClass().getName()));
    }

    /** {@code bytes} rounded up to the next multiple of {@link #OBJECT_ALIGNMENT}. */
    public static long align(long bytes) {
        return (bytes + OBJECT_ALIGNMENT - 1) & -OBJECT_ALIGNMENT;
    }
}
