package dev.ebb.storage.rdb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads an RDB file of versions 1 to 11 and reports its contents to an {@link RdbVisitor}, as Redis
 * 7.2's rdbLoadRio: the "REDISnnnn" magic, then opcodes (AUX, SELECTDB, RESIZEDB, EXPIRETIME,
 * EXPIRETIME_MS, IDLE, FREQ, FUNCTION2) and keys until EOF, then, from version 5, the CRC-64 of
 * everything before it, verified unless it is 0 ("saved with checksum disabled") or verification is
 * off ({@code rdbchecksum no}).
 *
 * <p>Streaming: memory is bounded by the largest single value. Failures are {@link RdbException}s
 * with Redis's texts; what was reported before a failure must be thrown away by the caller. Keys of
 * empty collections are skipped as Redis skips them. Module values, module AUX data and pre-GA
 * function libraries are refused with a clear message.
 *
 * <p>Reusable, not thread-safe.
 */
public final class RdbReader {
    private static final int MAGIC_LENGTH = 9;
    private static final int CHECKSUM_SINCE_VERSION = 5;

    private final RdbLimits limits;
    private final boolean verifyChecksum;
    private final long nowMs;

    public RdbReader(RdbLimits limits, boolean verifyChecksum) {
        this(limits, verifyChecksum, 0);
    }

    /** As above; hash fields whose expiry (unix ms) is before {@code nowMs} are dropped, as Redis 7.4 does. */
    public RdbReader(RdbLimits limits, boolean verifyChecksum, long nowMs) {
        this.limits = limits;
        this.verifyChecksum = verifyChecksum;
        this.nowMs = nowMs;
    }

    /**
     * Reads one RDB file from {@code in}. The stream may be read up to 64 KB past the end of the
     * RDB data (an AOF base file goes on after it): the returned count says where the RDB ended.
     *
     * @return the number of bytes of RDB data, checksum included
     * @throws RdbException if the data is truncated or corrupt
     */
    public long read(InputStream in, RdbVisitor visitor) throws IOException {
        RdbInput input = new RdbInput(in);
        int version = header(input);
        visitor.version(version);
        ValueReader values = new ValueReader(input, limits, nowMs);
        int db = 0;
        long expireAt = -1;
        long lruIdle = -1;
        int lfuFreq = -1;
        while (true) {
            int type = input.readByte();
            switch (type) {
                case RdbConstants.OPCODE_EXPIRETIME -> {
                    expireAt = input.readLe(4) * 1000;
                    continue;
                }
                case RdbConstants.OPCODE_EXPIRETIME_MS -> {
                    expireAt = input.readLe(8);
                    continue;
                }
                case RdbConstants.OPCODE_FREQ -> {
                    lfuFreq = input.readByte();
                    continue;
                }
                case RdbConstants.OPCODE_IDLE -> {
                    lruIdle = input.readLength();
                    continue;
                }
                case RdbConstants.OPCODE_EOF -> {
                    checksum(input, version);
                    return input.consumed();
                }
                case RdbConstants.OPCODE_SELECTDB -> {
                    long id = input.readLength();
                    if (id > Integer.MAX_VALUE) {
                        throw RdbException.corrupt(input.consumed(), "database number " + id);
                    }
                    db = (int) id;
                    visitor.selectDb(db);
                    continue;
                }
                case RdbConstants.OPCODE_RESIZEDB -> {
                    long size = input.readLength();
                    long expires = input.readLength();
                    visitor.resizeDb(size, expires);
                    continue;
                }
                case RdbConstants.OPCODE_AUX -> {
                    byte[] key = input.readString();
                    byte[] value = input.readString();
                    visitor.aux(key, value);
                    continue;
                }
                case RdbConstants.OPCODE_FUNCTION2 -> {
                    visitor.function(input.readString());
                    continue;
                }
                case RdbConstants.OPCODE_FUNCTION_PRE_GA ->
                        throw new RdbException("Pre-release function format not supported.");
                case RdbConstants.OPCODE_MODULE_AUX ->
                        throw new RdbException("The RDB file contains AUX module data I can't load: no matching module");
                default -> {
                }
            }
            if (!RdbConstants.isValueType(type)) {
                throw RdbException.corrupt(input.consumed(), "Unknown RDB encoding type " + type);
            }
            if (type == RdbConstants.TYPE_MODULE_2 || type == RdbConstants.TYPE_MODULE_PRE_GA) {
                throw new RdbException("The RDB file contains module data I can't load: no matching module type");
            }
            byte[] key = input.readString();
            Object value = values.read(type);
            if (value != null) {
                visitor.entry(db, key, value, expireAt, lruIdle, lfuFreq);
            }
            expireAt = -1;
            lruIdle = -1;
            lfuFreq = -1;
        }
    }

    private static int header(RdbInput input) throws IOException {
        byte[] magic = new byte[MAGIC_LENGTH];
        input.readFully(magic, 0, MAGIC_LENGTH);
        String text = new String(magic, StandardCharsets.US_ASCII);
        if (!text.startsWith("REDIS")) {
            throw new RdbException("Wrong signature trying to load DB from file");
        }
        int version;
        try {
            version = Integer.parseInt(text.substring(5));
        } catch (NumberFormatException e) {
            version = 0;
        }
        if (version < RdbConstants.MIN_VERSION || version > RdbConstants.VERSION_FIELD_TTLS) {
            throw new RdbException("Can't handle RDB format version " + version);
        }
        return version;
    }

    private void checksum(RdbInput input, int version) throws IOException {
        if (version < CHECKSUM_SINCE_VERSION) {
            return;
        }
        long expected = input.crc();
        long stored = input.readLe(8);
        if (verifyChecksum && stored != 0 && stored != expected) {
            throw new RdbException(String.format("Wrong RDB checksum expected: (%x) got (%x). Aborting now.",
                    expected, stored));
        }
    }
}
