package dev.ebb.server;

import dev.ebb.storage.Database;
import dev.ebb.storage.Dict;
import dev.ebb.storage.KeyspaceListener;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * WATCH's index, and the hook of client-side caching ({@link ClientTracking}): for each database, watched key to the {@link WatchedKey} entries of the
 * transactions watching it. Installed by the {@link Server} as every database's
 * {@link KeyspaceListener}, so any change to a key by any client, by expiry, by FLUSHDB/FLUSHALL
 * or by SWAPDB marks the watching transactions as touched (Redis's CLIENT_DIRTY_CAS).
 *
 * <p><b>Stale keys.</b> As in Redis 7, a key that had already expired (but was not yet deleted)
 * when it was watched is logically absent: deleting it later (lazy or active expiry, FLUSHDB, or
 * SWAPDB bringing in no key) is no change; writing it is. A key that expires after WATCH is a
 * change even before anything deletes it (see {@link Transaction#watchTouched}).
 *
 * <p><b>Costs.</b> A write to a database nobody watches in costs one interface call and a size
 * check; otherwise one dict probe plus the watchers of that key. WATCH and UNWATCH are O(1) per
 * key plus the number of clients watching it. Flush and swap walk the database's watched keys
 * (not its keyspace). Command loop thread only.
 */
final class KeyWatches implements KeyspaceListener {
    private final Dict<List<WatchedKey>>[] byDb;
    private final LongSupplier nowMs;
    private final ClientTracking tracking;

    @SuppressWarnings("unchecked")
    KeyWatches(int databases, long seed, LongSupplier nowMs, ClientTracking tracking) {
        this.byDb = new Dict[databases];
        this.nowMs = nowMs;
        this.tracking = tracking;
        for (int i = 0; i < databases; i++) {
            byDb[i] = new Dict<>(seed + i);
        }
    }

    /** Adds {@code watched} to the index of its database. */
    void add(WatchedKey watched) {
        Dict<List<WatchedKey>> keys = byDb[watched.db().id()];
        List<WatchedKey> watchers = keys.get(watched.key());
        if (watchers == null) {
            watchers = new ArrayList<>(2);
            keys.put(watched.key(), watchers);
        }
        watchers.add(watched);
    }

    /** Whether {@code owner} already watches {@code key} in {@code db}. O(watchers of the key). */
    boolean isWatchedBy(Transaction owner, Database db, byte[] key) {
        List<WatchedKey> watchers = byDb[db.id()].get(key);
        if (watchers == null) {
            return false;
        }
        for (int i = 0, n = watchers.size(); i < n; i++) {
            if (watchers.get(i).owner() == owner) {
                return true;
            }
        }
        return false;
    }

    /** Removes {@code watched} from the index; the key's entry goes when its last watcher does. */
    void remove(WatchedKey watched) {
        Dict<List<WatchedKey>> keys = byDb[watched.db().id()];
        List<WatchedKey> watchers = keys.get(watched.key());
        if (watchers == null) {
            return;
        }
        watchers.remove(watched);
        if (watchers.isEmpty()) {
            keys.remove(watched.key());
        }
    }

    /** Number of distinct watched keys over every database. O(databases). */
    int watchedKeys() {
        int n = 0;
        for (Dict<List<WatchedKey>> keys : byDb) {
            n += keys.size();
        }
        return n;
    }

    @Override
    public void keyModified(Database db, byte[] key) {
        if (tracking.inUse()) {
            tracking.keyModified(key);
        }
        Dict<List<WatchedKey>> keys = byDb[db.id()];
        if (keys.size() == 0) {
            return;
        }
        List<WatchedKey> watchers = keys.get(key);
        if (watchers == null) {
            return;
        }
        for (int i = 0, n = watchers.size(); i < n; i++) {
            WatchedKey watched = watchers.get(i);
            if (watched.expiredWhenWatched() && !db.hasEntry(key)) {
                // The stale key is now deleted: logically still absent. Deleted keys are not stale.
                watched.expiredWhenWatched(false);
                continue;
            }
            watched.owner().touch();
        }
    }

    @Override
    public void beforeFlush(Database db) {
        tracking.flushed();
        touchAll(db, null);
    }

    @Override
    public void beforeSwap(Database db, Database other) {
        touchAll(db, other);
        touchAll(other, db);
    }

    /**
     * Redis's touchAllWatchedKeysInDb: {@code emptied} loses its contents, which are replaced with
     * those of {@code replacedWith} (null for a flush). A watched key is touched when it exists on
     * either side, except where the change is only between "stale" and "absent".
     */
    private void touchAll(Database emptied, Database replacedWith) {
        Dict<List<WatchedKey>> keys = byDb[emptied.id()];
        if (keys.size() == 0) {
            return;
        }
        long now = nowMs.getAsLong();
        keys.forEach((key, watchers) -> {
            boolean existsInEmptied = emptied.hasEntry(key);
            boolean existsInReplacement = replacedWith != null && replacedWith.hasEntry(key);
            if (!existsInEmptied && !existsInReplacement) {
                return;
            }
            for (int i = 0, n = watchers.size(); i < n; i++) {
                WatchedKey watched = watchers.get(i);
                if (watched.expiredWhenWatched()) {
                    if (!existsInReplacement) {
                        watched.expiredWhenWatched(false);
                        continue;
                    }
                    if (replacedWith.isExpired(key, now)) {
                        continue;
                    }
                } else if (!existsInEmptied && replacedWith.isExpired(key, now)) {
                    // An absent key replaced with a stale one: still logically absent.
                    watched.expiredWhenWatched(true);
                    continue;
                }
                watched.owner().touch();
            }
        });
    }
}
