package dev.ebb.storage.rdb;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes an RDB file, version 11 (12 with field TTLs, {@link #versionFor}), as Redis 7.2's rdbSaveRio lays it out, streaming and computing
 * the CRC-64 as it goes:
 *
 * <pre>
 *   "REDIS0011"  {AUX key value}*            {@link #header}
 *   SELECTDB n  RESIZEDB size expires        {@link #selectDb}, once per non-empty database
 *   [EXPIRETIME_MS t] [IDLE s | FREQ f] type key value   {@link #entry}, per key
 *   FUNCTION2 code                           {@link #function}, per function library
 *   EOF  crc64 (8 bytes LE; zeros with rdbchecksum off)  {@link #finish}
 * </pre>
 *
 * Usage: {@code header}, then any of {@code selectDb}/{@code entry}/{@code function}, then
 * {@code finish} once. Redis writes function libraries before the databases; either order loads.
 * The stream is flushed by {@link #finish} but not closed (the caller owns it and its fsync).
 *
 * <p>Not thread-safe: one writer per file, used by one thread (a snapshot thread may own it while
 * the command loop runs, provided the values it is handed are not mutated meanwhile).
 */
public final class RdbWriter {
    private final RdbOutput out;
    private final ValueWriter values;
    private final RdbOptions options;
    private boolean finished;

    public RdbWriter(OutputStream out, RdbOptions options) {
        this(out, options, 0);
    }

    /** As above; hash fields whose expiry is before {@code nowMs} (unix ms) are left out. */
    public RdbWriter(OutputStream out, RdbOptions options, long nowMs) {
        this.out = new RdbOutput(out, options.compression());
        this.values = new ValueWriter(this.out, nowMs);
        this.options = options;
    }

    /**
     * The header version for a file: {@link RdbConstants#VERSION_FIELD_TTLS} (12, as Redis 7.4) if
     * it holds a hash with field TTLs, else {@link RdbConstants#VERSION} (11) so that Redis 7.2
     * loads it.
     */
    public static int versionFor(boolean fieldTtls) {
        return fieldTtls ? RdbConstants.VERSION_FIELD_TTLS : RdbConstants.VERSION;
    }

    /**
     * The magic with the version, then one AUX field per map entry, in the map's iteration order
     * (Redis writes redis-ver, redis-bits, ctime, used-mem, repl-stream-db, repl-id, repl-offset,
     * aof-base). Values that read as integers are stored integer-encoded, as Redis's
     * rdbSaveAuxFieldStrInt does.
     */
    public void header(Map<String, byte[]> aux) throws IOException {
        header(aux, RdbConstants.VERSION);
    }

    /** As {@link #header(Map)} with the given version in the magic ({@link #versionFor}). */
    public void header(Map<String, byte[]> aux, int version) throws IOException {
        byte[] magic = String.format("REDIS%04d", version).getBytes(StandardCharsets.US_ASCII);
        out.writeBytes(magic, 0, magic.length);
        for (Map.Entry<String, byte[]> e : aux.entrySet()) {
            aux(e.getKey(), e.getValue());
        }
    }

    /** One AUX field (opcode 250, key, value). */
    public void aux(String key, byte[] value) throws IOException {
        out.writeByte(RdbConstants.OPCODE_AUX);
        out.writeString(key.getBytes(StandardCharsets.US_ASCII));
        out.writeString(value);
    }

    /** Starts database {@code db}: SELECTDB, then RESIZEDB with its key and volatile-key counts. */
    public void selectDb(int db, long size, long expires) throws IOException {
        out.writeByte(RdbConstants.OPCODE_SELECTDB);
        out.writeLength(db);
        out.writeByte(RdbConstants.OPCODE_RESIZEDB);
        out.writeLength(size);
        out.writeLength(expires);
    }

    /** A key with no expiry and no LRU/LFU information. */
    public void entry(byte[] key, Object value) throws IOException {
        entry(key, value, -1, -1, -1);
    }

    /**
     * A key and its value (a {@code byte[]} string or one of Ebb's value types), as
     * rdbSaveKeyValuePair: the expiry if {@code expireAtMs >= 0}, the LRU idle time in seconds if
     * {@code lruIdleSeconds >= 0} (maxmemory-policy an LRU one), else the LFU counter if
     * {@code lfuFreq >= 0} (an LFU policy), then the type, the key and the value.
     *
     * @throws IllegalArgumentException if the value's class has no RDB encoding
     */
    public void entry(byte[] key, Object value, long expireAtMs, long lruIdleSeconds, int lfuFreq) throws IOException {
        if (expireAtMs >= 0) {
            out.writeByte(RdbConstants.OPCODE_EXPIRETIME_MS);
            out.writeMillis(expireAtMs);
        }
        if (lruIdleSeconds >= 0) {
            out.writeByte(RdbConstants.OPCODE_IDLE);
            out.writeLength(lruIdleSeconds);
        } else if (lfuFreq >= 0) {
            out.writeByte(RdbConstants.OPCODE_FREQ);
            out.writeByte(lfuFreq & 0xFF);
        }
        int type = ValueWriter.typeOf(value);
        out.writeByte(type);
        out.writeString(key);
        values.writeBody(type, value);
    }

    /** A function library's code (FUNCTION2, the Lua source with its shebang line). */
    public void function(byte[] code) throws IOException {
        out.writeByte(RdbConstants.OPCODE_FUNCTION2);
        out.writeString(code);
    }

    /** EOF and the checksum; flushes the stream. Call once. */
    public void finish() throws IOException {
        if (finished) {
            throw new IllegalStateException("RDB writer already finished");
        }
        finished = true;
        out.writeByte(RdbConstants.OPCODE_EOF);
        out.writeLe(options.checksum() ? out.crc() : 0, 8);
        out.flush();
    }

    /** Bytes written so far, the header included. */
    public long bytesWritten() {
        return out.written();
    }
}
