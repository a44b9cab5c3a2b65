package dev.ebb.server.script;

import java.lang.reflect.Field;
import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.lib.DebugLib;

/**
 * The Lua 5.1 text of an error raised by a VM instruction, with the variable named as Lua's
 * {@code luaG_typeerror} names it: {@code attempt to call local 'f' (a nil value)},
 * {@code attempt to index field 'y' (a nil value)}, {@code attempt to perform arithmetic on a
 * string value}, {@code attempt to concatenate global 'x' (a table value)}, {@code attempt to
 * compare number with string}, {@code table index is nil}. LuaJ words these its own way
 * ({@code attempt to call nil}, {@code attempt to index ? (a nil value)}, {@code attempt to perform
 * arithmetic __add on nil and number}).
 *
 * <p>It reads the failing instruction and its operands (the frame's registers, which
 * {@link ScriptWatchdog} keeps) when the error first leaves a Lua function, and answers only when
 * the operands show that the instruction itself must fail (no metatable could have been involved):
 * an error raised by a library function, a metamethod or a sandbox table keeps its own text. The
 * variable's name comes from LuaJ's port of Lua's symbolic execution ({@link DebugLib#getobjname}).
 * Costs nothing until an error. Stateless.
 */
final class LuaRuntimeErrors {
    private static final Field NAME;
    private static final Field NAMEWHAT;

