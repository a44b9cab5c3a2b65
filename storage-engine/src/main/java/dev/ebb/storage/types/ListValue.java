package dev.ebb.storage.types;

import dev.ebb.storage.MemoryEstimated;
import dev.ebb.storage.Values;

/**
 * A Redis list of binary-safe elements: a ring buffer of {@code byte[]} references.
 *
 * <p><b>Costs.</b> Push and pop at either end O(1) amortised (the ring doubles when full and
 * halves when under a quarter full); index read O(1), index write O(1) plus, for a quicklist, the
 * O(nodes) walk that finds the node in the {@link QuicklistShape}; insert or remove in the middle
 * O(n) (an array shift of the shorter side is not attempted: always the tail side). Redis's
 * quicklist costs O(nodes) for an index; Ebb's ring is faster for reads and needs one contiguous
 * reference array (4 bytes an element) instead of linked listpack nodes. LSET in the middle of a
 * 200,000-element quicklist (2,500 nodes), redis-benchmark -P 16 on 2 loaded cores: 398-495k/s
 * (before the shape: 507-671k/s; redis-server 7.2.4: 350-358k/s).
 *
 * <p><b>Encoding.</b> OBJECT ENCODING follows Redis 7.2's rules: Ebb deliberately keeps one
 * representation for both encodings and tracks the name. A {@code listpack} list becomes a
 * {@code quicklist} when a command is about to add elements whose lengths, with the listpack bytes
 * Redis would use ({@link #estimatedListpackBytes()}, exact for Redis's listpack format), pass the
 * {@code list-max-listpack-size} limit ({@link #growing}); from then on a {@link QuicklistShape}
 * follows the nodes Redis's quicklist would have, and the list turns back to {@code listpack} after
 * a removal only when a single node is left within half the limit ({@link #settle}), as Redis's
 * listTypeTryConvertQuicklist.
 *
 * <p><b>Memory.</b> {@link #memoryBytes()} is O(1): the object, the ring array and the element
 * arrays as a running sum. Not thread-safe: owned by the command loop thread.
 */
public final class ListValue implements MemoryEstimated {
    private static final long OBJECT_BYTES = 40;
    private static final int MIN_CAPACITY = 8;
    private static final int LISTPACK_OVERHEAD = QuicklistShape.LISTPACK_OVERHEAD;

    private byte[][] ring = new byte[MIN_CAPACITY][];
    private int head;
    private int size;
    private long payloadBytes;
    private long listpackBytes;
    /** The quicklist's node layout; null while the list is a listpack. */
    private QuicklistShape shape;
    /** Whether elements were removed or replaced since the last {@link #settle}. */
    private boolean shrank;

    public int size() {
        return size;
    }

    /** OBJECT ENCODING's name: {@code listpack} or {@code quicklist}. */
    public String encodingName() {
        return shape != null ? "quicklist" : "listpack";
    }

    /** Redis's listpack size estimate for the current elements (entry headers, data and back-lengths). */
    public long estimatedListpackBytes() {
        return LISTPACK_OVERHEAD + listpackBytes;
    }

    /**
     * Call before adding {@code addCount} elements of {@code addBytes} raw bytes in all (Redis's
     * listTypeTryConversionAppend): a listpack that would pass {@code fill}'s limit becomes a
     * quicklist whose first node is the listpack as it is. O(1).
     */
    public void growing(int fill, long addBytes, int addCount) {
        if (shape == null && QuicklistShape.exceedsLimit(fill, estimatedListpackBytes() + addBytes, (long) size + addCount)) {
            shape = QuicklistShape.fromListpack(fill, size, estimatedListpackBytes());
        }
    }

    /**
     * The raw bytes Redis counts in {@link #growing} for an element LMOVE just popped from this
     * list: none for one that reads as an integer popped from a quicklist (Redis pops that as an
     * int-encoded object, which it does not count), else its length.
     */
    public long movedBytes(byte[] e) {
        return shape != null && IntegerText.isInteger(IntegerText.parse(e), e) ? 0 : e.length;
    }

