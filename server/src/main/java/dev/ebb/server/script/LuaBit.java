package dev.ebb.server.script;

import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * The {@code bit} library of Redis's Lua (LuaBitOp): 32-bit operations on numbers. Arguments are
 * normalised as LuaBitOp does (rounded to the nearest integer, reduced modulo 2^32, read as signed)
 * and results are signed 32-bit numbers. Shift counts use their low five bits. Stateless.
 */
final class LuaBit {
    private LuaBit() {
    }

    static LuaTable library() {
        LuaTable bit = new LuaTable();
        for (Op op : Op.values()) {
            bit.rawset(op.name().toLowerCase(java.util.Locale.ROOT), new Function(op));
        }
        return bit;
    }

    /** LuaBitOp's argument rule: round half to even, then keep the low 32 bits. */
    static int toBit(Varargs args, int i, String name) {
        double d = LuaArgChecks.checkNumber(args, i, name);
        return (int) (long) Math.rint(d % 4294967296.0);
    }

    private enum Op { TOBIT, BNOT, BAND, BOR, BXOR, LSHIFT, RSHIFT, ARSHIFT, ROL, ROR, BSWAP, TOHEX }

    private static final class Function extends VarArgFunction {
        private final Op op;

        Function(Op op) {
            this.op = op;
            this.name = op.name().toLowerCase(java.util.Locale.ROOT);
        }

        @Override
        public Varargs invoke(Varargs args) {
            int x = toBit(args, 1, name);
            switch (op) {
                case TOBIT:
                    return valueOf(x);
                case BNOT:
                    return valueOf(~x);
                case BAND:
                    for (int i = 2; i <= args.narg(); i++) {
                        x &= toBit(args, i, name);
                    }
                    return valueOf(x);
                case BOR:
                    for (int i = 2; i <= args.narg(); i++) {
                        x |= toBit(args, i, name);
                    }
                    return valueOf(x);
                case BXOR:
                    for (int i = 2; i <= args.narg(); i++) {
                        x ^= toBit(args, i, name);
                    }
                    return valueOf(x);
                case LSHIFT:
                    return valueOf(x << (toBit(args, 2, name) & 31));
                case RSHIFT:
                    return valueOf(x >>> (toBit(args, 2, name) & 31));
                case ARSHIFT:
                    return valueOf(x >> (toBit(args, 2, name) & 31));
                case ROL:
                    return valueOf(Integer.rotateLeft(x, toBit(args, 2, name) & 31));
                case ROR:
                    return valueOf(Integer.rotateRight(x, toBit(args, 2, name) & 31));
                case BSWAP:
                    return valueOf(Integer.reverseBytes(x));
                default:
                    return tohex(x, args.isnoneornil(2) ? 8 : toBit(args, 2, name));
            }
        }

        private static LuaValue tohex(int x, int digits) {
            boolean upper = digits < 0;
            int n = Math.min(Math.abs(digits), 8);
            String hex = String.format("%08x", x);
            hex = hex.substring(8 - n);
            return valueOf(upper ? hex.toUpperCase(java.util.Locale.ROOT) : hex);
        }
    }
}
