package dev.ebb.storage.snapshot;

import dev.ebb.storage.Database;
import dev.ebb.storage.PreImageSink;
import dev.ebb.storage.SnapshotTables;

/**
 * One point-in-time snapshot of a set of databases, taken in slices on the command loop thread (see the
 * package comment for the mechanism). Every key the databases held at {@link #begin} is handed to the
 * {@link KeySink} exactly once, as it was at that instant, whatever the loop does meanwhile; keys created
 * later never are.
 *
 * <p>Lifecycle: {@link #begin}, then {@link #advance} until {@link #isComplete} (the loop's own reads and
 * writes take keys too), or {@link #abandon}. Not thread-safe: command loop thread only.
 */
public final class Snapshot {

    /** Receives the snapshot's keys, on the loop thread; see {@link PreImageSink} for what it may keep. */
    @FunctionalInterface
    public interface KeySink {
        /**
         * One key as of the snapshot's instant.
         *
         * @param db the key's database number at the instant
         * @param expireAtMs absolute expiry in unix ms, or {@link Database#NO_EXPIRE}
         * @param meta the 24-bit LRU clock or LFU counter
         */
        void key(int db, byte[] key, Object value, long expireAtMs, int meta);
    }

    private final Database[] databases;
    private final Image[] images;
    private final KeySink sink;
    private long keysAtStart;
    private long remaining;
    private int walking;
    private int position;
    private boolean ended;

    private Snapshot(Database[] databases, KeySink sink) {
        this.databases = databases.clone();
        this.images = new Image[databases.length];
        this.sink = sink;
    }

    /**
     * Takes the instant: from now on the databases hand each of their current keys to {@code sink} before
     * changing it. O(number of databases).
     *
     * @param databases indexed by database number
     * @throws IllegalStateException if a snapshot of one of them is already under way
     */
    public static Snapshot begin(Database[] databases, KeySink sink) {
        Snapshot s = new Snapshot(databases, sink);
        for (int i = 0; i < databases.length; i++) {
            Image image = s.new Image(i);
            image.tables = databases[i].beginSnapshot(image);
            image.remaining = image.tables.keysAtStart();
            s.images[i] = image;
            s.remaining += image.remaining;
        }
        s.keysAtStart = s.remaining;
        return s;
    }

    /** Keys at the instant, in every database. */
    public long keysAtStart() {
        return keysAtStart;
    }

    /** Keys not yet handed to the sink. */
    public long remaining() {
        return remaining;
    }

    /** Whether every key of the instant has been handed over. */
    public boolean isComplete() {
        return remaining == 0;
    }

    /**
     * One slice of the walk: examines up to {@code maxPositions} table slots and takes the keys there not
     * taken yet. When the last key has been taken, detaches from the databases (their writes no longer
     * check marks). O(maxPositions) plus the sink's cost per key taken.
     *
     * @return the number of keys taken by this slice
     */
    public int advance(int maxPositions) {
        if (maxPositions <= 0) {
            throw new IllegalArgumentException("maxPositions must be positive: maxPositions=" + maxPositions);
        }
        int taken = 0;
        int budget = maxPositions;
        while (budget > 0 && remaining > 0) {
            Image image = images[walking];
            if (image.remaining == 0) {
                walking = (walking + 1) % images.length;
                position = 0;
                continue;
            }
            int span = image.tables.walkSpan();
            int to = (int) Math.min(span, (long) position + budget);
            taken += image.tables.walk(position, to, image);
            budget -= Math.max(1, to - position);
            // Past the end with keys still to take: some moved behind the walk; start another pass.
            position = to >= span ? 0 : to;
        }
        if (remaining == 0) {
            end();
        }
        return taken;
    }

    /**
     * Gives the snapshot up: marks the keys not taken (one O(capacity) pass per database) so that the
     * databases are back at rest, and detaches. Nothing more reaches the sink.
     */
    public void abandon() {
        if (ended) {
            return;
        }
        for (Image image : images) {
            if (image.remaining > 0) {
                image.tables.markAll();
            }
        }
        end();
    }

    private void end() {
        if (ended) {
            return;
        }
        ended = true;
        for (Database db : databases) {
            for (Image image : images) {
                db.endSnapshot(image.tables);
            }
        }
        for (Image image : images) {
            image.tables = null;
            image.remaining = 0;
        }
        remaining = 0;
    }

    /** The tables one database held at the instant, and what of them is still to take. */
    private final class Image implements PreImageSink {
        private final int db;
        private SnapshotTables tables;
        private long remaining;

        Image(int db) {
            this.db = db;
        }

        @Override
        public void preserve(byte[] key, Object value, long expireAtMs, int meta) {
            remaining--;
            Snapshot.this.remaining--;
            sink.key(db, key, value, expireAtMs, meta);
        }
    }
}
