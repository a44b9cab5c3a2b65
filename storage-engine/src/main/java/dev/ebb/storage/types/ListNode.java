package dev.ebb.storage.types;

import dev.ebb.storage.Values;
import dev.ebb.storage.rdb.Lzf;
import dev.ebb.storage.rdb.RdbException;
import java.util.Arrays;

/**
 * One node of a {@link ListValue}: its elements as listpack entries ({@link ListpackEntry}) in one
 * {@code byte[]}, either raw or LZF-compressed as a whole listpack, as a node of Redis's quicklist.
 *
 * <p><b>Raw.</b> The entries fill {@code buf[start, end)}; the array keeps room before and after
 * them so that pushes at either end are O(entry) amortised (no shift of the node), and always at
 * least the listpack header's 6 bytes before {@code start} and its end byte after {@code end}, so
 * that {@link #listpack} lays the node out as Redis's listpack in place. A node that stops
 * growing is {@link #compact compacted} to that exact size. An insert or removal in the middle
 * shifts the entries after it: O(node bytes), at most the fill's limit (8 KB by default).
 *
 * <p><b>Compressed.</b> {@code lzf} holds the whole listpack (header, entries, end byte)
 * compressed; {@code buf} is null. {@link #compress} follows Redis's rule: not below 48 listpack
 * bytes, and only when it saves more than 8 bytes.
 *
 * <p>Not thread-safe: owned by its list, and so by one thread.
 */
final class ListNode {
    /** Listpack header: total bytes (4) and count (2). */
    static final int HEADER = 6;
    /** Listpack header and end byte. */
    static final int OVERHEAD = 7;
    private static final long OBJECT_BYTES = 40;
    private static final int MIN_COMPRESS_BYTES = 48;
    private static final int MIN_COMPRESS_IMPROVE = 8;
    private static final ThreadLocal<Lzf> LZF = ThreadLocal.withInitial(Lzf::new);

    byte[] buf;
    int start;
    int end;
    int count;
    /** Bytes of the entries, also while compressed. */
    int size;
    /** The compressed listpack, or null while raw. */
    byte[] lzf;

    /** An empty raw node with room for {@code capacity} bytes of entries. */
    ListNode(int capacity) {
        buf = new byte[HEADER + capacity + 1];
        start = HEADER;
        end = HEADER;
    }

    private ListNode() {
    }

    /** A raw node holding a copy of {@code len} entry bytes of {@code src} from {@code from} ({@code n} entries). */
    static ListNode of(byte[] src, int from, int len, int n) {
        ListNode node = new ListNode(len);
        System.arraycopy(src, from, node.buf, HEADER, len);
        node.end = HEADER + len;
        node.size = len;
        node.count = n;
        return node;
    }

    boolean compressed() {
        return lzf != null;
    }

    /** Redis's node size: the listpack's bytes. */
    long listpackBytes() {
        return size + OVERHEAD;
    }

    long memoryBytes() {
        return OBJECT_BYTES + Values.byteArrayBytes(lzf != null ? lzf.length : buf.length);
    }

    // ------------------------------------------------------------- raw edits

    void pushFront(byte[] e) {
        int n = ListpackEntry.size(e);
        if (start - HEADER < n) {
            regrow(n, true);
        }
        start -= n;
        ListpackEntry.write(buf, start, e);
        size += n;
        count++;
    }

    void pushBack(byte[] e) {
        int n = ListpackEntry.size(e);
        if (buf.length - 1 - end < n) {
            regrow(n, false);
        }
        end = ListpackEntry.write(buf, end, e);
        size += n;
        count++;
    }

    /** Inserts {@code e} as the entry at byte offset {@code at} (in {@code [start, end]}). */
    void insertAt(int at, byte[] e) {
        if (at == start) {
            pushFront(e);
            return;
        }
        int n = ListpackEntry.size(e);
        if (buf.length - 1 - end < n) {
            int offset = at - start;
            regrow(n, false);
            at = start + offset;
        }
        System.arraycopy(buf, at, buf, at + n, end - at);
        ListpackEntry.write(buf, at, e);
        end += n;
        size += n;
        count++;
    }

    /** Removes the entry at byte offset {@code at}. */
    void removeAt(int at) {
        int n = ListpackEntry.length(buf, at);
        if (at == start) {
            start += n;
        } else {
            System.arraycopy(buf, at + n, buf, at, end - at - n);
            end -= n;
        }
        size -= n;
        count--;
    }

    /** Removes the entries in byte range {@code [from, to)}, {@code n} of them. */
    void removeRange(int from, int to, int n) {
        if (from == start) {
            start = to;
        } else {
            System.arraycopy(buf, to, buf, from, end - to);
            end -= to - from;
        }
        size -= to - from;
        count -= n;
    }

    /** Replaces the entry at byte offset {@code at} with {@code e}. */
    void replaceAt(int at, byte[] e) {
        boolean first = at == start;
        removeAt(at);
        insertAt(first ? start : at, e);
    }

    /** The byte offset of entry {@code entry} of a raw node, walked from its nearer end. O(entries). */
    int offsetOf(int entry) {
        if (entry <= count / 2) {
            int pos = start;
            for (int i = 0; i < entry; i++) {
                pos += ListpackEntry.length(buf, pos);
            }
            return pos;
        }
        int pos = end;
        for (int i = count; i > entry; i--) {
            pos = ListpackEntry.previous(buf, pos);
        }
        return pos;
    }

