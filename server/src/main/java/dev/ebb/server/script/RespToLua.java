package dev.ebb.server.script;

import io.netty.buffer.ByteBuf;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * Turns the reply a command wrote for the script client into the Lua value {@code redis.call}
 * returns, with Redis's conversion rules.
 *
 * <p>Commands write RESP (they know no other reply form), so a call inside a script encodes its
 * reply and this class reads it back, straight from the buffer into Lua values with no
 * intermediate objects. RESP2: integer to number, bulk to string, null bulk and null array to
 * {@code false}, array to table, status to {@code {ok=...}}, error to {@code {err=...}}. RESP3 (after
 * {@code redis.setresp(3)}): map to {@code {map={...}}}, set to {@code {set={member=true}}}, null to
 * nil, boolean to boolean, double to {@code {double=n}}, big number to {@code {big_number=s}},
 * verbatim to {@code {verbatim_string={format=..., string=...}}}. Thread-safe (stateless).
 */
final class RespToLua {
    static final LuaString OK = LuaString.valueOf("ok");
    static final LuaString ERR = LuaString.valueOf("err");
    /**
     * Set (true) in the error table of a command a script ran, as Redis 7 does: that error has been
     * counted in INFO errorstats, so the script passing it on to its caller does not count it again.
     */
    static final LuaString COUNTED = LuaString.valueOf("ignore_err_stats_update");
    private static final LuaString MAP = LuaString.valueOf("map");
    private static final LuaString SET = LuaString.valueOf("set");
    private static final LuaString DOUBLE = LuaString.valueOf("double");
    private static final LuaString BIG_NUMBER = LuaString.valueOf("big_number");
    private static final LuaString VERBATIM = LuaString.valueOf("verbatim_string");
    private static final LuaString FORMAT = LuaString.valueOf("format");
    private static final LuaString STRING = LuaString.valueOf("string");

    private RespToLua() {
    }

    /** Reads one complete reply from {@code in}, advancing its reader index past it. */
    static LuaValue read(ByteBuf in) {
        byte type = in.readByte();
        switch (type) {
            case '+':
                return tableWith(OK, LuaString.valueOf(line(in)));
            case '-':
                return tableWith(ERR, LuaString.valueOf(line(in)));
            case ':':
                return LuaValue.valueOf((double) number(in));
            case '$': {
                long len = number(in);
                return len < 0 ? LuaValue.FALSE : bulk(in, (int) len);
            }
            case '*':
            case '>': {
                long n = number(in);
                if (n < 0) {
                    return LuaValue.FALSE;
                }
                LuaTable t = new LuaTable((int) n, 0);
                for (int i = 1; i <= n; i++) {
                    t.rawset(i, read(in));
                }
                return t;
            }
            case '%': {
                long n = number(in);
                LuaTable map = new LuaTable(0, (int) n);
                for (long i = 0; i < n; i++) {
                    LuaValue k = read(in);
                    map.rawset(k, read(in));
                }
                return tableWith(MAP, map);
            }
            case '~': {
                long n = number(in);
                LuaTable set = new LuaTable(0, (int) n);
                for (long i = 0; i < n; i++) {
                    set.rawset(read(in), LuaValue.TRUE);
                }
                return tableWith(SET, set);
            }
            case '_':
                line(in);
                return LuaValue.NIL;
            case '#':
                return LuaValue.valueOf(line(in).equals("t"));
            case ',':
                return tableWith(DOUBLE, LuaValue.valueOf(parseDouble(line(in))));
            case '(':
                return tableWith(BIG_NUMBER, LuaString.valueOf(line(in)));
            case '=': {
                long len = number(in);
                LuaString all = bulk(in, (int) len);
                LuaTable v = new LuaTable();
                v.rawset(FORMAT, all.substring(0, 3));
                v.rawset(STRING, all.substring(4, all.length()));
                return tableWith(VERBATIM, v);
            }
            default:
                throw new IllegalStateException("unexpected reply type byte from a command: " + (char) type);
        }
    }

    static LuaTable tableWith(LuaValue key, LuaValue value) {
        LuaTable t = new LuaTable(0, 1);
        t.rawset(key, value);
        return t;
    }

    private static double parseDouble(String s) {
        switch (s) {
            case "inf":
                return Double.POSITIVE_INFINITY;
            case "-inf":
                return Double.NEGATIVE_INFINITY;
            case "nan":
                return Double.NaN;
            default:
                return Double.parseDouble(s);
        }
    }

    private static LuaString bulk(ByteBuf in, int len) {
        byte[] b = new byte[len];
        in.readBytes(b);
        in.skipBytes(2);
        return LuaString.valueOf(b);
    }

    private static long number(ByteBuf in) {
        boolean negative = false;
        long v = 0;
        byte b = in.readByte();
        if (b == '-') {
            negative = true;
            b = in.readByte();
        }
        while (b != '\r') {
            v = v * 10 + (b - '0');
            b = in.readByte();
        }
        in.skipBytes(1);
        return negative ? -v : v;
    }

    private static String line(ByteBuf in) {
        int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\r');
        String s = in.toString(in.readerIndex(), end - in.readerIndex(), java.nio.charset.StandardCharsets.UTF_8);
        in.readerIndex(end + 2);
        return s;
    }
}
