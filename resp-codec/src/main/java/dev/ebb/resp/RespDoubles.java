package dev.ebb.resp;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * Formats doubles as Redis 7.2 does in replies ({@code addReplyDouble} / {@code d2string}).
 *
 * <h2>The text</h2>
 * <ul>
 *   <li>{@code nan}, {@code inf}, {@code -inf}, {@code 0} and {@code -0} are written as such.</li>
 *   <li>An integral value of magnitude at most 2^62 is written as an integer: {@code 3},
 *       {@code 100000000000000000}.</li>
 *   <li>Any other value uses the shortest decimal digits that parse back to the same double
 *       ({@code 0.1}, not {@code 0.10000000000000001}), placed as Redis's fpconv library does:
 *       plain decimals for moderate exponents ({@code 1.5}, {@code 0.000001},
 *       {@code 1.2345678901234567}), otherwise scientific notation with an unpadded, signed exponent
 *       ({@code 1.5e-7}, {@code 1e+20}, {@code 5e-324}); an integer above 2^62 with at most seven
 *       trailing zeros stays plain ({@code 9223372036854776000}).</li>
 * </ul>
 * Redis before 7.2 printed {@code %.17g} ({@code 0.10000000000000001}); clients parse both.
 * Redis 7.2 finds its digits with Grisu2, which for a small fraction of doubles emits a longer digit
 * string than the shortest one (still parsing back to the same double); Ebb always emits the
 * shortest, choosing the one nearest the exact value when two of that length parse back.
 *
 * <h2>Finding the shortest digits</h2>
 * Try ever more digits until a candidate parses back. For up to 15 significant digits and decimal
 * exponents within +-22 this needs no big numbers: the candidate {@code m * 10^k} (m below 2^53,
 * 10^|k| exact as a double) parses back to {@code m / 10^-k} or {@code m * 10^k} computed with one
 * correctly rounded IEEE operation, and 15-digit candidates are spaced wider than a double's rounding
 * interval, so at most one of them can parse back. That covers the values people type as scores.
 * Values needing 16 or 17 digits (results of arithmetic, such as 0.30000000000000004) and extreme
 * exponents fall back to {@link BigDecimal}: a few microseconds and some garbage per value.
 *
 * <p>Stateless and thread-safe.
 */
public final class RespDoubles {
    /**
     * Room for the longest text {@link #format(double, byte[])} writes: 25 characters, for a value
     * such as -12345678901234567e7 written plainly.
     */
    static final int MAX_TEXT_LENGTH = 32;
    /** Size of the scratch array {@link #format(double, byte[])} needs: text plus room for digits. */
    static final int SCRATCH_LENGTH = MAX_TEXT_LENGTH + 32;

