package dev.ebb.server;

import dev.ebb.storage.Database;

/**
 * One key one transaction WATCHes: the database it was watched in (WATCH remembers the database,
 * not the client's current selection), the key, and whether it had already expired at WATCH time.
 * Indexed both by its {@link Transaction} and by {@link KeyWatches}. Command loop thread only.
 */
final class WatchedKey {
    private final Transaction owner;
    private final Database db;
    private final byte[] key;
    private boolean expiredWhenWatched;

    WatchedKey(Transaction owner, Database db, byte[] key, boolean expiredWhenWatched) {
        this.owner = owner;
        this.db = db;
        this.key = key;
        this.expiredWhenWatched = expiredWhenWatched;
    }

    Transaction owner() {
        return owner;
    }

    Database db() {
        return db;
    }

    byte[] key() {
        return key;
    }

    /** True while the key is logically absent because it was stale when watched. */
    boolean expiredWhenWatched() {
        return expiredWhenWatched;
    }

    void expiredWhenWatched(boolean expired) {
        this.expiredWhenWatched = expired;
    }
}
