package dev.ebb.storage.types;

import dev.ebb.storage.MemoryEstimated;
import dev.ebb.storage.Values;
import java.io.IOException;

/**
 * A Redis list of binary-safe elements, kept as Redis 7.2 keeps it: a listpack while it is small,
 * a quicklist of listpack nodes past {@code list-max-listpack-size}, with the inner nodes
 * LZF-compressed past {@code list-compress-depth}.
 *
 * <p><b>Layout.</b> The nodes ({@link ListNode}: listpack entries in one {@code byte[]}) sit in a
 * ring of references, head first. A listpack is the same structure with one node and no limit on
 * it. Each node is byte for byte the listpack Redis's node would hold, so RDB and DUMP write the
 * nodes as they are ({@link #writeNodes}), compressed ones included. An element costs its listpack
 * entry (its bytes, a 1-2 byte header and a 1-2 byte back-length; small integers 2-6 bytes in all)
 * plus its share of one 40-byte node object and array header per node (about 500 elements of 14
 * bytes in an 8 KB node).
 *
 * <p><b>Node rules.</b> Each operation follows quicklist.c: a push joins the end node while
 * {@code node bytes + element length + 8} (SIZE_ESTIMATE_OVERHEAD) stays within the fill's limit,
 * else starts a node; deletes shrink their node and drop it when empty, never merging; a
 * replacement changes its node in place; an insert in the middle goes into its node if it fits,
 * else into the neighbour at that end, else splits the node and merges around it
 * (_quicklistInsert, _quicklistMergeNodes). Elements of 1 GB and more (Redis's plain nodes) are
 * not modelled. The fill and the compress depth are the ones in force when the list became a
 * quicklist, as in Redis: CONFIG SET applies to lists converted after it.
 *
 * <p><b>Encoding.</b> A listpack becomes a quicklist when a command is about to add elements that
 * would pass the fill's limit ({@link #growing}, Redis's listTypeTryConversionAppend), and turns
 * back after a removal only when a single node is left within half the limit ({@link #settle},
 * listTypeTryConvertQuicklist).
 *
 * <p><b>Compression.</b> After every change the nodes within the depth of either end are raw and
 * the ones past it that the change touched, or that it moved past the depth, are compressed
 * (Redis's __quicklistCompress). A read of a compressed node decompresses it into a one-node cache
 * and leaves the node compressed.
 *
 * <p><b>Costs.</b> Push and pop at either end O(1) amortised (a node array with room at both
 * ends). By index: O(nodes) to find the node from the nearer end (or from the last position, so a
 * walk in index order, as LRANGE's, is O(1) an element) plus O(node entries) inside it; an insert
 * or removal in the middle moves the node's bytes after it. {@link #memoryBytes()} is O(1): the
 * object, the ring and the nodes' arrays as a running sum. Not thread-safe: owned by the command
 * loop thread (or by the one thread a copy was handed to).
 */
public final class ListValue implements MemoryEstimated {
    private static final long OBJECT_BYTES = 96;
    private static final int MIN_NODES = 4;
    private static final int SIZE_ESTIMATE_OVERHEAD = 8;
    private static final int FIRST_NODE_CAPACITY = 32;

    /** The nodes as a ring: node k is {@code nodes[(nodeHead + k) & (nodes.length - 1)]}. */
    private ListNode[] nodes = new ListNode[MIN_NODES];
    private int nodeHead;
    private int nodeCount;
    private int size;
    private long nodeMemory;
    /** False while the list is a listpack (at most one node, no limit). */
    private boolean quicklist;
    private int fill = -2;
    private int depth;
    /** Whether elements were removed or replaced since the last {@link #settle}. */
    private boolean shrank;
    /** Nodes this change decompressed or created, to compress again if they are inner. */
    private ListNode[] touched;
    private int touchedCount;

    // The read position: node curNode (its first element has index curFirst), entry curEntry at
    // byte curPos of curBuf, whose entries span [curStart, curEnd). curNode < 0: none.
    private int curNode = -1;
    private int curFirst;
    private int curEntry;
    private int curPos;
    private byte[] curBuf;
    private int curStart;
    private int curEnd;
    /** A compressed node read last, and its listpack decompressed. */
    private ListNode cacheNode;
    private byte[] cacheBuf;

    public int size() {
        return size;
    }

    /** OBJECT ENCODING's name: {@code listpack} or {@code quicklist}. */
    public String encodingName() {
        return quicklist ? "quicklist" : "listpack";
    }

