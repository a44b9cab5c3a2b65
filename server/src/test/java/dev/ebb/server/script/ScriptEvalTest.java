package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ebb.server.embedded.EbbExtension;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * EVAL and friends through Jedis: Redis's conversions both ways, KEYS/ARGV, the script cache and
 * the error texts, each as Redis 7 sends them (checked against a real redis-server).
 */
class ScriptEvalTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static Object eval(Jedis j, String script) {
        return j.eval(script);
    }

    private static String error(Jedis j, String script, String... keysAndArgs) {
        return assertThrows(JedisDataException.class, () -> j.eval(script, 0, keysAndArgs)).getMessage();
    }

    private static String sha(String script) {
        return Scripting.sha1hex(script.getBytes());
    }

    @Test
    void luaValuesShouldBecomeRedisReplies() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(3L, eval(j, "return 3.99"));
            assertEquals(-3L, eval(j, "return -3.99"));
            assertEquals(1L, eval(j, "return true"));
            assertNull(eval(j, "return false"));
            assertNull(eval(j, "return nil"));
            assertEquals("x", eval(j, "return 'x'"));
            assertEquals("FINE", eval(j, "return redis.status_reply('FINE')"));
            assertEquals(List.of(), eval(j, "return {}"));
            assertEquals(Arrays.asList(1L, 2L, 3L, "x"), eval(j, "return {1, 2, 3.99, 'x', nil, 5}"));
            assertEquals(Arrays.asList(1L, null, "ST"), eval(j, "return {true, false, {ok='ST'}}"));
            assertEquals(Arrays.asList(1L, Arrays.asList(2L, List.of(3L)), "x"), eval(j, "return {1, {2, {3}}, 'x'}"));
        }
    }

    @Test
    void errorTablesShouldBecomeErrorRepliesAsTheyAre() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("My Err", error(j, "return {err='My Err'}"));
            assertEquals("x y", error(j, "return redis.error_reply('x y')"));
            assertEquals("x y", error(j, "return redis.error_reply('-x y')"));
            assertEquals("ERR NOSPACE", error(j, "return redis.error_reply('NOSPACE')"), "one word: code ERR added");
            assertEquals("ERR NOSPACE", error(j, "return redis.error_reply('-NOSPACE')"));
        }
    }

    @Test
    void redisRepliesShouldBecomeLuaValues() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("s", "abc");

            assertEquals("boolean", eval(j, "return type(redis.call('get', 'nokey'))"));
            assertEquals("tablePONG", eval(j, "local t = redis.call('ping'); return type(t) .. t.ok"));
            assertEquals("number", eval(j, "return type(redis.call('incr', 'n'))"));
            assertEquals("abc", eval(j, "return redis.call('get', 's')"));
            assertEquals(1L, eval(j, "return #redis.call('keys', 'n')"));
            assertEquals("ERR value is not an integer or out of range",
                    eval(j, "return redis.pcall('incr', 's').err"));
            assertEquals("ERR value is not an integer or out of range",
                    eval(j, "local ok, e = pcall(redis.call, 'incr', 's'); return e"));
        }
    }

    @Test
    void keysAndArgvShouldHoldTheArguments() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            Object r = j.eval("return {KEYS[1], KEYS[2], ARGV[1], ARGV[2], #KEYS, #ARGV}", 2, "k1", "k2", "a1", "a2");

            assertEquals(Arrays.asList("k1", "k2", "a1", "a2", 2L, 2L), r);
        }
    }

    @Test
    void scriptsShouldReachKeysTheyDidNotDeclare() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.eval("redis.call('set', 'undeclared', ARGV[1])", 0, "v");

            assertEquals("v", j.get("undeclared"));
        }
    }

    @Test
    void numbersShouldPrintAsRedisLuaPrintsThem() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("1e+20 0.1 3 0.33333333333333 9.007199254741e+15 123456789012 1e+15 inf -inf -nan",
                    eval(j, "return tostring(1e20)..' '..tostring(0.1)..' '..tostring(3.0)..' '..tostring(1/3)..' '"
                            + "..tostring(2^53)..' '..tostring(123456789012)..' '..tostring(1e15)..' '..tostring(1/0)"
                            + "..' '..tostring(-1/0)..' '..tostring(0/0)"));
            assertEquals("0.5,2.5,x", eval(j, "return table.concat({0.5, 10/4, 'x'}, ',')"));
            assertEquals("0.10000000000000001", eval(j, "return string.format('%.17g', 0.1)"));
            assertEquals("42  3.14 ab   | ff FF 10 1.234568e+04 0.0001 1e+20 100 \"a\\\"b\" %",
                    eval(j, "return string.format('%d %5.2f %-5s| %x %X %o %e %g %g %g %q %%', 42, 3.14159, 'ab',"
                            + " 255, 255, 8, 12345.678, 0.0001, 1e20, 100, 'a\"b')"));
            assertEquals("   42|42   |00042|+42| 42|007",
                    eval(j, "return string.format('%5d|%-5d|%05d|%+d|% d|%.3d', 42, 42, 42, 42, 42, 7)"));
            assertEquals("2.67 2    -1.5000 1.23e+04  | 1E-10 0.1 0.33333333333333331",
                    eval(j, "return string.format('%.2f %.0f %10.4f %-10.2e| %G %.14g %.17g', 2.675, 2.5, -1.5,"
                            + " 12345.6789, 1e-10, 0.1, 1/3)"));
            assertEquals("1 1.5 x", eval(j, "return string.format('%s %s %s', 1, 1.5, 'x')"));
        }
    }

    @Test
    void redisCallArgumentsShouldBeStringsOrNumbers() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.eval("return redis.call('set', 'k', 1.5)");

            assertEquals("1.5", j.get("k"));
            assertEquals("ERR Lua redis lib command arguments must be strings or integers script: "
                    + sha("return redis.call('set','k',{})") + ", on @user_script:1.",
                    error(j, "return redis.call('set','k',{})"));
            assertEquals("ERR Please specify at least one argument for this redis lib call script: "
                    + sha("return redis.call()") + ", on @user_script:1.", error(j, "return redis.call()"));
        }
    }

    @Test
    void failingCallsShouldNameTheScriptAndLine() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.set("s", "abc");
            String incr = "local x = 1\nreturn redis.call('incr', 's')";
            String unknown = "return redis.call('nosuch')";
            String arity = "return redis.call('get')";
            String boom = "return error('boom')";

            assertEquals("ERR value is not an integer or out of range script: " + sha(incr) + ", on @user_script:2.",
                    error(j, incr));
            assertEquals("ERR Unknown Redis command called from script script: " + sha(unknown)
                    + ", on @user_script:1.", error(j, unknown));
            assertEquals("ERR Wrong number of args calling Redis command from script script: " + sha(arity)
                    + ", on @user_script:1.", error(j, arity));
            assertEquals("ERR user_script:1: boom script: " + sha(boom) + ", on @user_script:1.", error(j, boom));
            assertEquals("MY err script: " + sha("error(redis.error_reply('MY err'))") + ", on @user_script:1.",
                    error(j, "error(redis.error_reply('MY err'))"));
            assertEquals("ERR Unknown Redis command called from script", eval(j, "return redis.pcall('nosuch').err"));
        }
    }

    @Test
    void scriptsShouldNotCallScriptingOrWriteFromReadOnlyScripts() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            String nested = "return redis.call('eval', 'return 1', '0')";
            String write = "return redis.call('set', 'a', 'b')";

            assertEquals("ERR This Redis command is not allowed from script script: " + sha(nested)
                    + ", on @user_script:1.", error(j, nested));
            JedisDataException e = assertThrows(JedisDataException.class, () -> j.evalReadonly(write, List.of(), List.of()));
            assertEquals("ERR Write commands are not allowed from read-only scripts. script: " + sha(write)
                    + ", on @user_script:1.", e.getMessage());
            assertEquals("abc", j.evalReadonly("return ARGV[1]", List.of(), List.of("abc")));
        }
    }

    @Test
    void theSandboxShouldRefuseGlobalsAndHideOsAndIo() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            for (String name : new String[] {"os", "io", "print", "require", "dofile", "loadfile", "debug", "module"}) {
                String script = "return " + name;
                assertEquals("ERR user_script:1: Script attempted to access nonexistent global variable '" + name
                        + "' script: " + sha(script) + ", on @user_script:1.", error(j, script));
            }
            assertEquals("ERR user_script:1: Attempt to modify a readonly table script: " + sha("x = 1")
                    + ", on @user_script:1.", error(j, "x = 1"));
            assertEquals("ERR user_script:1: Attempt to modify a readonly table script: " + sha("redis = nil")
                    + ", on @user_script:1.", error(j, "redis = nil"));
            assertEquals(1L, eval(j, "return redis.call('ping') and 1"), "redis survived the attempt");
            assertEquals(2L, eval(j, "return loadstring('return 1 + 1')()"));
            assertEquals("Lua 5.1", eval(j, "return _VERSION"));
            assertEquals("tablefunction", eval(j, "return type(cjson) .. type(unpack)"));
        }
    }

    @Test
    void evalShaShouldRunCachedScriptsAndScriptCommandsManageTheCache() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.scriptFlush();
            String script = "return 'cached ' .. ARGV[1]";

            String sha = j.scriptLoad(script);

            assertEquals(sha(script), sha);
            assertEquals("cached a", j.evalsha(sha, 0, "a"));
            assertEquals("cached b", j.evalsha(sha.toUpperCase(), 0, "b"));
            assertEquals("cached c", j.evalshaReadonly(sha, List.of(), List.of("c")));
            assertEquals(List.of(true, false), j.scriptExists(sha, "0123456789012345678901234567890123456789"));
            assertEquals("OK", j.scriptFlush());
            assertEquals(false, j.scriptExists(sha));
            JedisNoScriptException e = assertThrows(JedisNoScriptException.class, () -> j.evalsha(sha, 0));
            assertEquals("NOSCRIPT No matching script. Please use EVAL.", e.getMessage());
            assertThrows(JedisNoScriptException.class, () -> j.evalsha("abc", 0));
            j.eval(script, 0, "x");
            assertEquals(true, j.scriptExists(sha), "EVAL caches the script too");
        }
    }

    @Test
    void badArgumentsShouldGetRedisErrors() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("ERR Number of keys can't be negative",
                    assertThrows(JedisDataException.class,
                            () -> j.sendCommand(redis.clients.jedis.Protocol.Command.EVAL, "return 1", "-1")).getMessage());
            assertEquals("ERR Number of keys can't be greater than number of args",
                    assertThrows(JedisDataException.class, () -> j.eval("return 1", 2, "a")).getMessage());
            assertEquals("ERR value is not an integer or out of range", assertThrows(JedisDataException.class,
                    () -> j.sendCommand(redis.clients.jedis.Protocol.Command.EVAL, "return 1", "x")).getMessage());
            assertEquals("ERR Error compiling script (new function): user_script:1: '=' expected near 'n'",
                    assertThrows(JedisDataException.class, () -> j.eval("retur n")).getMessage());
            assertEquals("ERR SCRIPT FLUSH only support SYNC|ASYNC option", assertThrows(JedisDataException.class,
                    () -> j.sendCommand(redis.clients.jedis.Protocol.Command.SCRIPT, "FLUSH", "xx")).getMessage());
            assertEquals("ERR unknown subcommand 'nosuch'. Try SCRIPT HELP.", assertThrows(JedisDataException.class,
                    () -> j.sendCommand(redis.clients.jedis.Protocol.Command.SCRIPT, "nosuch")).getMessage());
        }
    }

    @Test
    void scriptHelpShouldListTheSubcommands() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            @SuppressWarnings("unchecked")
            List<byte[]> lines = (List<byte[]>) j.sendCommand(redis.clients.jedis.Protocol.Command.SCRIPT, "HELP");

            assertEquals("SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:", new String(lines.get(0)));
            assertEquals("    Print this help.", new String(lines.get(lines.size() - 1)));
        }
    }

    @Test
    void selectInsideAScriptShouldNotChangeTheCallersDatabase() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.eval("redis.call('select', '1'); redis.call('set', 'in1', 'x')");

            assertNull(j.get("in1"));
            j.select(1);
            assertEquals("x", j.get("in1"));
            j.flushDB();
        }
    }
}
