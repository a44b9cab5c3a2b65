package dev.ebb.storage;

/**
 * Told about every change to the keys of a {@link Database}: Redis's {@code signalModifiedKey}
 * plus the two whole-database events (flush, swap). WATCH builds on it; keyspace notifications
 * and clients blocked on a key can share the same signal.
 *
 * <p><b>What counts as a modification.</b> {@link #keyModified} is called after any change to a
 * key's value, existence or time to live made through the database: {@code setKey},
 * {@code setKeepTtl}, {@code add}, {@code delete} of a present key, {@code setExpire},
 * {@code persist} that removed a TTL, expiry (lazy or active), and
 * {@link Database#signalModifiedKey}, which code that changes a stored value in place (a hash
 * field, a list element) must call, because the database cannot see such a change. Calls that
 * change nothing (deleting an absent key) are not reported.
 *
 * <p><b>Threading and re-entrance.</b> Called on the command loop thread, synchronously, inside
 * the database operation. A listener may read the database with the raw, expiry-free accessors
 * ({@link Database#hasEntry}, {@link Database#isExpired}) but must not modify it, nor keep or
 * modify {@code key}. Cost: one interface call per write; a listener with nothing to do should
 * return after an O(1) check.
 */
public interface KeyspaceListener {
    /** Ignores everything. */
    KeyspaceListener NONE = new KeyspaceListener() {
        @Override
        public void keyModified(Database db, byte[] key) {
        }

        @Override
        public void beforeFlush(Database db) {
        }

        @Override
        public void beforeSwap(Database db, Database other) {
        }
    };

    /** {@code key} in {@code db} was written, deleted, expired or had its TTL changed. */
    void keyModified(Database db, byte[] key);

    /** {@code db} is about to lose every key ({@link Database#flush}); its keys are still readable. */
    void beforeFlush(Database db);

    /**
     * {@code db} and {@code other} are about to exchange their contents ({@link Database#swapWith});
     * both still hold their own keys. Called once per swap, on the database {@code swapWith} was
     * called on; each database's listener is told (once each) when both have one.
     */
    void beforeSwap(Database db, Database other);
}
