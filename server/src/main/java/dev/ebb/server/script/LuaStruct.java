package dev.ebb.server.script;

import java.io.ByteArrayOutputStream;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * The {@code struct} library of Redis's Lua (Roberto Ierusalimschy's struct): {@code pack(fmt, ...)},
 * {@code unpack(fmt, s [, pos])} (values, then the position after them) and {@code size(fmt)}.
 *
 * <p>Format characters: {@code >} big endian, {@code <} little endian (the default), {@code =}
 * native (little), {@code !n} alignment, {@code x} a padding byte, {@code b/B} (un)signed char,
 * {@code h/H} short, {@code l/L} long (8 bytes), {@code T} size_t (8), {@code i/I[n]} integers of n
 * bytes (default 4), {@code f} float, {@code d} double, {@code s} zero-terminated string,
 * {@code c[n]} n chars ({@code c0}: in pack the whole string, in unpack the length read just
 * before). Redisson's RMapCache stores values as {@code struct.pack('dLc0', ...)}. Stateless.
 */
final class LuaStruct {
    private static final int MAX_INT_SIZE = 32;

    private LuaStruct() {
    }

    static LuaTable library() {
        LuaTable struct = new LuaTable();
        struct.rawset("pack", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return pack(args);
            }
        });
        struct.rawset("unpack", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return unpack(args);
            }
        });
        struct.rawset("size", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return size(args.checkjstring(1));
            }
        });
        return struct;
    }

    /** Walks a format string: the current position, endianness and alignment. */
    private static final class Format {
        final String fmt;
        int at;
        boolean little = true;
        int align = 1;

        Format(String fmt) {
            this.fmt = fmt;
        }

        boolean more() {
            return at < fmt.length();
        }

        char next() {
            return fmt.charAt(at++);
        }

        int number(int fallback) {
            if (!more() || !Character.isDigit(fmt.charAt(at))) {
                return fallback;
            }
            int n = 0;
            while (more() && Character.isDigit(fmt.charAt(at))) {
                n = n * 10 + (fmt.charAt(at++) - '0');
            }
            return n;
        }

        /** The size of option {@code opt}; for {@code i}, {@code I} and {@code c} it reads the count. */
        int size(char opt) {
            switch (opt) {
                case 'B':
                case 'b':
                case 'x':
                    return 1;
                case 'H':
                case 'h':
                    return 2;
                case 'L':
                case 'l':
                case 'T':
                    return 8;
                case 'f':
                    return 4;
                case 'd':
                    return 8;
                case 'c':
                    return number(1);
                case 'i':
                case 'I': {
                    int n = number(4);
                    if (n > MAX_INT_SIZE) {
                        throw new LuaError("integral size " + n + " is larger than limit of " + MAX_INT_SIZE);
                    }
                    return n;
                }
                default:
                    return 0;
            }
        }

        /** Consumes a control option; true if {@code opt} was one. */
        boolean control(char opt) {
            switch (opt) {
                case ' ':
                    return true;
                case '>':
                    little = false;
                    return true;
                case '<':
                case '=':
                    little = true;
                    return true;
                case '!': {
                    int a = number(8);
                    if ((a & (a - 1)) != 0) {
                        throw new LuaError("alignment " + a + " is not a power of 2");
                    }
                    align = a;
                    return true;
                }
                default:
                    return false;
            }
        }

        int gap(int size, int position) {
            if (size <= 1 || align <= 1 || size == 0) {
                return 0;
            }
            int a = Math.min(size, align);
            return (a - (position & (a - 1))) & (a - 1);
        }
    }

    private static Varargs pack(Varargs args) {
        Format f = new Format(args.checkjstring(1));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int arg = 2;
        while (f.more()) {
            char opt = f.next();
            if (f.control(opt)) {
                continue;
            }
            int size = f.size(opt);
            int gap = opt == 'c' || opt == 's' ? 0 : f.gap(size, out.size());
            for (int i = 0; i < gap; i++) {
                out.write(0);
            }
            switch (opt) {
                case 'b': case 'B': case 'h': case 'H': case 'l': case 'L': case 'T': case 'i': case 'I': {
                    double v = args.checkdouble(arg++);
                    long bits = v < 0 ? (long) v : unsignedLong(v);
                    writeInt(out, bits, size, f.little);
                    break;
                }
                case 'x':
                    out.write(0);
                    break;
                case 'f':
                    writeInt(out, Float.floatToRawIntBits((float) args.checkdouble(arg++)) & 0xffffffffL, 4, f.little);
                    break;
                case 'd':
                    writeInt(out, Double.doubleToRawLongBits(args.checkdouble(arg++)), 8, f.little);
                    break;
                case 'c':
                case 's': {
                    byte[] s = Scripting.bytes(args.checkstring(arg++));
                    int len = s.length;
                    if (opt == 'c' && size != 0) {
                        if (len < size) {
                            throw new LuaError("bad argument #" + (arg - 1) + " to 'pack' (string too short)");
                        }
                        len = size;
                    }
                    out.write(s, 0, len);
                    if (opt == 's') {
                        out.write(0);
                    }
                    break;
                }
                default:
                    throw new LuaError("invalid format option '" + opt + "'");
            }
        }
        return LuaString.valueOf(out.toByteArray());
    }

    private static long unsignedLong(double v) {
        return v >= 9.223372036854775807E18 ? (long) (v - 9.223372036854775807E18) ^ Long.MIN_VALUE : (long) v;
    }

    private static void writeInt(ByteArrayOutputStream out, long v, int size, boolean little) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            byte octet = i < 8 ? (byte) (v >>> (8 * i)) : (byte) (v < 0 ? 0xff : 0);
            b[little ? i : size - 1 - i] = octet;
        }
        out.write(b, 0, size);
    }

    private static Varargs unpack(Varargs args) {
        Format f = new Format(args.checkjstring(1));
        LuaString data = args.checkstring(2);
        int pos = args.optint(3, 1) - 1;
        if (pos < 0 || pos > data.length()) {
            throw new LuaError("bad argument #3 to 'unpack' (offset must be 1 or greater)");
        }
        java.util.List<LuaValue> values = new java.util.ArrayList<>();
        while (f.more()) {
            char opt = f.next();
            if (f.control(opt)) {
                continue;
            }
            int size = f.size(opt);
            pos += opt == 'c' || opt == 's' ? 0 : f.gap(size, pos);
            if (opt != 's' && !(opt == 'c' && size == 0) && pos + size > data.length()) {
                throw new LuaError("bad argument #2 to 'unpack' (data string too short)");
            }
            switch (opt) {
                case 'b': case 'B': case 'h': case 'H': case 'l': case 'L': case 'T': case 'i': case 'I': {
                    boolean signed = Character.isLowerCase(opt);
                    values.add(LuaValue.valueOf(readInt(data, pos, size, f.little, signed)));
                    pos += size;
                    break;
                }
                case 'x':
                    pos += 1;
                    break;
                case 'f':
                    values.add(LuaValue.valueOf(Float.intBitsToFloat((int) (long) readInt(data, pos, 4, f.little, false))));
                    pos += 4;
                    break;
                case 'd':
                    values.add(LuaValue.valueOf(Double.longBitsToDouble(readLong(data, pos, f.little))));
                    pos += 8;
                    break;
                case 'c': {
                    int len = size;
                    if (len == 0) {
                        if (values.isEmpty() || !values.get(values.size() - 1).isnumber()) {
                            throw new LuaError("format 'c0' needs a previous size");
                        }
                        len = values.remove(values.size() - 1).toint();
                        if (pos + len > data.length()) {
                            throw new LuaError("bad argument #2 to 'unpack' (data string too short)");
                        }
                    }
                    values.add(data.substring(pos, pos + len));
                    pos += len;
                    break;
                }
                case 's': {
                    int end = pos;
                    while (end < data.length() && data.luaByte(end) != 0) {
                        end++;
                    }
                    if (end >= data.length()) {
                        throw new LuaError("unfinished string in data");
                    }
                    values.add(data.substring(pos, end));
                    pos = end + 1;
                    break;
                }
                default:
                    throw new LuaError("invalid format option '" + opt + "'");
            }
        }
        values.add(LuaValue.valueOf(pos + 1));
        return LuaValue.varargsOf(values.toArray(new LuaValue[0]));
    }

    private static double readInt(LuaString data, int pos, int size, boolean little, boolean signed) {
        long v = 0;
        for (int i = 0; i < Math.min(size, 8); i++) {
            int b = data.luaByte(little ? pos + Math.min(size, 8) - 1 - i : pos + size - Math.min(size, 8) + i);
            v = (v << 8) | b;
        }
        if (signed && size < 8) {
            int shift = 64 - 8 * size;
            v = (v << shift) >> shift;
        }
        if (!signed && v < 0) {
            return (double) (v >>> 1) * 2 + (v & 1);
        }
        return v;
    }

    private static long readLong(LuaString data, int pos, boolean little) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            int b = data.luaByte(little ? pos + 7 - i : pos + i);
            v = (v << 8) | b;
        }
        return v;
    }

    private static Varargs size(String fmt) {
        Format f = new Format(fmt);
        int total = 0;
        while (f.more()) {
            char opt = f.next();
            if (f.control(opt)) {
                continue;
            }
            if (opt == 's' || (opt == 'c' && f.more() && f.fmt.charAt(f.at) == '0')) {
                throw new LuaError("options 'c0' - 's' have undefined sizes");
            }
            int size = f.size(opt);
            total += f.gap(size, total) + size;
        }
        return LuaValue.valueOf(total);
    }
}
