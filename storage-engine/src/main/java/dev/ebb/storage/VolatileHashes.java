package dev.ebb.storage;

import dev.ebb.storage.expiry.ExpireSample;
import dev.ebb.storage.types.HashValue;
import java.util.ArrayList;
import java.util.List;

/**
 * A database's index of the hashes that have volatile fields (Redis 7.4's {@code db->hexpires}):
 * key to the hash's earliest field expiry, in a {@link LongDict} sharing the main dict's key
 * array, exactly as {@code expires} holds volatile keys. The active expire cycle samples it the
 * way it samples {@code expires} ({@link #sampleLoop}), so field expiry runs inside the same CPU
 * budget and slices as key expiry.
 *
 * <p><b>Accuracy.</b> The database keeps an entry current whenever a hash is stored, deleted, or
 * reported changed ({@link Database#hashFieldsChanged}). An entry that is too early only costs a
 * visit that finds nothing due and corrects it; commands must report every TTL they set, or the
 * field waits for lazy expiry.
 *
 * <p><b>Bounded steps.</b> A sampling loop removes at most {@link #FIELDS_PER_STEP} fields in all
 * (a compact hash: one pass over its bytes; a large one: one heap pop per field), then ends; a
 * hash with more due fields keeps its (past) earliest expiry in the index and is met again. So a
 * hash with a million volatile fields expiring at once costs the loop nothing longer than other
 * sampling loops.
 *
 * <p>Costs: O(1) expected per index update; {@link #memoryBytes} O(1). Not thread-safe: command
 * loop thread only.
 */
public final class VolatileHashes {
    /** Most fields one sampling loop of the active cycle, or one lazy expiry on access, removes. */
    public static final int FIELDS_PER_STEP = 128;

    private static final long MISSING = Long.MIN_VALUE;

    private final long seed;
    private LongDict index;
    private FieldExpiryListener listener = FieldExpiryListener.NONE;
    private long expiredFields;

    VolatileHashes(long seed) {
        this.seed = seed;
        this.index = new LongDict(seed);
    }

