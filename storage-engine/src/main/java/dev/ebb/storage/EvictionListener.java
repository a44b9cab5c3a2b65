package dev.ebb.storage;

/** Told about each key {@link Evictor} removes (keyspace notification {@code evicted}). Loop thread only. */
@FunctionalInterface
public interface EvictionListener {
    /** Does nothing. */
    EvictionListener NONE = (db, key) -> { };

    /** {@code key} (the stored instance, already removed) was evicted from {@code db}. */
    void evicted(Database db, byte[] key);

    /** As {@link #evicted(Database, byte[])}, with the evicted value; the evictor calls this one. */
    default void evicted(Database db, byte[] key, Object value) {
        evicted(db, key);
    }
}
