package dev.ebb.storage;

/**
 * A database's tables as a point-in-time snapshot sees them: the main dict and its {@code expires} dict
 * that the database held at the snapshot's instant, with read access for the snapshot's walk. Made by
 * {@link Database#beginSnapshot}; the mechanism is described in {@code dev.ebb.storage.snapshot}.
 *
 * <p>The object follows the tables, not the database: after SWAPDB they belong to another database, and
 * after FLUSHDB to no database at all (the snapshot then holds the only reference and walks them alone).
 *
 * <p>Not thread-safe: used on the command loop thread only, like the database.
 */
public final class SnapshotTables {
    private final Dict<Object> dict;
    private final LongDict expires;
    private final int keysAtStart;

    SnapshotTables(Dict<Object> dict, LongDict expires) {
        this.dict = dict;
        this.expires = expires;
        this.keysAtStart = dict.size();
    }

    /** Keys the tables held at the snapshot's instant: each is taken exactly once. */
    public int keysAtStart() {
        return keysAtStart;
    }

    /** The number of walk positions right now (see {@link Dict#handleAtPosition}). O(1). */
    public int walkSpan() {
        return dict.walkSpan();
    }

    /**
     * Takes the entries of walk positions {@code from} to {@code to - 1} that are not yet marked: marks
     * each and hands it to {@code sink}. O(to - from) plus the sink's cost.
     *
     * @return the number of entries taken
     */
    public int walk(int from, int to, PreImageSink sink) {
        int end = Math.min(to, dict.walkSpan());
        int taken = 0;
        for (int position = from; position < end; position++) {
            int h = dict.handleAtPosition(position);
            if (h >= 0 && !dict.isMarked(h)) {
                take(h, sink);
                taken++;
            }
        }
        return taken;
    }

    /** Marks every entry without taking it: the state at rest, for a snapshot given up half way. O(capacity). */
    public void markAll() {
        dict.markAll();
    }

    boolean belongsTo(Dict<Object> d) {
        return dict == d;
    }

    /** Marks the entry at {@code h} and hands its pre-image (value, expiry, meta) to {@code sink}. */
    void take(int h, PreImageSink sink) {
        dict.mark(h);
        byte[] key = dict.keyAt(h);
        long expireAt = expires.isEmpty() ? Database.NO_EXPIRE : expires.get(key, Database.NO_EXPIRE);
        sink.preserve(key, dict.valueAt(h), expireAt, dict.metaAt(h));
    }
}
