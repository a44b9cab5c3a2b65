package dev.ebb.storage;

/**
 * A {@link Database}'s side of a point-in-time snapshot: the snapshot's view of the tables it was begun
 * on and its {@link PreImageSink}, both null when none is under way. The database calls
 * {@link #preserve} before it reads, changes or drops a key, which hands a key the snapshot has not
 * taken yet to the sink. Outside a snapshot a preserve costs one null check. Command-loop thread only.
 */
final class SnapshotHook {
    private SnapshotTables tables;
    private PreImageSink sink;

    /** Starts a snapshot of {@code dict} and {@code expires} (see {@link Database#beginSnapshot}). */
    SnapshotTables begin(Dict<Object> dict, LongDict expires, PreImageSink sink, int dbId) {
        if (sink == null) {
            throw new IllegalArgumentException("sink must not be null");
        }
        if (this.sink != null) {
            throw new IllegalStateException("a snapshot is already under way: db=" + dbId);
        }
        dict.flipMarks();
        tables = new SnapshotTables(dict, expires);
        this.sink = sink;
        return tables;
    }

    /** Stops handing keys over if {@code snapshotTables} are the ones this hook serves. */
    void end(SnapshotTables snapshotTables) {
        if (tables == snapshotTables) {
            clear();
        }
    }

    /** Forgets the snapshot (FLUSHDB: it keeps the dropped tables and walks them alone). */
    void clear() {
        tables = null;
        sink = null;
    }

    /** Exchanges the snapshot served with {@code other}'s (SWAPDB: it follows its tables). */
    void swapWith(SnapshotHook other) {
        SnapshotTables t = tables;
        tables = other.tables;
        other.tables = t;
        PreImageSink s = sink;
        sink = other.sink;
        other.sink = s;
    }

    /** Hands the entry at {@code h} of {@code dict} to the snapshot if one is under way and has not taken it yet. */
    void preserve(Dict<Object> dict, int h) {
        if (sink != null && !dict.isMarked(h)) {
            tables.take(h, sink);
        }
    }

    /** As {@link #preserve(Dict, int)} for a key that may be absent (one more probe, during a snapshot only). */
    void preserve(Dict<Object> dict, byte[] key) {
        if (sink != null) {
            int h = dict.find(key);
            if (h >= 0) {
                preserve(dict, h);
            }
        }
    }
}
