package dev.ebb.storage;

import java.util.List;

/**
 * Told when a {@link Database} removes hash fields whose time to live passed, lazily (a hash
 * command touched the hash) or by the active expire cycle: keyspace notifications ("hexpired",
 * then "del" when the hash went with its last field) and the replication of the implied HDELs
 * build on it. Called on the command loop thread after the fields (and, if {@code keyDeleted},
 * the key) are gone; it may read the database but must not modify it or {@code key}.
 */
@FunctionalInterface
public interface FieldExpiryListener {
    /** Ignores every field expiry. */
    FieldExpiryListener NONE = (db, key, fields, keyDeleted) -> { };

    /**
     * @param fields the fields of the hash at {@code key} that were removed, at least 1
     * @param keyDeleted whether the hash was left empty and deleted
     */
    void fieldsExpired(Database db, byte[] key, List<byte[]> fields, boolean keyDeleted);
}
