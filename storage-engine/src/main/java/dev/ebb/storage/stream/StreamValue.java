package dev.ebb.storage.stream;

import dev.ebb.storage.MemoryEstimated;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * A stream: entries in packed {@link StreamNode}s indexed by their first (master) ID, the stream's
 * counters, and its consumer groups. Redis's {@code stream} struct, with a sorted array of nodes
 * where Redis has a radix tree keyed by the 128-bit master ID.
 *
 * <p><b>Layout.</b> New entries go to the last node until it holds {@code maxEntries} entries
 * (live or deleted) or would reach {@code maxBytes}; then it is closed (its spare capacity given
 * back) and a node is started whose master entry is the new entry. Finding the node of an ID is a
 * binary search over the node array (O(log nodes)); inside the node a linear walk over at most
 * {@code maxEntries} entries. Appending is amortised O(entry size); trimming whole nodes from the
 * front shifts the node array (O(nodes), an array copy of a few thousand references for millions
 * of entries). XDEL flags an entry deleted in place; a node whose entries are all deleted is removed.
 *
 * <p><b>Counters</b> as Redis keeps them: length, last ID (the top ever added, kept after
 * deletes), first live ID, the largest deleted ID (tombstone), entries ever added; they drive the
 * consumer groups' {@code entries-read} and {@code lag} ({@link #lag}).
 *
 * <p>An RDB writer walks {@link #nodes()} (master ID and listpack bytes, as Redis stores them)
 * and {@link #groups()}. Command loop thread only.
 */
public final class StreamValue implements MemoryEstimated {
    /** Redis's STREAM_LISTPACK_MAX_SIZE: a node never grows past 1 GiB whatever the configuration. */
    private static final long NODE_MAX_SIZE = 1L << 30;
    /** Redis's SCG_INVALID_ENTRIES_READ. */
    public static final long INVALID_ENTRIES_READ = -1;
    private static final int FIRST_NODE_CAPACITY = 128;

    /** Receives entries in order; returns false to stop. */
    @FunctionalInterface
    public interface EntryVisitor {
        boolean visit(StreamEntry entry);
    }

    private StreamNode[] nodes = new StreamNode[1];
    private int nodeCount;
    private long nodeBytes;
    private long length;
    private StreamId lastId = StreamId.MIN;
    private StreamId firstId = StreamId.MIN;
    private StreamId maxDeletedId = StreamId.MIN;
    private long entriesAdded;
    private TreeMap<byte[], ConsumerGroup> groups;

    public long length() {
        return length;
    }

    public StreamId lastId() {
        return lastId;
    }

    public StreamId firstId() {
        return firstId;
    }

    public StreamId maxDeletedId() {
        return maxDeletedId;
    }

    public long entriesAdded() {
        return entriesAdded;
    }

    /** XSETID: sets the last ID and optionally the counters (the caller checked them). */
    public void setLastId(StreamId id, long newEntriesAdded, StreamId newMaxDeleted) {
        lastId = id;
        if (newEntriesAdded >= 0) {
            entriesAdded = newEntriesAdded;
        }
        if (newMaxDeleted != null) {
            maxDeletedId = newMaxDeleted;
        }
    }

    /**
     * A stream rebuilt from what an RDB file or DUMP payload holds: its nodes in master-ID order
     * and its counters (the caller checked them); groups are added with {@link #createGroup}.
     */
    public static StreamValue restore(java.util.List<StreamNode> loaded, long length, StreamId lastId,
            StreamId firstId, StreamId maxDeletedId, long entriesAdded) {
        StreamValue s = new StreamValue();
        s.nodes = loaded.toArray(new StreamNode[Math.max(1, loaded.size())]);
        s.nodeCount = loaded.size();
        for (StreamNode n : loaded) {
            s.nodeBytes += n.memoryBytes();
        }
        s.length = length;
        s.lastId = lastId;
        s.firstId = firstId;
        s.maxDeletedId = maxDeletedId;
        s.entriesAdded = entriesAdded;
        return s;
    }

    /** Nodes in ID order, for an RDB writer (read-only view: do not modify). */
    public StreamNode[] nodes() {
        return Arrays.copyOf(nodes, nodeCount);
    }

    public int nodeCount() {
        return nodeCount;
    }

    // ---------------------------------------------------------------- writes

    /**
     * Appends an entry with ID {@code id} (greater than {@link #lastId}; the caller checked it) whose
     * fields and values alternate in argv[from, to). {@code maxEntries}/{@code maxBytes} are
     * stream-node-max-entries/-bytes (0 = no limit).
     */
    public void append(StreamId id, byte[][] argv, int from, int to, long maxEntries, long maxBytes) {
        StreamNode last = nodeCount == 0 ? null : nodes[nodeCount - 1];
        if (last != null) {
            long limitBytes = maxBytes == 0 || maxBytes > NODE_MAX_SIZE ? NODE_MAX_SIZE : maxBytes;
            long elementBytes = 0;
            for (int i = from; i < to; i++) {
                elementBytes += argv[i].length;
            }
            if (last.bytes() + elementBytes >= limitBytes
                    || (maxEntries > 0 && last.totalEntries() >= maxEntries)) {
                nodeBytes -= last.memoryBytes();
                last.trimToSize();
                nodeBytes += last.memoryBytes();
                last = null;
            }
        }
        if (last == null) {
            last = StreamNode.create(id, argv, from, to, FIRST_NODE_CAPACITY);
            insertNode(nodeCount, last);
        }
        nodeBytes -= last.memoryBytes();
        last.append(id, argv, from, to);
        nodeBytes += last.memoryBytes();
        length++;
        entriesAdded++;
        lastId = id;
        if (length == 1) {
            firstId = id;
        }
    }

    private void insertNode(int at, StreamNode node) {
        if (nodeCount == nodes.length) {
            nodes = Arrays.copyOf(nodes, nodes.length * 2);
        }
        System.arraycopy(nodes, at, nodes, at + 1, nodeCount - at);
        nodes[at] = node;
        nodeCount++;
        nodeBytes += node.memoryBytes();
    }

    private void removeNodes(int from, int n) {
        for (int i = from; i < from + n; i++) {
            nodeBytes -= nodes[i].memoryBytes();
        }
        System.arraycopy(nodes, from + n, nodes, from, nodeCount - from - n);
        Arrays.fill(nodes, nodeCount - n, nodeCount, null);
        nodeCount -= n;
    }

    /** Index of the last node whose master ID is at or before {@code id}; 0 if none is. */
    private int nodeFor(StreamId id) {
        int lo = 0;
        int hi = nodeCount - 1;
        int found = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (id.compareTo(nodes[mid].masterMs, nodes[mid].masterSeq) >= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** XDEL of one ID: whether a live entry had it. Updates first ID and the largest deleted ID. */
    public boolean delete(StreamId id) {
        if (nodeCount == 0) {
            return false;
        }
        int idx = nodeFor(id);
        StreamNode node = nodes[idx];
        for (int at = node.firstEntry; !node.atEnd(at); at = node.nextEntry(at)) {
            int cmp = id.compareTo(node.msAt(at), node.seqAt(at));
            if (cmp < 0) {
                return false;
            }
            if (cmp == 0) {
                if ((node.flagsAt(at) & StreamNode.FLAG_DELETED) != 0) {
                    return false;
                }
                long before = node.memoryBytes();
                node.markDeleted(at);
                if (node.liveEntries() == 0) {
                    removeNodes(idx, 1);
                } else {
                    node.writeCounters();
                    nodeBytes += node.memoryBytes() - before;
                }
                length--;
                if (id.compareTo(maxDeletedId) > 0) {
                    maxDeletedId = id;
                }
                if (length == 0) {
                    firstId = StreamId.MIN;
                } else if (id.equals(firstId)) {
                    firstId = edgeId(false);
                }
                return true;
            }
        }
        return false;
    }

    /**
     * Redis's streamTrim: drops entries from the front while the stream is longer than
     * {@code maxlen} (MAXLEN, {@code minId} null) or while they are older than {@code minId}
     * (MINID). Whole nodes go first; with {@code approx} it stops at the first node it cannot drop
     * whole, otherwise it flags entries deleted inside that node. {@code limit} (0 = none) caps the
     * entries removed, counted by whole nodes. Returns the number of entries removed.
     */
    public long trim(long maxlen, StreamId minId, boolean approx, long limit) {
        long removed = 0;
        while (nodeCount > 0) {
            if (minId == null && length <= maxlen) {
                break;
            }
            StreamNode node = nodes[0];
            long entries = node.liveEntries();
            if (limit > 0 && removed + entries > limit) {
                break;
            }
            boolean whole = minId == null ? length - entries >= maxlen : node.lastId().compareTo(minId) < 0;
            if (whole) {
                removeNodes(0, 1);
                length -= entries;
                removed += entries;
                continue;
            }
            if (approx) {
                break;
            }
            long before = node.memoryBytes();
            for (int at = node.firstEntry; !node.atEnd(at); at = node.nextEntry(at)) {
                boolean stop = minId == null ? length <= maxlen
                        : minId.compareTo(node.msAt(at), node.seqAt(at)) <= 0;
                if (stop) {
                    break;
                }
                if ((node.flagsAt(at) & StreamNode.FLAG_DELETED) == 0) {
                    node.markDeleted(at);
                    length--;
                    removed++;
                }
            }
            node.writeCounters();
            nodeBytes += node.memoryBytes() - before;
            break;
        }
        firstId = length == 0 ? StreamId.MIN : edgeId(false);
        return removed;
    }

    // ---------------------------------------------------------------- reads

    /** The first (or, with {@code last}, the last) live entry's ID; 0-0 if there is none. */
    public StreamId edgeId(boolean last) {
        StreamId[] found = {StreamId.MIN};
        forEach(StreamId.MIN, StreamId.MAX, last, e -> {
            found[0] = e.id();
            return false;
        });
        return found[0];
    }

    /**
     * Visits the live entries with IDs in [start, end], ascending, or descending with {@code rev},
     * until the visitor returns false.
     */
    public void forEach(StreamId start, StreamId end, boolean rev, EntryVisitor visitor) {
        walk(start, end, rev, (node, at) -> visitor.visit(node.entryAt(at)));
    }

    /** Receives the parts of entries without their being copied out of the node. */
    public interface EntrySink {
        /** An entry begins: its ID and its number of field/value pairs, which follow as elements. */
        void begin(long ms, long seq, int pairs);

        /** A field or value held as bytes: {@code buf[off, off + len)}, valid only during the call. */
        void bytes(byte[] buf, int off, int len);

        /** A field or value held as an integer (the listpack stores canonical integers as such). */
        void integer(long v);
    }

    /**
     * Hands the live entries in [start, end] (at most {@code count}, 0 = all) to {@code sink}
     * straight from the node bytes, with no per-entry allocation. Returns how many it handed.
     */
    public long writeRange(StreamId start, StreamId end, boolean rev, long count, EntrySink sink) {
        long[] n = {0};
        walk(start, end, rev, (node, at) -> {
            node.writeEntry(at, sink);
            return ++n[0] != count;
        });
        return n[0];
    }

    /** How many live entries lie in [start, end], at most {@code count} (0 = no cap). */
    public long countRange(StreamId start, StreamId end, long count) {
        long[] n = {0};
        walk(start, end, false, (node, at) -> ++n[0] != count);
        return n[0];
    }

    /** Visits (node, entry offset) of the live entries in range, in order, until the visitor returns false. */
    private interface OffsetVisitor {
        boolean visit(StreamNode node, int at);
    }

    private void walk(StreamId start, StreamId end, boolean rev, OffsetVisitor visitor) {
        if (nodeCount == 0 || start.compareTo(end) > 0) {
            return;
        }
        if (!rev) {
            for (int i = nodeFor(start); i < nodeCount; i++) {
                StreamNode node = nodes[i];
                for (int at = node.firstEntry; !node.atEnd(at); at = node.nextEntry(at)) {
                    long ms = node.msAt(at);
                    long seq = node.seqAt(at);
                    if (start.compareTo(ms, seq) > 0) {
                        continue;
                    }
                    if (end.compareTo(ms, seq) < 0) {
                        return;
                    }
                    if ((node.flagsAt(at) & StreamNode.FLAG_DELETED) == 0 && !visitor.visit(node, at)) {
                        return;
                    }
                }
            }
            return;
        }
        for (int i = nodeFor(end); i >= 0; i--) {
            StreamNode node = nodes[i];
            int[] offsets = node.entryOffsets();
            for (int k = offsets.length - 1; k >= 0; k--) {
                int at = offsets[k];
                long ms = node.msAt(at);
                long seq = node.seqAt(at);
                if (end.compareTo(ms, seq) < 0) {
                    continue;
                }
                if (start.compareTo(ms, seq) > 0) {
                    return;
                }
                if ((node.flagsAt(at) & StreamNode.FLAG_DELETED) == 0 && !visitor.visit(node, at)) {
                    return;
                }
            }
        }
    }

    /** The live entry with ID {@code id}, or null. */
    public StreamEntry get(StreamId id) {
        StreamEntry[] found = {null};
        forEach(id, id, false, e -> {
            found[0] = e;
            return false;
        });
        return found[0];
    }

    /**
     * The node count Redis's radix tree would have for these node keys (XINFO STREAM's
     * radix-tree-nodes): keys are 16-byte big-endian (ms, seq); a run shared by every key below a
     * point is one compressed node, a point where keys part is one branching node, and each key
     * ends in a leaf. O(nodes * 16).
     */
    public long radixTreeNodes() {
        if (nodeCount == 0) {
            return 1;
        }
        return radixNodes(0, nodeCount, 0);
    }

    private int keyByte(int node, int depth) {
        long v = depth < 8 ? nodes[node].masterMs : nodes[node].masterSeq;
        return (int) (v >>> (8 * (7 - (depth & 7)))) & 0xFF;
    }

    private long radixNodes(int lo, int hi, int depth) {
        if (depth == 16) {
            return 1;
        }
        int end = depth;
        while (end < 16 && keyByte(lo, end) == keyByte(hi - 1, end)) {
            end++;
        }
        if (end > depth) {
            return 1 + radixNodes(lo, hi, end);
        }
        long n = 1;
        int from = lo;
        while (from < hi) {
            int b = keyByte(from, depth);
            int to = from + 1;
            while (to < hi && keyByte(to, depth) == b) {
                to++;
            }
            n += radixNodes(from, to, depth + 1);
            from = to;
        }
        return n;
    }

    // ---------------------------------------------------------------- consumer groups

    /** The groups by name (byte order, as Redis's radix tree lists them); empty if none. */
    public Collection<ConsumerGroup> groups() {
        return groups == null ? java.util.List.of() : groups.values();
    }

    public int groupCount() {
        return groups == null ? 0 : groups.size();
    }

    public ConsumerGroup group(byte[] name) {
        return groups == null ? null : groups.get(name);
    }

    /** Creates a group; null if one of that name exists. */
    public ConsumerGroup createGroup(byte[] name, StreamId lastDelivered, long entriesRead) {
        if (groups == null) {
            groups = new TreeMap<>(Arrays::compareUnsigned);
        }
        if (groups.containsKey(name)) {
            return null;
        }
        ConsumerGroup g = new ConsumerGroup(name, lastDelivered, entriesRead);
        groups.put(name, g);
        return g;
    }

    public boolean destroyGroup(byte[] name) {
        return groups != null && groups.remove(name) != null;
    }

    /** Redis's streamRangeHasTombstones: whether a deleted entry may lie in [start, +inf). */
    public boolean hasTombstonesFrom(StreamId start) {
        if (length == 0 || maxDeletedId.isMin()) {
            return false;
        }
        if (firstId.compareTo(maxDeletedId) > 0) {
            return false;
        }
        return start.compareTo(maxDeletedId) <= 0;
    }

    /**
     * Redis's streamEstimateDistanceFromFirstEverEntry: the logical read counter of {@code id}, or
     * {@link #INVALID_ENTRIES_READ} when it cannot be known.
     */
    public long estimateEntriesRead(StreamId id) {
        if (entriesAdded == 0) {
            return 0;
        }
        if (length == 0 && id.compareTo(lastId) < 1) {
            return entriesAdded;
        }
        int cmpLast = id.compareTo(lastId);
        if (cmpLast == 0) {
            return entriesAdded;
        } else if (cmpLast > 0) {
            return INVALID_ENTRIES_READ;
        }
        int cmpFirst = id.compareTo(firstId);
        if (maxDeletedId.isMin() || maxDeletedId.compareTo(firstId) < 0) {
            if (cmpFirst < 0) {
                return entriesAdded - length;
            } else if (cmpFirst == 0) {
                return entriesAdded - length + 1;
            }
        }
        return INVALID_ENTRIES_READ;
    }

    /** XINFO GROUPS lag of {@code g}, or -1 when it cannot be known (Redis replies null). */
    public long lag(ConsumerGroup g) {
        if (entriesAdded == 0) {
            return 0;
        }
        if (g.entriesRead != INVALID_ENTRIES_READ && !hasTombstonesFrom(g.lastId)) {
            return entriesAdded - g.entriesRead;
        }
        long read = estimateEntriesRead(g.lastId);
        return read == INVALID_ENTRIES_READ ? -1 : entriesAdded - read;
    }

    /**
     * A group's last delivered ID moves to {@code id} (a new entry delivered by XREADGROUP):
     * entries-read counts on when it is known and no tombstone lies ahead, else is re-estimated.
     */
    public void advanceGroup(ConsumerGroup g, StreamId id) {
        if (id.compareTo(g.lastId) <= 0) {
            return;
        }
        if (g.entriesRead != INVALID_ENTRIES_READ && !hasTombstonesFrom(id)) {
            g.entriesRead++;
        } else if (entriesAdded != 0) {
            g.entriesRead = estimateEntriesRead(id);
        }
        g.lastId = id;
    }

    // ---------------------------------------------------------------- memory, copy

    @Override
    public long memoryBytes() {
        long m = 80 + 16 + 4L * nodes.length + nodeBytes;
        if (groups != null) {
            m += 48;
            for (ConsumerGroup g : groups.values()) {
                m += g.memoryBytes();
            }
        }
        return m;
    }

    /** A deep copy sharing nothing mutable (COPY). */
    public StreamValue copy() {
        StreamValue s = new StreamValue();
        s.nodes = new StreamNode[Math.max(1, nodeCount)];
        for (int i = 0; i < nodeCount; i++) {
            s.nodes[i] = nodes[i].copy();
        }
        s.nodeCount = nodeCount;
        s.nodeBytes = nodeBytes;
        s.length = length;
        s.lastId = lastId;
        s.firstId = firstId;
        s.maxDeletedId = maxDeletedId;
        s.entriesAdded = entriesAdded;
        if (groups != null) {
            s.groups = new TreeMap<>(Arrays::compareUnsigned);
            for (Map.Entry<byte[], ConsumerGroup> e : groups.entrySet()) {
                s.groups.put(e.getKey(), e.getValue().copy());
            }
        }
        return s;
    }
}
