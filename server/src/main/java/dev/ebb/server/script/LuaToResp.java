package dev.ebb.server.script;

import dev.ebb.resp.RespWriter;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * Writes a script's return value as the caller's reply, with Redis's Lua-to-RESP rules: string to
 * bulk, number to integer (truncated toward zero; NaN and beyond 64 bits become -2^63, as C's cast on x86-64), {@code true} to 1 and {@code false}/nil to the
 * null bulk (RESP3 scripts, after {@code redis.setresp(3)}, send real booleans and null), a table
 * with an {@code err} field to an error, with {@code ok} to a status, with {@code double},
 * {@code big_number}, {@code map} or {@code set} to those RESP3 types, any other table to an array
 * of its elements 1, 2, ... up to the first nil. Thread-safe (stateless).
 */
final class LuaToResp {
    private static final LuaString DOUBLE = LuaString.valueOf("double");
    private static final LuaString BIG_NUMBER = LuaString.valueOf("big_number");
    private static final LuaString MAP = LuaString.valueOf("map");
    private static final LuaString SET = LuaString.valueOf("set");
    /** Nesting deeper than this (or a table that contains itself) ends in an error, as Redis's Lua stack limit. */
    private static final int MAX_DEPTH = 1000;

    private LuaToResp() {
    }

    /** Writes {@code v}; {@code scriptResp} is the protocol the script chose with {@code redis.setresp}. */
    static void write(RespWriter out, LuaValue v, int scriptResp) {
        write(out, v, scriptResp, 0);
    }

    private static void write(RespWriter out, LuaValue v, int scriptResp, int depth) {
        switch (v.type()) {
            case LuaValue.TSTRING:
                LuaString s = (LuaString) v.strvalue();
                out.bulk(s.m_bytes, s.m_offset, s.m_length);
                return;
            case LuaValue.TNUMBER:
                out.integer(LuaNumbers.toLong(v.todouble()));
                return;
            case LuaValue.TBOOLEAN:
                if (scriptResp == 3) {
                    out.bool(v.toboolean());
                } else if (v.toboolean()) {
                    out.integer(1);
                } else {
                    out.nullBulk();
                }
                return;
            case LuaValue.TTABLE:
                writeTable(out, (LuaTable) v, scriptResp, depth);
                return;
            default:
                out.nullBulk();
        }
    }

    private static void writeTable(RespWriter out, LuaTable t, int scriptResp, int depth) {
        if (depth >= MAX_DEPTH) {
            out.error("ERR reached lua stack limit");
            return;
        }
        LuaValue err = t.rawget(RespToLua.ERR);
        if (err.type() == LuaValue.TSTRING) {
            if (t.rawget(RespToLua.COUNTED).toboolean()) {
                out.repeatedError(err.tojstring());
            } else {
                out.error(err.tojstring());
            }
            return;
        }
        LuaValue ok = t.rawget(RespToLua.OK);
        if (ok.type() == LuaValue.TSTRING) {
            out.simple(ok.tojstring());
            return;
        }
        LuaValue d = t.rawget(DOUBLE);
        if (d.isnumber()) {
            out.doubleValue(d.todouble());
            return;
        }
        LuaValue big = t.rawget(BIG_NUMBER);
        if (big.isstring()) {
            out.bigNumber(big.tojstring());
            return;
        }
        LuaValue map = t.rawget(MAP);
        if (map.istable()) {
            writeMap(out, (LuaTable) map, scriptResp, depth);
            return;
        }
        LuaValue set = t.rawget(SET);
        if (set.istable()) {
            writeSet(out, (LuaTable) set);
            return;
        }
        int n = 0;
        while (!t.rawget(n + 1).isnil()) {
            n++;
        }
        out.arrayHeader(n);
        for (int i = 1; i <= n; i++) {
            write(out, t.rawget(i), scriptResp, depth + 1);
        }
    }

    private static void writeMap(RespWriter out, LuaTable map, int scriptResp, int depth) {
        int n = 0;
        for (Varargs e = map.next(LuaValue.NIL); !e.arg1().isnil(); e = map.next(e.arg1())) {
            n++;
        }
        out.mapHeader(n);
        for (Varargs e = map.next(LuaValue.NIL); !e.arg1().isnil(); e = map.next(e.arg1())) {
            write(out, e.arg1(), scriptResp, depth + 1);
            write(out, e.arg(2), scriptResp, depth + 1);
        }
    }

    private static void writeSet(RespWriter out, LuaTable set) {
        int n = 0;
        for (Varargs e = set.next(LuaValue.NIL); !e.arg1().isnil(); e = set.next(e.arg1())) {
            n++;
        }
        out.setHeader(n);
        for (Varargs e = set.next(LuaValue.NIL); !e.arg1().isnil(); e = set.next(e.arg1())) {
            write(out, e.arg1(), 2, 0);
        }
    }
}
