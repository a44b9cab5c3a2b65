package dev.ebb.storage.types;

import dev.ebb.storage.MemoryEstimated;
import dev.ebb.storage.Values;

/**
 * A Redis list of binary-safe elements: a ring buffer of {@code byte[]} references.
 *
 * <p><b>Costs.</b> Push and pop at either end O(1) amortised (the ring doubles when full and
 * halves when under a quarter full); index read/write O(1); insert or remove in the middle O(n)
 * (an array shift of the shorter side is not attempted: always the tail side). Redis's quicklist
 * costs O(n/node) for an index; Ebb's ring is faster there and needs one contiguous reference
 * array (4 bytes an element) instead of linked listpack nodes.
 *
 * <p><b>Encoding.</b> OBJECT ENCODING follows Redis 7.2's rules for a list's size: {@code listpack}
 * while its elements would fit one listpack within {@code list-max-listpack-size}, {@code quicklist}
 * beyond, and back to {@code listpack} once it shrinks to half the limit (Redis's hysteresis). Ebb
 * deliberately keeps one representation for both: the name is tracked from an estimate of the
 * listpack bytes Redis would use ({@link #estimatedListpackBytes()}), so the switch points match
 * Redis's closely but not byte for byte.
 *
 * <p><b>Memory.</b> {@link #memoryBytes()} is O(1): the object, the ring array and the element
 * arrays as a running sum. Not thread-safe: owned by the command loop thread.
 */
public final class ListValue implements MemoryEstimated {
    private static final long OBJECT_BYTES = 40;
    private static final int MIN_CAPACITY = 8;
    /** Listpack header (total bytes, count) plus end byte. */
    private static final int LISTPACK_OVERHEAD = 7;
    /** Redis's size safety limit of one listpack node when the fill is a count. */
    private static final int SIZE_SAFETY_LIMIT = 8192;

    private byte[][] ring = new byte[MIN_CAPACITY][];
    private int head;
    private int size;
    private long payloadBytes;
    private long listpackBytes;
    private boolean quicklist;

    public int size() {
        return size;
    }

    /** OBJECT ENCODING's name: {@code listpack} or {@code quicklist}. */
    public String encodingName() {
        return quicklist ? "quicklist" : "listpack";
    }

    /** Redis's listpack size estimate for the current elements (entry headers, data and back-lengths). */
    public long estimatedListpackBytes() {
        return LISTPACK_OVERHEAD + listpackBytes;
    }

    /**
     * Applies Redis 7.2's conversion rule for {@code fill} (list-max-listpack-size): converts to
     * quicklist once the elements exceed one listpack, back to listpack once they fit twice over.
     * Call after each command's changes. O(1).
     */
    public void fitEncoding(int fill) {
        long bytes = estimatedListpackBytes();
        if (!quicklist) {
            quicklist = fill >= 0 ? size > fill || bytes > SIZE_SAFETY_LIMIT : bytes > maxBytes(fill);
        } else {
            boolean fits = fill >= 0 ? size * 2L <= fill && bytes * 2 <= SIZE_SAFETY_LIMIT
                    : bytes * 2 <= maxBytes(fill);
            quicklist = !fits;
        }
    }

    private static long maxBytes(int fill) {
        int level = Math.min(-fill, 5);
        return 4096L << (level - 1);
    }

    public void pushHead(byte[] e) {
        growIfFull();
        head = (head - 1) & (ring.length - 1);
        ring[head] = e;
        size++;
        added(e);
    }

    public void pushTail(byte[] e) {
        growIfFull();
        ring[(head + size) & (ring.length - 1)] = e;
        size++;
        added(e);
    }

    /** Removes and returns the first element, or null if empty. */
    public byte[] popHead() {
        if (size == 0) {
            return null;
        }
        byte[] e = ring[head];
        ring[head] = null;
        head = (head + 1) & (ring.length - 1);
        size--;
        removed(e);
        shrinkIfSparse();
        return e;
    }

    /** Removes and returns the last element, or null if empty. */
    public byte[] popTail() {
        if (size == 0) {
            return null;
        }
        int at = (head + size - 1) & (ring.length - 1);
        byte[] e = ring[at];
        ring[at] = null;
        size--;
        removed(e);
        shrinkIfSparse();
        return e;
    }

