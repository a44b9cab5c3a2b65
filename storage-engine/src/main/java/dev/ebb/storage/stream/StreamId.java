package dev.ebb.storage.stream;

/**
 * A stream entry ID: a millisecond time and a sequence number, both unsigned 64-bit, ordered by
 * (ms, seq) as unsigned numbers, as Redis's streamID. Immutable.
 */
public record StreamId(long ms, long seq) implements Comparable<StreamId> {
    /** 0-0, the smallest ID (never a valid entry ID). */
    public static final StreamId MIN = new StreamId(0, 0);
    /** The largest ID, 18446744073709551615-18446744073709551615. */
    public static final StreamId MAX = new StreamId(-1L, -1L);

    @Override
    public int compareTo(StreamId o) {
        int c = Long.compareUnsigned(ms, o.ms);
        return c != 0 ? c : Long.compareUnsigned(seq, o.seq);
    }

    /** Compares this ID with (ms, seq) without allocating. */
    public int compareTo(long otherMs, long otherSeq) {
        int c = Long.compareUnsigned(ms, otherMs);
        return c != 0 ? c : Long.compareUnsigned(seq, otherSeq);
    }

    public boolean isMax() {
        return ms == -1L && seq == -1L;
    }

    public boolean isMin() {
        return ms == 0 && seq == 0;
    }

    /** The next ID, or null if this is {@link #MAX} (Redis's streamIncrID failing). */
    public StreamId next() {
        if (seq != -1L) {
            return new StreamId(ms, seq + 1);
        }
        return ms == -1L ? null : new StreamId(ms + 1, 0);
    }

    /** The previous ID, or null if this is {@link #MIN} (streamDecrID failing). */
    public StreamId previous() {
        if (seq != 0) {
            return new StreamId(ms, seq - 1);
        }
        return ms == 0 ? null : new StreamId(ms - 1, -1L);
    }

    /** "ms-seq" with both parts unsigned, as Redis prints an ID. */
    @Override
    public String toString() {
        return Long.toUnsignedString(ms) + "-" + Long.toUnsignedString(seq);
    }
}
