package dev.ebb.storage;

import dev.ebb.storage.expiry.ExpiryStrategy;
import dev.ebb.storage.expiry.ExpiryStrategyKind;
import dev.ebb.storage.types.HashValue;

/**
 * One Redis database: the main dict (key to value) and the {@code expires} dict (key to absolute
 * expiry in unix ms), as in Redis's {@code redisDb}.
 *
 * <p><b>Keys.</b> Keys are {@code byte[]} compared by content. On insert the caller's array is
 * stored as is (not copied), so callers must not modify a key array after handing it in. A key in
 * {@code expires} is always the very array instance stored in the main dict, so a volatile key's
 * bytes are held once. Only volatile keys are in {@code expires}, and every key in it is in the
 * main dict.
 *
 * <p><b>Values.</b> A string value is a {@code byte[]}, a
 * {@link dev.ebb.storage.types.RawString} with spare capacity once edited in place (its stored
 * bytes never change; see there), or a {@link dev.ebb.storage.types.UnsharedString} (bytes whose
 * Redis encoding is not the one their content gives); other types implement {@link MemoryEstimated}. {@link Values#memoryOf} must accept every stored value.
 *
 * <p><b>Time.</b> Nothing here reads a clock: lookups take {@code nowMs}, the loop's current unix
 * time in ms. A key is expired when {@code nowMs > expireAtMs}, as in Redis. Every lookup path
 * (read, write, exists, random key, scan, idle time, setKey) first deletes its key if expired
 * ("lazy expiry"): the key is counted in {@link #expiredKeys()}, the {@link ExpiryListener} is
 * told, and the lookup sees no key.
 *
 * <p><b>Change signal.</b> Every change to a key made here (write, delete, TTL set or removed,
 * expiry) and every flush and swap is reported to the {@link KeyspaceListener}, the one choke
 * point WATCH and similar features build on; in-place value changes are reported by their callers
 * through {@link #signalModifiedKey}.
 *
 * <p><b>LRU clock / LFU counter.</b> The dict's 24-bit per-entry meta holds, by default, the last
 * access time ({@link #lruClock}), as Redis's {@code lru} field does, or after {@link #trackFrequency}
 * with {@code lfu} true an {@link LfuCounter}; see {@link AccessMeta}.
 *
 * <p><b>Memory.</b> {@link #usedMemory()} is kept incrementally: key and value bytes are added and
 * subtracted on each mutation (O(1)), and the dicts' slot arrays and the expiry strategy's own
 * index are read from their O(1) {@code memoryBytes()}. No operation walks the keyspace.
 *
 * <p><b>Costs.</b> Lookups, writes and expiry changes are O(1) expected: one probe of
 * {@code expires} (skipped while it is empty) plus one or two probes of the main dict.
 * {@link #flush()} is O(1): it swaps in fresh dicts and leaves the old ones to the GC.
 *
 * <p><b>Slot index.</b> In cluster mode ({@link #indexSlots}) every key is also kept in a
 * {@link SlotIndex} by hash slot, see {@link ClusterSlots}.
 *
 * <p><b>Snapshots.</b> While a point-in-time snapshot is taken ({@link #beginSnapshot}), every path
 * that reads, changes or drops a key the snapshot has not taken yet first hands that key's pre-image to
 * the snapshot's {@link PreImageSink}: lookups of every kind, writes, TTL changes, deletes, expiry and
 * eviction. A key then costs one more probe of the main dict the first time; outside a snapshot, one
 * null check. See {@code dev.ebb.storage.snapshot}.
 *
 * <p><b>Threading.</b> Not thread-safe and lock-free by design: a database belongs to the command
 * loop thread, like everything in the keyspace.
 */
public final class Database {
    /**
     * How many expired keys {@link #randomKey} deletes before it gives up and answers "no key".
     * Redis uses the same number of tries on replicas (which cannot delete expired keys); see
     * {@link #randomKey} for why Ebb bounds the work on a primary too.
     */
    public static final int RANDOM_KEY_MAX_TRIES = 100;

