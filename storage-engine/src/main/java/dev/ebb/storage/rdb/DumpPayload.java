package dev.ebb.storage.rdb;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * DUMP's serialized value, byte-compatible with Redis's createDumpPayload / verifyDumpPayload:
 *
 * <pre>
 *   type (1 byte)  value (RDB encoding)  RDB version (2 bytes LE)  CRC-64 of all before (8 bytes LE)
 * </pre>
 *
 * {@link #create} writes version 11 (12 for a hash with field TTLs, as Redis 7.4) with
 * {@code rdbcompression} as given; {@link #parse} accepts any version up to 12 and always checks the CRC. Stateless and thread-safe.
 */
public final class DumpPayload {
    private static final int FOOTER_LENGTH = 10;

    private DumpPayload() {
    }

    /**
     * The payload of {@code value} (a {@code byte[]} string or one of Ebb's value types). O(size of
     * the value). Hash fields expired before {@code nowMs} are left out.
     *
     * @throws IllegalArgumentException if the value's class has no RDB encoding
     */
    public static byte[] create(Object value, boolean compression, long nowMs) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            RdbOutput out = new RdbOutput(bytes, compression);
            new ValueWriter(out, nowMs).write(value);
            int type = ValueWriter.typeOf(value);
            boolean fieldTtls = type == RdbConstants.TYPE_HASH_LISTPACK_EX || type == RdbConstants.TYPE_HASH_METADATA;
            out.writeByte(RdbWriter.versionFor(fieldTtls));
            out.writeByte(0);
            out.writeLe(out.crc(), 8);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * verifyDumpPayload: at least 10 bytes, an RDB version Ebb reads, a matching CRC-64.
     */
    public static boolean verify(byte[] payload) {
        if (payload.length < FOOTER_LENGTH) {
            return false;
        }
        int footer = payload.length - FOOTER_LENGTH;
        int version = (payload[footer] & 0xFF) | (payload[footer + 1] & 0xFF) << 8;
        if (version > RdbConstants.VERSION_FIELD_TTLS) {
            return false;
        }
        long crc = Crc64.update(0, payload, 0, payload.length - 8);
        long stored = 0;
        for (int i = 7; i >= 0; i--) {
            stored = (stored << 8) | (payload[payload.length - 8 + i] & 0xFF);
        }
        return crc == stored;
    }

    /**
     * The value of a payload that {@link #verify} accepted, encoded for {@code limits}. Read as
     * Redis's restoreCommand reads it, from a buffer holding the whole payload: a corrupt body whose
     * last string runs into the 10 footer bytes is read with them, and bytes left unread are ignored.
     *
     * Hash fields expired before {@code nowMs} are dropped.
     *
     * @throws RdbException if the body is not a valid value of a type Ebb loads (RESTORE's "Bad
     *     data format"), including an empty collection
     */
    public static Object parse(byte[] payload, RdbLimits limits, long nowMs) throws RdbException {
        // As Redis, the reader sees the whole payload: a value may run into the footer's bytes.
        RdbInput in = RdbInput.of(payload, payload.length);
        try {
            int type = in.readByte();
            if (!RdbConstants.isValueType(type) || type == RdbConstants.TYPE_MODULE_2
                    || type == RdbConstants.TYPE_MODULE_PRE_GA) {
                throw new RdbException("DUMP payload of unsupported type " + type);
            }
            Object value = new ValueReader(in, limits, nowMs).read(type);
            if (value == null) {
                throw new RdbException("DUMP payload of an empty value");
            }
            return value;
        } catch (RdbException e) {
            throw e;
        } catch (IOException e) {
            throw new RdbException(e.getMessage(), e);
        }
    }
}
