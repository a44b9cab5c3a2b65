package dev.ebb.storage.types;

/**
 * Redis's string2ll for members: whether bytes are the canonical decimal form of a signed 64-bit
 * integer (optional '-', no '+', no leading zeros, no spaces), so that storing the number and
 * printing it back gives the same bytes. Stateless.
 */
public final class IntegerText {
    /** Returned by {@link #parse} for bytes that are not such an integer. */
    public static final long NOT_AN_INTEGER = Long.MIN_VALUE;

    private IntegerText() {
    }

    private static final byte[] MIN_VALUE_TEXT = bytes(Long.MIN_VALUE);

    /**
     * The integer, or {@link #NOT_AN_INTEGER}; {@link Long#MIN_VALUE} is an integer too, which
     * {@link #isInteger} tells apart.
     */
    public static long parse(byte[] b) {
        int n = b.length;
        if (n == 0 || n > 20) {
            return NOT_AN_INTEGER;
        }
        int i = 0;
        boolean negative = b[0] == '-';
        if (negative) {
            if (n == 1) {
                return NOT_AN_INTEGER;
            }
            i = 1;
        }
        if (b[i] == '0' && (n - i > 1 || negative)) {
            return NOT_AN_INTEGER;
        }
        long result = 0;
        for (; i < n; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9 || result < (Long.MIN_VALUE + d) / 10) {
                return NOT_AN_INTEGER;
            }
            result = result * 10 - d;
        }
        if (negative) {
            return result;
        }
        return result == Long.MIN_VALUE ? NOT_AN_INTEGER : -result;
    }

    /** Whether {@code parsed}, what {@link #parse} returned for {@code b}, is an integer. O(1) but for Long.MIN_VALUE. */
    public static boolean isInteger(long parsed, byte[] b) {
        return parsed != NOT_AN_INTEGER || java.util.Arrays.equals(b, MIN_VALUE_TEXT);
    }

    public static byte[] bytes(long value) {
        return Long.toString(value).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