    /** {@link #getExpire} answer for a key without a time to live. */
    public static final long NO_EXPIRE = -1;

    private final int id;
    private final long seed;
    private Dict<Object> dict;
    private final Expiries expiries;
    private ExpiryListener expiryListener = ExpiryListener.NONE;
    private NewKeyListener newKeyListener = NewKeyListener.NONE;
    private KeyspaceListener keyspaceListener = KeyspaceListener.NONE;
    private final VolatileHashes volatileHashes;
    private final SnapshotHook snapshot = new SnapshotHook();
    private final ClusterSlots clusterSlots = new ClusterSlots();

    /** Bytes of stored keys and values; the dicts' own arrays are added in usedMemory(). */
    private long payloadBytes;
    private long expiredKeys;

    private final AccessMeta access;
    private ExpiryMode expiryMode = ExpiryMode.DELETE;
    private final ScanBuffer scanBuffer = new ScanBuffer();

    /** A database with the default ({@code sampling}) active expiry strategy. */
    public Database(int id, long seed) {
        this(id, seed, ExpiryStrategyKind.SAMPLING);
    }

    /**
     * @param id the database index (SELECT number), reported to listeners
     * @param seed the hash seed of both dicts (hash-flooding resistance); kept for {@link #flush}
     * @param expiryKind the active expiry strategy; this database gets its own instance
     */
    public Database(int id, long seed, ExpiryStrategyKind expiryKind) {
        if (id < 0) {
            throw new IllegalArgumentException("database id must not be negative: id=" + id);
        }
        this.id = id;
        this.seed = seed;
        this.dict = new Dict<>(seed);
        this.expiries = new Expiries(seed, expiryKind);
        this.volatileHashes = new VolatileHashes(seed);
        this.access = new AccessMeta(seed);
    }

    /**
     * Sizes the empty tables of a database about to receive {@code keys} keys, {@code volatileKeys} of them
     * with a time to live (RDB loading, from RESIZEDB), so that no resize runs while they arrive. Does
     * nothing to a table that holds keys. O(the new capacities).
     */
    public void presize(int keys, int volatileKeys) {
        dict.presize(keys);
        expiries.dict().presize(volatileKeys);
    }

    /**
     * Chooses what the per-key meta records on access: the access time (LRU, the default) or an
     * LFU counter with Redis's {@code lfu-log-factor} and {@code lfu-decay-time} (minutes).
     */
    public void trackFrequency(boolean lfu, int logFactor, int decayMinutes) {
        access.configure(lfu, logFactor, decayMinutes);
    }

    /** Whether metas hold LFU counters (see {@link #trackFrequency}). */
    public boolean tracksFrequency() {
        return access.lfu();
    }

    public int id() {
        return id;
    }

    /**
     * What lazy expiry does with a key whose time has passed (Redis's expireIfNeeded on a primary
     * or on a replica). A replica never deletes keys itself: its primary sends the DEL.
     */
    public enum ExpiryMode {
        /** A primary: the key is deleted and reported to the listeners. */
        DELETE,
        /** A replica serving its clients: the key is hidden from lookups but stays stored. */
        HIDE,
        /** A replica running its primary's commands: the key is live until the primary deletes it. */
        KEEP
    }

    /** Sets what lazy expiry does ({@link ExpiryMode}); {@link ExpiryMode#DELETE} by default. */
    public void setExpiryMode(ExpiryMode mode) {
        this.expiryMode = mode;
    }

    public ExpiryMode expiryMode() {
        return expiryMode;
    }

