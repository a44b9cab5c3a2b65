package dev.ebb.storage;

/**
 * Told about every key a {@link Database} removes because its time to live passed, whether found
 * by a lookup (lazy expiry) or by the active expire cycle. Keyspace notifications ("expired") and
 * replication of the implied DEL build on it. Called on the command loop thread, after the key is
 * gone from the database; it may read the database but must not modify it or {@code key}.
 */
@FunctionalInterface
public interface ExpiryListener {
    /** Ignores every expiry. */
    ExpiryListener NONE = (db, key) -> { };

    void expired(Database db, byte[] key);

    /**
     * As {@link #expired(Database, byte[])}, with the value the key held (for listeners that
     * account for what was freed); the database calls this one. By default forwards without it.
     */
    default void expired(Database db, byte[] key, Object value) {
        expired(db, key);
    }
}
