package dev.ebb.server.command;

import dev.ebb.server.Client;
import java.nio.charset.StandardCharsets;

/**
 * Argument parsing shared by the command families. The {@code ...OrReply} helpers reply with
 * Redis's error themselves and return a sentinel, so a command body stays a straight line:
 * <pre>{@code
 * long n = Arguments.longOrReply(c, argv[2]);
 * if (n == Arguments.INVALID) return;
 * }</pre>
 */
public final class Arguments {
    /** Returned by the {@code ...OrReply} parsers after they replied with an error. */
    public static final long INVALID = Long.MIN_VALUE;

    private Arguments() {
    }

    /**
     * Parses a signed 64-bit decimal exactly as Redis's string2ll: optional '-', digits, no leading
     * '+', no spaces, no leading zeros (except "0"), at most 20 bytes.
     *
     * @throws NumberFormatException if it is not such a number
     */
    public static long parseLong(byte[] b) {
        int n = b.length;
        if (n == 0 || n > 20) {
            throw new NumberFormatException();
        }
        int i = 0;
        boolean negative = false;
        if (b[0] == '-') {
            negative = true;
            i = 1;
            if (n == 1) {
                throw new NumberFormatException();
            }
        }
        if (b[i] == '0' && (n - i > 1 || negative)) {
            throw new NumberFormatException();
        }
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long result = 0;
        for (; i < n; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw new NumberFormatException();
            }
            if (result < (limit + d) / 10) {
                throw new NumberFormatException();
            }
            result = result * 10 - d;
        }
        return negative ? result : -result;
    }

    /** True when {@code b} is a number {@link #parseLong} accepts. */
    public static boolean isLong(byte[] b) {
        try {
            parseLong(b);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Whether the argument is a number {@link #parseLong} accepts, replying
     * {@code ERR value is not an integer or out of range} if not. For arguments where every long,
     * {@link Long#MIN_VALUE} included, is valid (which {@link #longOrReply}'s sentinel excludes):
     * <pre>{@code
     * if (!Arguments.isLongOrReply(c, argv[2])) return;
     * long start = Arguments.parseLong(argv[2]);
     * }</pre>
     */
    public static boolean isLongOrReply(Client c, byte[] arg) {
        if (isLong(arg)) {
            return true;
        }
        c.reply().error(Errors.NOT_INTEGER);
        return false;
    }

    /** The argument as a long, or {@link #INVALID} after replying {@code ERR value is not an integer or out of range}. */
    public static long longOrReply(Client c, byte[] arg) {
        return longOrReply(c, arg, Errors.NOT_INTEGER);
    }

    /** The argument as a long, or {@link #INVALID} after replying {@code error}. */
    public static long longOrReply(Client c, byte[] arg, String error) {
        try {
            long v = parseLong(arg);
            if (v != INVALID) {
                return v;
            }
        } catch (NumberFormatException e) {
            // fall through to the error reply
        }
        c.reply().error(error);
        return INVALID;
    }

    /**
     * The argument as an int (Redis's getIntFromObjectOrReply: database indexes …), or
     * {@link #INVALID} after replying {@code ERR value is not an integer or out of range} for a
     * non-number and {@code ERR value is out of range, value must between …} for a long outside
     * the int range.
     */
    public static long intOrReply(Client c, byte[] arg) {
        long v;
        try {
            v = parseLong(arg);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.NOT_INTEGER);
            return INVALID;
        }
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            c.reply().error(Errors.INT_OUT_OF_RANGE);
            return INVALID;
        }
        return v;
    }

    /**
     * Parses a SCAN cursor as Redis does (C's strtoul, base 10): an unsigned 64-bit decimal with an
     * optional sign, where a leading '-' negates modulo 2^64 ({@code -1} is 2^64-1); leading zeros
     * are fine; the empty string is 0; no leading space, no trailing bytes, no overflow. The result
     * is the 64-bit pattern as a long (values above {@link Long#MAX_VALUE} come out negative).
     *
     * @throws NumberFormatException if Redis would answer {@code ERR invalid cursor}
     */
    public static long parseCursor(byte[] b) {
        int n = b.length;
        int i = 0;
        boolean negative = false;
        if (n > 0 && (b[0] == '-' || b[0] == '+')) {
            negative = b[0] == '-';
            i = 1;
            if (n == 1) {
                throw new NumberFormatException();
            }
        }
        long result = 0;
        for (; i < n; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw new NumberFormatException();
            }
            // result * 10 + d must stay within 64 unsigned bits
            if (Long.compareUnsigned(result, Long.divideUnsigned(-1L - d, 10)) > 0) {
                throw new NumberFormatException();
            }
            result = result * 10 + d;
        }
        return negative ? -result : result;
    }

    /**
     * Parses a double as Redis's string2ld/strtod does for commands: decimal or exponent notation,
     * C99 hexadecimal floats ({@code 0x10}, {@code -0x1.8p3}), "inf"/"infinity" with an optional
     * sign in any case; no spaces, no NaN, not empty. Overflow gives an infinity and underflow zero,
     * as strtod's value does (callers that refuse those, as Redis's ERANGE checks do, check them).
     *
     * @throws NumberFormatException if it is not such a number
     */
    public static double parseDouble(byte[] b) {
        if (b.length == 0 || b.length > 5000) {
            throw new NumberFormatException();
        }
        double plain = plainInteger(b);
        if (!Double.isNaN(plain)) {
            return plain;
        }
        String s = new String(b, StandardCharsets.ISO_8859_1);
        char first = s.charAt(0);
        char last = s.charAt(s.length() - 1);
        if (Character.isWhitespace(first) || Character.isWhitespace(last)) {
            throw new NumberFormatException();
        }
        double d = strtod(s);
        if (Double.isNaN(d)) {
            throw new NumberFormatException();
        }
        return d;
    }

    /**
     * What C's strtod gives for {@code s} when it takes the whole string (no leading space): a
     * decimal or hexadecimal float, or an infinity word; NaN for "nan" (which every caller refuses).
     *
     * @throws NumberFormatException if strtod would stop before the end of {@code s}
     */
    public static double strtod(String s) {
        String lower = s.toLowerCase(java.util.Locale.ROOT);
        switch (lower) {
            case "inf": case "+inf": case "infinity": case "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf": case "-infinity":
                return Double.NEGATIVE_INFINITY;
            case "nan": case "+nan": case "-nan":
                return Double.NaN;
            default:
                break;
        }
        int sign = lower.startsWith("-") || lower.startsWith("+") ? 1 : 0;
        if (lower.startsWith("0x", sign)) {
            return hexDouble(lower, sign + 2);
        }
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (!(ch >= '0' && ch <= '9') && ch != '.' && ch != '-' && ch != '+' && ch != 'e' && ch != 'E') {
                throw new NumberFormatException();
            }
        }
        return Double.parseDouble(s);
    }

    /**
     * A C99 hexadecimal float whose digits start at {@code at}: hex digits with an optional point
     * (at least one digit), then an optional binary exponent {@code p[+-]digits}. Java's parser
     * needs the exponent, so "p0" is added where it is missing.
     */
    private static double hexDouble(String s, int at) {
        int i = at;
        int digits = 0;
        while (i < s.length() && Character.digit(s.charAt(i), 16) >= 0) {
            i++;
            digits++;
        }
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            while (i < s.length() && Character.digit(s.charAt(i), 16) >= 0) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            throw new NumberFormatException();
        }
        if (i == s.length()) {
            return Double.parseDouble(s + "p0");
        }
        if (s.charAt(i) != 'p') {
            throw new NumberFormatException();
        }
        int exponentAt = i + 1;
        if (exponentAt < s.length() && (s.charAt(exponentAt) == '-' || s.charAt(exponentAt) == '+')) {
            exponentAt++;
        }
        if (exponentAt == s.length()) {
            throw new NumberFormatException();
        }
        for (int k = exponentAt; k < s.length(); k++) {
            if (s.charAt(k) < '0' || s.charAt(k) > '9') {
                throw new NumberFormatException();
            }
        }
        return Double.parseDouble(s);
    }

    /**
     * The fast path of {@link #parseDouble} for the commonest scores and increments: an optional
     * '-' and 1 to 15 digits, which a long holds exactly and a double represents exactly, so the
     * value is what strtod gives ("-0" is -0.0, as in C). NaN for anything else.
     */
    private static double plainInteger(byte[] b) {
        int i = b[0] == '-' ? 1 : 0;
        int n = b.length - i;
        if (n < 1 || n > 15) {
            return Double.NaN;
        }
        long v = 0;
        for (; i < b.length; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return Double.NaN;
            }
            v = v * 10 + d;
        }
        return b[0] == '-' ? -(double) v : (double) v;
    }

    /** ASCII case-insensitive comparison of an argument with a lower-case keyword. */
    public static boolean is(byte[] arg, String lowerKeyword) {
        int n = lowerKeyword.length();
        if (arg.length != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            int b = arg[i];
            if (b >= 'A' && b <= 'Z') {
                b += 32;
            }
            if (b != lowerKeyword.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The argument as text (UTF-8). */
    public static String text(byte[] arg) {
        return new String(arg, StandardCharsets.UTF_8);
    }
}
