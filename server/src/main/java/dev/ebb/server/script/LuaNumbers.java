package dev.ebb.server.script;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * C's {@code printf} floating-point conversions ({@code %e}, {@code %f}, {@code %g}) for Lua
 * numbers, so that scripts print numbers exactly as Redis's Lua 5.1 (glibc printf) does.
 *
 * <p>Lua 5.1 turns a number into text with {@code "%.14g"}: {@code tostring(0.1)} is {@code 0.1},
 * {@code tostring(1e20)} is {@code 1e+20}, {@code tostring(1/3)} is {@code 0.33333333333333}. The
 * digits come from the exact binary value rounded half-even ({@link BigDecimal#BigDecimal(double)}
 * is exact), which is what glibc does; Java's own formatter rounds the shortest decimal text instead
 * and keeps trailing zeros for {@code %g}. NaN prints as {@code -nan}, as 0/0 does on x86 Linux.
 *
 * <p>Cost: integral values below 10^14 take a {@code Long.toString}; others build a BigDecimal
 * (a few hundred nanoseconds). Stateless and thread-safe.
 */
public final class LuaNumbers {
    private static final double FIXED_INTEGER_LIMIT = 1e14;

    private LuaNumbers() {
    }

    /** {@code tostring(v)} as Redis's Lua prints it: C's {@code "%.14g"}. */
    public static String toLuaString(double v) {
        if (v == (long) v && Math.abs(v) < FIXED_INTEGER_LIMIT) {
            if (v == 0 && Double.doubleToRawLongBits(v) != 0) {
                return "-0";
            }
            return Long.toString((long) v);
        }
        return formatG(v, 14, false);
    }

    /** C's {@code %.<precision>g} (without width or flags); {@code alternate} is the {@code #} flag. */
    static String formatG(double v, int precision, boolean alternate) {
        String special = special(v);
        if (special != null) {
            return special;
        }
        int p = precision == 0 ? 1 : precision;
        if (v == 0) {
            String zero = alternate ? "0." + "0".repeat(p - 1) : "0";
            return negative(v) ? "-" + zero : zero;
        }
        BigDecimal rounded = new BigDecimal(v).round(new MathContext(p, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= p) {
            String text = scientific(rounded.abs(), p - 1, exponent);
            if (!alternate) {
                text = stripMantissaZeros(text);
            }
            return v < 0 ? "-" + text : text;
        }
        String text = rounded.abs().setScale(p - 1 - exponent, RoundingMode.HALF_EVEN).toPlainString();
        if (!alternate) {
            text = stripFractionZeros(text);
        } else if (text.indexOf('.') < 0) {
            text = text + ".";
        }
        return v < 0 ? "-" + text : text;
    }

    /** C's {@code %.<precision>e}. */
    static String formatE(double v, int precision, boolean alternate) {
        String special = special(v);
        if (special != null) {
            return special;
        }
        String text;
        if (v == 0) {
            text = (precision == 0 ? "0" : "0." + "0".repeat(precision)) + "e+00";
        } else {
            BigDecimal rounded = new BigDecimal(Math.abs(v)).round(new MathContext(precision + 1, RoundingMode.HALF_EVEN));
            text = scientific(rounded, precision, rounded.precision() - rounded.scale() - 1);
        }
        if (alternate && precision == 0) {
            text = text.replace("e", ".e");
        }
        return negative(v) ? "-" + text : text;
    }

    /** C's {@code %.<precision>f}. */
    static String formatF(double v, int precision, boolean alternate) {
        String special = special(v);
        if (special != null) {
            return special;
        }
        String text = new BigDecimal(Math.abs(v)).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
        if (alternate && precision == 0) {
            text = text + ".";
        }
        return negative(v) ? "-" + text : text;
    }

    private static boolean negative(double v) {
        return v < 0 || (v == 0 && Double.doubleToRawLongBits(v) != 0);
    }

    private static String special(double v) {
        if (Double.isNaN(v)) {
            return "-nan";
        }
        if (Double.isInfinite(v)) {
            return v < 0 ? "-inf" : "inf";
        }
        return null;
    }

    /** {@code d.ddd e±XX} from a positive value already rounded to {@code fractionDigits + 1} digits. */
    private static String scientific(BigDecimal rounded, int fractionDigits, int exponent) {
        String digits = rounded.unscaledValue().toString();
        if (digits.length() < fractionDigits + 1) {
            digits = digits + "0".repeat(fractionDigits + 1 - digits.length());
        } else if (digits.length() > fractionDigits + 1) {
            digits = digits.substring(0, fractionDigits + 1);
        }
        StringBuilder sb = new StringBuilder(fractionDigits + 8);
        sb.append(digits.charAt(0));
        if (fractionDigits > 0) {
            sb.append('.').append(digits, 1, fractionDigits + 1);
        }
        sb.append('e').append(exponent < 0 ? '-' : '+');
        int abs = Math.abs(exponent);
        if (abs < 10) {
            sb.append('0');
        }
        return sb.append(abs).toString();
    }

    private static String stripMantissaZeros(String text) {
        int e = text.indexOf('e');
        return stripFractionZeros(text.substring(0, e)) + text.substring(e);
    }

    private static String stripFractionZeros(String text) {
        if (text.indexOf('.') < 0) {
            return text;
        }
        int end = text.length();
        while (text.charAt(end - 1) == '0') {
            end--;
        }
        if (text.charAt(end - 1) == '.') {
            end--;
        }
        return text.substring(0, end);
    }
}
