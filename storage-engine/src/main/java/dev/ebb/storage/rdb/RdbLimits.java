package dev.ebb.storage.rdb;

/**
 * The encoding thresholds a loaded value is held under, named as Redis's directives: a value read
 * from a file or a DUMP payload gets the encoding Ebb (and Redis) would give the same content under
 * these limits, whatever encoding the file had. Immutable; thread-safe.
 *
 * @param listMaxListpackSize {@code list-max-listpack-size} (the quicklist fill: negative a size class, positive a count)
 * @param listCompressDepth {@code list-compress-depth} (quicklist nodes left raw at each end; 0 compresses none)
 */
public record RdbLimits(long hashMaxListpackEntries, long hashMaxListpackValue, long setMaxIntsetEntries,
        long setMaxListpackEntries, long setMaxListpackValue, long zsetMaxListpackEntries,
        long zsetMaxListpackValue, int listMaxListpackSize, int listCompressDepth) {

    /** Redis 7.2's defaults: 128/64, 512, 128/64, 128/64, -2, 0. */
    public static final RdbLimits DEFAULTS = new RdbLimits(128, 64, 512, 128, 64, 128, 64, -2, 0);
}
