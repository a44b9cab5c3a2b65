package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * One script cannot change what a later script sees: each tampering is refused with Redis 7's
 * error (an assignment placed at the script's line, a library function's write unplaced, texts
 * checked against redis-server 7.2.4), and a second script, on another connection, finds the
 * sandbox as it was. All cases share one server, so any leak would also show in the cases after it.
 */
class ScriptSandboxTest {
    private static final String PLACED = "ERR user_script:1: Attempt to modify a readonly table";
    private static final String UNPLACED = "ERR Attempt to modify a readonly table";
    private static final String UPPER = "function() return 'hacked' end";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    static Stream<Arguments> tamperings() {
        return Stream.of(
                Arguments.of("rawset(_G, 'leak', 42)", UNPLACED, "return rawget(_G, 'leak')", null),
                Arguments.of("leak = 1", PLACED, "return rawget(_G, 'leak')", null),
                Arguments.of("_G.leak = 1", PLACED, "return rawget(_G, 'leak')", null),
                Arguments.of("string.upper = " + UPPER, PLACED, "return string.upper('a')", "A"),
                Arguments.of("rawset(string, 'upper', " + UPPER + ")", UNPLACED, "return string.upper('a')", "A"),
                // Redis 7.2.4 lets these two through, and the change outlives the script: Ebb refuses them.
                Arguments.of("getmetatable('').__index = {upper = " + UPPER + "}", PLACED, "return ('a'):upper()", "A"),
                Arguments.of("rawset(getmetatable(''), '__index', {upper = " + UPPER + "})", UNPLACED,
                        "return ('a'):upper()", "A"),
                Arguments.of("getmetatable('').__index.upper = " + UPPER, PLACED, "return ('a'):upper()", "A"),
                Arguments.of("redis.call = " + UPPER, PLACED, "return redis.call('ping')", "PONG"),
                Arguments.of("rawset(redis, 'call', " + UPPER + ")", UNPLACED, "return redis.call('ping')", "PONG"),
                Arguments.of("table.insert(redis, 'x')", UNPLACED, "return #redis", 0L),
                Arguments.of("setmetatable(_G, nil)", UNPLACED, "return type(getmetatable(_G))", "table"),
                Arguments.of("getmetatable(_G).__index = " + UPPER, PLACED, "return pcall(function() return nosuch end)", null),
                Arguments.of("rawset(getmetatable(_G), '__index', " + UPPER + ")", UNPLACED,
                        "return pcall(function() return nosuch end)", null),
                Arguments.of("setmetatable(string, {__index = " + UPPER + "})", UNPLACED, "return string.nosuch", null),
                Arguments.of("table.insert = nil", PLACED, "return type(table.insert)", "function"),
                Arguments.of("math.random = " + UPPER, PLACED, "return type(math.random(5))", "number"),
                Arguments.of("cjson.encode = " + UPPER, PLACED, "return cjson.encode({1})", "[1]"),
                Arguments.of("coroutine.wrap = nil", PLACED, "return type(coroutine.wrap)", "function"),
                Arguments.of("_G._G = nil", PLACED, "return type(_G)", "table"),
                Arguments.of("rawset(_G, 'KEYS', 1)", UNPLACED, "return type(KEYS)", "table"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tamperings")
    void aTamperingShouldBeRefusedAndLeaveLaterScriptsUntouched(String tampering, String error, String probe,
            Object expected) {
        String script = tampering + " return 1";
        try (Jedis tamperer = new Jedis(ebb.host(), ebb.port()); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            JedisDataException refused = assertThrows(JedisDataException.class, () -> tamperer.eval(script));

            assertEquals(error + " script: " + Scripting.sha1hex(script.getBytes()) + ", on @user_script:1.",
                    refused.getMessage());
            assertEquals(expected, other.eval(probe));
        }
    }

    @Test
    void readingAMissingGlobalShouldFailButRawgetShouldAnswerNil() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            String script = "return nosuch";

            JedisDataException e = assertThrows(JedisDataException.class, () -> j.eval(script));

            assertEquals("ERR user_script:1: Script attempted to access nonexistent global variable 'nosuch' script: "
                    + Scripting.sha1hex(script.getBytes()) + ", on @user_script:1.", e.getMessage());
            assertNull(j.eval("return rawget(_G, 'nosuch')"));
        }
    }

    @Test
    void pcallShouldSeeTheBareReadonlyErrorAndKeysStayWritable() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(List.of("Attempt to modify a readonly table"),
                    j.eval("local ok, e = pcall(rawset, _G, 'x', 1) return {tostring(ok) == 'false' and e}"));
            assertEquals("user_script:1: Attempt to modify a readonly table",
                    j.eval("local ok, e = pcall(function() string.x = 1 end) return e"));
            assertEquals("changed", j.eval("KEYS[1] = 'changed' return KEYS[1]", 1, "k"));
            assertEquals("k2", j.eval("return KEYS[1]", 1, "k2"), "KEYS is the next script's own");
            assertEquals(1L, j.eval("table.sort(string) return 1"), "nothing to move: Redis accepts it too");
        }
    }
}