    static {
        try {
            Class<?> nameWhat = Class.forName("org.luaj.vm2.lib.DebugLib$NameWhat");
            NAME = nameWhat.getDeclaredField("name");
            NAMEWHAT = nameWhat.getDeclaredField("namewhat");
            NAME.setAccessible(true);
            NAMEWHAT.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private LuaRuntimeErrors() {
    }

    /** The message for the instruction at {@code pc} of {@code p}, or null when it did not fail by itself. */
    static String describe(Prototype p, int pc, LuaValue[] stack) {
        if (p == null || stack == null || pc < 0 || pc >= p.code.length) {
            return null;
        }
        int i = p.code[pc];
        int a = Lua.GETARG_A(i);
        int b = Lua.GETARG_B(i);
        int c = Lua.GETARG_C(i);
        switch (Lua.GET_OPCODE(i)) {
            case Lua.OP_CALL:
            case Lua.OP_TAILCALL:
                return register(stack, a).isfunction() || hasMeta(register(stack, a)) ? null
                        : typeError(p, pc, a, register(stack, a), "call");
            case Lua.OP_GETTABLE:
            case Lua.OP_SELF:
                return indexable(register(stack, b)) ? null : typeError(p, pc, b, register(stack, b), "index");
            case Lua.OP_SETTABLE: {
                LuaValue t = register(stack, a);
                if (!indexable(t)) {
                    return typeError(p, pc, a, t, "index");
                }
                LuaValue key = rk(p, stack, b);
                if (t.istable() && !hasMeta(t) && key.isnil()) {
                    return "table index is nil";
                }
                if (t.istable() && !hasMeta(t) && key.type() == LuaValue.TNUMBER && Double.isNaN(key.todouble())) {
                    return "table index is NaN";
                }
                return null;
            }
            case Lua.OP_ADD:
            case Lua.OP_SUB:
            case Lua.OP_MUL:
            case Lua.OP_DIV:
            case Lua.OP_MOD:
            case Lua.OP_POW: {
                LuaValue l = rk(p, stack, b);
                LuaValue r = rk(p, stack, c);
                if (hasMeta(l) || hasMeta(r)) {
                    return null;
                }
                // As luaG_aritherror: the first operand that is not a number (nor a numeric string).
                if (!numeric(l)) {
                    return typeError(p, pc, Lua.ISK(b) ? -1 : b, l, "perform arithmetic on");
                }
                return numeric(r) ? null : typeError(p, pc, Lua.ISK(c) ? -1 : c, r, "perform arithmetic on");
            }
            case Lua.OP_UNM:
                return numeric(register(stack, b)) || hasMeta(register(stack, b)) ? null
                        : typeError(p, pc, b, register(stack, b), "perform arithmetic on");
            case Lua.OP_LEN: {
                LuaValue v = register(stack, b);
                return v.istable() || v.type() == LuaValue.TSTRING || hasMeta(v) ? null
                        : typeError(p, pc, b, v, "get length of");
            }
            case Lua.OP_CONCAT:
                return concatError(p, pc, stack, b, c);
            case Lua.OP_LT:
            case Lua.OP_LE:
                return orderError(rk(p, stack, b), rk(p, stack, c));
            default:
                return null;
        }
    }

    /** As luaV_concat: pairs from the right; the first operand of a failing pair that is not a string or number. */
    private static String concatError(Prototype p, int pc, LuaValue[] stack, int from, int to) {
        for (int k = from; k <= to; k++) {
            if (hasMeta(register(stack, k))) {
                return null;
            }
        }
        boolean rightOk = stringy(register(stack, to));
        for (int k = to - 1; k >= from; k--) {
            LuaValue left = register(stack, k);
            if (!stringy(left)) {
                return typeError(p, pc, k, left, "concatenate");
            }
            if (!rightOk) {
                return typeError(p, pc, k + 1 == to ? to : -1, register(stack, to), "concatenate");
            }
        }
        return null;
    }

    /** As luaG_ordererror; null when the comparison is legal or a metamethod may decide it. */
    private static String orderError(LuaValue l, LuaValue r) {
        if (l.type() == r.type() && (l.type() == LuaValue.TNUMBER || l.type() == LuaValue.TSTRING)) {
            return null;
        }
        if (hasMeta(l) || hasMeta(r)) {
            return null;
        }
        String t1 = l.typename();
        String t2 = r.typename();
        return t1.equals(t2) ? "attempt to compare two " + t1 + " values" : "attempt to compare " + t1 + " with " + t2;
    }

    /** {@code attempt to <op> <kind> '<name>' (a <type> value)}, or {@code attempt to <op> a <type> value} unnamed. */
    private static String typeError(Prototype p, int pc, int reg, LuaValue v, String op) {
        String[] name = reg < 0 ? null : objectName(p, pc, reg);
        if (name == null) {
            return "attempt to " + op + " a " + v.typename() + " value";
        }
        return "attempt to " + op + " " + name[1] + " '" + name[0] + "' (a " + v.typename() + " value)";
    }

    /** {name, kind} as Lua's getobjname finds them (local, global, field, method, upvalue), or null. */
    private static String[] objectName(Prototype p, int pc, int reg) {
        Object found = DebugLib.getobjname(p, pc, reg);
        if (found == null) {
            return null;
        }
        try {
            String kind = (String) NAMEWHAT.get(found);
            String name = (String) NAME.get(found);
            // Lua 5.2's "constant" (a string constant in a register) has no name in Lua 5.1.
            return kind == null || name == null || kind.equals("constant") ? null : new String[] {name, kind};
        } catch (IllegalAccessException e) {
            return null;
        }
    }

    private static LuaValue register(LuaValue[] stack, int r) {
        LuaValue v = r < stack.length ? stack[r] : null;
        return v == null ? LuaValue.NIL : v;
    }

    private static LuaValue rk(Prototype p, LuaValue[] stack, int x) {
        return Lua.ISK(x) ? p.k[Lua.INDEXK(x)] : register(stack, x);
    }

    private static boolean indexable(LuaValue v) {
        return v.istable() || v.type() == LuaValue.TSTRING || hasMeta(v);
    }

    private static boolean hasMeta(LuaValue v) {
        return v.type() != LuaValue.TSTRING && v.getmetatable() != null;
    }

    private static boolean numeric(LuaValue v) {
        return v.type() == LuaValue.TNUMBER || (v.type() == LuaValue.TSTRING && !v.tonumber().isnil());
    }

    private static boolean stringy(LuaValue v) {
        return v.type() == LuaValue.TSTRING || v.type() == LuaValue.TNUMBER;
    }
}