    /**
     * Call after a command's changes: if it removed or replaced elements of a quicklist left as a
     * single node within half of {@code fill}'s limit, the list is a listpack again. O(1).
     */
    public void settle(int fill) {
        if (shrank && shape != null) {
            convertBackIfSingleNode(fill, true);
        }
        shrank = false;
    }

    /**
     * A new empty quicklist, for a list built whole and then {@link #settleBuilt settled} (SORT …
     * STORE builds a quicklist, then converts it if it fits one listpack).
     */
    public static ListValue quicklist(int fill) {
        ListValue list = new ListValue();
        list.shape = new QuicklistShape(fill);
        return list;
    }

    /** The number of quicklist nodes Redis would hold for this list: 1 while it is a listpack. O(1). */
    public int quicklistNodes() {
        return shape == null ? 1 : shape.nodes();
    }

    /**
     * Elements in each node Redis's quicklist would hold, head first: one entry with the size for
     * a listpack (an RDB file stores both as quicklist nodes). O(nodes).
     */
    public int[] quicklistNodeCounts() {
        if (shape == null) {
            return new int[] {size};
        }
        int[] counts = new int[shape.nodes()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = shape.count(i);
        }
        return counts;
    }

    /** After building a list from {@link #quicklist}: a listpack if its one node fits the limit. O(1). */
    public void settleBuilt(int fill) {
        if (shape != null) {
            convertBackIfSingleNode(fill, false);
        }
        shrank = false;
    }

    private void convertBackIfSingleNode(int fill, boolean shrinking) {
        if (shape.nodes() != 1) {
            return;
        }
        long sizeLimit = QuicklistShape.sizeLimit(fill);
        long countLimit = QuicklistShape.countLimit(fill);
        int divisor = shrinking ? 2 : 1;
        boolean sizeOk = sizeLimit < 0 || shape.firstBytes() <= sizeLimit / divisor;
        boolean countOk = countLimit < 0 || shape.firstCount() <= countLimit / divisor;
        if (sizeOk && countOk) {
            shape = null;
        }
    }

    public void pushHead(byte[] e) {
        growIfFull();
        head = (head - 1) & (ring.length - 1);
        ring[head] = e;
        size++;
        added(e);
        if (shape != null) {
            shape.pushHead(e.length, listpackEntryBytes(e));
        }
    }

    public void pushTail(byte[] e) {
        growIfFull();
        ring[(head + size) & (ring.length - 1)] = e;
        size++;
        added(e);
        if (shape != null) {
            shape.pushTail(e.length, listpackEntryBytes(e));
        }
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
        if (shape != null) {
            shape.removeHead(listpackEntryBytes(e));
        }
        shrank = true;
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
        if (shape != null) {
            shape.removeTail(listpackEntryBytes(e));
        }
        shrank = true;
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
        if (shape != null) {
            shape.replaceAt(index, listpackEntryBytes(ring[at]), listpackEntryBytes(e));
        }
        ring[at] = e;
        added(e);
        shrank = true;
    }

    /**
     * Inserts {@code e} after (or before) the element at {@code pivot} in {@code [0, size)}, as
     * LINSERT. O(size - pivot), plus O(nodes) for a quicklist.
     */
    public void insert(int pivot, boolean after, byte[] e) {
        if (shape != null) {
            shape.insert(pivot, after, e.length, listpackEntryBytes(e), i -> listpackEntryBytes(get(i)));
        }
        int index = after ? pivot + 1 : pivot;
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
        if (shape != null) {
            shape.removeAt(index, listpackEntryBytes(ring[(head + index) & mask]));
        }
        shrank = true;
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
        if (shape != null) {
            // Redis deletes the range before, then the range after (quicklistDelRange twice).
            for (int i = 0; i < Math.min(start, size); i++) {
                shape.removeHead(listpackEntryBytes(get(i)));
            }
            for (int i = size - 1; i > end && i >= start; i--) {
                shape.removeTail(listpackEntryBytes(get(i)));
            }
        }
        shrank = true;
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
        copy.shape = shape == null ? null : shape.copy();
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
        int backlen = body <= 127 ? 1 : body < 16383 ? 2 : body < 2097151 ? 3 : body < 268435455 ? 4 : 5;
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
