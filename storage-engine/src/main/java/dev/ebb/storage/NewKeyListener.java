package dev.ebb.storage;

/**
 * Told about every key a {@link Database} inserts where none was (Redis's dbAdd), whatever command
 * caused it; the "new" keyspace notification builds on it. Called on the command loop thread after
 * the key is stored; it may read the database but must not modify it or {@code key}.
 */
@FunctionalInterface
public interface NewKeyListener {
    /** Ignores every insertion. */
    NewKeyListener NONE = (db, key) -> { };

    void added(Database db, byte[] key);
}
