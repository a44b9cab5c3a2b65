package dev.ebb.server.command;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * The number type of INCRBYFLOAT. Redis computes it in C's {@code long double}, which on x86-64 is
 * the x87 80-bit extended format (64-bit significand, 15-bit exponent), and prints the result with
 * {@code %.17Lf} before trimming trailing zeros. Java has no such type, and doing the sum in
 * {@code double} changes what clients see (0.1 + 0.2 would print as 0.30000000000000004 where
 * Redis prints 0.3), so this class emulates the format in software:
 *
 * <ul>
 * <li>a finite value is sign x significand x 2^exponent, the significand at most 64 bits, the
 *     exponent at least {@link #MIN_EXPONENT} (subnormals included) and at most
 *     {@link #MAX_EXPONENT};
 * <li>{@link #parse} takes the exact rational value of the text (decimal, or C99 hexadecimal as
 *     strtold accepts it) and rounds it once, half to even, as glibc's strtold does; it rejects
 *     what Redis's string2ld rejects;
 * <li>{@link #plus} adds exactly and rounds once, as the FPU does in round-to-nearest mode;
 * <li>{@link #toHumanBytes} expands the binary value exactly in decimal and rounds it to 17
 *     places, half to even, as glibc's printf does, then trims as Redis's ld2string does.
 * </ul>
 *
 * <p>Costs: BigInteger arithmetic on at most a few thousand digits, which only extreme exponents
 * reach; everyday values take a few microseconds. INCRBYFLOAT is not a hot path. Instances are
 * immutable and thread-safe.
 */
final class LongDouble {
    /** Bits in the x87 extended significand (the integer bit is explicit). */
    static final int PRECISION = 64;
    /** Exponent of the least subnormal, 2^-16445 (about 3.6e-4951). */
    static final int MIN_EXPONENT = -16382 - (PRECISION - 1);
    /** Largest exponent of a finite value: the largest is (2^64 - 1) x 2^16320, just below 2^16384. */
    static final int MAX_EXPONENT = 16384 - PRECISION;
    /**
     * Redis copies the text into a buffer of this many bytes (MAX_LONG_DOUBLE_CHARS) before
     * strtold; longer texts are not floats to it.
     */
    static final int MAX_TEXT_LENGTH = 5 * 1024 - 1;
    /** Digits after the point of {@code %.17Lf}. */
    private static final int HUMAN_DECIMALS = 17;
    /**
     * Decimal magnitudes beyond these are overflow and underflow for certain (the format spans
     * about 3.6e-4951 .. 1.2e4932), so parsing rejects them before building huge powers of ten.
     */
    private static final long DECIMAL_OVERFLOW = 4940;
    private static final long DECIMAL_UNDERFLOW = -4960;
    private static final BigInteger FIVE = BigInteger.valueOf(5);

    static final LongDouble ZERO = new LongDouble(false, BigInteger.ZERO, 0, true);
    /** Infinity or NaN: every non-finite value, which INCRBYFLOAT only needs to reject. */
    private static final LongDouble NOT_FINITE = new LongDouble(false, BigInteger.ZERO, 0, false);

    private final boolean negative;
    private final BigInteger significand;
    private final int exponent;
    private final boolean finite;

    private LongDouble(boolean negative, BigInteger significand, int exponent, boolean finite) {
        this.negative = negative;
        this.significand = significand;
        this.exponent = exponent;
        this.finite = finite;
    }

    boolean isFinite() {
        return finite;
    }

    /**
     * The value of {@code text} as Redis's string2ld reads it, or null if it is not a float to
     * Redis: empty or longer than {@link #MAX_TEXT_LENGTH}, leading white space, anything strtold
     * does not consume, NaN, overflow, or a non-zero number that underflows to zero. Infinity
     * ("inf", "infinity", any case, signed) is accepted.
     */
    static LongDouble parse(byte[] text) {
        int n = text.length;
        if (n == 0 || n > MAX_TEXT_LENGTH) {
            return null;
        }
        int i = 0;
        boolean negative = false;
        if (text[0] == '+' || text[0] == '-') {
            negative = text[0] == '-';
            i = 1;
        }
        if (isWord(text, i, "inf") || isWord(text, i, "infinity")) {
            return NOT_FINITE;
        }
        if (n - i > 2 && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
            return parseHex(text, i + 2, negative);
        }
        return parseDecimal(text, i, negative);
    }

    /** {@code [digits][.digits][(e|E)[sign]digits]} with at least one mantissa digit. */
    private static LongDouble parseDecimal(byte[] text, int from, boolean negative) {
        StringBuilder digits = new StringBuilder(text.length);
        int i = from;
        int fractionDigits = 0;
        boolean point = false;
        for (; i < text.length; i++) {
            byte b = text[i];
            if (b >= '0' && b <= '9') {
                digits.append((char) b);
                fractionDigits += point ? 1 : 0;
            } else if (b == '.' && !point) {
                point = true;
            } else {
                break;
            }
        }
        if (digits.length() == 0) {
            return null;
        }
        long exponent10 = 0;
        if (i < text.length) {
            if (text[i] != 'e' && text[i] != 'E') {
                return null;
            }
            exponent10 = exponentOrInvalid(text, i + 1);
            if (exponent10 == Long.MIN_VALUE) {
                return null;
            }
        }
        BigInteger mantissa = new BigInteger(digits.toString());
        if (mantissa.signum() == 0) {
            return ZERO;
        }
        long scale10 = exponent10 - fractionDigits;
        long magnitude = mantissa.toString().length() + scale10;
        if (magnitude > DECIMAL_OVERFLOW || magnitude < DECIMAL_UNDERFLOW) {
            return null;
        }
        LongDouble v = scale10 >= 0
                ? round(negative, mantissa.multiply(BigInteger.TEN.pow((int) scale10)), BigInteger.ONE, 0)
                : round(negative, mantissa, BigInteger.TEN.pow((int) -scale10), 0);
        return v.finite && v.significand.signum() != 0 ? v : null;
    }

    /** After {@code 0x}: {@code [hexdigits][.hexdigits][(p|P)[sign]digits]}, at least one hex digit. */
    private static LongDouble parseHex(byte[] text, int from, boolean negative) {
        BigInteger mantissa = BigInteger.ZERO;
        int i = from;
        int fractionDigits = 0;
        int digitCount = 0;
        boolean point = false;
        for (; i < text.length; i++) {
            int d = Character.digit(text[i], 16);
            if (d >= 0) {
                mantissa = mantissa.shiftLeft(4).or(BigInteger.valueOf(d));
                digitCount++;
                fractionDigits += point ? 1 : 0;
            } else if (text[i] == '.' && !point) {
                point = true;
            } else {
                break;
            }
        }
        if (digitCount == 0) {
            return null;
        }
        long exponent2 = 0;
        if (i < text.length) {
            if (text[i] != 'p' && text[i] != 'P') {
                return null;
            }
            exponent2 = exponentOrInvalid(text, i + 1);
            if (exponent2 == Long.MIN_VALUE) {
                return null;
            }
        }
        if (mantissa.signum() == 0) {
            return ZERO;
        }
        long scale2 = exponent2 - 4L * fractionDigits;
        long magnitude = mantissa.bitLength() + scale2;
        if (magnitude > MAX_EXPONENT + PRECISION + 1 || magnitude < MIN_EXPONENT - 2) {
            return null;
        }
        LongDouble v = round(negative, mantissa, BigInteger.ONE, scale2);
        return v.finite && v.significand.signum() != 0 ? v : null;
    }

    /**
     * A signed decimal exponent running to the end of {@code text}, saturated far beyond any
     * meaningful range; {@link Long#MIN_VALUE} if there are no digits or other bytes follow.
     */
    private static long exponentOrInvalid(byte[] text, int from) {
        int i = from;
        boolean negative = false;
        if (i < text.length && (text[i] == '+' || text[i] == '-')) {
            negative = text[i] == '-';
            i++;
        }
        if (i == text.length) {
            return Long.MIN_VALUE;
        }
        long value = 0;
        for (; i < text.length; i++) {
            int d = text[i] - '0';
            if (d < 0 || d > 9) {
                return Long.MIN_VALUE;
            }
            value = Math.min(value * 10 + d, 1_000_000_000L);
        }
        return negative ? -value : value;
    }

    private static boolean isWord(byte[] text, int from, String lowerWord) {
        if (text.length - from != lowerWord.length()) {
            return false;
        }
        for (int i = 0; i < lowerWord.length(); i++) {
            int b = text[from + i];
            if (b >= 'A' && b <= 'Z') {
                b += 'a' - 'A';
            }
            if (b != lowerWord.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The extended value equal to {@code d} (every double is one exactly, as C's conversion to
     * long double): how Redis's addReplyHumanLongDouble prints geo coordinates.
     */
    static LongDouble of(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return NOT_FINITE;
        }
        if (d == 0) {
            return ZERO;
        }
        long bits = Double.doubleToRawLongBits(d);
        long fraction = bits & ((1L << 52) - 1);
        int biased = (int) ((bits >>> 52) & 0x7FF);
        long significand = biased == 0 ? fraction : fraction | (1L << 52);
        int exponent = biased == 0 ? -1074 : biased - 1075;
        return new LongDouble(d < 0, BigInteger.valueOf(significand), exponent, true);
    }

    /** This plus {@code other}, rounded once; not finite when either is or the sum overflows. */
    LongDouble plus(LongDouble other) {
        if (!finite || !other.finite) {
            return NOT_FINITE;
        }
        if (significand.signum() == 0) {
            return other;
        }
        if (other.significand.signum() == 0) {
            return this;
        }
        int common = Math.min(exponent, other.exponent);
        BigInteger a = signed(significand.shiftLeft(exponent - common), negative);
        BigInteger b = signed(other.significand.shiftLeft(other.exponent - common), other.negative);
        BigInteger sum = a.add(b);
        if (sum.signum() == 0) {
            return ZERO;
        }
        return round(sum.signum() < 0, sum.abs(), BigInteger.ONE, common);
    }

    private static BigInteger signed(BigInteger magnitude, boolean negative) {
        return negative ? magnitude.negate() : magnitude;
    }

    /**
     * The extended value nearest to {@code num / den x 2^scale2} (num, den positive), ties to
     * even; zero when it underflows, not finite when it overflows.
     */
    private static LongDouble round(boolean negative, BigInteger num, BigInteger den, long scale2) {
        long shift = (long) num.bitLength() - den.bitLength() - PRECISION;
        BigInteger[] qr = divideScaled(num, den, shift);
        if (qr[0].bitLength() > PRECISION) {
            shift++;
            qr = divideScaled(num, den, shift);
        }
        long exponent = shift + scale2;
        if (exponent < MIN_EXPONENT) {
            shift += MIN_EXPONENT - exponent;
            exponent = MIN_EXPONENT;
            qr = divideScaled(num, den, shift);
        }
        BigInteger q = qr[0];
        int half = qr[1].shiftLeft(1).compareTo(shift >= 0 ? den.shiftLeft((int) shift) : den);
        if (half > 0 || (half == 0 && q.testBit(0))) {
            q = q.add(BigInteger.ONE);
            if (q.bitLength() > PRECISION) {
                q = q.shiftRight(1);
                exponent++;
            }
        }
        if (exponent > MAX_EXPONENT) {
            return NOT_FINITE;
        }
        return q.signum() == 0 ? ZERO : new LongDouble(negative, q, (int) exponent, true);
    }

    /** Quotient and remainder of {@code num / (den x 2^shift)}, the remainder over that divisor. */
    private static BigInteger[] divideScaled(BigInteger num, BigInteger den, long shift) {
        return shift >= 0
                ? num.divideAndRemainder(den.shiftLeft((int) shift))
                : num.shiftLeft((int) -shift).divideAndRemainder(den);
    }

    /**
     * The text Redis stores and replies for this (finite) value: {@code %.17Lf}, trailing zeros
     * and a trailing point removed, and "-0" written as "0". For example 10.5, 5000, 0.3.
     */
    byte[] toHumanBytes() {
        if (!finite) {
            throw new IllegalStateException("not a finite value: " + this);
        }
        BigDecimal exact = exponent >= 0
                ? new BigDecimal(significand.shiftLeft(exponent))
                : new BigDecimal(significand.multiply(FIVE.pow(-exponent)), -exponent);
        String text = (negative ? exact.negate() : exact)
                .setScale(HUMAN_DECIMALS, RoundingMode.HALF_EVEN).toPlainString();
        int end = text.length();
        while (text.charAt(end - 1) == '0') {
            end--;
        }
        if (text.charAt(end - 1) == '.') {
            end--;
        }
        String trimmed = text.substring(0, end);
        return (trimmed.equals("-0") ? "0" : trimmed).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return finite ? (negative ? "-" : "") + significand + "*2^" + exponent : "not finite";
    }
}
