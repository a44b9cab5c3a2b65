package dev.ebb.server.replication;

/**
 * The replication backlog (Redis's {@code repl_backlog}): the last {@code repl-backlog-size} bytes
 * of the replication stream, kept so that a replica that lost its link, or that followed the old
 * primary of a promoted replica, can continue with {@code +CONTINUE} instead of a full sync.
 *
 * <p>A ring of bytes. Stream byte number {@code o} (offsets count from 1, as Redis's
 * {@code master_repl_offset} counts bytes fed) lives at {@code (o - 1) % size} while it is among
 * the last {@code histlen} bytes. Loop thread only.
 */
public final class ReplicationBacklog {
    private byte[] ring;
    /** Offset of the last byte written (Redis's master_repl_offset at the time). */
    private long endOffset;
    private long histlen;

    /** An empty backlog of {@code size} bytes whose next byte is stream byte {@code endOffset + 1}. */
    public ReplicationBacklog(int size, long endOffset) {
        this.ring = new byte[Math.max(16, size)];
        this.endOffset = endOffset;
    }

    public int size() {
        return ring.length;
    }

    /** Bytes of stream kept ({@code repl_backlog_histlen}). */
    public long histlen() {
        return histlen;
    }

    /** Offset of the oldest byte kept ({@code repl_backlog_first_byte_offset}). */
    public long firstByteOffset() {
        return endOffset - histlen + 1;
    }

    /** Appends {@code len} bytes of stream. */
    public void append(byte[] bytes, int off, int len) {
        int size = ring.length;
        if (len >= size) {
            off += len - size;
            endOffset += len - size;
            len = size;
        }
        int at = (int) (endOffset % size);
        int first = Math.min(len, size - at);
        System.arraycopy(bytes, off, ring, at, first);
        System.arraycopy(bytes, off + first, ring, 0, len - first);
        endOffset += len;
        histlen = Math.min(size, histlen + len);
    }

    /**
     * Whether a replica asking to continue from stream byte {@code from} (its offset plus one, as
     * PSYNC sends it) can be served from here: from the oldest byte kept up to one past the newest.
     */
    public boolean covers(long from) {
        return from >= firstByteOffset() && from <= endOffset + 1;
    }

    /** The kept bytes from stream byte {@code from} to the end; {@link #covers} must hold. */
    public byte[] copyFrom(long from) {
        if (!covers(from)) {
            throw new IllegalArgumentException("offset " + from + " is not in the backlog");
        }
        int len = (int) (endOffset + 1 - from);
        byte[] out = new byte[len];
        int size = ring.length;
        int at = (int) ((from - 1) % size);
        int first = Math.min(len, size - at);
        System.arraycopy(ring, at, out, 0, first);
        System.arraycopy(ring, 0, out, first, len - first);
        return out;
    }

    /** Changes the size (CONFIG SET repl-backlog-size), keeping as much of the newest stream as fits. */
    public void resize(int newSize) {
        newSize = Math.max(16, newSize);
        if (newSize == ring.length) {
            return;
        }
        long keep = Math.min(histlen, newSize);
        byte[] kept = keep == 0 ? new byte[0] : copyFrom(endOffset + 1 - keep);
        ring = new byte[newSize];
        long end = endOffset;
        endOffset = end - keep;
        histlen = 0;
        append(kept, 0, kept.length);
    }
}