    /** Sets the listener told about inserted keys ({@link NewKeyListener#NONE} to stop). */
    public void setNewKeyListener(NewKeyListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener must not be null; use NewKeyListener.NONE");
        }
        this.newKeyListener = listener;
    }

    /** Sets the listener told about expired keys ({@link ExpiryListener#NONE} to stop). */
    public void setExpiryListener(ExpiryListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener must not be null; use ExpiryListener.NONE");
        }
        this.expiryListener = listener;
    }

    /**
     * Sets the listener told about every key modification, flush and swap
     * ({@link KeyspaceListener#NONE} to stop). One listener per database; a server that needs
     * several consumers fans out from the one it installs.
     */
    public void setKeyspaceListener(KeyspaceListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("listener must not be null; use KeyspaceListener.NONE");
        }
        this.keyspaceListener = listener;
    }

    /**
     * Redis's signalModifiedKey: reports that the value at {@code key} changed in place. Every
     * write method of this class reports its own changes; call this after mutating a stored value
     * object directly (HSET on an existing hash, LPUSH onto an existing list …), so WATCH and the
     * other {@link KeyspaceListener} consumers see the write. O(1) plus the listener's cost.
     */
    public void signalModifiedKey(byte[] key) {
        keyspaceListener.keyModified(this, key);
    }

    // ---------------------------------------------------------------- lookups

    /**
     * The value at {@code key} for a read, or null. Applies lazy expiry and records the access
     * time for LRU / OBJECT IDLETIME.
     */
    public Object lookupRead(byte[] key, long nowMs) {
        return lookup(key, nowMs, true);
    }

    /** As {@link #lookupRead} without updating the access time (TYPE, TTL, OBJECT …). */
    public Object lookupReadNoTouch(byte[] key, long nowMs) {
        return lookup(key, nowMs, false);
    }

    /**
     * The value at {@code key} before a write, or null. Applies lazy expiry and, as Redis 7 does
     * for every lookup without NOTOUCH, records the access time.
     */
    public Object lookupWrite(byte[] key, long nowMs) {
        return lookup(key, nowMs, true);
    }

    private Object lookup(byte[] key, long nowMs, boolean touch) {
        if (expireIfNeeded(key, nowMs)) {
            return null;
        }
        int h = dict.find(key);
        if (h < 0) {
            return null;
        }
        snapshot.preserve(dict, h);
        if (touch) {
            dict.setMetaAt(h, access.accessed(dict.metaAt(h), nowMs));
        }
        return dict.valueAt(h);
    }

    /** Whether {@code key} exists (EXISTS): lazy expiry, no access-time update. */
    public boolean exists(byte[] key, long nowMs) {
        return !expireIfNeeded(key, nowMs) && dict.containsKey(key);
    }

    /**
     * Whether the main dict holds {@code key}, expired or not: no lazy expiry, no access-time
     * update, no listener call. For {@link KeyspaceListener}s, which must not modify the database.
     */
    public boolean hasEntry(byte[] key) {
        return dict.containsKey(key);
    }

    /**
     * Whether {@code key} has a time to live that has passed at {@code nowMs} (Redis's
     * keyIsExpired): read-only, the key is not deleted. False for a key without a TTL or absent.
     */
    public boolean isExpired(byte[] key, long nowMs) {
        long when = expiries.when(key);
        return when != Expiries.MISSING && nowMs > when;
    }

    /**
     * Deletes {@code key} if it has a time to live that has passed ({@code nowMs > expireAt}):
     * counts it in {@link #expiredKeys()} and tells the {@link ExpiryListener}. Redis's
     * expireIfNeeded. Under {@link ExpiryMode#HIDE} the key is reported gone but not deleted, under
     * {@link ExpiryMode#KEEP} it is reported live (a replica). Used by every lookup here, by the active expire cycle, and by
     * commands that delete without a lookup (DEL checks this first, so an expired key is reported
     * as expired, not as deleted).
     *
     * @return true if the key was expired and is now gone
     */
    public boolean expireIfNeeded(byte[] key, long nowMs) {
        long when = expiries.when(key);
        if (when == Expiries.MISSING || nowMs <= when) {
            return false;
        }
        if (expiryMode != ExpiryMode.DELETE) {
            return expiryMode == ExpiryMode.HIDE;
        }
        Object value = removeEntry(key);
        expiredKeys++;
        expiryListener.expired(this, key, value);
        keyspaceListener.keyModified(this, key);
        return true;
    }

    /**
     * A random live key (RANDOMKEY), or null when there is none. Expired keys met on the way are
     * deleted as lazy expiry would.
     *
     * <p>Redis on a primary keeps drawing until it meets a live key or the database is empty,
     * which can delete every key of a large, fully expired database inside one command. Ebb bounds
     * this: after {@link #RANDOM_KEY_MAX_TRIES} expired draws in a row it returns null (as for an
     * empty database) and leaves the rest to the active expire cycle. So on a database that is
     * almost entirely expired, RANDOMKEY may answer nil although a few live keys remain. Always
     * terminates: each try either returns or deletes a key.
     *
     * @return the stored key instance (do not modify it), or null
     */
    public byte[] randomKey(long nowMs) {
        for (int tries = 0; tries < RANDOM_KEY_MAX_TRIES; tries++) {
            byte[] key = dict.randomKey();
            if (key == null) {
                return null;
            }
            if (!expireIfNeeded(key, nowMs)) {
                return key;
            }
        }
        return null;
    }

    /**
     * One step of SCAN over the main dict: visits the keys of the buckets at {@code cursor} and
     * returns the next cursor (0 when the iteration is complete). With Redis's guarantee: a key
     * present for the whole iteration is visited at least once; duplicates are possible. As in
     * Redis 7, keys met that are expired are deleted (lazy expiry) and not visited.
     *
     * <p>The step's keys are collected first and the visitor runs after the dict walk, so the
     * visitor may read or modify this database, but must not start another scan of it. It
     * receives the stored key instances, which it must not modify.
     * Allocates nothing once the internal buffer has grown to the largest bucket run met.
     */
    public long scan(long cursor, long nowMs, Dict.Visitor<Object> visitor) {
        return scanBuffer.step(this, dict, cursor, nowMs, visitor);
    }

    /**
     * Visits every key once, in no particular order, expired-but-not-yet-deleted keys included
     * (no lazy expiry: the visitor must not modify this database or the key). O(capacity of the
     * main dict); for whole-keyspace work such as an AOF rewrite, not per-request work.
     */
    public void forEachKey(Dict.Visitor<Object> visitor) {
        dict.forEach(visitor);
    }

    /**
     * Milliseconds since {@code key} was last accessed (OBJECT IDLETIME is this / 1000), with one
     * second resolution; -1 if the key does not exist. Applies lazy expiry; does not touch.
     */
    public long idleMs(byte[] key, long nowMs) {
        if (expireIfNeeded(key, nowMs)) {
            return -1;
        }
        int h = dict.find(key);
        if (h < 0) {
            return -1;
        }
        return AccessMeta.idleSeconds(dict.metaAt(h), nowMs) * 1000L;
    }

    /**
     * The LFU counter of {@code key} after decay (OBJECT FREQ), or -1 if the key does not exist.
     * Meaningful only while {@link #tracksFrequency()}. Applies lazy expiry; does not touch.
     */
    public int lfuFrequency(byte[] key, long nowMs) {
        if (expireIfNeeded(key, nowMs)) {
            return -1;
        }
        int h = dict.find(key);
        return h < 0 ? -1 : access.frequency(dict.metaAt(h), nowMs);
    }

    /**
     * Redis's objectSetLRUOrLFU, for RESTORE's IDLETIME/FREQ and the IDLE/FREQ an RDB file recorded:
     * while tracking frequency, sets the LFU counter to {@code lfuFreq} if it is not negative; else
     * sets the access time to {@code lruIdleSeconds} before now if that is not negative. Otherwise,
     * or if the key is absent, nothing changes.
     *
     * @return whether the key's access information was set
     */
    public boolean setAccessInfo(byte[] key, long lruIdleSeconds, int lfuFreq, long nowMs) {
        int h = dict.find(key);
        int meta = h < 0 ? -1 : access.fromAccessInfo(lruIdleSeconds, lfuFreq, nowMs);
        if (meta < 0) {
            return false;
        }
        dict.setMetaAt(h, meta);
        return true;
    }

    /** The access-time stamp kept in the dict meta: unix seconds modulo 2^24 (Redis's LRU_CLOCK_MAX + 1). */
    public static int lruClock(long nowMs) {
        return AccessMeta.lruClock(nowMs);
    }

    // ---------------------------------------------------------------- writes

    /**
     * Redis's setKey: stores {@code value} at {@code key}, inserting or overwriting, and removes
     * any time to live. An existing but expired key is first expired (counted and notified), as
     * Redis's lookupKeyWrite inside setKey does. The access time is set to now.
     */
    public void setKey(byte[] key, Object value, long nowMs) {
        store(key, value, nowMs, false);
    }

    /** As {@link #setKey} but an existing key keeps its time to live (SET … KEEPTTL). */
    public void setKeepTtl(byte[] key, Object value, long nowMs) {
        store(key, value, nowMs, true);
    }

    /**
     * SET with a time to live (SET EX/PX/EXAT/PXAT, SETEX, PSETEX): stores {@code value} at
     * {@code key} and sets its absolute expiry to {@code whenMs}. The end state is that of
     * {@link #setKey} followed by {@link #setExpire}, but an existing {@code expires} entry is
     * updated in place instead of being removed and inserted again (a removal in an
     * open-addressing table shifts the rest of its cluster back), so SET EX costs little more
     * than SET.
     *
     * @throws IllegalArgumentException if {@code whenMs} is {@link Long#MIN_VALUE} (reserved)
     */
    public void setWithExpire(byte[] key, Object value, long nowMs, long whenMs) {
        if (whenMs == Expiries.MISSING) {
            throw new IllegalArgumentException("expire time out of range: whenMs=" + whenMs);
        }
        store(key, value, nowMs, true);
        setExpire(key, whenMs);
    }

    private void store(byte[] key, Object value, long nowMs, boolean keepTtl) {
        long valueBytes = Values.memoryOf(value);
        expireIfNeeded(key, nowMs);
        // An LFU overwrite keeps the key's counter and counts as an access (Redis copies the old lru field).
        int prior = access.lfu() ? dict.find(key) : -1;
        int meta = access.overwritten(prior < 0 ? -1 : dict.metaAt(prior), nowMs);
        snapshot.preserve(dict, key);
        Object old = dict.put(key, value, meta);
        if (old == null) {
            payloadBytes += Values.keyBytes(key) + valueBytes;
            clusterSlots.added(key);
            newKeyListener.added(this, key);
        } else {
            payloadBytes += valueBytes - Values.memoryOf(old);
            if (!keepTtl) {
                expiries.remove(this, key);
            }
            if (old instanceof HashValue) {
                volatileHashes.untrack(key);
            }
        }
        if (value instanceof HashValue) {
            volatileHashes.track(dict.keyAt(dict.find(key)), value);
        }
        keyspaceListener.keyModified(this, key);
    }

    /**
     * Redis's dbAdd: inserts a key the caller knows is absent (it looked the key up for write
     * first, which also expired it if needed).
     *
     * @throws IllegalStateException if the key is present; the database is left unchanged
     */
    public void add(byte[] key, Object value, long nowMs) {
        if (!tryAdd(key, value, nowMs)) {
            throw new IllegalStateException("add of a key that exists: key=" + KeyText.printable(key));
        }
    }

    /**
     * As {@link #add}, in one probe of the main dict, but a present key is left unchanged (the RDB loader,
     * which refuses a file with a key twice).
     *
     * @return false if the key was present
     */
    public boolean tryAdd(byte[] key, Object value, long nowMs) {
        if (dict.putIfAbsent(key, value, access.initial(nowMs)) != null) {
            return false;
        }
        payloadBytes += Values.keyBytes(key) + Values.memoryOf(value);
        clusterSlots.added(key);
        volatileHashes.track(key, value);
        newKeyListener.added(this, key);
        keyspaceListener.keyModified(this, key);
        return true;
    }

    /**
     * Removes {@code key}, its value and its time to live, without an expiry check (callers that
     * must not delete an already expired key as a DEL call {@link #expireIfNeeded} first).
     *
     * @return the removed value, or null if the key was absent
     */
    public Object delete(byte[] key) {
        Object old = removeEntry(key);
        if (old != null) {
            keyspaceListener.keyModified(this, key);
        }
        return old;
    }

    private Object removeEntry(byte[] key) {
        snapshot.preserve(dict, key);
        int h = dict.findForRemoval(key);
        if (h < 0) {
            return null;
        }
        Object old = dict.valueAt(h);
        clusterSlots.removed(dict.keyAt(h));
        dict.removeAt(h);
        payloadBytes -= Values.keyBytes(key) + Values.memoryOf(old);
        expiries.remove(this, key);
        if (old instanceof HashValue) {
            volatileHashes.untrack(key);
        }
        return old;
    }

    // ---------------------------------------------------------------- hash field expiry

    /** The index of hashes with volatile fields, its listener and statistics ({@link VolatileHashes}). */
    public VolatileHashes volatileHashes() {
        return volatileHashes;
    }

    /** {@link VolatileHashes#changed}: the index follows an in-place change of the hash at {@code key}. */
    public void hashFieldsChanged(byte[] key, HashValue h) {
        volatileHashes.changed(this, key, h);
    }

    /** {@link VolatileHashes#expire}: removes up to {@code limit} due fields of the hash at {@code key}. */
    public int expireHashFields(byte[] key, long nowMs, int limit) {
        return volatileHashes.expire(this, key, nowMs, limit);
    }

    /**
     * Bookkeeping after {@code removed} fields of the hash {@code h} at {@code storedKey} expired:
     * memory, deletion of an emptied hash, and the key's change signal (WATCH).
     *
     * @return whether the hash was left empty and deleted
     */
    boolean hashFieldsExpired(byte[] storedKey, HashValue h, long memoryDelta) {
        payloadBytes += memoryDelta;
        boolean emptied = h.size() == 0;
        if (emptied) {
            removeEntry(storedKey);
        }
        keyspaceListener.keyModified(this, storedKey);
        return emptied;
    }

    /**
     * Sets {@code key}'s absolute expiry (unix ms), replacing any previous one. The expires entry
     * shares the main dict's key array.
     *
     * @throws IllegalArgumentException if the key does not exist, or {@code whenMs} is
     *     {@link Long#MIN_VALUE} (reserved)
     */
    public void setExpire(byte[] key, long whenMs) {
        if (whenMs == Expiries.MISSING) {
            throw new IllegalArgumentException("expire time out of range: whenMs=" + whenMs);
        }
        int h = dict.find(key);
        if (h < 0) {
            throw new IllegalArgumentException("setExpire on a missing key: key=" + KeyText.printable(key));
        }
        snapshot.preserve(dict, h);
        byte[] storedKey = dict.keyAt(h);
        expiries.set(this, storedKey, whenMs);
        keyspaceListener.keyModified(this, storedKey);
    }

    /** {@code key}'s absolute expiry in unix ms, or {@link #NO_EXPIRE} (-1) if it has none. */
    public long getExpire(byte[] key) {
        long when = expiries.when(key);
        return when == Expiries.MISSING ? NO_EXPIRE : when;
    }

    /**
     * Removes {@code key}'s time to live (PERSIST; no expiry check, callers look up first).
     *
     * @return true if the key had one
     */
    public boolean persist(byte[] key) {
        snapshot.preserve(dict, key);
        if (!expiries.remove(this, key)) {
            return false;
        }
        keyspaceListener.keyModified(this, key);
        return true;
    }

    /**
     * Accounts for an in-place change of a stored value's size (APPEND, SETRANGE, HSET on an
     * existing hash …): {@code deltaBytes} is the new size minus the old one.
     */
    public void adjustMemory(long deltaBytes) {
        payloadBytes += deltaBytes;
    }

    /**
     * Removes every key (FLUSHDB) in O(1): fresh dicts replace the old ones, which become
     * garbage. Does not count as expiry; the {@link #expiredKeys()} counter is kept.
     *
     * @return the number of keys removed
     */
    public long flush() {
        keyspaceListener.beforeFlush(this);
        // A snapshot under way keeps the dropped tables and walks them alone.
        snapshot.clear();
        long removed = dict.size();
        dict = new Dict<>(seed);
        volatileHashes.clear();
        clusterSlots.cleared();
        payloadBytes = 0;
        expiries.clear(this);
        return removed;
    }

    /**
     * Exchanges the whole contents (keys, values, expiries, memory, avg_ttl, the expiry
     * strategy's per-database state) with {@code other} (SWAPDB). Ids, listeners and the
     * {@link #expiredKeys()} counters stay with their database. O(1).
     */
    public void swapWith(Database other) {
        keyspaceListener.beforeSwap(this, other);
        if (other.keyspaceListener != keyspaceListener) {
            other.keyspaceListener.beforeSwap(other, this);
        }
        Dict<Object> d = dict;
        dict = other.dict;
        other.dict = d;
        expiries.swapWith(other.expiries);
        volatileHashes.swapWith(other.volatileHashes);
        snapshot.swapWith(other.snapshot);
        long p = payloadBytes;
        payloadBytes = other.payloadBytes;
        other.payloadBytes = p;
        clusterSlots.swapWith(other.clusterSlots, dict, other.dict, id, other.id);
    }

    // ---------------------------------------------------------------- slot index

    /**
     * Starts keeping the keys by hash slot (cluster mode), see {@link SlotIndex}: indexes the keys
     * present now, O(keys), and from then on every insert and removal. A database fresh from
     * loading must be indexed before it is swapped in, since {@link #swapWith} exchanges indexes
     * along with the keys.
     *
     * @throws IllegalStateException if this database already keeps a slot index
     */
    public void indexSlots(SlotFunction slotFunction) {
        clusterSlots.start(slotFunction, dict, id);
    }

    /** The keys by hash slot, or null unless {@link #indexSlots} was called. Read-only use. */
    public SlotIndex slotIndex() {
        return clusterSlots.index();
    }

    /** Whether either dict is in the middle of an incremental resize. */
    public boolean isRehashing() {
        return dict.isRehashing() || expiries.dict().isRehashing();
    }

    /**
     * Spends up to {@code budgetNanos} on incremental rehashing, main dict first, then
     * {@code expires} with what is left (the cron's databasesCron step).
     *
     * @return the work done, as the sum of what the dicts' {@code rehashFor} report
     */
    public int rehashFor(long budgetNanos, NanoClock clock) {
        LongDict expires = expiries.dict();
        if (!dict.isRehashing()) {
            return expires.isRehashing() ? expires.rehashFor(budgetNanos, clock) : 0;
        }
        long start = clock.nanoTime();
        int work = dict.rehashFor(budgetNanos, clock);
        if (expires.isRehashing()) {
            long left = budgetNanos - (clock.nanoTime() - start);
            if (left > 0) {
                work += expires.rehashFor(left, clock);
            }
        }
        return work;
    }

    // ---------------------------------------------------------------- point-in-time snapshot

    /**
     * Starts a point-in-time snapshot of this database's current tables: from now on every key they
     * held at this instant is handed to {@code sink} exactly once, by this database just before the
     * loop first reads, changes or drops it, or by the snapshot's walk over the returned view
     * ({@link SnapshotTables#walk}). Keys created later are never handed over. O(1).
     *
     * @throws IllegalStateException if a snapshot of these tables is already under way
     */
    public SnapshotTables beginSnapshot(PreImageSink sink) {
        return snapshot.begin(dict, expiries.dict(), sink, id);
    }

    /**
     * Stops handing keys over for {@code tables}, if this database holds them (after SWAPDB they may be
     * another's, after FLUSHDB nobody's). The snapshot calls this on every database when it has taken
     * every key, or after it marked the rest ({@link SnapshotTables#markAll}) when given up. O(1).
     */
    public void endSnapshot(SnapshotTables tables) {
        snapshot.end(tables);
    }

    // ---------------------------------------------------------------- package access

    /** The main dict, for {@link EvictionCandidates} and {@link VolatileHashes}; read-only use: remove keys through {@link #delete}. */
    Dict<Object> mainDict() {
        return dict;
    }

    /** The per-key meta policy (LRU stamp or LFU counter). */
    AccessMeta accessMeta() {
        return access;
    }

    // ---------------------------------------------------------------- stats

    /** Number of keys (DBSIZE, INFO keyspace {@code keys}), expired-but-not-yet-removed included. */
    public int size() {
        return dict.size();
    }

    /** Number of keys with a time to live (INFO keyspace {@code expires}). */
    public int expiresSize() {
        return expiries.dict().size();
    }

    /**
     * INFO keyspace {@code avg_ttl} in ms: Redis's running estimate, fed by the active expire
     * cycle with the mean TTL of the not-yet-expired keys each sampling loop sees (see
     * {@link #recordTtlSample}); 0 when no key is volatile or nothing was sampled yet.
     */
    public long avgTtlMs() {
        return expiries.avgTtlMs();
    }

    /** Keys removed by expiry from this database, lazily or actively (sum for INFO expired_keys). */
    public long expiredKeys() {
        return expiredKeys;
    }

    /** Clears {@link #expiredKeys()} (CONFIG RESETSTAT). */
    public void resetStats() {
        expiredKeys = 0;
        volatileHashes.resetStats();
    }

    /**
     * Estimated bytes held: dict slot arrays of both dicts (and their next arrays if allocated
     * ahead), keys (once, they are shared), values, and the expiry strategy's index. O(1); exact with respect to the estimates of
     * {@link Values} as long as in-place value changes are reported via {@link #adjustMemory}.
     */
    public long usedMemory() {
        return payloadBytes + dict.memoryBytes() + dict.aheadBytes() + expiresTableBytes() + clusterSlots.memoryBytes();
    }

    /**
     * The main dict's share of {@link #usedMemory()}: its slot arrays and the slot index, if kept
     * (MEMORY STATS {@code overhead.hashtable.main}). O(1).
     */
    public long mainTableBytes() {
        return dict.memoryBytes() + dict.aheadBytes() + clusterSlots.memoryBytes();
    }

    /**
     * The expiry bookkeeping's share of {@link #usedMemory()}: the {@code expires} dict's arrays and
     * the expiry strategy's index (MEMORY STATS {@code overhead.hashtable.expires}). O(1).
     */
    public long expiresTableBytes() {
        return expiries.tableBytes() + expiries.strategy().memoryBytes() + volatileHashes.memoryBytes();
    }

    /** Bytes of both dicts' slot arrays (for tests recomputing {@link #usedMemory()}). */
    long slotArrayBytes() {
        return dict.memoryBytes() + dict.aheadBytes() + expiries.tableBytes() + volatileHashes.memoryBytes()
                + clusterSlots.memoryBytes();
    }

    // ---------------------------------------------------------------- expiry engine access

    /**
     * The {@code expires} dict, for expiry strategies that sample it. Callers must treat it as
     * read-only: remove expired keys through {@link #expireIfNeeded}.
     */
    public LongDict expires() {
        return expiries.dict();
    }

    /** This database's active expiry strategy instance. */
    public ExpiryStrategy expiryStrategy() {
        return expiries.strategy();
    }

    /**
     * Folds the mean TTL seen by one sampling loop into {@link #avgTtlMs()} the way Redis does: the
     * first sample is taken as is, then each new one weighs 2% (integer arithmetic).
     */
    public void recordTtlSample(long meanTtlMs) {
        expiries.recordTtlSample(meanTtlMs);
    }

    @Override
    public String toString() {
        return "Database{id=" + id + ", keys=" + dict.size() + ", expires=" + expiries.dict().size() + '}';
    }
}