    /** Drops {@code n} entries (fewer than {@link #count}) of a raw node's head, or of its tail. */
    void drop(boolean head, int n) {
        if (head) {
            int to = start;
            for (int i = 0; i < n; i++) {
                to += ListpackEntry.length(buf, to);
            }
            removeRange(start, to, n);
        } else {
            int from = end;
            for (int i = 0; i < n; i++) {
                from = ListpackEntry.previous(buf, from);
            }
            removeRange(from, end, n);
        }
    }

    /**
     * Removes up to {@code limit} entries equal to {@code e} ({@code eInteger}: its
     * {@link IntegerText#parse}) from a raw node, walking from the head or the tail. Returns how
     * many.
     */
    long removeMatching(byte[] e, long eInteger, long limit, boolean fromTail) {
        long removed = 0;
        if (!fromTail) {
            int pos = start;
            while (pos < end && removed < limit) {
                if (ListpackEntry.matches(buf, pos, e, eInteger)) {
                    boolean first = pos == start;
                    removeAt(pos);
                    if (first) {
                        pos = start;
                    }
                    removed++;
                } else {
                    pos += ListpackEntry.length(buf, pos);
                }
            }
        } else {
            int pos = end;
            while (pos > start && removed < limit) {
                int at = ListpackEntry.previous(buf, pos);
                if (ListpackEntry.matches(buf, at, e, eInteger)) {
                    removeAt(at);
                    removed++;
                }
                pos = at;
            }
        }
        return removed;
    }

    /** Appends the raw entries of {@code other} (which stays unchanged). */
    void append(ListNode other) {
        int n = other.size;
        if (buf.length - 1 - end < n) {
            regrow(n, false);
        }
        System.arraycopy(other.buf, other.start, buf, end, n);
        end += n;
        size += n;
        count += other.count;
    }

    /** Shrinks the array to the entries and the listpack header and end byte. */
    void compact() {
        if (lzf == null && buf.length != size + OVERHEAD) {
            byte[] next = new byte[size + OVERHEAD];
            System.arraycopy(buf, start, next, HEADER, size);
            buf = next;
            start = HEADER;
            end = HEADER + size;
        }
    }

    /**
     * Room for {@code more} bytes at the front or the back: the entries move into an array with
     * half their size again as spare room on that side, so a run of pushes copies each byte O(1)
     * times.
     */
    private void regrow(int more, boolean front) {
        int spare = Math.max(more, Math.max(size / 2, 32));
        byte[] next = new byte[HEADER + size + spare + 1];
        int at = front ? HEADER + spare : HEADER;
        System.arraycopy(buf, start, next, at, size);
        buf = next;
        start = at;
        end = at + size;
    }

    // ------------------------------------------------------------- compression

    /** Compresses a raw node when it pays (Redis's __quicklistCompressNode); true if it is now compressed. */
    boolean compress() {
        if (lzf != null) {
            return true;
        }
        int total = size + OVERHEAD;
        if (total < MIN_COMPRESS_BYTES) {
            return false;
        }
        Lzf codec = LZF.get();
        int off = listpack();
        int c = codec.compress(buf, off, total);
        if (c == 0 || c + MIN_COMPRESS_IMPROVE >= total) {
            return false;
        }
        lzf = Arrays.copyOf(codec.output(), c);
        buf = null;
        return true;
    }

    /** Makes a compressed node raw again (compact). */
    void decompress() {
        if (lzf == null) {
            return;
        }
        buf = inflate();
        start = HEADER;
        end = HEADER + size;
        lzf = null;
    }

    /** The whole listpack of a compressed node, decompressed, entries from {@link #HEADER}; the node stays compressed. */
    byte[] inflate() {
        byte[] out = new byte[size + OVERHEAD];
        try {
            LZF.get().decompress(lzf, out);
        } catch (RdbException e) {
            throw new IllegalStateException("list node does not decompress: lzf=" + lzf.length + " size=" + size, e);
        }
        return out;
    }

    /**
     * Lays a raw node out as a listpack in its own array: header before {@code start}, end byte at
     * {@code end}. Returns the listpack's offset in {@code buf}; it is {@code size + OVERHEAD} bytes.
     */
    int listpack() {
        int off = start - HEADER;
        int total = size + OVERHEAD;
        for (int i = 0; i < 4; i++) {
            buf[off + i] = (byte) (total >>> (8 * i));
        }
        int n = Math.min(count, 65535);
        buf[off + 4] = (byte) n;
        buf[off + 5] = (byte) (n >>> 8);
        buf[end] = (byte) 0xFF;
        return off;
    }

    /** A copy sharing no array with this node. */
    ListNode copy() {
        ListNode copy = new ListNode();
        copy.count = count;
        copy.size = size;
        if (lzf != null) {
            copy.lzf = lzf.clone();
        } else {
            copy.buf = new byte[size + OVERHEAD];
            System.arraycopy(buf, start, copy.buf, HEADER, size);
            copy.start = HEADER;
            copy.end = HEADER + size;
        }
        return copy;
    }
}