    /** The listpack's bytes while the list is one (7 when empty). */
    public long estimatedListpackBytes() {
        return nodeCount == 0 ? ListNode.OVERHEAD : node(0).listpackBytes();
    }

    /**
     * Call before adding {@code addCount} elements of {@code addBytes} raw bytes in all (Redis's
     * listTypeTryConversionAppend): a listpack that would pass {@code fill}'s limit becomes a
     * quicklist with that fill and compress {@code depth}, whose first node is the listpack as it
     * is. O(1).
     */
    public void growing(int fill, int depth, long addBytes, int addCount) {
        if (!quicklist && QuicklistFill.exceedsLimit(fill, estimatedListpackBytes() + addBytes, (long) size + addCount)) {
            quicklist = true;
            this.fill = fill;
            this.depth = depth;
        }
    }

    /**
     * The raw bytes Redis counts in {@link #growing} for an element LMOVE just popped from this
     * list: none for one that reads as an integer popped from a quicklist (Redis pops that as an
     * int-encoded object, which it does not count), else its length.
     */
    public long movedBytes(byte[] e) {
        return quicklist && IntegerText.isInteger(IntegerText.parse(e), e) ? 0 : e.length;
    }

    /**
     * Call after a command's changes: if it removed or replaced elements of a quicklist left as a
     * single node within half of {@code fill}'s limit, the list is a listpack again. O(1).
     */
    public void settle(int fill) {
        if (shrank && quicklist) {
            convertBackIfSingleNode(fill, true);
        }
        shrank = false;
    }

    /**
     * A new empty quicklist, for a list built whole and then {@link #settleBuilt settled} (SORT …
     * STORE and RDB loading build a quicklist, then convert it if it fits one listpack).
     */
    public static ListValue quicklist(int fill, int depth) {
        ListValue list = new ListValue();
        list.quicklist = true;
        list.fill = fill;
        list.depth = depth;
        return list;
    }

    /** After building a list from {@link #quicklist}: a listpack if its one node fits the limit. O(1). */
    public void settleBuilt(int fill) {
        if (quicklist) {
            convertBackIfSingleNode(fill, false);
        }
        shrank = false;
    }

    /** The number of nodes: 1 for a listpack. O(1). */
    public int quicklistNodes() {
        return quicklist ? nodeCount : 1;
    }

    private void convertBackIfSingleNode(int fill, boolean shrinking) {
        if (nodeCount != 1) {
            return;
        }
        ListNode only = node(0);
        long sizeLimit = QuicklistFill.sizeLimit(fill);
        long countLimit = QuicklistFill.countLimit(fill);
        int divisor = shrinking ? 2 : 1;
        boolean sizeOk = sizeLimit < 0 || only.listpackBytes() <= sizeLimit / divisor;
        boolean countOk = countLimit < 0 || only.count <= countLimit / divisor;
        if (sizeOk && countOk) {
            quicklist = false;
        }
    }

    // ------------------------------------------------------------- ends

    public void pushHead(byte[] e) {
        curNode = -1;
        if (nodeCount > 0 && (!quicklist || allowInsert(node(0), e.length))) {
            ListNode head = use(0);
            long before = head.memoryBytes();
            head.pushFront(e);
            nodeMemory += head.memoryBytes() - before;
        } else {
            if (nodeCount > 0) {
                compact(node(0));
            }
            insertNode(0, newNode(e));
        }
        size++;
        afterChange();
    }

    public void pushTail(byte[] e) {
        curNode = -1;
        if (nodeCount > 0 && (!quicklist || allowInsert(node(nodeCount - 1), e.length))) {
            ListNode tail = use(nodeCount - 1);
            long before = tail.memoryBytes();
            tail.pushBack(e);
            nodeMemory += tail.memoryBytes() - before;
        } else {
            if (nodeCount > 0) {
                compact(node(nodeCount - 1));
            }
            insertNode(nodeCount, newNode(e));
        }
        size++;
        afterChange();
    }

    /** Removes and returns the first element, or null if empty. */
    public byte[] popHead() {
        if (size == 0) {
            return null;
        }
        ListNode head = use(0);
        byte[] e = ListpackEntry.read(head.buf, head.start);
        removeEntry(0, head, head.start);
        return e;
    }

    /** Removes and returns the last element, or null if empty. */
    public byte[] popTail() {
        if (size == 0) {
            return null;
        }
        ListNode tail = use(nodeCount - 1);
        int at = ListpackEntry.previous(tail.buf, tail.end);
        byte[] e = ListpackEntry.read(tail.buf, at);
        removeEntry(nodeCount - 1, tail, at);
        return e;
    }

