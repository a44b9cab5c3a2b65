package dev.ebb.server.script;

import dev.ebb.server.MemoryGuard;
import dev.ebb.storage.types.RawString;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * The Lua 5.1 functions that Redis's Lua has and LuaJ (a Lua 5.2 implementation) lacks:
 * {@code table.getn}, {@code table.maxn}, {@code table.setn} (an error, "'setn' is obsolete", as in
 * Redis), {@code table.foreach}, {@code table.foreachi}, {@code math.mod}, {@code math.log10} and
 * {@code string.gfind} (the 5.1 alias of {@code string.gmatch}). Real client libraries use them:
 * Redisson's RMapCache eviction script calls {@code table.getn}. Also {@code string.rep} as Lua 5.1
 * has it, see {@link #repeat}. Stateless.
 *
 * <p>Costs: {@code getn} is the length operator (a border search); {@code maxn} and
 * {@code foreach} walk the whole table.
 */
final class Lua51Compat {
    private Lua51Compat() {
    }

    /** Adds the functions to the already loaded {@code table}, {@code math} and {@code string}. */
    static void install(LuaValue globals) {
        LuaValue table = globals.get("table");
        table.rawset("getn", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue t) {
                return valueOf(checkTable(t, 1, "getn").rawlen());
            }
        });
        table.rawset("maxn", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue t) {
                return maxn(checkTable(t, 1, "maxn"));
            }
        });
        table.rawset("setn", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                throw new LuaError("'setn' is obsolete");
            }
        });
        table.rawset("foreach", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                LuaTable t = checkTable(args.arg1(), 1, "foreach");
                LuaValue f = checkFunction(args.arg(2), "foreach");
                LuaValue k = NIL;
                while (true) {
                    Varargs next = t.next(k);
                    k = next.arg1();
                    if (k.isnil()) {
                        return NONE;
                    }
                    LuaValue r = f.call(k, next.arg(2));
                    if (!r.isnil()) {
                        return r;
                    }
                }
            }
        });
        table.rawset("foreachi", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                LuaTable t = checkTable(args.arg1(), 1, "foreachi");
                LuaValue f = checkFunction(args.arg(2), "foreachi");
                int n = t.rawlen();
                for (int i = 1; i <= n; i++) {
                    LuaValue r = f.call(valueOf(i), t.get(i));
                    if (!r.isnil()) {
                        return r;
                    }
                }
                return NONE;
            }
        });
        LuaValue math = globals.get("math");
        math.rawset("mod", math.get("fmod"));
        math.rawset("modf", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                // C's modf: an infinity is all integral part (LuaJ's fraction was inf - inf, NaN).
                double v = args.checkdouble(1);
                double integral = v >= 0 ? Math.floor(v) : Math.ceil(v);
                double fraction = Double.isInfinite(v) ? Math.copySign(0.0, v) : v - integral;
                return varargsOf(valueOf(integral), valueOf(fraction));
            }
        });
        math.rawset("log10", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue x) {
                return valueOf(Math.log10(x.checkdouble()));
            }
        });
        LuaValue string = globals.get("string");
        string.rawset("gfind", string.get("gmatch"));
        string.rawset("rep", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return repeat(args.checkstring(1), args.checkint(2));
            }
        });
    }

    private static LuaValue maxn(LuaTable t) {
        double max = 0;
        LuaValue k = LuaValue.NIL;
        while (true) {
            k = t.next(k).arg1();
            if (k.isnil()) {
                return LuaValue.valueOf(max);
            }
            if (k.isnumber() && k.type() == LuaValue.TNUMBER && k.todouble() > max) {
                max = k.todouble();
            }
        }
    }

    private static LuaTable checkTable(LuaValue v, int arg, String function) {
        if (!v.istable()) {
            throw new LuaError("bad argument #" + arg + " to '" + function + "' (table expected, got " + v.typename() + ")");
        }
        return (LuaTable) v;
    }

    private static LuaValue checkFunction(LuaValue v, String function) {
        if (!v.isfunction()) {
            throw new LuaError("bad argument #2 to '" + function + "' (function expected, got " + v.typename() + ")");
        }
        return v;
    }

    /**
     * Lua 5.1's {@code string.rep(s, n)}: {@code n} is truncated to a C int, so 2^31 wraps to a
     * negative count and gives the empty string, as in Redis (LuaJ's own rep would fail on the
     * overflowing size). A result the heap cannot hold raises OutOfMemoryError before anything is
     * allocated, which the script runner answers with OOM where Redis would build the string.
     * O(length of the result), filled by doubling copies.
     */
    static LuaValue repeat(LuaString s, int n) {
        int unit = s.length();
        if (n <= 0 || unit == 0) {
            return LuaValue.EMPTYSTRING;
        }
        long total = (long) unit * n;
        byte[] out = total > RawString.MAX_LENGTH ? null : MemoryGuard.tryAllocate((int) total);
        if (out == null) {
            throw new OutOfMemoryError("string.rep result of " + total + " bytes does not fit in the heap");
        }
        s.copyInto(0, out, 0, unit);
        for (int filled = unit; filled < out.length; ) {
            int chunk = Math.min(filled, out.length - filled);
            System.arraycopy(out, 0, out, filled, chunk);
            filled += chunk;
        }
        return LuaString.valueUsing(out);
    }
}
