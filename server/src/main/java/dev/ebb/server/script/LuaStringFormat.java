package dev.ebb.server.script;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * {@code string.format} with Lua 5.1's rules and C's printf output, replacing LuaJ's (which
 * formats {@code %g} and friends through {@link String#format} and so keeps trailing zeros and
 * rounds differently): {@code string.format('%.17g', 0.1)} is {@code 0.10000000000000001} as in Redis.
 *
 * <p>A conversion is {@code %[flags][width][.precision]type} with up to five flags from
 * {@code "-+ #0"}, a width and a precision of at most two digits each, and the types
 * {@code c d i o u x X e E f g G q s %}. Strings are bytes: {@code %s} and {@code %q} copy them
 * unchanged. Thread-safe (stateless).
 */
final class LuaStringFormat extends VarArgFunction {
    private static final String FLAGS = "-+ #0";

    @Override
    public Varargs invoke(Varargs args) {
        LuaString fmt = args.checkstring(1);
        ByteArrayOutputStream out = new ByteArrayOutputStream(fmt.length() + 16);
        int arg = 1;
        int i = 0;
        int n = fmt.length();
        while (i < n) {
            int ch = fmt.luaByte(i++);
            if (ch != '%') {
                out.write(ch);
                continue;
            }
            if (i >= n) {
                throw new org.luaj.vm2.LuaError("invalid option '%' to 'format'");
            }
            if (fmt.luaByte(i) == '%') {
                out.write('%');
                i++;
                continue;
            }
            Spec spec = new Spec();
            i = spec.parse(fmt, i);
            arg++;
            if (arg > args.narg()) {
                throw LuaArgChecks.argError(arg, "format", "no value");
            }
            format(out, spec, args, arg);
        }
        return LuaString.valueOf(out.toByteArray());
    }

    private static void format(ByteArrayOutputStream out, Spec spec, Varargs args, int arg) {
        switch (spec.type) {
            case 'c':
                // C's sprintf then strlen, as Lua 5.1: a NUL character ends the text there.
                ByteArrayOutputStream padded = new ByteArrayOutputStream();
                writePadded(padded, spec, new byte[] {(byte) LuaNumbers.toLong(LuaArgChecks.checkNumber(args, arg, "format"))});
                byte[] text = padded.toByteArray();
                int end = 0;
                while (end < text.length && text[end] != 0) {
                    end++;
                }
                out.write(text, 0, end);
                return;
            case 'd':
            case 'i':
                writeAscii(out, spec.integer(LuaArgChecks.checkNumber(args, arg, "format")));
                return;
            case 'o':
            case 'u':
            case 'x':
            case 'X':
                writeAscii(out, spec.unsigned(LuaArgChecks.checkNumber(args, arg, "format")));
                return;
            case 'e':
            case 'E':
            case 'f':
            case 'g':
            case 'G':
                writeAscii(out, spec.floating(LuaArgChecks.checkNumber(args, arg, "format")));
                return;
            case 'q':
                quoted(out, LuaArgChecks.checkString(args, arg, "format"));
                return;
            case 's': {
                LuaString s = LuaArgChecks.checkString(args, arg, "format");
                if (spec.precision >= 0 && s.length() > spec.precision) {
                    s = s.substring(0, spec.precision);
                }
                writePadded(out, spec, bytes(s));
                return;
            }
            default:
                throw new org.luaj.vm2.LuaError("invalid option '%" + (char) spec.type + "' to 'format'");
        }
    }

    private static byte[] bytes(LuaString s) {
        byte[] b = new byte[s.length()];
        s.copyInto(0, b, 0, b.length);
        return b;
    }

    private static void writePadded(ByteArrayOutputStream out, Spec spec, byte[] body) {
        int pad = Math.max(0, spec.width - body.length);
        if (!spec.left) {
            for (int k = 0; k < pad; k++) {
                out.write(' ');
            }
        }
        out.write(body, 0, body.length);
        if (spec.left) {
            for (int k = 0; k < pad; k++) {
                out.write(' ');
            }
        }
    }

    private static void writeAscii(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        out.write(b, 0, b.length);
    }

    /** {@code %q}: the string between double quotes, escaped so that Lua reads it back. */
    private static void quoted(ByteArrayOutputStream out, LuaString s) {
        out.write('"');
        for (int k = 0; k < s.length(); k++) {
            int c = s.luaByte(k);
            switch (c) {
                case '"':
                case '\\':
                case '\n':
                    out.write('\\');
                    out.write(c);
                    break;
                case '\r':
                    writeAscii(out, "\\r");
                    break;
                case 0:
                    writeAscii(out, "\\000");
                    break;
                default:
                    out.write(c);
            }
        }
        out.write('"');
    }