    // ------------------------------------------------------------- by index

    /** The element at {@code index} in {@code [0, size)}. */
    public byte[] get(int index) {
        seek(index);
        return ListpackEntry.read(curBuf, curPos);
    }

    /** Whether the element at {@code index} in {@code [0, size)} equals {@code e}; allocates nothing. */
    public boolean matches(int index, byte[] e) {
        seek(index);
        return ListpackEntry.matches(curBuf, curPos, e, IntegerText.parse(e));
    }

    /** The index of the first element equal to {@code e}, or -1. O(size). */
    public int indexOf(byte[] e) {
        long eInteger = IntegerText.parse(e);
        int first = 0;
        for (int k = 0; k < nodeCount; k++) {
            ListNode n = node(k);
            byte[] buf = view(n);
            int pos = viewStart(n);
            for (int i = 0; i < n.count; i++) {
                if (ListpackEntry.matches(buf, pos, e, eInteger)) {
                    return first + i;
                }
                pos += ListpackEntry.length(buf, pos);
            }
            first += n.count;
        }
        return -1;
    }

    /** Replaces the element at {@code index} in {@code [0, size)} (quicklistReplaceEntry, below 1 GB). */
    public void set(int index, byte[] e) {
        int k = nodeIndexOf(index);
        ListNode n = use(k);
        int at = n.offsetOf(index - curFirst);
        curNode = -1;
        long before = n.memoryBytes();
        n.replaceAt(at, e);
        nodeMemory += n.memoryBytes() - before;
        shrank = true;
        afterChange();
    }

    /**
     * Inserts {@code e} after (or before) the element at {@code pivot} in {@code [0, size)}, as
     * LINSERT (_quicklistInsert). O(nodes + node bytes).
     */
    public void insert(int pivot, boolean after, byte[] e) {
        int k = nodeIndexOf(pivot);
        int offset = pivot - curFirst;
        curNode = -1;
        ListNode n = use(k);
        int at = n.offsetOf(offset);
        int next = at + ListpackEntry.length(n.buf, at);
        if (!quicklist || allowInsert(n, e.length)) {
            long before = n.memoryBytes();
            n.insertAt(after ? next : at, e);
            nodeMemory += n.memoryBytes() - before;
        } else {
            boolean atTail = after && offset == n.count - 1;
            boolean atHead = !after && offset == 0;
            if (atTail && k + 1 < nodeCount && allowInsert(node(k + 1), e.length)) {
                pushInto(k + 1, true, e);
            } else if (atHead && k > 0 && allowInsert(node(k - 1), e.length)) {
                pushInto(k - 1, false, e);
            } else if (atTail || atHead) {
                insertNode(after ? k + 1 : k, newNode(e));
            } else {
                split(k, n, after, after ? next : at, offset, e);
            }
        }
        size++;
        afterChange();
    }

    /** Removes the element at {@code index} in {@code [0, size)}. O(nodes + node bytes). */
    public void removeAt(int index) {
        int k = nodeIndexOf(index);
        ListNode n = use(k);
        removeEntry(k, n, n.offsetOf(index - curFirst));
    }

    /**
     * Removes up to {@code limit} elements equal to {@code e}, from the head or, with
     * {@code fromTail}, from the tail (LREM). Returns how many. O(size), plus the bytes moved in
     * each node that had a match.
     */
    public long removeMatching(byte[] e, long limit, boolean fromTail) {
        long eInteger = IntegerText.parse(e);
        long removed = 0;
        curNode = -1;
        for (int step = 0, k = fromTail ? nodeCount - 1 : 0; step < nodeCount && removed < limit; step++) {
            ListNode n = node(k);
            int before = n.count;
            if (hasMatch(n, e, eInteger)) {
                use(k);
                long memory = n.memoryBytes();
                removed += n.removeMatching(e, eInteger, limit - removed, fromTail);
                nodeMemory += n.memoryBytes() - memory;
                size -= before - n.count;
            }
            if (n.count == 0) {
                removeNode(k);
                k = fromTail ? k - 1 : k;
                step--;
                continue;
            }
            k = fromTail ? k - 1 : k + 1;
        }
        if (removed > 0) {
            shrank = true;
        }
        afterChange();
        return removed;
    }

