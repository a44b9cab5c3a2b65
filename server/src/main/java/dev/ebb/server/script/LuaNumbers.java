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
 * and keeps trailing zeros for {@code %g}. NaN prints as {@code -nan} when its sign bit is set (0/0 on x86, which LuaDouble.NAN copies) and {@code nan} otherwise ({@code -(0/0)}, {@code tonumber('nan')}), as glibc does.
 *
 * <p>Cost: integral values below 10^14 take a {@code Long.toString}; others build a BigDecimal
 * (a few hundred nanoseconds). Stateless and thread-safe.
 */
public final class LuaNumbers {
    private static final double FIXED_INTEGER_LIMIT = 1e14;

    private LuaNumbers() {
    }

    /**
     * C's conversion of a double to {@code long long} as Redis's Lua does it on x86-64 (a number
     * returned to Redis, {@code string.format("%d")}): truncation toward zero, and NaN or anything
     * outside [-2^63, 2^63) gives -2^63 ({@code return 1e20} replies -9223372036854775808), where
     * Java's cast would saturate to Long.MAX_VALUE and send NaN to 0.
     */
    public static long toLong(double v) {
        return v >= -0x1p63 && v < 0x1p63 ? (long) v : Long.MIN_VALUE;
    }

    /**
     * Lua 5.1's conversion of a string to a number ({@code tonumber(s)}, luaO_str2d): C's
     * {@code strtod} (leading white space, a sign, decimal or hexadecimal digits with an optional
     * exponent, {@code inf}, {@code infinity}, {@code nan}, any case) followed by nothing but white
     * space. The text ends at the first NUL byte, as a C string does. Returns null when it is not a
     * number.
     */
    public static Double parse(byte[] s, int offset, int length) {
        int end = offset + length;
        for (int k = offset; k < end; k++) {
            if (s[k] == 0) {
                end = k;
                break;
            }
        }
        double[] value = new double[1];
        int i = strtod(s, offset, end, value);
        if (i == offset) {
            return null;
        }
        while (i < end && isSpace(s[i])) {
            i++;
        }
        return i == end ? value[0] : null;
    }

    /**
     * Lua 5.1's {@code tonumber(s, base)} for a base other than 10: C's {@code strtoul} (white
     * space, a sign that negates modulo 2^64, a {@code 0x} prefix in base 16, saturating at 2^64-1)
     * followed by nothing but white space; null when no digit was read or something else follows.
     */
    public static Double parseUnsigned(byte[] s, int offset, int length, int base) {
        int end = offset + length;
        int i = offset;
        while (i < end && isSpace(s[i])) {
            i++;
        }
        boolean negative = false;
        if (i < end && (s[i] == '+' || s[i] == '-')) {
            negative = s[i] == '-';
            i++;
        }
        if (base == 16 && i + 1 < end && s[i] == '0' && (s[i + 1] | 0x20) == 'x' && i + 2 < end && digit(s[i + 2], 16) >= 0) {
            i += 2;
        }
        int start = i;
        java.math.BigInteger n = java.math.BigInteger.ZERO;
        java.math.BigInteger radix = java.math.BigInteger.valueOf(base);
        while (i < end && digit(s[i], base) >= 0) {
            n = n.multiply(radix).add(java.math.BigInteger.valueOf(digit(s[i], base)));
            i++;
        }
        if (i == start) {
            return null;
        }
        while (i < end && isSpace(s[i])) {
            i++;
        }
        if (i != end) {
            return null;
        }
        java.math.BigInteger max = java.math.BigInteger.ONE.shiftLeft(64).subtract(java.math.BigInteger.ONE);
        if (n.compareTo(max) > 0) {
            return max.doubleValue();
        }
        if (negative && n.signum() != 0) {
            n = max.add(java.math.BigInteger.ONE).subtract(n);
        }
        return n.doubleValue();
    }

