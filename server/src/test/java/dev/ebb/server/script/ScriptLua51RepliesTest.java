package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Replies of small scripts that differed from redis-server 7.2.4's Lua 5.1 (issue #16), one test
 * per fixed difference; every expected value was read from the reference server. The broad sweep
 * is the {@code lua} conformance transcript.
 */
class ScriptLua51RepliesTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static Object eval(Jedis j, String script) {
        return j.eval(script);
    }

    private static String error(Jedis j, String script) {
        return assertThrows(JedisDataException.class, () -> j.eval(script)).getMessage();
    }

    /** The error text less its {@code script: <sha>, on @user_script:N.} tail. */
    private static String bareError(Jedis j, String script) {
        String e = error(j, script);
        String tail = " script: " + Scripting.sha1hex(script.getBytes()) + ", on @user_script:";
        int at = e.indexOf(tail);
        return at < 0 ? e : e.substring(0, at);
    }

    /**
     * Lua 5.1's numbers are doubles, so a zero with a negative sign prints "-0" in Redis, whether
     * written as a constant or computed. LuaJ's integers lost the sign (its compiler folded -0.0 into
     * the integer constant 0, and its integer negation and multiplication gave 0).
     */
    @Test
    void negativeZeroShouldPrintAsLua51Does() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("-0", eval(j, "return tostring(-0.0)"));
            assertEquals("-0", eval(j, "return tostring(0*-1)"));
            assertEquals("-0", eval(j, "return tostring(0/-1)"));
            assertEquals("-inf", eval(j, "return tostring(1/(-0.0))"));
            assertEquals("inf", eval(j, "return tostring(1/0)"));
            assertEquals("-nan", eval(j, "return tostring(0/0)"));
            assertEquals("[-0]", eval(j, "return cjson.encode({-0.0})"));
            assertEquals("a", eval(j, "local t = {} t[-0.0] = 'a' return t[0]"));
            assertEquals("-0", eval(j, "local x = 0 return tostring(-x)"));
            assertEquals("-0", eval(j, "local x, y = 0, -3 return tostring(x * y)"));
            assertEquals("-0", eval(j, "return tostring(math.ceil(-0.5))"));
            assertEquals("-0", eval(j, "return tostring(tonumber('-0'))"));
            assertEquals("a", eval(j, "local t = {} t[0] = 'a' local x = 0 return t[-x]"));
            assertEquals(0L, eval(j, "local x = 0 return -x"));
        }
    }

    @Test
    void statusAndErrorReplyShouldRefuseAnythingButOneString() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("ERR wrong number or type of arguments", error(j, "return redis.status_reply(123)"));
            assertEquals("ERR wrong number or type of arguments", error(j, "return redis.error_reply(123)"));
            assertEquals("ERR wrong number or type of arguments", error(j, "return redis.status_reply()"));
            assertEquals("ERR wrong number or type of arguments", error(j, "return redis.error_reply('x', 'y')"));
            assertEquals("table", eval(j, "return type(redis.status_reply(1))"), "returned, not raised");
        }
    }

    @Test
    void sha1hexShouldWantExactlyOneArgumentAndHashNonStringsAsEmpty() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("ERR wrong number of arguments", bareError(j, "return redis.sha1hex()"));
            assertEquals("ERR wrong number of arguments", bareError(j, "return redis.sha1hex('a', 'b')"));
            assertEquals("da39a3ee5e6b4b0d3255bfef95601890afd80709", eval(j, "return redis.sha1hex({})"));
            assertEquals("7b52009b64fd0a2a49e6d8a939753077792b0554", eval(j, "return redis.sha1hex(12)"));
        }
    }

    @Test
    void numbersBeyondSixtyFourBitsAndNanShouldReplyMinLongAsCsCast() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(Long.MIN_VALUE, eval(j, "return 1e20"));
            assertEquals(Long.MIN_VALUE, eval(j, "return -1e20"));
            assertEquals(Long.MIN_VALUE, eval(j, "return 0/0"));
            assertEquals(Long.MIN_VALUE, eval(j, "return 1/0"));
            assertEquals(Long.MIN_VALUE, eval(j, "return 2^63"));
            assertEquals(List.of(Long.MIN_VALUE), eval(j, "return {1e20}"));
            assertEquals(9007199254740992L, eval(j, "return 2^53+1"));
            assertEquals("-9223372036854775808", eval(j, "return string.format('%d', 1e20)"));
            assertEquals(List.of(Long.MIN_VALUE), eval(j, "return cjson.decode('[1e400]')"));
        }
    }

    @Test
    void tonumberShouldReadAsLuaFiveOneStrtodAndStrtoul() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("inf", eval(j, "return tostring(tonumber('inf'))"));
            assertEquals("-inf", eval(j, "return tostring(tonumber('-inf'))"));
            assertEquals("nan", eval(j, "return tostring(tonumber('nan'))"));
            assertEquals("16", eval(j, "return tostring(tonumber('0x10'))"));
            assertEquals("-16", eval(j, "return tostring(tonumber('-0x10'))"));
            assertEquals("16", eval(j, "return tostring(tonumber('0x1p4'))"));
            assertEquals("10", eval(j, "return tostring(tonumber(' 10 '))"));
            assertEquals("nil", eval(j, "return tostring(tonumber('1e'))"));
            assertEquals("nil", eval(j, "return tostring(tonumber('0x'))"));
            assertEquals("1.844674407371e+19", eval(j, "return tostring(tonumber('-ff', 16))"));
            assertEquals("16", eval(j, "return tostring(tonumber('0x10', 16))"));
            assertEquals("1.5", eval(j, "return tostring(tonumber('1.5', 10))"));
        }
    }

    @Test
    void nanShouldPrintWithItsSign() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("-nan", eval(j, "return tostring(0/0)"));
            assertEquals("nan", eval(j, "return tostring(-(0/0))"));
            assertEquals("\u00cb\u00ff\u00f8\0\0\0\0\0\0", new String(
                    (byte[]) j.eval("return cmsgpack.pack(0/0)".getBytes(), 0), java.nio.charset.StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void numbersPassedToRedisCallShouldBeWrittenAsRedisDoes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("9007199254740992", eval(j, "redis.call('set', 'k', 2^53) return redis.call('get', 'k')"));
            assertEquals("0.3333333333333333", eval(j, "redis.call('set', 'k', 1/3) return redis.call('get', 'k')"));
            assertEquals("1e-7", eval(j, "redis.call('set', 'k', 1e-7) return redis.call('get', 'k')"));
            assertEquals("1e+21", eval(j, "redis.call('set', 'k', 1e21) return redis.call('get', 'k')"));
            assertEquals("-nan", eval(j, "redis.call('set', 'k', 0/0) return redis.call('get', 'k')"));
        }
    }

    @Test
    void cmsgpackShouldUnpackOneOrALimitWithTheNextOffset() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(List.of(1L, 1L), eval(j, "return {cmsgpack.unpack_one(cmsgpack.pack(1, 2))}"));
            assertEquals(List.of(-1L, 2L), eval(j, "return {cmsgpack.unpack_one(cmsgpack.pack(1, 2), 1)}"));
            assertEquals(List.of(2L, 1L, 2L), eval(j, "return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 2)}"));
        }
    }

    @Test
    void mathModfShouldGiveAnInfinityAZeroFraction() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("0", eval(j, "return tostring(select(2, math.modf(1/0)))"));
            assertEquals("-inf", eval(j, "return tostring(math.modf(-1/0))"));
            assertEquals("-0.7", eval(j, "return tostring(select(2, math.modf(-3.7)))"));
        }
    }

    @Test
    void cjsonShouldDecodeHexInfAndNanAsLuaCjsonDoes() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(16L, eval(j, "return cjson.decode('0x10')"));
            assertEquals("inf", eval(j, "return tostring(cjson.decode('Infinity'))"));
            assertEquals("ERR user_script:1: Expected value but found T_ARR_END at character 4",
                    bareError(j, "return cjson.decode('[1,]')"));
            assertEquals("ERR user_script:1: Expected value but found unexpected end of string at character 3",
                    bareError(j, "return cjson.decode('\"a')"));
            assertEquals("ERR user_script:1: bad argument #1 to 'decode' (expected 1 argument)",
                    bareError(j, "return cjson.decode()"));
        }
    }

    @Test
    void cmsgpackShouldPackTheInt64RangeAsIntegers() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("\u00d3\u0080\0\0\0\0\0\0\0", new String(
                    (byte[]) j.eval("return cmsgpack.pack(-2^63)".getBytes(), 0), java.nio.charset.StandardCharsets.ISO_8859_1));
            assertEquals(-1L, eval(j, "return cmsgpack.unpack('\\207\\255\\255\\255\\255\\255\\255\\255\\255')"));
        }
    }

    @Test
    void argumentErrorsShouldNameTheFunctionAndArgumentAsLuaFiveOne() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("ERR user_script:1: bad argument #2 to 'sub' (number expected, got string)",
                    bareError(j, "return string.sub('x', 'a')"));
            assertEquals("ERR user_script:1: bad argument #1 to 'rep' (string expected, got no value)",
                    bareError(j, "return string.rep()"));
            assertEquals("ERR user_script:1: bad argument #1 to 'tonumber' (value expected)", bareError(j, "return tonumber()"));
            assertEquals("ERR user_script:1: bad argument #2 to 'format' (no value)", bareError(j, "return string.format('%d')"));
            assertEquals("ERR user_script:1: bad argument #1 to 'char' (invalid value)", bareError(j, "return string.char(256)"));
            assertEquals("ERR user_script:1: bad argument #2 to 'setmetatable' (nil or table expected)",
                    bareError(j, "return setmetatable({}, 1)"));
            assertEquals("ERR user_script:1: bad argument #1 to 'band' (number expected, got no value)",
                    bareError(j, "return bit.band()"));
            assertEquals("ERR user_script:1: malformed pattern (missing ']')", bareError(j, "return string.find('abc', '[')"));
        }
    }

    @Test
    void tableFunctionsShouldKeepLuaFiveOneLimits() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("ERR user_script:1: too many results to unpack", bareError(j, "return unpack({}, 1, 1e6)"));
            assertEquals(7997L, eval(j, "return select('#', unpack({}, 1, 7997))"));
            assertEquals("ERR user_script:1: invalid value (table) at index 2 in table for 'concat'",
                    bareError(j, "return table.concat({1, {}, 3})"));
            assertEquals("ERR user_script:1: wrong number of arguments to 'insert'", bareError(j, "return table.insert({}, 1, 2, 3)"));
            assertEquals(List.of(), eval(j, "local t = {1,2,3} table.insert(t, 0, 9) return t"));
            assertEquals("nil", eval(j, "return type(table.unpack)"));
        }
    }

    @Test
    void runtimeErrorsShouldNameTheVariableAsLuaFiveOne() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("ERR user_script:1: attempt to call local 'x' (a nil value)", bareError(j, "local x; x()"));
            assertEquals("ERR user_script:1: attempt to call field 'nosuch' (a nil value)", bareError(j, "return redis.nosuch()"));
            assertEquals("ERR user_script:1: attempt to call method 'y' (a nil value)", bareError(j, "local x = {}; x:y()"));
            assertEquals("ERR user_script:1: attempt to index field 'y' (a nil value)", bareError(j, "local x = {}; return x.y.z"));
            assertEquals("ERR user_script:1: attempt to perform arithmetic on a nil value", bareError(j, "return nil + 1"));
            assertEquals("ERR user_script:1: attempt to perform arithmetic on local 'x' (a table value)",
                    bareError(j, "local x = {}; return x + 1"));
            assertEquals("ERR user_script:1: attempt to concatenate local 'x' (a nil value)", bareError(j, "local x; return x .. 'a'"));
            assertEquals("ERR user_script:1: attempt to compare number with string", bareError(j, "return 1 < 'x'"));
            assertEquals("ERR user_script:1: table index is nil", bareError(j, "local t = {}; t[nil] = 1"));
            assertEquals(Arrays.asList(null, "user_script:1: attempt to index local 'x' (a nil value)"),
                    eval(j, "return {pcall(function() local x = nil; return x.y end)}"));
            assertEquals("ERR user_script:1: stack overflow", bareError(j, "local function f() f() end f()"));
        }
    }

    @Test
    void xpcallShouldPassTheErrorToItsHandler() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(Arrays.asList(null, "h:user_script:1: boom"),
                    eval(j, "return {xpcall(function() error('boom') end, function(m) return 'h:' .. m end)}"));
            assertEquals(Arrays.asList(null, "error in error handling"),
                    eval(j, "return {xpcall(function() error('x') end, function(m) error('y') end)}"));
        }
    }

    @Test
    void errorWithoutPositionShouldStayUnplaced() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("ERR nil", bareError(j, "return error()"));
            assertEquals("ERR x", bareError(j, "return error('x', 0)"));
            assertEquals("ERR true", bareError(j, "return error(true)"));
            assertEquals("ERR user_script:1: x", bareError(j, "return error('x')"));
            assertEquals("ERR x", bareError(j, "return error('x', 2)"), "level 2 of the main chunk is Redis's C caller");
            String script = "local function f() error('in f', 2) end\nf()";
            assertEquals("ERR user_script:2: in f script: " + Scripting.sha1hex(script.getBytes()) + ", on @user_script:1.",
                    error(j, script), "the caller's position, the raising line");
        }
    }

    @Test
    void compileErrorsShouldBeWordedAsLuaFiveOne() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            String prefix = "ERR Error compiling script (new function): user_script:";
            assertEquals(prefix + "1: '=' expected near '<eof>'", error(j, "x"));
            assertEquals(prefix + "1: unexpected symbol near ')'", error(j, "return )"));
            assertEquals(prefix + "1: unexpected symbol near '<eof>'", error(j, "return 1 +"));
            assertEquals(prefix + "1: '<eof>' expected near 'end'", error(j, "return 1 end"));
            assertEquals(prefix + "1: malformed number near '1.2.3'", error(j, "return 1.2.3"));
            assertEquals(prefix + "1: unfinished string near '<eof>'", error(j, "return 'abc"));
            assertEquals(prefix + "1: no loop to break near '<eof>'", error(j, "break"));
            assertEquals(prefix + "1: cannot use '...' outside a vararg function near '...'", error(j, "function f() return ... end"));
            assertEquals(prefix + "2: 'end' expected (to close 'if' at line 1) near '<eof>'", error(j, "if x then\nreturn 1"));
            assertEquals(prefix + "1: escape sequence too large near '''", error(j, "return '\\300'"));
        }
    }
}