    /** Keeps only {@code [start, end]} (inclusive, within bounds, start <= end+1). O(nodes + node bytes). */
    public void retain(int start, int end) {
        curNode = -1;
        int dropHead = start;
        int dropTail = end < start ? size - start : size - 1 - end;
        // Redis deletes the range before, then the range after (quicklistDelRange twice).
        while (dropHead > 0) {
            ListNode n = node(0);
            if (n.count <= dropHead) {
                dropHead -= n.count;
                size -= n.count;
                removeNode(0);
            } else {
                use(0);
                dropEntries(n, true, dropHead);
                dropHead = 0;
            }
        }
        while (dropTail > 0) {
            ListNode n = node(nodeCount - 1);
            if (n.count <= dropTail) {
                dropTail -= n.count;
                size -= n.count;
                removeNode(nodeCount - 1);
            } else {
                use(nodeCount - 1);
                dropEntries(n, false, dropTail);
                dropTail = 0;
            }
        }
        shrank = true;
        afterChange();
    }

    // ------------------------------------------------------------- whole list

    /** What {@link #writeNodes} hands each node to. */
    public interface NodeSink {
        /** A raw node: a whole listpack of {@code len} bytes in {@code buf} from {@code off}. */
        void listpack(byte[] buf, int off, int len) throws IOException;

        /** A compressed node: its listpack of {@code listpackBytes} bytes, LZF-compressed. */
        void compressed(byte[] lzf, long listpackBytes) throws IOException;
    }

    /** The number of nodes {@link #writeNodes} hands out (0 for an empty list). */
    public int nodeCount() {
        return nodeCount;
    }

    /** Hands out the nodes head first, each as Redis's quicklist node holds it. O(nodes). */
    public void writeNodes(NodeSink sink) throws IOException {
        for (int k = 0; k < nodeCount; k++) {
            ListNode n = node(k);
            if (n.compressed()) {
                sink.compressed(n.lzf, n.listpackBytes());
            } else {
                int off = n.listpack();
                sink.listpack(n.buf, off, (int) n.listpackBytes());
            }
        }
    }

    @Override
    public long memoryBytes() {
        return OBJECT_BYTES + Values.arrayBytes(nodes.length, Values.REFERENCE_BYTES) + nodeMemory;
    }

    /** A copy sharing no mutable state, in the same encoding and with the same nodes. O(bytes). */
    public ListValue copy() {
        ListValue copy = new ListValue();
        copy.nodes = new ListNode[nodes.length];
        for (int k = 0; k < nodeCount; k++) {
            ListNode n = node(k).copy();
            copy.nodes[k] = n;
            copy.nodeMemory += n.memoryBytes();
        }
        copy.nodeCount = nodeCount;
        copy.size = size;
        copy.quicklist = quicklist;
        copy.fill = fill;
        copy.depth = depth;
        return copy;
    }

    private boolean allowInsert(ListNode n, int rawLength) {
        return !QuicklistFill.exceedsLimit(fill, n.listpackBytes() + rawLength + SIZE_ESTIMATE_OVERHEAD, n.count + 1L);
    }

    private boolean allowMerge(ListNode a, ListNode b) {
        return !QuicklistFill.exceedsLimit(fill, a.listpackBytes() + b.listpackBytes() - ListNode.OVERHEAD, (long) a.count + b.count);
    }

    // ------------------------------------------------------------- node edits

    private ListNode node(int k) {
        return nodes[(nodeHead + k) & (nodes.length - 1)];
    }

    private static ListNode newNode(byte[] e) {
        ListNode n = new ListNode(Math.max(FIRST_NODE_CAPACITY, ListpackEntry.size(e)));
        n.pushBack(e);
        return n;
    }

    /** Node {@code k}, raw: a compressed one is decompressed in place and compressed again after the change. */
    private ListNode use(int k) {
        ListNode n = node(k);
        if (n.compressed()) {
            long before = n.memoryBytes();
            if (cacheNode == n) {
                cacheNode = null;
                cacheBuf = null;
            }
            n.decompress();
            nodeMemory += n.memoryBytes() - before;
            touch(n);
        }
        return n;
    }

    private void compact(ListNode n) {
        if (!n.compressed()) {
            long before = n.memoryBytes();
            n.compact();
            nodeMemory += n.memoryBytes() - before;
        }
    }

    private void touch(ListNode n) {
        if (!quicklist || depth == 0) {
            return;
        }
        if (touched == null) {
            touched = new ListNode[4];
        } else if (touchedCount == touched.length) {
            touched = java.util.Arrays.copyOf(touched, touchedCount * 2);
        }
        touched[touchedCount++] = n;
    }

