package dev.ebb.storage.stream;

import java.util.Arrays;

/**
 * One packed node of a stream: up to {@code stream-node-max-entries} entries in one listpack
 * ({@link Listpack}), laid out as Redis lays out the listpacks of its stream radix tree.
 *
 * <pre>
 * master entry:  count | deleted | num-fields | field_1 ... field_N | 0
 * each entry:    flags | ms-diff | seq-diff | value_1 ... value_N                  | lp-count   (SAMEFIELDS)
 *                flags | ms-diff | seq-diff | num-fields | field_1 | value_1 ... | lp-count   (otherwise)
 * </pre>
 *
 * IDs are deltas against the node's master ID (its first entry's ID); an entry whose field names
 * are those of the master entry (the first one's) stores only its values, flagged SAMEFIELDS.
 * A deleted entry keeps its bytes and gets the DELETED flag; {@code count} is the live entries,
 * {@code deleted} the flagged ones. {@code lp-count} is the number of elements before it in the
 * entry, so a reader can also walk backwards.
 *
 * <p>The bytes {@code [0, used)} are always a complete listpack (header, elements, terminator);
 * the open last node of a stream keeps spare capacity that {@link #trimToSize} gives back when
 * the node closes. Command loop thread only.
 */
public final class StreamNode {
    static final int FLAG_DELETED = 1;
    static final int FLAG_SAMEFIELDS = 2;

    final long masterMs;
    final long masterSeq;
    byte[] lp;
    int used;
    int count;
    int deleted;
    /** Field names of the master entry, cached to compare new entries against. */
    final byte[][] masterFields;
    /** Offset of the first entry (after the master entry). */
    int firstEntry;

    private StreamNode(long masterMs, long masterSeq, byte[][] masterFields) {
        this.masterMs = masterMs;
        this.masterSeq = masterSeq;
        this.masterFields = masterFields;
    }

    /** A node whose master entry takes its fields from argv[from], argv[from + 2] … up to {@code to}. */
    static StreamNode create(StreamId master, byte[][] argv, int from, int to, int capacityHint) {
        int n = (to - from) / 2;
        byte[][] fields = new byte[n][];
        int size = Listpack.HEADER_BYTES + 1 + Listpack.intSize(0) * 2 + Listpack.intSize(n) + Listpack.intSize(0);
        for (int i = 0; i < n; i++) {
            fields[i] = argv[from + 2 * i];
            size += Listpack.stringSize(fields[i]);
        }
        StreamNode node = new StreamNode(master.ms(), master.seq(), fields);
        node.lp = new byte[Math.max(size, capacityHint)];
        int at = Listpack.HEADER_BYTES;
        at = Listpack.writeInt(node.lp, at, 0);
        at = Listpack.writeInt(node.lp, at, 0);
        at = Listpack.writeInt(node.lp, at, n);
        for (byte[] f : fields) {
            at = Listpack.writeString(node.lp, at, f);
        }
        at = Listpack.writeInt(node.lp, at, 0);
        node.firstEntry = at;
        node.lp[at] = (byte) Listpack.EOF;
        node.used = at + 1;
        node.syncHeader(3 + n + 1);
        return node;
    }

