package dev.ebb.storage.rdb;

import java.io.IOException;

/**
 * What {@link RdbReader} reports, in file order. Only {@link #entry} must be implemented. A
 * visitor may throw (an IOException, or an {@link RdbException} to refuse the file, e.g. a
 * database number past {@code databases}); the read stops there.
 *
 * <p>Loading must not half-apply a file: collect into fresh databases and swap them in only when
 * {@link RdbReader#read} returns. Called on the reading thread only.
 */
public interface RdbVisitor {
    /** The file's format version, before anything else. */
    default void version(int version) throws IOException {
    }

    /** An AUX field (redis-ver, ctime, repl-id, aof-base ...). */
    default void aux(byte[] key, byte[] value) throws IOException {
    }

    /** The following keys belong to database {@code db}. */
    default void selectDb(int db) throws IOException {
    }

    /** RESIZEDB's hint for the current database. */
    default void resizeDb(long size, long expires) throws IOException {
    }

    /**
     * One key. Keys whose expiry has passed are reported too: dropping them (or not, on a replica)
     * is the caller's decision, as it owns the clock.
     *
     * @param db the database of the last {@link #selectDb} (0 if none)
     * @param value a {@code byte[]} string or one of Ebb's value types, encoded for the reader's limits
     * @param expireAtMs absolute expiry in Unix milliseconds, or -1
     * @param lruIdleSeconds the LRU idle time the file recorded, or -1
     * @param lfuFreq the LFU counter the file recorded, or -1
     */
    void entry(int db, byte[] key, Object value, long expireAtMs, long lruIdleSeconds, int lfuFreq) throws IOException;

    /** A function library's code (FUNCTION2). */
    default void function(byte[] code) throws IOException {
    }
}
