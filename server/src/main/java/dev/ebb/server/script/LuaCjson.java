package dev.ebb.server.script;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * The {@code cjson} library of Redis's Lua (lua-cjson 2.1 with Redis's defaults):
 * {@code encode(value)}, {@code decode(text)} and the {@code null} sentinel.
 *
 * <p>Encoding: numbers as {@code %.14g}, NaN and infinities refused; strings escaped as lua-cjson
 * does ({@code "}, {@code \}, {@code /}, control characters) with other bytes copied; a table whose
 * keys are all positive integers is an array when not excessively sparse (largest index at most
 * twice the count, or at most 10), holes as {@code null}; any other table is an object with string
 * or number keys; an empty table is {@code {}}; nesting deeper than 1000 is an error.
 * Decoding: JSON to numbers, strings, booleans, tables; {@code null} to {@code cjson.null}. Stateless.
 */
final class LuaCjson {
    static final LuaValue NULL = LuaValue.userdataOf(new Object() {
        @Override
        public String toString() {
            return "cjson.null";
        }
    });
    private static final int MAX_DEPTH = 1000;
    private static final int SPARSE_RATIO = 2;
    private static final int SPARSE_SAFE = 10;

    private LuaCjson() {
    }

    static LuaTable library() {
        LuaTable cjson = new LuaTable();
        cjson.rawset("encode", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) {
                    throw LuaArgChecks.argError(1, "encode", "expected 1 argument");
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                encode(out, args.arg1(), 0);
                return LuaString.valueOf(out.toByteArray());
            }
        });
        cjson.rawset("decode", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) {
                    throw LuaArgChecks.argError(1, "decode", "expected 1 argument");
                }
                return new Decoder(Scripting.bytes(LuaArgChecks.checkString(args, 1, "decode"))).document();
            }
        });
        cjson.rawset("null", NULL);
        return cjson;
    }

    private static void encode(ByteArrayOutputStream out, LuaValue v, int depth) {
        switch (v.type()) {
            case LuaValue.TSTRING:
                encodeString(out, (LuaString) v.strvalue());
                return;
            case LuaValue.TNUMBER: {
                double d = v.todouble();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw new LuaError("Cannot serialise number: must not be NaN or Inf");
                }
                ascii(out, LuaNumbers.toLuaString(d));
                return;
            }
            case LuaValue.TBOOLEAN:
                ascii(out, v.toboolean() ? "true" : "false");
                return;
            case LuaValue.TNIL:
                ascii(out, "null");
                return;
            case LuaValue.TTABLE:
                if (depth + 1 > MAX_DEPTH) {
                    throw new LuaError("Cannot serialise, excessive nesting (" + (depth + 1) + ")");
                }
                encodeTable(out, (LuaTable) v, depth + 1);
                return;
            default:
                if (v == NULL) {
                    ascii(out, "null");
                    return;
                }
                throw new LuaError("Cannot serialise " + v.typename() + ": type not supported");
        }
    }

    private static void encodeTable(ByteArrayOutputStream out, LuaTable t, int depth) {
        int length = arrayLength(t);
        if (length > 0) {
            out.write('[');
            for (int i = 1; i <= length; i++) {
                if (i > 1) {
                    out.write(',');
                }
                encode(out, t.rawget(i), depth);
            }
            out.write(']');
            return;
        }
        out.write('{');
        boolean first = true;
        for (Varargs e = t.next(LuaValue.NIL); !e.arg1().isnil(); e = t.next(e.arg1())) {
            LuaValue key = e.arg1();
            if (key.type() != LuaValue.TSTRING && key.type() != LuaValue.TNUMBER) {
                throw new LuaError("Cannot serialise " + key.typename() + ": table key must be a number or string");
            }
            if (!first) {
                out.write(',');
            }
            first = false;
            encodeString(out, (LuaString) key.strvalue());
            out.write(':');
            encode(out, e.arg(2), depth);
        }
        out.write('}');
    }

    /** The array length if every key is a positive integer and the table is not too sparse; else 0. */
    private static int arrayLength(LuaTable t) {
        int max = 0;
        int count = 0;
        for (Varargs e = t.next(LuaValue.NIL); !e.arg1().isnil(); e = t.next(e.arg1())) {
            LuaValue k = e.arg1();
            if (k.type() != LuaValue.TNUMBER) {
                return 0;
            }
            double d = k.todouble();
            if (d < 1 || d != Math.floor(d)) {
                return 0;
            }
            max = Math.max(max, (int) d);
            count++;
        }
        if (max > SPARSE_SAFE && max > count * SPARSE_RATIO) {
            throw new LuaError("Cannot serialise table: excessively sparse array");
        }
        return max;
    }

    private static void encodeString(ByteArrayOutputStream out, LuaString s) {
        out.write('"');
        for (int i = 0; i < s.length(); i++) {
            int c = s.luaByte(i);
            switch (c) {
                case '"': ascii(out, "\\\""); break;
                case '\\': ascii(out, "\\\\"); break;
                case '/': ascii(out, "\\/"); break;
                case '\b': ascii(out, "\\b"); break;
                case '\f': ascii(out, "\\f"); break;
                case '\n': ascii(out, "\\n"); break;
                case '\r': ascii(out, "\\r"); break;
                case '\t': ascii(out, "\\t"); break;
                default:
                    if (c < 0x20 || c == 0x7f) {
                        ascii(out, String.format("\\u%04x", c));
                    } else {
                        out.write(c);
                    }
            }
        }
        out.write('"');
    }

    private static void ascii(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        out.write(b, 0, b.length);
    }

    /** Recursive-descent JSON parser over bytes; errors name the 1-based character as lua-cjson does. */
    private static final class Decoder {
        private final byte[] in;
        private int at;
        private int depth;

        Decoder(byte[] in) {
            this.in = in;
        }

        LuaValue document() {
            LuaValue v = value();
            skipSpace();
            if (at < in.length) {
                throw error("the end", describe());
            }
            return v;
        }

        private LuaValue value() {
            skipSpace();
            if (at >= in.length) {
                throw error("value", "T_END");
            }
            byte c = in[at];
            switch (c) {
                case '{':
                    return object();
                case '[':
                    return array();
                case '"':
                    return LuaString.valueOf(string());
                case 't':
                    return literal("true", LuaValue.TRUE);
                case 'f':
                    return literal("false", LuaValue.FALSE);
                case 'n':
                    return invalidNumber() ? number() : literal("null", NULL);
                default:
                    if (c == '-' || (c >= '0' && c <= '9') || invalidNumber()) {
                        return number();
                    }
                    throw error("value", describe());
            }
        }

        private LuaValue literal(String word, LuaValue value) {
            byte[] w = word.getBytes(StandardCharsets.US_ASCII);
            if (at + w.length > in.length || !java.util.Arrays.equals(in, at, at + w.length, w, 0, w.length)) {
                throw error("value", "invalid token");
            }
            at += w.length;
            return value;
        }

        /**
         * lua-cjson's decode_invalid_numbers (on in Redis): {@code inf} and {@code nan} in any case,
         * optionally signed, are read as numbers too (C's strtod, as hexadecimal {@code 0x10}).
         */
        private boolean invalidNumber() {
            int p = at < in.length && in[at] == '-' ? at + 1 : at;
            return startsWithIgnoreCase(p, "inf") || startsWithIgnoreCase(p, "nan");
        }

        private boolean startsWithIgnoreCase(int p, String word) {
            if (p + word.length() > in.length) {
                return false;
            }
            for (int k = 0; k < word.length(); k++) {
                if ((in[p + k] | 0x20) != word.charAt(k)) {
                    return false;
                }
            }
            return true;
        }

        /** A number as lua-cjson reads it: C's strtod from here (hexadecimal, exponents, inf, nan). */
        private LuaValue number() {
            double[] value = new double[1];
            int end = LuaNumbers.strtod(in, at, in.length, value);
            if (end == at) {
                throw error("value", "invalid number");
            }
            at = end;
            return LuaValue.valueOf(value[0]);
        }

        private LuaValue object() {
            enter();
            at++;
            LuaTable t = new LuaTable();
            skipSpace();
            if (at < in.length && in[at] == '}') {
                at++;
                depth--;
                return t;
            }
            while (true) {
                skipSpace();
                if (at >= in.length || in[at] != '"') {
                    throw error("object key string", describe());
                }
                LuaString key = LuaString.valueOf(string());
                skipSpace();
                if (at >= in.length || in[at] != ':') {
                    throw error("colon", describe());
                }
                at++;
                t.rawset(key, value());
                skipSpace();
                if (at < in.length && in[at] == ',') {
                    at++;
                } else if (at < in.length && in[at] == '}') {
                    at++;
                    depth--;
                    return t;
                } else {
                    throw error("comma or object end", describe());
                }
            }
        }

        private LuaValue array() {
            enter();
            at++;
            LuaTable t = new LuaTable();
            skipSpace();
            if (at < in.length && in[at] == ']') {
                at++;
                depth--;
                return t;
            }
            int i = 1;
            while (true) {
                t.rawset(i++, value());
                skipSpace();
                if (at < in.length && in[at] == ',') {
                    at++;
                } else if (at < in.length && in[at] == ']') {
                    at++;
                    depth--;
                    return t;
                } else {
                    throw error("comma or array end", describe());
                }
            }
        }

        private void enter() {
            if (++depth > MAX_DEPTH) {
                throw new LuaError("Found too many nested data structures (" + depth + ") at character " + (at + 1));
            }
        }

        private byte[] string() {
            at++;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (true) {
                if (at >= in.length) {
                    throw error("value", "unexpected end of string");
                }
                byte c = in[at++];
                if (c == '"') {
                    return out.toByteArray();
                }
                if (c != '\\') {
                    out.write(c);
                    continue;
                }
                if (at >= in.length) {
                    throw error("value", "unexpected end of string");
                }
                byte e = in[at++];
                switch (e) {
                    case 'b': out.write('\b'); break;
                    case 'f': out.write('\f'); break;
                    case 'n': out.write('\n'); break;
                    case 'r': out.write('\r'); break;
                    case 't': out.write('\t'); break;
                    case 'u': {
                        int cp = hex4();
                        if (cp >= 0xd800 && cp <= 0xdbff && at + 1 < in.length && in[at] == '\\' && in[at + 1] == 'u') {
                            at += 2;
                            int low = hex4();
                            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                        }
                        byte[] utf8 = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                        out.write(utf8, 0, utf8.length);
                        break;
                    }
                    default:
                        out.write(e);
                }
            }
        }

        private int hex4() {
            if (at + 4 > in.length) {
                throw error("value", "invalid unicode escape code");
            }
            try {
                int v = Integer.parseInt(new String(in, at, 4, StandardCharsets.US_ASCII), 16);
                at += 4;
                return v;
            } catch (NumberFormatException e) {
                throw error("value", "invalid unicode escape code");
            }
        }

        private void skipSpace() {
            while (at < in.length && (in[at] == ' ' || in[at] == '\t' || in[at] == '\n' || in[at] == '\r')) {
                at++;
            }
        }

        /** lua-cjson's name of the token found here. */
        private String describe() {
            if (at >= in.length) {
                return "T_END";
            }
            switch (in[at]) {
                case '{': return "T_OBJ_BEGIN";
                case '}': return "T_OBJ_END";
                case '[': return "T_ARR_BEGIN";
                case ']': return "T_ARR_END";
                case ',': return "T_COMMA";
                case ':': return "T_COLON";
                case '"': return "T_STRING";
                default:
            }
            if (in[at] == '-' || (in[at] >= '0' && in[at] <= '9')) {
                return "T_NUMBER";
            }
            if (startsWithIgnoreCase(at, "true") && in[at] == 't' || startsWithIgnoreCase(at, "false") && in[at] == 'f') {
                return "T_BOOLEAN";
            }
            if (startsWithIgnoreCase(at, "null") && in[at] == 'n') {
                return "T_NULL";
            }
            return "invalid token";
        }

        private LuaError error(String expected, String found) {
            return new LuaError("Expected " + expected + " but found " + found + " at character " + (at + 1));
        }
    }
}
