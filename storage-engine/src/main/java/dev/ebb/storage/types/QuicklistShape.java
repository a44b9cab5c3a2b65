package dev.ebb.storage.types;

import java.util.function.IntToLongFunction;

/**
 * The node layout Redis 7.2's quicklist would give a list: for each node, how many elements it
 * holds and its listpack's bytes. Ebb keeps the elements in one ring ({@link ListValue}); this
 * shadow exists only so that OBJECT ENCODING turns back to {@code listpack} exactly when Redis's
 * does, which needs a single node (listTypeTryConvertQuicklist).
 *
 * <p>Each operation mirrors quicklist.c: pushes join the end node while
 * {@code node bytes + element length + 8} (SIZE_ESTIMATE_OVERHEAD) stays within the fill's limit,
 * else start a node; deletes shrink their node and drop it when empty, never merging; a
 * replacement changes its node's bytes in place; an insert in the middle goes into its node if it
 * fits, else into the neighbour at that end, else splits the node and merges around it
 * (_quicklistInsert, _quicklistMergeNodes). Elements of 1 GB and more (Redis's plain nodes) are
 * not modelled. The fill is the one in force when the list became a quicklist, as in Redis.
 *
 * <p>Costs: end operations O(1) amortised; anything by index O(nodes) to find the node. Not
 * thread-safe: owned by the command loop thread, as its list.
 */
final class QuicklistShape {
    /** Listpack header (6) and end byte (1). */
    static final int LISTPACK_OVERHEAD = 7;
    private static final int SIZE_ESTIMATE_OVERHEAD = 8;
    private static final int SIZE_SAFETY_LIMIT = 8192;
    private static final long[] OPTIMIZATION_LEVEL = {4096, 8192, 16384, 32768, 65536};

    private final int fill;
    private int[] counts = new int[4];
    private long[] bytes = new long[4];
    private int nodes;

    QuicklistShape(int fill) {
        this.fill = fill;
    }

    /** A quicklist made of one listpack of {@code count} elements and {@code listpackBytes} (none if empty). */
    static QuicklistShape fromListpack(int fill, int count, long listpackBytes) {
        QuicklistShape shape = new QuicklistShape(fill);
        if (count > 0) {
            shape.insertNode(0, count, listpackBytes);
        }
        return shape;
    }

    /** Size limit of one node for {@code fill} (quicklistNodeLimit), or -1 when the limit is a count. */
    static long sizeLimit(int fill) {
        return fill >= 0 ? -1 : OPTIMIZATION_LEVEL[Math.min(-fill - 1, OPTIMIZATION_LEVEL.length - 1)];
    }

    /** Count limit of one node for {@code fill}, or -1 when the limit is a size. */
    static long countLimit(int fill) {
        return fill < 0 ? -1 : fill == 0 ? 1 : fill;
    }

    /** quicklistNodeExceedsLimit. */
    static boolean exceedsLimit(int fill, long newBytes, long newCount) {
        long size = sizeLimit(fill);
        if (size >= 0) {
            return newBytes > size;
        }
        return newBytes > SIZE_SAFETY_LIMIT || newCount > countLimit(fill);
    }

    int nodes() {
        return nodes;
    }

    /** Elements of node {@code node} in {@code [0, nodes())}. */
    int count(int node) {
        return counts[node];
    }

    /** Elements of the only node (call with one node). */
    int firstCount() {
        return counts[0];
    }

    /** Listpack bytes of the only node (call with one node). */
    long firstBytes() {
        return bytes[0];
    }

    void pushHead(int rawLength, long entryBytes) {
        if (nodes > 0 && allowInsert(0, rawLength)) {
            grow(0, entryBytes);
        } else {
            insertNode(0, 1, LISTPACK_OVERHEAD + entryBytes);
        }
    }

    void pushTail(int rawLength, long entryBytes) {
        if (nodes > 0 && allowInsert(nodes - 1, rawLength)) {
            grow(nodes - 1, entryBytes);
        } else {
            insertNode(nodes, 1, LISTPACK_OVERHEAD + entryBytes);
        }
    }

    /** The element at list index {@code index} (of the list before the change) is gone. */
    void removeAt(int index, long entryBytes) {
        int node = nodeOf(index);
        shrink(node, entryBytes);
    }

    void removeHead(long entryBytes) {
        shrink(0, entryBytes);
    }

    void removeTail(long entryBytes) {
        shrink(nodes - 1, entryBytes);
    }

    /** The element at {@code index} was replaced (quicklistReplaceEntry, below 1 GB). */
    void replaceAt(int index, long oldEntryBytes, long newEntryBytes) {
        int node = nodeOf(index);
        bytes[node] += newEntryBytes - oldEntryBytes;
    }

