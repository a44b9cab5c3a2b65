package dev.ebb.storage.rdb;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;

/**
 * Sorted-set scores as text, the way they sit in a listpack or an old RDB ZSET: {@link #format}
 * is Redis 7.2's d2string (integers in ±2^62 as integers, which lpAppend then stores as integer
 * entries; other values as the shortest digits that parse back, placed as Redis's fpconv_dtoa
 * places them), {@link #parse} is strtod for the texts Redis writes and reads. Stateless.
 */
final class Scores {
    private static final double INTEGER_LIMIT = 0x1p62;

    private Scores() {
    }

    static byte[] format(double d) {
        String s;
        if (Double.isNaN(d)) {
            s = "nan";
        } else if (Double.isInfinite(d)) {
            s = d > 0 ? "inf" : "-inf";
        } else if (d == 0) {
            s = 1 / d < 0 ? "-0" : "0";
        } else if (d == Math.rint(d) && Math.abs(d) < INTEGER_LIMIT) {
            s = Long.toString((long) d);
        } else {
            s = shortest(d);
        }
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** fpconv_dtoa's layout of the shortest round-tripping digits of a finite, non-zero d. */
    private static String shortest(double d) {
        BigDecimal exact = new BigDecimal(d);
        BigDecimal digits = exact;
        for (int precision = 1; precision <= 17; precision++) {
            BigDecimal candidate = exact.round(new MathContext(precision));
            if (candidate.doubleValue() == d) {
                digits = candidate;
                break;
            }
        }
        boolean negative = d < 0;
        String unscaled = digits.unscaledValue().abs().toString();
        int k = -digits.scale();
        while (unscaled.length() > 1 && unscaled.endsWith("0")) {
            unscaled = unscaled.substring(0, unscaled.length() - 1);
            k++;
        }
        int n = unscaled.length();
        int exp = Math.abs(k + n - 1);
        StringBuilder out = new StringBuilder(negative ? "-" : "");
        if (k >= 0 && exp < n + 7) {
            out.append(unscaled).append("0".repeat(k));
        } else if (k < 0 && (k > -7 || exp < 4)) {
            int offset = n + k;
            if (offset <= 0) {
                out.append("0.").append("0".repeat(-offset)).append(unscaled);
            } else {
                out.append(unscaled, 0, offset).append('.').append(unscaled, offset, n);
            }
        } else {
            out.append(unscaled.charAt(0));
            if (n > 1) {
                out.append('.').append(unscaled, 1, n);
            }
            out.append('e').append(k + n - 1 < 0 ? '-' : '+').append(exp);
        }
        return out.toString();
    }

    /** strtod for a score's text: decimal or scientific, inf/infinity, nan; NaN if it is none. */
    static double parse(byte[] text) {
        String s = new String(text, StandardCharsets.US_ASCII);
        String lower = s.toLowerCase(java.util.Locale.ROOT);
        String body = lower.startsWith("-") || lower.startsWith("+") ? lower.substring(1) : lower;
        if (body.equals("inf") || body.equals("infinity")) {
            return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (body.isEmpty() || !body.matches("(\\d+\\.?\\d*|\\.\\d+)(e[+-]?\\d+)?")) {
            return Double.NaN;
        }
        return Double.parseDouble(s);
    }

    static boolean isNanText(byte[] text) {
        String s = new String(text, StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
        return s.equals("nan") || s.equals("-nan") || s.equals("+nan");
    }
}
