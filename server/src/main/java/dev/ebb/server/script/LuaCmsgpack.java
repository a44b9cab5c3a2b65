package dev.ebb.server.script;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * The {@code cmsgpack} library of Redis's Lua (lua-cmsgpack): {@code pack(...)} encodes each
 * argument as MessagePack and concatenates them; {@code unpack(s)} decodes every object in
 * {@code s} and returns them all; {@code unpack_one(s [, offset])} and {@code unpack_limit(s, n [, offset])}
 * decode one or n objects and return the offset to continue from first (-1 at the end).
 *
 * <p>Encoding as lua-cmsgpack: nil, booleans; integral numbers in the smallest integer format;
 * other numbers as float 32 when that is exact, else float 64; strings as fixstr/str8/16/32; a
 * table whose keys are exactly 1..n as an array, any other as a map. Decoding also takes bin
 * types (as strings). Nesting is limited to 16 levels when packing (deeper tables become nil, as
 * lua-cmsgpack does). Stateless.
 */
final class LuaCmsgpack {
    private static final int MAX_NESTING = 16;

    private LuaCmsgpack() {
    }

    static LuaTable library() {
        LuaTable lib = new LuaTable();
        VarArgFunction pack = new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() == 0) {
                    throw LuaArgChecks.argError(0, "pack", "MessagePack pack needs input.");
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                for (int i = 1; i <= args.narg(); i++) {
                    encode(out, args.arg(i), 0);
                }
                return LuaString.valueOf(out.toByteArray());
            }
        };
        VarArgFunction unpack = new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return unpack(Scripting.bytes(LuaArgChecks.checkString(args, 1, "unpack")), 0, 0);
            }
        };
        VarArgFunction unpackOne = new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                byte[] in = Scripting.bytes(LuaArgChecks.checkString(args, 1, "unpack_one"));
                int offset = args.arg(2).isnil() ? 0 : LuaArgChecks.checkInt(args, 2, "unpack_one");
                return unpack(in, 1, offset);
            }
        };
        VarArgFunction unpackLimit = new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                byte[] in = Scripting.bytes(LuaArgChecks.checkString(args, 1, "unpack_limit"));
                int limit = LuaArgChecks.checkInt(args, 2, "unpack_limit");
                int offset = args.arg(3).isnil() ? 0 : LuaArgChecks.checkInt(args, 3, "unpack_limit");
                return unpack(in, limit, offset);
            }
        };
        lib.rawset("pack", pack);
        lib.rawset("unpack", unpack);
        lib.rawset("unpack_one", unpackOne);
        lib.rawset("unpack_limit", unpackLimit);
        return lib;
    }

    /**
     * lua-cmsgpack's mp_unpack_full: every value from {@code offset} ({@code limit} and
     * {@code offset} 0), or at most {@code limit} values preceded by the offset to continue from
     * (-1 once the input is used up).
     */
    private static Varargs unpack(byte[] in, int limit, int offset) {
        boolean all = limit == 0 && offset == 0;
        if (offset < 0 || limit < 0) {
            throw new LuaError("Invalid request to unpack with offset of " + offset + " and limit of " + in.length + ".");
        }
        if (offset > in.length) {
            throw new LuaError("Start offset " + offset + " greater than input length " + in.length + ".");
        }
        Reader r = new Reader(in);
        r.at = offset;
        List<LuaValue> values = new ArrayList<>();
        if (!all) {
            values.add(LuaValue.NIL);
        }
        for (int n = 0; r.at < in.length && (all || n < limit); n++) {
            values.add(r.decode());
        }
        if (!all) {
            values.set(0, LuaValue.valueOf(r.at >= in.length ? -1 : r.at));
        }
        return LuaValue.varargsOf(values.toArray(new LuaValue[0]));
    }

    private static void encode(ByteArrayOutputStream out, LuaValue v, int level) {
        switch (v.type()) {
            case LuaValue.TSTRING:
                encodeString(out, (LuaString) v.strvalue());
                return;
            case LuaValue.TNUMBER: {
                double d = v.todouble();
                // As lua-cmsgpack: an integer when (int64_t) d == d, else a float when that is exact,
                // else a double (NaN included, with its bits).
                if (d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63) {
                    encodeInteger(out, (long) d);
                } else if ((double) (float) d == d) {
                    out.write(0xca);
                    writeBig(out, Float.floatToIntBits((float) d), 4);
                } else {
                    out.write(0xcb);
                    writeBig(out, Double.doubleToRawLongBits(d), 8);
                }
                return;
            }
            case LuaValue.TBOOLEAN:
                out.write(v.toboolean() ? 0xc3 : 0xc2);
                return;
            case LuaValue.TTABLE:
                if (level >= MAX_NESTING) {
                    out.write(0xc0);
                    return;
                }
                encodeTable(out, (LuaTable) v, level + 1);
                return;
            default:
                out.write(0xc0);
        }
    }

    private static void encodeInteger(ByteArrayOutputStream out, long v) {
        if (v >= 0) {
            if (v <= 127) {
                out.write((int) v);
            } else if (v <= 0xff) {
                out.write(0xcc);
                writeBig(out, v, 1);
            } else if (v <= 0xffff) {
                out.write(0xcd);
                writeBig(out, v, 2);
            } else if (v <= 0xffffffffL) {
                out.write(0xce);
                writeBig(out, v, 4);
            } else {
                out.write(0xcf);
                writeBig(out, v, 8);
            }
        } else if (v >= -32) {
            out.write((int) (v & 0xff));
        } else if (v >= -128) {
            out.write(0xd0);
            writeBig(out, v, 1);
        } else if (v >= -32768) {
            out.write(0xd1);
            writeBig(out, v, 2);
        } else if (v >= Integer.MIN_VALUE) {
            out.write(0xd2);
            writeBig(out, v, 4);
        } else {
            out.write(0xd3);
            writeBig(out, v, 8);
        }
    }

    private static void encodeString(ByteArrayOutputStream out, LuaString s) {
        int len = s.length();
        if (len < 32) {
            out.write(0xa0 | len);
        } else if (len <= 0xff) {
            out.write(0xd9);
            writeBig(out, len, 1);
        } else if (len <= 0xffff) {
            out.write(0xda);
            writeBig(out, len, 2);
        } else {
            out.write(0xdb);
            writeBig(out, len, 4);
        }
        out.write(s.m_bytes, s.m_offset, len);
    }

    private static void encodeTable(ByteArrayOutputStream out, LuaTable t, int level) {
        int count = 0;
        int max = 0;
        boolean array = true;
        for (Varargs e = t.next(LuaValue.NIL); !e.arg1().isnil(); e = t.next(e.arg1())) {
            count++;
            LuaValue k = e.arg1();
            if (array && k.type() == LuaValue.TNUMBER && k.todouble() >= 1 && k.todouble() == Math.floor(k.todouble())) {
                max = Math.max(max, (int) k.todouble());
            } else {
                array = false;
            }
        }
        if (array && max == count) {
            header(out, count, 0x90, 0xdc, 0xdd);
            for (int i = 1; i <= count; i++) {
                encode(out, t.rawget(i), level);
            }
            return;
        }
        header(out, count, 0x80, 0xde, 0xdf);
        for (Varargs e = t.next(LuaValue.NIL); !e.arg1().isnil(); e = t.next(e.arg1())) {
            encode(out, e.arg1(), level);
            encode(out, e.arg(2), level);
        }
    }

    private static void header(ByteArrayOutputStream out, int n, int fix, int type16, int type32) {
        if (n < 16) {
            out.write(fix | n);
        } else if (n <= 0xffff) {
            out.write(type16);
            writeBig(out, n, 2);
        } else {
            out.write(type32);
            writeBig(out, n, 4);
        }
    }

    private static void writeBig(ByteArrayOutputStream out, long v, int bytes) {
        for (int i = bytes - 1; i >= 0; i--) {
            out.write((int) (v >>> (8 * i)) & 0xff);
        }
    }

    /** Decodes objects one after the other. */
    private static final class Reader {
        private final byte[] in;
        int at;

        Reader(byte[] in) {
            this.in = in;
        }

        LuaValue decode() {
            int b = u8();
            if (b <= 0x7f) {
                return LuaValue.valueOf(b);
            }
            if (b >= 0xe0) {
                return LuaValue.valueOf(b - 256);
            }
            if ((b & 0xe0) == 0xa0) {
                return string(b & 0x1f);
            }
            if ((b & 0xf0) == 0x90) {
                return array(b & 0x0f);
            }
            if ((b & 0xf0) == 0x80) {
                return map(b & 0x0f);
            }
            switch (b) {
                case 0xc0: return LuaValue.NIL;
                case 0xc2: return LuaValue.FALSE;
                case 0xc3: return LuaValue.TRUE;
                case 0xc4: case 0xd9: return string((int) big(1));
                case 0xc5: case 0xda: return string((int) big(2));
                case 0xc6: case 0xdb: return string((int) big(4));
                case 0xca: return LuaValue.valueOf(Float.intBitsToFloat((int) big(4)));
                case 0xcb: return LuaValue.valueOf(Double.longBitsToDouble(big(8)));
                case 0xcc: return LuaValue.valueOf(big(1));
                case 0xcd: return LuaValue.valueOf(big(2));
                case 0xce: return LuaValue.valueOf(big(4));
                case 0xcf: // lua-cmsgpack reads uint64 as a signed int64: 2^64-1 is -1
                case 0xd0: return LuaValue.valueOf((byte) big(1));
                case 0xd1: return LuaValue.valueOf((short) big(2));
                case 0xd2: return LuaValue.valueOf((int) big(4));
                case 0xd3: return LuaValue.valueOf((double) big(8));
                case 0xdc: return array((int) big(2));
                case 0xdd: return array((int) big(4));
                case 0xde: return map((int) big(2));
                case 0xdf: return map((int) big(4));
                default:
                    throw new LuaError("Bad data format in input.");
            }
        }

        private int u8() {
            if (at >= in.length) {
                throw new LuaError("Missing bytes in input.");
            }
            return in[at++] & 0xff;
        }

        private long big(int bytes) {
            long v = 0;
            for (int i = 0; i < bytes; i++) {
                v = (v << 8) | u8();
            }
            return v;
        }

        private LuaValue string(int len) {
            if (len < 0 || at + len > in.length) {
                throw new LuaError("Missing bytes in input.");
            }
            LuaString s = LuaString.valueOf(java.util.Arrays.copyOfRange(in, at, at + len));
            at += len;
            return s;
        }

        private LuaValue array(int n) {
            LuaTable t = new LuaTable(Math.min(n, 1024), 0);
            for (int i = 1; i <= n; i++) {
                t.rawset(i, decode());
            }
            return t;
        }

        private LuaValue map(int n) {
            LuaTable t = new LuaTable(0, Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
                LuaValue k = decode();
                LuaValue v = decode();
                if (!k.isnil()) {
                    t.rawset(k, v);
                }
            }
            return t;
        }
    }
}