    /**
     * An element was inserted next to the pivot at {@code pivot} (after it if {@code after}):
     * _quicklistInsert. {@code entryBytesAt} gives the listpack entry bytes of the element at a
     * list index as the list was before the insert.
     */
    void insert(int pivot, boolean after, int rawLength, long entryBytes, IntToLongFunction entryBytesAt) {
        int node = 0;
        int first = 0;
        while (first + counts[node] <= pivot) {
            first += counts[node];
            node++;
        }
        int offset = pivot - first;
        boolean full = !allowInsert(node, rawLength);
        boolean atTail = after && offset == counts[node] - 1;
        boolean atHead = !after && offset == 0;
        boolean nextAvailable = atTail && node + 1 < nodes && allowInsert(node + 1, rawLength);
        boolean prevAvailable = atHead && node > 0 && allowInsert(node - 1, rawLength);
        if (!full) {
            grow(node, entryBytes);
        } else if (atTail && nextAvailable) {
            grow(node + 1, entryBytes);
        } else if (atHead && prevAvailable) {
            grow(node - 1, entryBytes);
        } else if (atTail || atHead) {
            insertNode(after ? node + 1 : node, 1, LISTPACK_OVERHEAD + entryBytes);
        } else {
            // Split: after keeps [0, offset] and moves the rest out behind; before moves [0, offset) out in front.
            int movedFrom = after ? first + offset + 1 : first;
            int movedCount = after ? counts[node] - offset - 1 : offset;
            long movedBytes = 0;
            for (int i = movedFrom; i < movedFrom + movedCount; i++) {
                movedBytes += entryBytesAt.applyAsLong(i);
            }
            counts[node] -= movedCount;
            bytes[node] -= movedBytes;
            int center = node;
            if (after) {
                insertNode(node + 1, movedCount + 1, LISTPACK_OVERHEAD + movedBytes + entryBytes);
            } else {
                insertNode(node, movedCount + 1, LISTPACK_OVERHEAD + movedBytes + entryBytes);
                center = node + 1;
            }
            mergeAround(center);
        }
    }

    /** A copy for COPY. */
    QuicklistShape copy() {
        QuicklistShape copy = new QuicklistShape(fill);
        copy.counts = counts.clone();
        copy.bytes = bytes.clone();
        copy.nodes = nodes;
        return copy;
    }

    /** _quicklistMergeNodes: prev_prev with prev, next with next_next, then center with each side. */
    private void mergeAround(int center) {
        if (center >= 2 && allowMerge(center - 2, center - 1)) {
            merge(center - 2);
            center--;
        }
        if (center + 2 < nodes && allowMerge(center + 1, center + 2)) {
            merge(center + 1);
        }
        int target = center;
        if (center >= 1 && allowMerge(center - 1, center)) {
            merge(center - 1);
            target = center - 1;
        }
        if (target + 1 < nodes && allowMerge(target, target + 1)) {
            merge(target);
        }
    }

    private boolean allowMerge(int a, int b) {
        return !exceedsLimit(fill, bytes[a] + bytes[b] - LISTPACK_OVERHEAD, (long) counts[a] + counts[b]);
    }

    /** Merges node {@code a + 1} into node {@code a}. */
    private void merge(int a) {
        counts[a] += counts[a + 1];
        bytes[a] += bytes[a + 1] - LISTPACK_OVERHEAD;
        removeNode(a + 1);
    }

    private boolean allowInsert(int node, int rawLength) {
        return !exceedsLimit(fill, bytes[node] + rawLength + SIZE_ESTIMATE_OVERHEAD, counts[node] + 1L);
    }

    private int nodeOf(int index) {
        int node = 0;
        for (int first = 0; first + counts[node] <= index; node++) {
            first += counts[node];
        }
        return node;
    }

    private void grow(int node, long entryBytes) {
        counts[node]++;
        bytes[node] += entryBytes;
    }

    private void shrink(int node, long entryBytes) {
        if (--counts[node] == 0) {
            removeNode(node);
        } else {
            bytes[node] -= entryBytes;
        }
    }

    private void insertNode(int at, int count, long listpackBytes) {
        if (nodes == counts.length) {
            counts = java.util.Arrays.copyOf(counts, nodes * 2);
            bytes = java.util.Arrays.copyOf(bytes, nodes * 2);
        }
        System.arraycopy(counts, at, counts, at + 1, nodes - at);
        System.arraycopy(bytes, at, bytes, at + 1, nodes - at);
        counts[at] = count;
        bytes[at] = listpackBytes;
        nodes++;
    }

    private void removeNode(int at) {
        System.arraycopy(counts, at + 1, counts, at, nodes - at - 1);
        System.arraycopy(bytes, at + 1, bytes, at, nodes - at - 1);
        nodes--;
    }
}