    /** Sets the listener told about expired hash fields ({@link FieldExpiryListener#NONE} to stop). */
    public void setListener(FieldExpiryListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener must not be null; use FieldExpiryListener.NONE");
        }
        this.listener = listener;
    }

    /**
     * Reports that the fields or field TTLs of the hash {@code h} stored at {@code key} changed in
     * place, so the index follows. Commands that set, change or remove a field TTL, or remove
     * fields, call this (through {@link Database#hashFieldsChanged}; no listener call: they signal
     * the change themselves). O(1) expected (compact: plus a walk if a TTL was removed).
     */
    void changed(Database db, byte[] key, HashValue h) {
        Dict<Object> dict = db.mainDict();
        int slot = dict.find(key);
        if (slot >= 0 && dict.valueAt(slot) == h) {
            track(dict.keyAt(slot), h);
        }
    }

    /**
     * Removes up to {@code limit} fields of the hash at {@code key} whose time passed at
     * {@code nowMs} (lazy expiry on access, and the active cycle's step): accounts memory, counts
     * them in {@link #expiredSubkeys()}, deletes the key if the hash is left empty, updates the
     * index, tells the {@link FieldExpiryListener} and signals the key modified (WATCH). A key
     * that is itself expired is expired first and nothing else happens.
     *
     * @return the number of fields removed
     */
    int expire(Database db, byte[] key, long nowMs, int limit) {
        if (db.expireIfNeeded(key, nowMs) || db.expiryMode() != Database.ExpiryMode.DELETE) {
            // A replica keeps due fields until its primary's HDEL arrives.
            return 0;
        }
        Dict<Object> dict = db.mainDict();
        int slot = dict.find(key);
        if (slot < 0 || !(dict.valueAt(slot) instanceof HashValue h)) {
            untrack(key);
            return 0;
        }
        byte[] storedKey = dict.keyAt(slot);
        long before = h.memoryBytes();
        List<byte[]> fields = new ArrayList<>();
        int removed = h.expireFields(nowMs, limit, fields::add);
        if (removed > 0) {
            expiredFields += removed;
            boolean emptied = db.hashFieldsExpired(storedKey, h, h.memoryBytes() - before);
            if (!emptied) {
                track(storedKey, h);
            }
            listener.fieldsExpired(db, storedKey, fields, emptied);
        } else {
            track(storedKey, h);
        }
        return removed;
    }

    /** Counts {@code fields} removed by a command because their new expiry was already past (HEXPIRE … returning 2). */
    public void recordExpiredSubkeys(long fields) {
        expiredFields += fields;
    }

    /** Hash fields of this database removed by expiry (sum for INFO {@code expired_subkeys}). */
    public long expiredSubkeys() {
        return expiredFields;
    }

    void resetStats() {
        expiredFields = 0;
    }

    /** Records {@code value}'s earliest field expiry under the stored key, or drops the entry if it has none. */
    void track(byte[] storedKey, Object value) {
        if (!(value instanceof HashValue h)) {
            return;
        }
        long earliest = h.earliestExpiry();
        if (earliest == HashValue.NO_EXPIRY) {
            untrack(storedKey);
        } else if (index.get(storedKey, MISSING) != earliest) {
            index.put(storedKey, earliest);
        }
    }

    void untrack(byte[] key) {
        if (!index.isEmpty()) {
            index.remove(key);
        }
    }

    void clear() {
        index = new LongDict(seed);
    }

    /** Exchanges the indexes (SWAPDB); listeners and statistics stay with their database. */
    void swapWith(VolatileHashes other) {
        LongDict i = index;
        index = other.index;
        other.index = i;
    }

    /** Hashes with at least one volatile field. */
    public int size() {
        return index.size();
    }

    /** The recorded earliest field expiry of the hash at {@code key}, or -1 if it is not indexed. */
    public long earliestExpiry(byte[] key) {
        long when = index.isEmpty() ? MISSING : index.get(key, MISSING);
        return when == MISSING ? -1 : when;
    }

    long memoryBytes() {
        return index.memoryBytes() + index.aheadBytes();
    }

    /**
     * One sampling loop of the active cycle over this index: draws up to {@code maxHashes} random
     * entries (O(1) expected each, may repeat) and, for each whose earliest expiry has passed,
     * removes its due fields, at most {@link #FIELDS_PER_STEP} in the whole loop. Each hash drawn
     * is recorded in {@code out} ({@link ExpireSample#recordHash}) as one examined entry, "expired"
     * if it had due fields, so the cycle's stale estimate and repeat rule treat hashes as they
     * treat keys.
     *
     * <p>A visit's cost depends on the hash (a compact hash is walked and copied whole, whatever
     * number of its fields is due), so the loop reads {@code clock} after each visit that removed
     * fields and stops once it reaches {@code deadlineNanos}: the cycle's slice is then overrun by
     * at most one visit, not by a whole loop of them.
     */
    public void sampleLoop(Database db, int maxHashes, long nowMs, NanoClock clock, long deadlineNanos,
            ExpireSample out) {
        LongDict idx = index;
        int n = Math.min(maxHashes, idx.size());
        int fieldsLeft = FIELDS_PER_STEP;
        for (int i = 0; i < n && fieldsLeft > 0; i++) {
            int h = idx.randomHandle();
            if (h < 0) {
                return;
            }
            if (nowMs <= idx.valueAt(h)) {
                out.recordHash(false, 0);
                continue;
            }
            int removed = db.expireHashFields(idx.keyAt(h), nowMs, fieldsLeft);
            fieldsLeft -= removed;
            out.recordHash(true, removed);
            if (removed > 0 && clock.nanoTime() - deadlineNanos >= 0) {
                return;
            }
        }
    }
}