    /** One parsed conversion. */
    private static final class Spec {
        boolean left;
        boolean plus;
        boolean space;
        boolean alternate;
        boolean zero;
        int width;
        int precision = -1;
        int type;

        int parse(LuaString fmt, int at) {
            int i = at;
            int n = fmt.length();
            while (i < n && FLAGS.indexOf(fmt.luaByte(i)) >= 0) {
                switch (fmt.luaByte(i)) {
                    case '-': left = true; break;
                    case '+': plus = true; break;
                    case ' ': space = true; break;
                    case '#': alternate = true; break;
                    default: zero = true;
                }
                i++;
            }
            if (i - at > FLAGS.length()) {
                throw new org.luaj.vm2.LuaError("invalid format (repeated flags)");
            }
            int digits = 0;
            while (i < n && Character.isDigit(fmt.luaByte(i))) {
                width = width * 10 + fmt.luaByte(i++) - '0';
                digits++;
            }
            if (i < n && fmt.luaByte(i) == '.') {
                i++;
                precision = 0;
                int precisionDigits = 0;
                while (i < n && Character.isDigit(fmt.luaByte(i))) {
                    precision = precision * 10 + fmt.luaByte(i++) - '0';
                    precisionDigits++;
                }
                digits = Math.max(digits, precisionDigits);
            }
            if (digits > 2) {
                throw new org.luaj.vm2.LuaError("invalid format (width or precision too long)");
            }
            if (i >= n) {
                throw new org.luaj.vm2.LuaError("invalid option '%' to 'format'");
            }
            type = fmt.luaByte(i);
            return i + 1;
        }

        String integer(double value) {
            long v = LuaNumbers.toLong(value);
            String digits = v < 0 ? Long.toString(v).substring(1) : Long.toString(v);
            return number(v < 0, "", minimumDigits(digits));
        }

        String unsigned(double value) {
            long v = LuaNumbers.toLong(value);
            String digits;
            String prefix = "";
            switch (type) {
                case 'o':
                    digits = Long.toOctalString(v);
                    if (alternate && !digits.startsWith("0")) {
                        digits = "0" + digits;
                    }
                    break;
                case 'x':
                    digits = Long.toHexString(v);
                    prefix = alternate && v != 0 ? "0x" : "";
                    break;
                case 'X':
                    digits = Long.toHexString(v).toUpperCase(java.util.Locale.ROOT);
                    prefix = alternate && v != 0 ? "0X" : "";
                    break;
                default:
                    digits = Long.toUnsignedString(v);
            }
            return pad("", prefix, minimumDigits(digits), precision < 0);
        }

        private String minimumDigits(String digits) {
            if (precision < 0) {
                return digits;
            }
            if (precision == 0 && digits.equals("0")) {
                return "";
            }
            return digits.length() >= precision ? digits : "0".repeat(precision - digits.length()) + digits;
        }

        String floating(double v) {
            int p = precision < 0 ? 6 : precision;
            String text;
            switch (type) {
                case 'e':
                case 'E':
                    text = LuaNumbers.formatE(v, p, alternate);
                    break;
                case 'f':
                    text = LuaNumbers.formatF(v, p, alternate);
                    break;
                default:
                    text = LuaNumbers.formatG(v, p, alternate);
            }
            if (Character.isUpperCase(type)) {
                text = text.toUpperCase(java.util.Locale.ROOT);
            }
            boolean negative = text.startsWith("-");
            String body = negative ? text.substring(1) : text;
            boolean finite = !Double.isNaN(v) && !Double.isInfinite(v);
            return pad(sign(negative), "", body, finite);
        }

        private String number(boolean negative, String prefix, String digits) {
            return pad(sign(negative), prefix, digits, precision < 0);
        }

        private String sign(boolean negative) {
            return negative ? "-" : plus ? "+" : space ? " " : "";
        }

        /** Applies the width: spaces left or right, or zeros between sign/prefix and digits. */
        private String pad(String sign, String prefix, String digits, boolean zeroAllowed) {
            int length = sign.length() + prefix.length() + digits.length();
            if (width <= length) {
                return sign + prefix + digits;
            }
            String fill;
            if (left) {
                return sign + prefix + digits + " ".repeat(width - length);
            }
            if (zero && zeroAllowed) {
                fill = "0".repeat(width - length);
                return sign + prefix + fill + digits;
            }
            return " ".repeat(width - length) + sign + prefix + digits;
        }
    }
}
