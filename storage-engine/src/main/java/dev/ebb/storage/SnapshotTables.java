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
    /** Positions a walk chunk covers: its untaken entries are loaded together before they are taken. */
    static final int CHUNK = 64;
    private final int[] handles = new int[CHUNK];
    /** Sums what {@link #touch} loaded, so that the compiler keeps the loads. */
    private int touched;

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
     * <p>The entries' keys and values lie anywhere in the heap, so each costs the sink a cache miss or two
     * (150-700 ns a key on a 10M-key keyspace, depending on how the collector laid them out). The walk
     * therefore goes in chunks of {@link #CHUNK} positions: it collects a chunk's untaken handles, loads
     * each entry's key and value header in a tight loop whose loads the CPU overlaps, and only then takes
     * them, from the cache.
     *
     * @return the number of entries taken
     */
    public int walk(int from, int to, PreImageSink sink) {
        int end = Math.min(to, dict.walkSpan());
        int taken = 0;
        for (int chunk = from; chunk < end; chunk += CHUNK) {
            int chunkEnd = Math.min(end, chunk + CHUNK);
            int n = 0;
            for (int position = chunk; position < chunkEnd; position++) {
                int h = dict.handleAtPosition(position);
                if (h >= 0 && !dict.isMarked(h)) {
                    handles[n++] = h;
                }
            }
            touch(n);
            for (int i = 0; i < n; i++) {
                take(handles[i], sink);
            }
            taken += n;
        }
        return taken;
    }

    /** Loads the key and the value header of the first {@code n} {@link #handles}, so that they are cached. */
    private void touch(int n) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            int h = handles[i];
            sum += dict.keyAt(h).length;
            sum += dict.valueAt(h).getClass() == byte[].class ? 1 : 0;
        }
        touched += sum;
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
