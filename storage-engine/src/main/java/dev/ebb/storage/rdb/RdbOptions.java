package dev.ebb.storage.rdb;

/**
 * How values are written: {@code rdbcompression} (LZF for strings over 20 bytes that shrink by at
 * least 4) and {@code rdbchecksum} (the CRC-64 footer of a file; 8 zero bytes when off, which
 * readers take as "not computed"). DUMP payloads always carry their checksum. Immutable.
 */
public record RdbOptions(boolean compression, boolean checksum) {
    /** Redis's defaults: both on. */
    public static final RdbOptions DEFAULTS = new RdbOptions(true, true);
}