    /** The element at {@code index} in {@code [0, size)}. O(1). */
    public byte[] get(int index) {
        return ring[(head + index) & (ring.length - 1)];
    }

    /** Replaces the element at {@code index} in {@code [0, size)}. O(1). */
    public void set(int index, byte[] e) {
        int at = (head + index) & (ring.length - 1);
        removed(ring[at]);
        ring[at] = e;
        added(e);
    }

    /** Inserts {@code e} before position {@code index} in {@code [0, size]}. O(size - index). */
    public void insert(int index, byte[] e) {
        growIfFull();
        int mask = ring.length - 1;
        for (int i = size; i > index; i--) {
            ring[(head + i) & mask] = ring[(head + i - 1) & mask];
        }
        ring[(head + index) & mask] = e;
        size++;
        added(e);
    }

    /** Removes the element at {@code index} in {@code [0, size)}. O(size - index). */
    public void removeAt(int index) {
        int mask = ring.length - 1;
        removed(ring[(head + index) & mask]);
        for (int i = index; i < size - 1; i++) {
            ring[(head + i) & mask] = ring[(head + i + 1) & mask];
        }
        ring[(head + size - 1) & mask] = null;
        size--;
        shrinkIfSparse();
    }

    /** Keeps only {@code [start, end]} (inclusive, within bounds, start <= end+1). O(removed + kept). */
    public void retain(int start, int end) {
        int mask = ring.length - 1;
        for (int i = 0; i < size; i++) {
            if (i < start || i > end) {
                int at = (head + i) & mask;
                removed(ring[at]);
                ring[at] = null;
            }
        }
        head = (head + start) & mask;
        size = Math.max(0, end - start + 1);
        shrinkIfSparse();
    }

    @Override
    public long memoryBytes() {
        return OBJECT_BYTES + Values.arrayBytes(ring.length, Values.REFERENCE_BYTES) + payloadBytes;
    }

    /** A copy sharing no mutable state (element arrays are immutable once stored). */
    public ListValue copy() {
        ListValue copy = new ListValue();
        copy.ring = new byte[ring.length][];
        for (int i = 0; i < size; i++) {
            copy.ring[i] = get(i);
        }
        copy.size = size;
        copy.payloadBytes = payloadBytes;
        copy.listpackBytes = listpackBytes;
        copy.quicklist = quicklist;
        return copy;
    }

    private void added(byte[] e) {
        payloadBytes += Values.byteArrayBytes(e.length);
        listpackBytes += listpackEntryBytes(e);
    }

    private void removed(byte[] e) {
        payloadBytes -= Values.byteArrayBytes(e.length);
        listpackBytes -= listpackEntryBytes(e);
    }

    /**
     * Bytes of one listpack entry as Redis encodes it: integers in 1 to 9 bytes by magnitude,
     * strings with a 1, 2 or 5 byte header by length, plus the back-length of 1 to 5 bytes.
     */
    static int listpackEntryBytes(byte[] e) {
        long v = IntegerText.parse(e);
        int body;
        if (IntegerText.isInteger(v, e)) {
            if (v >= 0 && v <= 127) {
                body = 1;
            } else if (v >= -4096 && v <= 4095) {
                body = 2;
            } else if (v >= -32768 && v <= 32767) {
                body = 3;
            } else if (v >= -8388608 && v <= 8388607) {
                body = 4;
            } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
                body = 5;
            } else {
                body = 9;
            }
        } else if (e.length < 64) {
            body = 1 + e.length;
        } else if (e.length < 4096) {
            body = 2 + e.length;
        } else {
            body = 5 + e.length;
        }
        int backlen = body < 128 ? 1 : body < 16384 ? 2 : body < 2097152 ? 3 : body < 268435456 ? 4 : 5;
        return body + backlen;
    }

    private void growIfFull() {
        if (size == ring.length) {
            resize(ring.length * 2);
        }
    }

    private void shrinkIfSparse() {
        if (ring.length > MIN_CAPACITY && size < ring.length / 4) {
            resize(ring.length / 2);
        }
    }

    private void resize(int capacity) {
        byte[][] next = new byte[capacity][];
        for (int i = 0; i < size; i++) {
            next[i] = get(i);
        }
        ring = next;
        head = 0;
    }
}