    private static final int DIGITS_OFFSET = MAX_TEXT_LENGTH;
    private static final double TWO_POW_62 = 0x1p62;
    private static final double[] POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
    };
    private static final int FAST_PATH_MAX_DIGITS = 15;
    private static final long FAST_PATH_MAX_SIGNIFICAND = 999_999_999_999_999L;
    private static final int MAX_SIGNIFICANT_DIGITS = 17;

    private RespDoubles() {
    }

    /** The reply text of {@code d}; allocates the returned String. */
    public static String format(double d) {
        byte[] scratch = new byte[SCRATCH_LENGTH];
        int length = format(d, scratch);
        return new String(scratch, 0, length, StandardCharsets.US_ASCII);
    }

    /**
     * Writes the reply text of {@code d} as ASCII into {@code scratch[0, length)} and returns the
     * length. {@code scratch} needs {@link #SCRATCH_LENGTH} bytes; the bytes past the text are
     * clobbered. Allocates nothing unless 16-17 digits or an extreme exponent are needed.
     */
    static int format(double d, byte[] scratch) {
        if (Double.isNaN(d)) {
            return putAscii(scratch, 0, "nan");
        }
        if (Double.isInfinite(d)) {
            return putAscii(scratch, 0, d > 0 ? "inf" : "-inf");
        }
        if (d == 0) {
            return putAscii(scratch, 0, Double.doubleToRawLongBits(d) < 0 ? "-0" : "0");
        }
        if (d >= -TWO_POW_62 && d <= TWO_POW_62 && (long) d == d) {
            return putLong(scratch, 0, (long) d);
        }
        int pos = 0;
        double magnitude = d;
        if (d < 0) {
            scratch[pos++] = '-';
            magnitude = -d;
        }
        long packed = shortestDigits(magnitude, scratch);
        int digitCount = (int) packed;
        int exponent = (int) (packed >> 32);
        return pos + placeDigits(scratch, pos, digitCount, exponent);
    }

    /**
     * Writes the shortest significand of positive finite {@code v} into
     * {@code scratch[DIGITS_OFFSET, +count)} and returns {@code (exponent << 32) | count} with
     * {@code v ~ digits * 10^exponent}; the digits have no trailing zero.
     */
    private static long shortestDigits(double v, byte[] scratch) {
        // Start one power of ten above what log10 suggests, in case the logarithm rounded down.
        int exponent = (int) Math.floor(Math.log10(v)) + 1;
        for (; exponent >= -22; exponent--) {
            if (exponent > 22) {
                return shortestDigitsExact(v, 1, scratch);
            }
            double scaled = exponent < 0 ? v * POWERS_OF_TEN[-exponent] : v / POWERS_OF_TEN[exponent];
            long nearest = Math.round(scaled);
            if (nearest - 1 > FAST_PATH_MAX_SIGNIFICAND) {
                // Every candidate of up to 15 digits failed: the answer has 16 or 17.
                return shortestDigitsExact(v, FAST_PATH_MAX_DIGITS + 1, scratch);
            }
            long last = Math.min(nearest + 1, FAST_PATH_MAX_SIGNIFICAND);
            for (long candidate = Math.max(1, nearest - 1); candidate <= last; candidate++) {
                double back = exponent < 0
                    ? candidate / POWERS_OF_TEN[-exponent]
                    : candidate * POWERS_OF_TEN[exponent];
                if (back == v) {
                    return storeDigits(candidate, exponent, scratch);
                }
            }
        }
        return shortestDigitsExact(v, 1, scratch);
    }

    /**
     * The same search over exact decimal expansions, from {@code precision} significant digits up;
     * for 16-17 digits and exponents beyond +-22.
     */
    private static long shortestDigitsExact(double v, int precision, byte[] scratch) {
        BigDecimal exact = new BigDecimal(v);
        for (; precision <= MAX_SIGNIFICANT_DIGITS; precision++) {
            BigDecimal below = exact.round(new MathContext(precision, RoundingMode.FLOOR));
            BigDecimal above = exact.round(new MathContext(precision, RoundingMode.CEILING));
            boolean belowParsesBack = below.doubleValue() == v;
            boolean aboveParsesBack = above.doubleValue() == v;
            if (belowParsesBack || aboveParsesBack) {
                BigDecimal chosen;
                if (belowParsesBack && aboveParsesBack) {
                    int cmp = exact.subtract(below).compareTo(above.subtract(exact));
                    boolean belowEven = !below.unscaledValue().testBit(0);
                    chosen = cmp < 0 || (cmp == 0 && belowEven) ? below : above;
                } else {
                    chosen = belowParsesBack ? below : above;
                }
                return storeDigits(chosen.unscaledValue().longValueExact(), -chosen.scale(), scratch);
            }
        }
        throw new IllegalStateException("no decimal of at most 17 digits parses back to v=" + v);
    }

    private static long storeDigits(long significand, int exponent, byte[] scratch) {
        while (significand % 10 == 0) {
            significand /= 10;
            exponent++;
        }
        int count = putLong(scratch, DIGITS_OFFSET, significand);
        return ((long) exponent << 32) | count;
    }

    /**
     * Lays out {@code count} digits (at {@link #DIGITS_OFFSET}) times 10^exponent at {@code pos},
     * choosing plain or scientific notation by fpconv's rules; returns the length written.
     */
    private static int placeDigits(byte[] scratch, int pos, int count, int exponent) {
        int scientificExponent = exponent + count - 1;
        int magnitude = Math.abs(scientificExponent);
        if (exponent >= 0 && magnitude < count + 7) {
            System.arraycopy(scratch, DIGITS_OFFSET, scratch, pos, count);
            for (int i = 0; i < exponent; i++) {
                scratch[pos + count + i] = '0';
            }
            return count + exponent;
        }
        if (exponent < 0 && (exponent > -7 || magnitude < 4)) {
            int integerDigits = count + exponent;
            if (integerDigits <= 0) {
                int zeros = -integerDigits;
                scratch[pos] = '0';
                scratch[pos + 1] = '.';
                for (int i = 0; i < zeros; i++) {
                    scratch[pos + 2 + i] = '0';
                }
                System.arraycopy(scratch, DIGITS_OFFSET, scratch, pos + 2 + zeros, count);
                return 2 + zeros + count;
            }
            System.arraycopy(scratch, DIGITS_OFFSET, scratch, pos, integerDigits);
            scratch[pos + integerDigits] = '.';
            int fractionDigits = count - integerDigits;
            System.arraycopy(scratch, DIGITS_OFFSET + integerDigits, scratch, pos + integerDigits + 1, fractionDigits);
            return count + 1;
        }
        int at = pos;
        scratch[at++] = scratch[DIGITS_OFFSET];
        if (count > 1) {
            scratch[at++] = '.';
            System.arraycopy(scratch, DIGITS_OFFSET + 1, scratch, at, count - 1);
            at += count - 1;
        }
        scratch[at++] = 'e';
        scratch[at++] = (byte) (scientificExponent < 0 ? '-' : '+');
        at += putLong(scratch, at, magnitude);
        return at - pos;
    }

    private static int putAscii(byte[] dst, int pos, String s) {
        for (int i = 0; i < s.length(); i++) {
            dst[pos + i] = (byte) s.charAt(i);
        }
        return s.length();
    }

    /** Writes the decimal digits of {@code v} at {@code pos}; returns how many bytes. */
    static int putLong(byte[] dst, int pos, long v) {
        int length = RespWriter.decimalLength(v);
        int at = pos + length;
        // Work with the negative value so that Long.MIN_VALUE needs no special case.
        long negative = v < 0 ? v : -v;
        do {
            dst[--at] = (byte) ('0' - (negative % 10));
            negative /= 10;
        } while (negative != 0);
        if (v < 0) {
            dst[--at] = '-';
        }
        return length;
    }
}
