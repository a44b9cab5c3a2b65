package dev.ebb.server.persistence;

import dev.ebb.server.config.MaxmemoryPolicy;
import dev.ebb.storage.Database;
import dev.ebb.storage.Dict;
import dev.ebb.storage.LfuCounter;
import dev.ebb.storage.rdb.RdbWriter;
import java.io.IOException;

/**
 * Writes the keys of a snapshot to an {@link RdbWriter}: a SELECTDB (with RESIZEDB) whenever the
 * database changes from the previous key's, then the key with its expiry and, as Redis's
 * rdbSaveKeyValuePair, its LRU idle time under an LRU {@code maxmemory-policy} or its LFU counter
 * under an LFU one. A snapshot taken while the loop writes hands keys over in database order only
 * until a write takes an early one from another database, so a file may select a database more than
 * once; Redis's loader accepts that (each SELECTDB just switches).
 *
 * <p>Used by one thread at a time: the loop for SAVE, the save thread for BGSAVE.
 */
final class EntryWriter {
    /** What a key's 24-bit meta means when saved: nothing, an LRU clock, or an LFU counter. */
    enum AccessInfo { NONE, LRU_IDLE, LFU_FREQ }

    private final RdbWriter writer;
    private final long[] sizes;
    private final long[] expires;
    private int currentDb = -1;
    private long keys;

    EntryWriter(RdbWriter writer, long[] sizes, long[] expires) {
        this.writer = writer;
        this.sizes = sizes;
        this.expires = expires;
    }

    static AccessInfo accessInfo(MaxmemoryPolicy policy) {
        return switch (policy) {
            case VOLATILE_LRU, ALLKEYS_LRU -> AccessInfo.LRU_IDLE;
            case VOLATILE_LFU, ALLKEYS_LFU -> AccessInfo.LFU_FREQ;
            default -> AccessInfo.NONE;
        };
    }

    /** The idle seconds Redis would save for a key whose meta is {@code meta}, or -1. */
    static long idleSeconds(AccessInfo info, int meta, long nowMs) {
        return info == AccessInfo.LRU_IDLE ? (Database.lruClock(nowMs) - meta) & Dict.META_MASK : -1;
    }

    /** The LFU counter Redis would save (after decay), or -1. */
    static int frequency(AccessInfo info, int meta, long nowMs, int decayMinutes) {
        return info == AccessInfo.LFU_FREQ ? LfuCounter.decayed(meta, nowMs, decayMinutes) : -1;
    }

    void write(int db, byte[] key, Object value, long expireAtMs, long idleSeconds, int freq) throws IOException {
        if (db != currentDb) {
            writer.selectDb(db, sizes[db], expires[db]);
            currentDb = db;
        }
        writer.entry(key, value, expireAtMs == Database.NO_EXPIRE ? -1 : expireAtMs, idleSeconds, freq);
        keys++;
    }

    long keys() {
        return keys;
    }
}