    /** C's strtod from {@code i}: stores the value and returns where it stopped ({@code i} when nothing was read). */
    static int strtod(byte[] s, int start, int end, double[] value) {
        int i = start;
        while (i < end && isSpace(s[i])) {
            i++;
        }
        boolean negative = false;
        if (i < end && (s[i] == '+' || s[i] == '-')) {
            negative = s[i] == '-';
            i++;
        }
        double sign = negative ? -1 : 1;
        if (matches(s, i, end, "infinity")) {
            value[0] = sign * Double.POSITIVE_INFINITY;
            return i + 8;
        }
        if (matches(s, i, end, "inf")) {
            value[0] = sign * Double.POSITIVE_INFINITY;
            return i + 3;
        }
        if (matches(s, i, end, "nan")) {
            i += 3;
            if (i < end && s[i] == '(') {
                int k = i + 1;
                while (k < end && (Character.isLetterOrDigit(s[k]) || s[k] == '_')) {
                    k++;
                }
                if (k < end && s[k] == ')') {
                    i = k + 1;
                }
            }
            value[0] = negative ? Double.longBitsToDouble(0xfff8000000000000L) : Double.NaN;
            return i;
        }
        boolean hex = i + 1 < end && s[i] == '0' && (s[i + 1] | 0x20) == 'x';
        int base = hex ? 16 : 10;
        int digitsFrom = hex ? i + 2 : i;
        int k = digitsFrom;
        int digits = 0;
        while (k < end && digit(s[k], base) >= 0) {
            k++;
            digits++;
        }
        int mantissaEnd = k;
        if (k < end && s[k] == '.') {
            k++;
            while (k < end && digit(s[k], base) >= 0) {
                k++;
                digits++;
            }
            mantissaEnd = k;
        }
        if (digits == 0) {
            if (hex) {
                value[0] = sign * 0.0;
                return i + 1;
            }
            return start;
        }
        String exponent = hex ? "p0" : "";
        char mark = hex ? 'p' : 'e';
        if (k < end && (s[k] | 0x20) == mark) {
            int e = k + 1;
            if (e < end && (s[e] == '+' || s[e] == '-')) {
                e++;
            }
            int expDigits = e;
            while (e < end && s[e] >= '0' && s[e] <= '9') {
                e++;
            }
            if (e > expDigits) {
                exponent = new String(s, k, e - k, java.nio.charset.StandardCharsets.ISO_8859_1);
                k = e;
            }
        }
        String mantissa = new String(s, digitsFrom, mantissaEnd - digitsFrom, java.nio.charset.StandardCharsets.ISO_8859_1);
        if (mantissa.startsWith(".") ) {
            mantissa = "0" + mantissa;
        }
        if (mantissa.endsWith(".")) {
            mantissa = mantissa + "0";
        }
        if (hex && exponent.length() > 12) {
            exponent = exponent.charAt(1) == '-' ? "p-99999" : "p99999";
        }
        value[0] = sign * Double.parseDouble((hex ? "0x" : "") + mantissa + exponent);
        return k;
    }

    private static boolean matches(byte[] s, int i, int end, String word) {
        if (end - i < word.length()) {
            return false;
        }
        for (int k = 0; k < word.length(); k++) {
            if ((s[i + k] | 0x20) != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static int digit(byte b, int base) {
        int d = b >= '0' && b <= '9' ? b - '0' : (b | 0x20) >= 'a' && (b | 0x20) <= 'z' ? (b | 0x20) - 'a' + 10 : 99;
        return d < base ? d : -1;
    }

    /** C's isspace in the C locale. */
    static boolean isSpace(byte b) {
        return b == ' ' || (b >= '\t' && b <= '\r');
    }

    /**
     * A number as Redis 7 passes it to a command from {@code redis.call} (its fpconv_dtoa): the
     * shortest digits that read back to the same double, written plain unless the exponent is far
     * from them ({@code 0.1}, {@code 9007199254740992}, {@code 1e+20}, {@code 1e-7}, {@code -0},
     * {@code -nan}, {@code inf}).
     */
    public static String shortest(double v) {
        boolean negative = Double.doubleToRawLongBits(v) < 0;
        String sign = negative ? "-" : "";
        if (v == 0) {
            return sign + "0";
        }
        if (Double.isNaN(v)) {
            return sign + "nan";
        }
        if (Double.isInfinite(v)) {
            return sign + "inf";
        }
        BigDecimal d = new BigDecimal(Double.toString(Math.abs(v))).stripTrailingZeros();
        String digits = d.unscaledValue().toString();
        int n = digits.length();
        int k = -d.scale();
        int exp = Math.abs(k + n - 1);
        if (k >= 0 && exp < n + 7) {
            return sign + digits + "0".repeat(k);
        }
        if (k < 0 && (k > -7 || exp < 4)) {
            int offset = n + k;
            if (offset <= 0) {
                return sign + "0." + "0".repeat(-offset) + digits;
            }
            return sign + digits.substring(0, offset) + "." + digits.substring(offset);
        }
        n = Math.min(n, 18 - (negative ? 1 : 0));
        StringBuilder sb = new StringBuilder(sign).append(digits.charAt(0));
        if (n > 1) {
            sb.append('.').append(digits, 1, n);
        }
        return sb.append('e').append(k + digits.length() - 1 < 0 ? '-' : '+').append(exp).toString();
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
            return Double.doubleToRawLongBits(v) < 0 ? "-nan" : "nan";
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
