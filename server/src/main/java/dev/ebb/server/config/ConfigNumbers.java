package dev.ebb.server.config;

/**
 * Number syntaxes of redis.conf values. Stateless and thread-safe.
 */
final class ConfigNumbers {
    private static final long KB = 1024L;
    private static final long MB = 1024L * 1024;
    private static final long GB = 1024L * 1024 * 1024;

    private ConfigNumbers() {
    }

    /**
     * Parses a strict decimal integer as Redis's {@code string2ll} does: optional '-', no '+', no blanks, no leading
     * zeros (except "0" itself), no overflow.
     *
     * @return the value, or {@code null} if {@code text} is not such an integer
     */
    static Long parseStrictLong(String text) {
        final int len = text.length();
        if (len == 0) {
            return null;
        }
        if (len == 1 && text.charAt(0) == '0') {
            return 0L;
        }
        int i = 0;
        boolean negative = text.charAt(0) == '-';
        if (negative) {
            i++;
            if (i == len) {
                return null;
            }
        }
        char first = text.charAt(i);
        if (first < '1' || first > '9') {
            return null;
        }
        long magnitude = 0;
        for (; i < len; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            int digit = c - '0';
            // Accumulate negatively so that Long.MIN_VALUE is reachable.
            if (magnitude < (Long.MIN_VALUE + digit) / 10) {
                return null;
            }
            magnitude = magnitude * 10 - digit;
        }
        if (negative) {
            return magnitude;
        }
        return magnitude == Long.MIN_VALUE ? null : -magnitude;
    }

    /**
     * Parses a memory amount as Redis's {@code memtoull}: digits followed by an optional unit, case-insensitive:
     * {@code b} (1), {@code k} (1000), {@code kb} (1024), {@code m} (10^6), {@code mb} (2^20), {@code g} (10^9),
     * {@code gb} (2^30). Leading zeros are fine; a sign, blanks, fractions and other units are not. As in Redis a unit
     * with no digits ({@code "kb"}) and the empty string read as 0.
     *
     * @return the number of bytes, or {@code null} if {@code text} is not a memory value or does not fit a
     *     signed 64-bit long (Redis would take up to 2^64-1; Ebb keeps byte counts in {@code long})
     */
    static Long parseMemory(String text) {
        int digitsEnd = 0;
        while (digitsEnd < text.length() && text.charAt(digitsEnd) >= '0' && text.charAt(digitsEnd) <= '9') {
            digitsEnd++;
        }
        long multiplier = unitMultiplier(text.substring(digitsEnd));
        if (multiplier < 0) {
            return null;
        }
        long value = 0;
        for (int i = 0; i < digitsEnd; i++) {
            int digit = text.charAt(i) - '0';
            if (value > (Long.MAX_VALUE - digit) / 10) {
                return null;
            }
            value = value * 10 + digit;
        }
        if (value > Long.MAX_VALUE / multiplier) {
            return null;
        }
        return value * multiplier;
    }

    private static long unitMultiplier(String unit) {
        switch (unit.toLowerCase(java.util.Locale.ROOT)) {
            case "":
            case "b":
                return 1;
            case "k":
                return 1000;
            case "kb":
                return KB;
            case "m":
                return 1000L * 1000;
            case "mb":
                return MB;
            case "g":
                return 1000L * 1000 * 1000;
            case "gb":
                return GB;
            default:
                return -1;
        }
    }

    /** Writes a byte count for CONFIG REWRITE with the largest binary unit that divides it: 1gb, 512mb, 64kb, 1000. */
    static String formatMemory(long bytes) {
        if (bytes != 0 && bytes % GB == 0) {
            return bytes / GB + "gb";
        }
        if (bytes != 0 && bytes % MB == 0) {
            return bytes / MB + "mb";
        }
        if (bytes != 0 && bytes % KB == 0) {
            return bytes / KB + "kb";
        }
        return Long.toString(bytes);
    }
}