    /**
     * A node rebuilt from a listpack Redis or Ebb stored (an RDB file or DUMP payload): the master
     * entry's counters and fields are read back; the caller has already validated the listpack's
     * elements. O(master entry size).
     *
     * @throws IllegalArgumentException if the master entry is malformed
     */
    public static StreamNode fromListpack(StreamId master, byte[] lp) {
        try {
            int at = Listpack.HEADER_BYTES;
            long count = readCounter(lp, at);
            at = Listpack.next(lp, at);
            long deleted = readCounter(lp, at);
            at = Listpack.next(lp, at);
            long n = readCounter(lp, at);
            at = Listpack.next(lp, at);
            if (count + deleted == 0 || n > lp.length) {
                throw new IllegalArgumentException("stream node without entries");
            }
            byte[][] fields = new byte[(int) n][];
            for (int i = 0; i < n; i++) {
                fields[i] = Listpack.readBytes(lp, at);
                at = Listpack.next(lp, at);
            }
            if (readCounter(lp, at) != 0) {
                throw new IllegalArgumentException("stream master entry not terminated by 0");
            }
            at = Listpack.next(lp, at);
            StreamNode node = new StreamNode(master.ms(), master.seq(), fields);
            node.lp = lp;
            node.used = lp.length;
            node.count = (int) count;
            node.deleted = (int) deleted;
            node.firstEntry = at;
            // Counted now: an append must find the count of the elements before it.
            node.elementCount();
            return node;
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw e;
            }
            throw new IllegalArgumentException("malformed stream node: " + e.getMessage(), e);
        }
    }

    private static long readCounter(byte[] lp, int at) {
        if (at >= lp.length - 1 || !Listpack.isInt(lp, at)) {
            throw new IllegalArgumentException("stream node counter is not an integer");
        }
        long v = Listpack.readInt(lp, at);
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("stream node counter out of range: " + v);
        }
        return v;
    }

    /** The node's master ID (its radix tree key in Redis). */
    public StreamId masterId() {
        return new StreamId(masterMs, masterSeq);
    }

    /** The node's listpack, exactly as Redis stores a stream node (a copy). */
    public byte[] listpackBytes() {
        return Arrays.copyOf(lp, used);
    }

    /** Live entries in this node. */
    public int liveEntries() {
        return count;
    }

    int totalEntries() {
        return count + deleted;
    }

    int bytes() {
        return used;
    }

    /** Heap bytes of the node: its buffer with spare capacity, the object, the master fields. */
    long memoryBytes() {
        long m = 16 + lp.length + 48 + 16 + 4L * masterFields.length;
        return m;
    }

    private boolean sameFields(byte[][] argv, int from, int to) {
        int n = (to - from) / 2;
        if (n != masterFields.length) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (!Arrays.equals(masterFields[i], argv[from + 2 * i])) {
                return false;
            }
        }
        return true;
    }

    /** Appends an entry (fields/values alternate in argv[from, to)). */
    void append(StreamId id, byte[][] argv, int from, int to) {
        int n = (to - from) / 2;
        boolean same = sameFields(argv, from, to);
        long msDiff = id.ms() - masterMs;
        long seqDiff = id.seq() - masterSeq;
        int flags = same ? FLAG_SAMEFIELDS : 0;
        long lpCount = same ? n + 3 : 2L * n + 4;
        int size = Listpack.intSize(flags) + Listpack.intSize(msDiff) + Listpack.intSize(seqDiff)
                + Listpack.intSize(lpCount);
        if (same) {
            for (int i = 0; i < n; i++) {
                size += Listpack.stringSize(argv[from + 2 * i + 1]);
            }
        } else {
            size += Listpack.intSize(n);
            for (int i = from; i < to; i++) {
                size += Listpack.stringSize(argv[i]);
            }
        }
        ensureCapacity(used + size);
        int at = used - 1;
        at = Listpack.writeInt(lp, at, flags);
        at = Listpack.writeInt(lp, at, msDiff);
        at = Listpack.writeInt(lp, at, seqDiff);
        if (same) {
            for (int i = 0; i < n; i++) {
                at = Listpack.writeString(lp, at, argv[from + 2 * i + 1]);
            }
        } else {
            at = Listpack.writeInt(lp, at, n);
            for (int i = from; i < to; i++) {
                at = Listpack.writeString(lp, at, argv[i]);
            }
        }
        at = Listpack.writeInt(lp, at, lpCount);
        lp[at] = (byte) Listpack.EOF;
        used = at + 1;
        count++;
        writeCounters();
        syncHeader(elementCount() + (int) lpCount + 1);
    }

    private int elementCountCache = -1;

    private int elementCount() {
        if (elementCountCache < 0) {
            int c = 0;
            for (int at = Listpack.HEADER_BYTES; (lp[at] & 0xFF) != Listpack.EOF; at = Listpack.next(lp, at)) {
                c++;
            }
            elementCountCache = c;
        }
        return elementCountCache;
    }

    private void syncHeader(int elements) {
        elementCountCache = elements;
        Listpack.writeHeader(lp, used, elements);
    }

    private void ensureCapacity(int needed) {
        if (needed > lp.length) {
            lp = Arrays.copyOf(lp, Math.max(needed, Math.min(lp.length * 2, lp.length + 4096)));
        }
    }

    /** Gives back spare capacity (the node will not grow again). */
    void trimToSize() {
        if (lp.length != used) {
            lp = Arrays.copyOf(lp, used);
        }
    }

    /**
     * Rewrites the count and deleted elements of the master entry from the fields; they may
     * change size (127 to 128 takes a byte more), which shifts the rest of the listpack.
     */
    void writeCounters() {
        int countAt = Listpack.HEADER_BYTES;
        int deletedAt = Listpack.next(lp, countAt);
        int oldEnd = Listpack.next(lp, deletedAt);
        int newSize = Listpack.intSize(count) + Listpack.intSize(deleted);
        int shift = newSize - (oldEnd - countAt);
        if (shift != 0) {
            ensureCapacity(used + shift);
            System.arraycopy(lp, oldEnd, lp, oldEnd + shift, used - oldEnd);
            used += shift;
            firstEntry += shift;
        }
        int at = Listpack.writeInt(lp, countAt, count);
        Listpack.writeInt(lp, at, deleted);
        Listpack.writeHeader(lp, used, elementCountCache < 0 ? elementCount() : elementCountCache);
    }

    // ---------------------------------------------------------------- reading

    /** Whether the entry at {@code at} is the terminator (no more entries). */
    boolean atEnd(int at) {
        return (lp[at] & 0xFF) == Listpack.EOF;
    }

    int flagsAt(int at) {
        return (int) Listpack.readInt(lp, at);
    }

    long msAt(int at) {
        return masterMs + Listpack.readInt(lp, Listpack.next(lp, at));
    }

    long seqAt(int at) {
        return masterSeq + Listpack.readInt(lp, Listpack.next(lp, Listpack.next(lp, at)));
    }

    /** The offset of the entry after the one at {@code at}. */
    int nextEntry(int at) {
        int flags = flagsAt(at);
        int p = Listpack.next(lp, Listpack.next(lp, Listpack.next(lp, at)));
        int skip;
        if ((flags & FLAG_SAMEFIELDS) != 0) {
            skip = masterFields.length;
        } else {
            skip = 2 * (int) Listpack.readInt(lp, p);
            p = Listpack.next(lp, p);
        }
        for (int i = 0; i < skip; i++) {
            p = Listpack.next(lp, p);
        }
        return Listpack.next(lp, p);
    }

    /** Decodes the entry at {@code at}. */
    StreamEntry entryAt(int at) {
        int flags = flagsAt(at);
        int p = Listpack.next(lp, at);
        long ms = masterMs + Listpack.readInt(lp, p);
        p = Listpack.next(lp, p);
        long seq = masterSeq + Listpack.readInt(lp, p);
        p = Listpack.next(lp, p);
        byte[][] fields;
        byte[][] values;
        if ((flags & FLAG_SAMEFIELDS) != 0) {
            int n = masterFields.length;
            fields = new byte[n][];
            values = new byte[n][];
            for (int i = 0; i < n; i++) {
                fields[i] = masterFields[i];
                values[i] = Listpack.readBytes(lp, p);
                p = Listpack.next(lp, p);
            }
        } else {
            int n = (int) Listpack.readInt(lp, p);
            p = Listpack.next(lp, p);
            fields = new byte[n][];
            values = new byte[n][];
            for (int i = 0; i < n; i++) {
                fields[i] = Listpack.readBytes(lp, p);
                p = Listpack.next(lp, p);
                values[i] = Listpack.readBytes(lp, p);
                p = Listpack.next(lp, p);
            }
        }
        return new StreamEntry(new StreamId(ms, seq), fields, values);
    }

    /** Hands the entry at {@code at} to {@code sink} element by element, straight from the listpack. */
    void writeEntry(int at, StreamValue.EntrySink sink) {
        int flags = flagsAt(at);
        int p = Listpack.next(lp, at);
        long ms = masterMs + Listpack.readInt(lp, p);
        p = Listpack.next(lp, p);
        long seq = masterSeq + Listpack.readInt(lp, p);
        p = Listpack.next(lp, p);
        if ((flags & FLAG_SAMEFIELDS) != 0) {
            sink.begin(ms, seq, masterFields.length);
            for (byte[] field : masterFields) {
                sink.bytes(field, 0, field.length);
                p = element(p, sink);
            }
            return;
        }
        int n = (int) Listpack.readInt(lp, p);
        p = Listpack.next(lp, p);
        sink.begin(ms, seq, n);
        for (int i = 0; i < 2 * n; i++) {
            p = element(p, sink);
        }
    }

    private int element(int p, StreamValue.EntrySink sink) {
        if (Listpack.isInt(lp, p)) {
            sink.integer(Listpack.readInt(lp, p));
        } else {
            sink.bytes(lp, Listpack.stringData(lp, p), Listpack.stringLength(lp, p));
        }
        return Listpack.next(lp, p);
    }

    /** Marks the (live) entry at {@code at} deleted; call {@link #writeCounters} after a batch. */
    void markDeleted(int at) {
        lp[at] = (byte) (flagsAt(at) | FLAG_DELETED);
        count--;
        deleted++;
    }

    /** The offsets of every entry, deleted ones included, in order. */
    int[] entryOffsets() {
        int[] out = new int[count + deleted];
        int i = 0;
        for (int at = firstEntry; !atEnd(at); at = nextEntry(at)) {
            out[i++] = at;
        }
        return i == out.length ? out : Arrays.copyOf(out, i);
    }

    /** The ID of the last entry (deleted or not). */
    StreamId lastId() {
        int last = firstEntry;
        for (int at = firstEntry; !atEnd(at); at = nextEntry(at)) {
            last = at;
        }
        return new StreamId(msAt(last), seqAt(last));
    }

    /** A deep copy (COPY). */
    StreamNode copy() {
        StreamNode n = new StreamNode(masterMs, masterSeq, masterFields);
        n.lp = Arrays.copyOf(lp, lp.length);
        n.used = used;
        n.count = count;
        n.deleted = deleted;
        n.firstEntry = firstEntry;
        n.elementCountCache = elementCountCache;
        return n;
    }
}