    private void pushInto(int k, boolean front, byte[] e) {
        ListNode n = use(k);
        long before = n.memoryBytes();
        if (front) {
            n.pushFront(e);
        } else {
            n.pushBack(e);
        }
        nodeMemory += n.memoryBytes() - before;
    }

    /** Removes the entry at byte {@code at} of raw node {@code k}, dropping the node when it empties. */
    private void removeEntry(int k, ListNode n, int at) {
        curNode = -1;
        long before = n.memoryBytes();
        n.removeAt(at);
        nodeMemory += n.memoryBytes() - before;
        if (n.count == 0) {
            removeNode(k);
        }
        size--;
        shrank = true;
        afterChange();
    }

    /** Drops {@code n} entries of raw node {@code node}'s head (or tail). */
    private void dropEntries(ListNode node, boolean head, int n) {
        long before = node.memoryBytes();
        node.drop(head, n);
        nodeMemory += node.memoryBytes() - before;
        size -= n;
    }

    /**
     * _quicklistSplitNode then _quicklistMergeNodes: node {@code k} keeps the entries up to byte
     * {@code at} (after) or from it (before); the others move to a new node beside it, which takes
     * {@code e} next to the pivot.
     */
    private void split(int k, ListNode n, boolean after, int at, int offset, byte[] e) {
        long before = n.memoryBytes();
        ListNode moved;
        int center;
        if (after) {
            moved = ListNode.of(n.buf, at, n.end - at, n.count - offset - 1);
            n.removeRange(at, n.end, moved.count);
            moved.pushFront(e);
            insertNode(k + 1, moved);
            center = k;
        } else {
            moved = ListNode.of(n.buf, n.start, at - n.start, offset);
            n.removeRange(n.start, at, moved.count);
            moved.pushBack(e);
            insertNode(k, moved);
            center = k + 1;
        }
        nodeMemory += n.memoryBytes() - before;
        mergeAround(center);
    }

    /** _quicklistMergeNodes: prev_prev with prev, next with next_next, then center with each side. */
    private void mergeAround(int center) {
        if (center >= 2 && allowMerge(node(center - 2), node(center - 1))) {
            merge(center - 2);
            center--;
        }
        if (center + 2 < nodeCount && allowMerge(node(center + 1), node(center + 2))) {
            merge(center + 1);
        }
        int target = center;
        if (center >= 1 && allowMerge(node(center - 1), node(center))) {
            merge(center - 1);
            target = center - 1;
        }
        if (target + 1 < nodeCount && allowMerge(node(target), node(target + 1))) {
            merge(target);
        }
    }

    /** Merges node {@code k + 1} into node {@code k}. */
    private void merge(int k) {
        ListNode a = use(k);
        ListNode b = use(k + 1);
        long before = a.memoryBytes();
        a.append(b);
        nodeMemory += a.memoryBytes() - before;
        removeNode(k + 1);
    }

    private void insertNode(int k, ListNode n) {
        if (nodeCount == nodes.length) {
            resizeNodes(nodes.length * 2);
        }
        int mask = nodes.length - 1;
        if (k < nodeCount - k) {
            nodeHead = (nodeHead - 1) & mask;
            for (int i = 0; i < k; i++) {
                nodes[(nodeHead + i) & mask] = nodes[(nodeHead + i + 1) & mask];
            }
        } else {
            for (int i = nodeCount; i > k; i--) {
                nodes[(nodeHead + i) & mask] = nodes[(nodeHead + i - 1) & mask];
            }
        }
        nodes[(nodeHead + k) & mask] = n;
        nodeCount++;
        nodeMemory += n.memoryBytes();
        touch(n);
    }

    private void removeNode(int k) {
        int mask = nodes.length - 1;
        ListNode n = nodes[(nodeHead + k) & mask];
        nodeMemory -= n.memoryBytes();
        n.count = 0;
        if (k < nodeCount - 1 - k) {
            for (int i = k; i > 0; i--) {
                nodes[(nodeHead + i) & mask] = nodes[(nodeHead + i - 1) & mask];
            }
            nodes[nodeHead] = null;
            nodeHead = (nodeHead + 1) & mask;
        } else {
            for (int i = k; i < nodeCount - 1; i++) {
                nodes[(nodeHead + i) & mask] = nodes[(nodeHead + i + 1) & mask];
            }
            nodes[(nodeHead + nodeCount - 1) & mask] = null;
        }
        nodeCount--;
        if (cacheNode == n) {
            cacheNode = null;
            cacheBuf = null;
        }
        if (nodes.length > MIN_NODES && nodeCount < nodes.length / 4) {
            resizeNodes(nodes.length / 2);
        }
    }

