package dev.ebb.storage.types;

import dev.ebb.storage.MemoryEstimated;
import dev.ebb.storage.Values;
import java.util.Arrays;

/**
 * A string value with spare capacity, as Redis's sds after APPEND, SETRANGE or SETBIT ("raw"
 * encoding): the first {@link #length()} bytes of {@link #bytes()} are the string, the rest is room
 * to grow into. A string stored by SET stays a plain exact-length {@code byte[]}; the commands that
 * edit a string store a {@code RawString}, so a run of APPENDs copies the value only when the
 * capacity runs out, and the capacity grows geometrically ({@link #greedyCapacity}). This turns
 * appending n bytes in small pieces from O(n²) copying into O(n).
 *
 * <p><b>Invariant: the stored bytes never change.</b> Once a {@code RawString} is stored, bytes
 * {@code [0, length)} of its array are never written again, by anyone. Whoever holds a stored
 * string value (a reply sent by reference, the old value GETSET returns, a script's view) may read
 * {@code [0, length)} at any later time and see the value as it was. Growing is the only in-place
 * change allowed: {@link #appendInPlace} writes into {@code [length, capacity)} and returns a new
 * {@code RawString} with the same array and a longer length, which then replaces this one in the
 * keyspace. A command that changes existing bytes (SETRANGE, SETBIT inside the string) builds a
 * fresh array. The spare capacity belongs to the one key that holds the value: a duplicate (COPY)
 * must be made with {@link #copy()}, never by sharing this object, or two keys could append into
 * the same spare bytes.
 *
 * <p>Memory: the object (24 bytes) plus its whole array, spare capacity included, as Redis counts an
 * sds's allocation. Immutable apart from the spare bytes described above; loop thread only.
 */
public final class RawString implements MemoryEstimated {
    /** Largest Java byte array, so the longest string. */
    public static final int MAX_LENGTH = Integer.MAX_VALUE - 8;
    /** Redis's SDS_MAX_PREALLOC: below it a growing string doubles, above it grows by this much. */
    static final int MAX_PREALLOC = 1 << 20;
    /** Header (12) + array reference (4) + length (4), aligned to 8. */
    private static final long OBJECT_BYTES = 24;

    private final byte[] bytes;
    private final int length;

    /**
     * Wraps {@code bytes}, of which the first {@code length} are the string; the array is taken
     * over, not copied.
     *
     * @throws IllegalArgumentException if {@code length} is negative or beyond the array
     */
    public RawString(byte[] bytes, int length) {
        if (length < 0 || length > bytes.length) {
            throw new IllegalArgumentException("length out of range: length=" + length + " capacity=" + bytes.length);
        }
        this.bytes = bytes;
        this.length = length;
    }

    /** The backing array: only {@code [0, length())} is the string (see the class comment). */
    public byte[] bytes() {
        return bytes;
    }

    public int length() {
        return length;
    }

    /** Bytes that can be appended without a new array. */
    public int spare() {
        return bytes.length - length;
    }

    /**
     * This string followed by {@code tail}, written into the spare capacity: the result shares this
     * array and must replace this value in the keyspace. O(tail).
     *
     * @throws IllegalArgumentException if {@code tail} does not fit in {@link #spare()}
     */
    public RawString appendInPlace(byte[] tail) {
        if (tail.length > spare()) {
            throw new IllegalArgumentException("tail exceeds spare capacity: tail=" + tail.length + " spare=" + spare());
        }
        System.arraycopy(tail, 0, bytes, length, tail.length);
        return new RawString(bytes, length + tail.length);
    }

    /**
     * This string extended with zero bytes to {@code newLength}, in the spare capacity: the result
     * shares this array and must replace this value in the keyspace. O(newLength - length).
     *
     * @throws IllegalArgumentException if {@code newLength} is shorter than this or beyond the capacity
     */
    public RawString extendInPlace(int newLength) {
        if (newLength < length || newLength > bytes.length) {
            throw new IllegalArgumentException("new length out of range: newLength=" + newLength
                    + " length=" + length + " capacity=" + bytes.length);
        }
        Arrays.fill(bytes, length, newLength, (byte) 0);
        return new RawString(bytes, newLength);
    }

    /** An exact-size duplicate that shares nothing with this one (COPY). O(length). */
    public RawString copy() {
        return new RawString(Arrays.copyOf(bytes, length), length);
    }

    /**
     * The capacity to give a string growing to {@code required} bytes, as Redis's sdsMakeRoomFor
     * with greedy allocation: double it below {@value #MAX_PREALLOC} bytes, add {@value #MAX_PREALLOC}
     * above; then rounded up to the size class an allocator like jemalloc would hand out (four
     * classes per power of two, so 640 MB for a 512 MB string, as Redis reports). The size classes
     * matter here: Java has no in-place realloc, so without them a string grown by 1 MB pieces
     * would be copied on every other append. Never beyond {@link #MAX_LENGTH}.
     */
    public static int greedyCapacity(int required) {
        if (required < 0 || required > MAX_LENGTH) {
            throw new IllegalArgumentException("required length out of range: required=" + required);
        }
        long wanted = required < MAX_PREALLOC ? required * 2L : required + (long) MAX_PREALLOC;
        return (int) Math.min(sizeClass(wanted), MAX_LENGTH);
    }

    /** {@code n} rounded up to a multiple of a quarter of the power of two below it (16 at least). */
    static long sizeClass(long n) {
        if (n <= 16) {
            return 16;
        }
        long step = Math.max(Long.highestOneBit(n - 1) >>> 2, 8);
        return (n + step - 1) / step * step;
    }

    @Override
    public long memoryBytes() {
        return OBJECT_BYTES + Values.byteArrayBytes(bytes.length);
    }

    @Override
    public String toString() {
        return "RawString[length=" + length + ", capacity=" + bytes.length + "]";
    }
}
