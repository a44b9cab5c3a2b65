package dev.ebb.server.script;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Lua 5.1's argument checks for the standard library, so that a misused function fails with the
 * words of Redis's Lua ({@code bad argument #2 to 'sub' (number expected, got no value)}) where
 * LuaJ says {@code bad argument: number expected, got nil}; and the base and table functions whose
 * results differ between Lua 5.1 and LuaJ, rewritten: {@code tonumber} (C's strtod and strtoul,
 * see {@link LuaNumbers#parse}), {@code select}, {@code unpack} (at most 8,000 results, Lua's C
 * stack limit), {@code table.concat} and {@code table.insert}.
 *
 * <p>Each checked function is wrapped: the wrapper checks the arguments against a signature, one
 * letter an argument, a leading {@code *} checking every argument as the letter after it ({@code s} string or number, {@code n} number or numeric string, {@code t}
 * table, {@code f} function, {@code a} any value; upper case when optional; a trailing {@code *}
 * checks every further argument as the letter before it), then calls LuaJ's function. The name is
 * the one the function has in its library; Lua names it as the caller spelled it, so an alias
 * ({@code local f = string.sub}) still reads {@code 'sub'} here. Cost: a type test an argument.
 * Stateless.
 */
final class LuaArgChecks {
    /** Lua 5.1's LUAI_MAXCSTACK: how many values a C function may push. */
    private static final int MAX_RESULTS = 8000;

    private static final LuaValue NIL = LuaValue.NIL;
    /** The functions with checks of their own ({@link Checked#checkSpecial}). */
    private static final java.util.Set<String> SPECIAL = java.util.Set.of("setmetatable", "find", "match", "gmatch",
            "gfind", "gsub", "random");

    private LuaArgChecks() {
    }

    /** Wraps the functions of the loaded base, string, math and table libraries in {@code g}. */
    static void install(LuaValue g) {
        for (String spec : new String[] {"assert a", "getmetatable a", "ipairs t", "pairs t", "next t", "rawget ta",
                "rawset taa", "rawequal aa", "setmetatable t", "tostring a", "type a", "loadstring sS", "load sS"}) {
            wrap(g, spec);
        }
        LuaValue string = g.get("string");
        for (String spec : new String[] {"byte sNN", "char *n", "find ssN", "format s", "gmatch ss", "gfind ss",
                "gsub ss", "len s", "lower s", "match ssN", "rep sn", "reverse s", "sub snN", "upper s"}) {
            wrap(string, spec);
        }
        LuaValue math = g.get("math");
        for (String spec : new String[] {"abs n", "ceil n", "floor n", "sqrt n", "sin n", "cos n", "tan n", "asin n",
                "acos n", "atan n", "exp n", "log n", "log10 n", "deg n", "rad n", "cosh n", "sinh n", "tanh n",
                "frexp n", "modf n", "atan2 nn", "fmod nn", "mod nn", "pow nn", "ldexp nn", "max n*", "min n*",
                "random NN", "randomseed n"}) {
            wrap(math, spec);
        }
        LuaValue table = g.get("table");
        for (String spec : new String[] {"remove tN", "sort tF", "getn t", "maxn t", "foreach tf", "foreachi tf"}) {
            wrap(table, spec);
        }
        g.rawset("tonumber", new ToNumber());
        g.rawset("select", new Select());
        g.rawset("unpack", new Unpack());
        // Lua 5.2's, absent from Lua 5.1.
        g.rawset("rawlen", NIL);
        table.rawset("pack", NIL);
        table.rawset("unpack", NIL);
        table.rawset("concat", new Concat());
        table.rawset("insert", new Insert());
    }

    private static void wrap(LuaValue library, String spec) {
        int space = spec.indexOf(' ');
        String name = spec.substring(0, space);
        LuaValue fn = library.get(name);
        if (fn.isfunction()) {
            library.rawset(name, new Checked(name, spec.substring(space + 1), fn));
        }
    }

    /** {@code bad argument #n to 'name' (message)}. */
    static LuaError argError(int n, String name, String message) {
        return new LuaError("bad argument #" + n + " to '" + name + "' (" + message + ")");
    }

    /** {@code bad argument #n to 'name' (T expected, got U)}, U being "no value" past the last argument. */
    static LuaError typeError(Varargs args, int n, String name, String expected) {
        String got = n > args.narg() ? "no value" : args.arg(n).typename();
        return argError(n, name, expected + " expected, got " + got);
    }

    /** luaL_checknumber: a number, or a string that converts to one. */
    static double checkNumber(Varargs args, int n, String name) {
        LuaValue v = args.arg(n);
        if (v.type() == LuaValue.TNUMBER) {
            return v.todouble();
        }
        if (v.type() == LuaValue.TSTRING) {
            LuaString s = (LuaString) v.strvalue();
            Double d = LuaNumbers.parse(s.m_bytes, s.m_offset, s.m_length);
            if (d != null) {
                return d;
            }
        }
        throw typeError(args, n, name, "number");
    }

    /** luaL_checkint: the number truncated to an int, as C's cast. */
    static int checkInt(Varargs args, int n, String name) {
        return (int) LuaNumbers.toLong(checkNumber(args, n, name));
    }

    static LuaString checkString(Varargs args, int n, String name) {
        LuaValue v = args.arg(n);
        if (v.type() == LuaValue.TSTRING || v.type() == LuaValue.TNUMBER) {
            return (LuaString) v.strvalue();
        }
        throw typeError(args, n, name, "string");
    }

    static LuaTable checkTable(Varargs args, int n, String name) {
        LuaValue v = args.arg(n);
        if (v.istable()) {
            return (LuaTable) v;
        }
        throw typeError(args, n, name, "table");
    }

    /** A library function behind Lua 5.1's checks of its arguments. */
    private static final class Checked extends VarArgFunction {
        private final String signature;
        private final LuaValue target;

        // For the calls LuaJ makes without a Varargs (one to three arguments): the letter of each
        // argument, how many arguments are required, and whether only those letters are checked.
        private final char[] letters = new char[3];
        private final int required;
        private final boolean plain;

        Checked(String name, String signature, LuaValue target) {
            this.name = name;
            this.signature = signature;
            this.target = target;
            int last = 0;
            for (int i = 0; i < 3; i++) {
                letters[i] = letter(signature, i + 1);
                if (i < signature.length() && Character.isLowerCase(signature.charAt(i)) && !signature.startsWith("*")) {
                    last = i + 1;
                }
            }
            this.required = last;
            this.plain = !SPECIAL.contains(name);
        }

        /** The letter that checks argument {@code i}, or 0 for none. */
        private static char letter(String signature, int i) {
            if (signature.startsWith("*")) {
                return signature.charAt(1);
            }
            if (i <= signature.length() && signature.charAt(i - 1) != '*') {
                return signature.charAt(i - 1);
            }
            return signature.endsWith("*") ? signature.charAt(signature.length() - 2) : 0;
        }

        /** Whether {@code v} certainly passes the check of letter {@code c} (false: take the full path). */
        private static boolean passes(LuaValue v, char c) {
            switch (c) {
                case 0: case 'a': case 'A':
                    return true;
                case 's':
                    return v.type() == LuaValue.TSTRING || v.type() == LuaValue.TNUMBER;
                case 'n':
                    return v.type() == LuaValue.TNUMBER;
                case 't':
                    return v.istable();
                case 'f':
                    return v.isfunction();
                default:
                    return v.isnil() || passes(v, Character.toLowerCase(c));
            }
        }

        @Override
        public LuaValue call() {
            if (required == 0 && plain) {
                try {
                    return target.call();
                } catch (LuaError e) {
                    throw named(e);
                }
            }
            return invoke(NONE).arg1();
        }

        @Override
        public LuaValue call(LuaValue a) {
            if (required <= 1 && plain && passes(a, letters[0])) {
                try {
                    return target.call(a);
                } catch (LuaError e) {
                    throw named(e);
                }
            }
            return invoke(a).arg1();
        }

        @Override
        public LuaValue call(LuaValue a, LuaValue b) {
            if (required <= 2 && plain && passes(a, letters[0]) && passes(b, letters[1])) {
                try {
                    return target.call(a, b);
                } catch (LuaError e) {
                    throw named(e);
                }
            }
            return invoke(varargsOf(a, b)).arg1();
        }

        @Override
        public LuaValue call(LuaValue a, LuaValue b, LuaValue c) {
            if (plain && passes(a, letters[0]) && passes(b, letters[1]) && passes(c, letters[2])) {
                try {
                    return target.call(a, b, c);
                } catch (LuaError e) {
                    throw named(e);
                }
            }
            return invoke(varargsOf(a, b, c)).arg1();
        }


        @Override
        public Varargs invoke(Varargs args) {
            int n = Math.max(signature.length(), args.narg());
            for (int i = 1; i <= n; i++) {
                char c;
                if (signature.startsWith("*")) {
                    if (i > args.narg()) {
                        break;
                    }
                    c = signature.charAt(1);
                } else if (i <= signature.length() && signature.charAt(i - 1) != '*') {
                    c = signature.charAt(i - 1);
                } else if (signature.endsWith("*") && i <= args.narg()) {
                    c = signature.charAt(signature.length() - 2);
                } else {
                    break;
                }
                check(args, i, c);
            }
            checkSpecial(args);
            try {
                return target.invoke(args);
            } catch (LuaError e) {
                throw named(e);
            }
        }

        /** LuaJ's {@code bad argument #2: interval is empty} gets the function's name, as Lua's. */
        private LuaError named(LuaError e) {
            String m = e.getMessageObject() == null ? null : e.getMessageObject().tojstring();
            if (m == null || !m.startsWith("bad argument #") || m.indexOf(": ") < 0 || m.contains(" to '")) {
                return e;
            }
            int colon = m.indexOf(": ");
            return new LuaError(m.substring(0, colon) + " to '" + name + "' (" + m.substring(colon + 2) + ")");
        }

        /** The checks Lua 5.1 words its own way. */
        private void checkSpecial(Varargs args) {
            switch (name) {
                case "setmetatable":
                    if (args.narg() < 2 || !(args.arg(2).isnil() || args.arg(2).istable())) {
                        throw argError(2, name, "nil or table expected");
                    }
                    return;
                case "find":
                case "match":
                case "gmatch":
                case "gfind":
                case "gsub":
                    checkPattern(args.arg(2).strvalue());
                    if (!name.equals("gsub")) {
                        return;
                    }
                    int t = args.arg(3).type();
                    if (t != LuaValue.TSTRING && t != LuaValue.TNUMBER && t != LuaValue.TTABLE && t != LuaValue.TFUNCTION) {
                        throw argError(3, name, "string/function/table expected");
                    }
                    return;
                case "random":
                    if (args.narg() > 2) {
                        throw new LuaError("wrong number of arguments");
                    }
                    return;
                default:
            }
        }

        private void check(Varargs args, int i, char c) {
            LuaValue v = args.arg(i);
            if (Character.isUpperCase(c) && v.isnil()) {
                return;
            }
            switch (Character.toLowerCase(c)) {
                case 's':
                    checkString(args, i, name);
                    return;
                case 'n':
                    checkNumber(args, i, name);
                    return;
                case 't':
                    checkTable(args, i, name);
                    return;
                case 'f':
                    if (!v.isfunction()) {
                        throw typeError(args, i, name, "function");
                    }
                    return;
                default:
                    if (i > args.narg()) {
                        throw argError(i, name, "value expected");
                    }
            }
        }
    }

    /**
     * The malformed patterns LuaJ's matcher fails on with an array index error: a pattern ending
     * in {@code %} and a set without its {@code ]}, refused with Lua 5.1's messages.
     */
    static void checkPattern(LuaString p) {
        int n = p.length();
        for (int i = 0; i < n; i++) {
            int c = p.luaByte(i);
            if (c == '%') {
                if (i + 1 >= n) {
                    throw new LuaError("malformed pattern (ends with '%')");
                }
                i++;
                if (p.luaByte(i) == 'b') {
                    i += 2; // %bxy: two characters taken as they are
                }
            } else if (c == '[') {
                int k = i + 1;
                if (k < n && p.luaByte(k) == '^') {
                    k++;
                }
                // As Lua's classEnd: the first character of a set may be ']'.
                do {
                    if (k >= n) {
                        throw new LuaError("malformed pattern (missing ']')");
                    }
                    int d = p.luaByte(k++);
                    if (d == '%') {
                        if (k >= n) {
                            throw new LuaError("malformed pattern (missing ']')");
                        }
                        k++;
                    }
                } while (k >= n || p.luaByte(k) != ']');
                i = k;
            }
        }
    }

    /** Lua 5.1's {@code tonumber(e [, base])}. */
    private static final class ToNumber extends VarArgFunction {
        ToNumber() {
            name = "tonumber";
        }

        @Override
        public Varargs invoke(Varargs args) {
            int base = args.arg(2).isnil() ? 10 : checkInt(args, 2, name);
            if (base == 10) {
                if (args.narg() < 1) {
                    throw argError(1, name, "value expected");
                }
                LuaValue v = args.arg1();
                if (v.type() == LuaValue.TNUMBER) {
                    return v;
                }
                if (v.type() == LuaValue.TSTRING) {
                    LuaString s = (LuaString) v;
                    Double d = LuaNumbers.parse(s.m_bytes, s.m_offset, s.m_length);
                    return d == null ? NIL : valueOf(d);
                }
                return NIL;
            }
            LuaString s = checkString(args, 1, name);
            if (base < 2 || base > 36) {
                throw argError(2, name, "base out of range");
            }
            Double d = LuaNumbers.parseUnsigned(s.m_bytes, s.m_offset, s.m_length, base);
            return d == null ? NIL : valueOf(d);
        }
    }

    /** Lua 5.1's {@code select(n, ...)}. */
    private static final class Select extends VarArgFunction {
        Select() {
            name = "select";
        }

        @Override
        public Varargs invoke(Varargs args) {
            int n = args.narg();
            LuaValue first = args.arg1();
            if (first.type() == LuaValue.TSTRING && first.strvalue().length() > 0 && first.strvalue().luaByte(0) == '#') {
                return valueOf(n - 1);
            }
            int i = checkInt(args, 1, name);
            if (i < 0) {
                i = n + i;
            } else if (i > n) {
                i = n;
            }
            if (i < 1) {
                throw argError(1, name, "index out of range");
            }
            return args.subargs(i + 1);
        }
    }

    /** Lua 5.1's {@code unpack(t [, i [, j]])}: raw reads; more than the C stack holds is an error. */
    private static final class Unpack extends VarArgFunction {
        Unpack() {
            name = "unpack";
        }

        @Override
        public Varargs invoke(Varargs args) {
            LuaTable t = checkTable(args, 1, name);
            int i = args.arg(2).isnil() ? 1 : checkInt(args, 2, name);
            int j = args.arg(3).isnil() ? t.length() : checkInt(args, 3, name);
            if (i > j) {
                return NONE;
            }
            long n = (long) j - i + 1;
            if (n >= Integer.MAX_VALUE || n + args.narg() > MAX_RESULTS) {
                throw new LuaError("too many results to unpack");
            }
            LuaValue[] values = new LuaValue[(int) n];
            for (int k = 0; k < n; k++) {
                values[k] = t.rawget(i + k);
            }
            return varargsOf(values);
        }
    }

    /** Lua 5.1's {@code table.concat(t [, sep [, i [, j]]])}: strings and numbers only. */
    private static final class Concat extends VarArgFunction {
        Concat() {
            name = "concat";
        }

        @Override
        public Varargs invoke(Varargs args) {
            LuaTable t = checkTable(args, 1, name);
            LuaString sep = args.arg(2).isnil() ? EMPTYSTRING : checkString(args, 2, name);
            int i = args.arg(3).isnil() ? 1 : checkInt(args, 3, name);
            int j = args.arg(4).isnil() ? t.length() : checkInt(args, 4, name);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            for (long k = i; k <= j; k++) {
                LuaValue v = t.rawget((int) k);
                if (v.type() != LuaValue.TSTRING && v.type() != LuaValue.TNUMBER) {
                    throw new LuaError("invalid value (" + v.typename() + ") at index " + k + " in table for 'concat'");
                }
                LuaString s = (LuaString) v.strvalue();
                out.write(s.m_bytes, s.m_offset, s.m_length);
                if (k != j) {
                    out.write(sep.m_bytes, sep.m_offset, sep.m_length);
                }
            }
            return LuaString.valueUsing(out.toByteArray());
        }
    }

    /** Lua 5.1's {@code table.insert(t, [pos,] v)}: two or three arguments; a position past the end grows it. */
    private static final class Insert extends VarArgFunction {
        Insert() {
            name = "insert";
        }

        @Override
        public Varargs invoke(Varargs args) {
            LuaTable t = checkTable(args, 1, name);
            int e = t.length() + 1;
            int pos;
            switch (args.narg()) {
                case 2:
                    pos = e;
                    break;
                case 3:
                    pos = checkInt(args, 2, name);
                    if (pos > e) {
                        e = pos;
                    }
                    for (int i = e; i > pos; i--) {
                        t.rawset(i, t.rawget(i - 1));
                    }
                    break;
                default:
                    throw new LuaError("wrong number of arguments to 'insert'");
            }
            t.rawset(pos, args.arg(args.narg()));
            return NONE;
        }
    }
}