    private void resizeNodes(int capacity) {
        ListNode[] next = new ListNode[capacity];
        for (int k = 0; k < nodeCount; k++) {
            next[k] = node(k);
        }
        nodes = next;
        nodeHead = 0;
    }

    /**
     * Compression after a change (Redis's __quicklistCompress): the nodes within the depth of
     * either end raw, the first node past it at each end compressed, and so every node the change
     * decompressed or created that is now inner. O(depth + touched nodes).
     */
    private void afterChange() {
        if (!quicklist || depth == 0) {
            touchedCount = 0;
            return;
        }
        int edge = Math.min(depth, nodeCount);
        for (int k = 0; k < edge; k++) {
            use(k);
            use(nodeCount - 1 - k);
        }
        if (nodeCount > 2 * depth) {
            compressNode(node(depth));
            compressNode(node(nodeCount - 1 - depth));
            for (int i = 0; i < touchedCount; i++) {
                ListNode n = touched[i];
                if (n.count > 0 && !isEdge(n)) {
                    compressNode(n);
                }
            }
        }
        if (touched != null) {
            java.util.Arrays.fill(touched, 0, touchedCount, null);
        }
        touchedCount = 0;
    }

    private boolean isEdge(ListNode n) {
        for (int k = 0; k < depth; k++) {
            if (node(k) == n || node(nodeCount - 1 - k) == n) {
                return true;
            }
        }
        return false;
    }

    private void compressNode(ListNode n) {
        if (!n.compressed()) {
            long before = n.memoryBytes();
            n.compress();
            nodeMemory += n.memoryBytes() - before;
        }
    }

    // ------------------------------------------------------------- positions

    /** The node holding {@code index}; sets {@code curFirst} to its first element's index (the cursor's node moves). */
    private int nodeIndexOf(int index) {
        int k;
        int first;
        if (curNode >= 0 && Math.abs(index - curFirst) < Math.min(index, size - index)) {
            k = curNode;
            first = curFirst;
        } else if (index < size - index) {
            k = 0;
            first = 0;
        } else {
            k = nodeCount - 1;
            first = size - node(k).count;
        }
        while (index < first) {
            k--;
            first -= node(k).count;
        }
        while (index >= first + node(k).count) {
            first += node(k).count;
            k++;
        }
        curFirst = first;
        return k;
    }

    /** Puts the read position on {@code index}. */
    private void seek(int index) {
        if (curNode < 0 || index < curFirst || index >= curFirst + node(curNode).count) {
            int k = nodeIndexOf(index);
            ListNode n = node(k);
            curNode = k;
            curBuf = view(n);
            curStart = viewStart(n);
            curEnd = curStart + n.size;
            curEntry = 0;
            curPos = curStart;
        }
        int target = index - curFirst;
        int count = node(curNode).count;
        int fromHere = Math.abs(target - curEntry);
        if (target < fromHere && target <= count - 1 - target) {
            curEntry = 0;
            curPos = curStart;
        } else if (count - 1 - target < fromHere) {
            curEntry = count - 1;
            curPos = ListpackEntry.previous(curBuf, curEnd);
        }
        while (curEntry < target) {
            curPos += ListpackEntry.length(curBuf, curPos);
            curEntry++;
        }
        while (curEntry > target) {
            curPos = ListpackEntry.previous(curBuf, curPos);
            curEntry--;
        }
    }

    /** The array holding node {@code n}'s entries for reading: its own, or its decompressed copy. */
    private byte[] view(ListNode n) {
        if (!n.compressed()) {
            return n.buf;
        }
        if (cacheNode != n) {
            cacheBuf = n.inflate();
            cacheNode = n;
        }
        return cacheBuf;
    }

    private static int viewStart(ListNode n) {
        return n.compressed() ? ListNode.HEADER : n.start;
    }

    private boolean hasMatch(ListNode n, byte[] e, long eInteger) {
        byte[] buf = view(n);
        int pos = viewStart(n);
        for (int i = 0; i < n.count; i++) {
            if (ListpackEntry.matches(buf, pos, e, eInteger)) {
                return true;
            }
            pos += ListpackEntry.length(buf, pos);
        }
        return false;
    }
}
