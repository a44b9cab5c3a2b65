package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.FunctionRestorePolicy;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.resps.FunctionStats;
import redis.clients.jedis.resps.LibraryInfo;

/**
 * Redis Functions through Jedis: a rate-limiter library loaded, called with FCALL and FCALL_RO,
 * listed, dumped, flushed and restored; LOAD REPLACE and DELETE; the function flags as Redis
 * enforces them (no-writes, allow-oom over maxmemory); FUNCTION STATS.
 */
class FunctionsTest {
    static final String RATE_LIMITER = String.join("\n",
            "#!lua name=ratelimiter",
            "local function allow(keys, args)",
            "  local limit = tonumber(args[1])",
            "  local current = redis.call('INCR', keys[1])",
            "  if current == 1 then redis.call('EXPIRE', keys[1], args[2]) end",
            "  if current > limit then return 0 end",
            "  return 1",
            "end",
            "local function remaining(keys, args)",
            "  local used = tonumber(redis.call('GET', keys[1]) or '0')",
            "  return math.max(0, tonumber(args[1]) - used)",
            "end",
            "redis.register_function('rl_allow', allow)",
            "redis.register_function{function_name='rl_remaining', callback=remaining, flags={'no-writes'},",
            "  description='Calls left in the window'}");

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @BeforeEach
    void flushFunctions() {
        try (Jedis j = jedis()) {
            j.functionFlush();
            j.configSet("maxmemory", "0");
        }
    }

    private static Jedis jedis() {
        return new Jedis(ebb.host(), ebb.port());
    }

    @Test
    void rateLimiterShouldAllowUpToItsLimitThenRefuse() {
        try (Jedis j = jedis()) {
            assertEquals("ratelimiter", j.functionLoad(RATE_LIMITER));

            List<String> key = List.of("rl:user1");
            List<String> args = List.of("3", "60");
            assertEquals(1L, j.fcall("rl_allow", key, args));
            assertEquals(1L, j.fcall("rl_allow", key, args));
            assertEquals(1L, j.fcall("rl_allow", key, args));
            assertEquals(0L, j.fcall("rl_allow", key, args));

            assertEquals(0L, j.fcallReadonly("rl_remaining", key, List.of("3")));
            assertEquals(3L, j.fcallReadonly("RL_REMAINING", List.of("rl:other"), List.of("3")));
            assertTrue(j.ttl("rl:user1") > 0 && j.ttl("rl:user1") <= 60);
        }
    }

    @Test
    void fcallReadOnlyOfAWritingFunctionShouldFailAsInRedis() {
        try (Jedis j = jedis()) {
            j.functionLoad(RATE_LIMITER);

            JedisDataException e = assertThrows(JedisDataException.class,
                    () -> j.fcallReadonly("rl_allow", List.of("k"), List.of("3", "60")));

            assertEquals("ERR Can not execute a script with write flag using *_ro command.", e.getMessage());
            assertEquals(Boolean.FALSE, j.exists("k"));
        }
    }

    @Test
    void aNoWritesFunctionShouldNotWrite() {
        try (Jedis j = jedis()) {
            j.functionLoad("#!lua name=w\nredis.register_function{function_name='sneaky', flags={'no-writes'},"
                    + " callback=function(keys) return redis.call('set', keys[1], 'x') end}");

            JedisDataException e = assertThrows(JedisDataException.class,
                    () -> j.fcall("sneaky", List.of("k"), List.of()));

            assertEquals("ERR Write commands are not allowed from read-only scripts. script: sneaky, on @user_function:2.",
                    e.getMessage());
            assertEquals(Boolean.FALSE, j.exists("k"));
        }
    }

    @Test
    void listShouldDescribeTheLibraryItsFunctionsAndFlags() {
        try (Jedis j = jedis()) {
            j.functionLoad(RATE_LIMITER);

            List<LibraryInfo> list = j.functionListWithCode();

            assertEquals(1, list.size());
            LibraryInfo lib = list.get(0);
            assertEquals("ratelimiter", lib.getLibraryName());
            assertEquals("LUA", lib.getEngine());
            assertEquals(RATE_LIMITER, lib.getLibraryCode());
            assertEquals(2, lib.getFunctions().size());
            Map<String, Object> allow = lib.getFunctions().get(0);
            assertEquals("rl_allow", allow.get("name"));
            assertNull(allow.get("description"));
            assertEquals(List.of(), allow.get("flags"));
            Map<String, Object> remaining = lib.getFunctions().get(1);
            assertEquals("Calls left in the window", remaining.get("description"));
            assertEquals(List.of("no-writes"), remaining.get("flags"));
            assertEquals(List.of(), j.functionList("other*"));
            assertEquals(1, j.functionList("RATE*").size());
        }
    }

    @Test
    void dumpFlushRestoreShouldBringTheLibrariesBack() {
        try (Jedis j = jedis()) {
            j.functionLoad(RATE_LIMITER);
            j.functionLoad("#!lua name=second\nredis.register_function('hello', function() return 'hi' end)");
            byte[] dump = j.functionDump();

            assertEquals("OK", j.functionFlush());
            assertEquals(List.of(), j.functionList());
            JedisDataException gone = assertThrows(JedisDataException.class, () -> j.fcall("hello", List.of(), List.of()));
            assertEquals("ERR Function not found", gone.getMessage());
            assertEquals("OK", j.functionRestore(dump));

            assertEquals("hi", j.fcall("hello", List.of(), List.of()));
            assertEquals(1L, j.fcall("rl_allow", List.of("k"), List.of("1", "10")));
            assertArrayEquals(dump, j.functionDump());
            JedisDataException clash = assertThrows(JedisDataException.class, () -> j.functionRestore(dump));
            assertEquals("ERR Library ratelimiter already exists", clash.getMessage());
            assertEquals("OK", j.functionRestore(dump, FunctionRestorePolicy.REPLACE));
            assertEquals("OK", j.functionRestore(dump, FunctionRestorePolicy.FLUSH));
            assertEquals(2, j.functionList().size());
        }
    }

    @Test
    void restoreShouldRefuseACorruptPayloadAndChangeNothing() {
        try (Jedis j = jedis()) {
            j.functionLoad(RATE_LIMITER);
            byte[] dump = j.functionDump();
            dump[3] ^= 1;

            JedisDataException e = assertThrows(JedisDataException.class,
                    () -> j.functionRestore(dump, FunctionRestorePolicy.FLUSH));

            assertEquals("ERR DUMP payload version or checksum are wrong", e.getMessage());
            assertEquals(1, j.functionList().size());
        }
    }

    @Test
    void loadReplaceShouldSwapTheCodeAndDeleteShouldRemoveTheLibrary() {
        try (Jedis j = jedis()) {
            j.functionLoad("#!lua name=v\nredis.register_function('version', function() return 1 end)");

            JedisDataException exists = assertThrows(JedisDataException.class,
                    () -> j.functionLoad("#!lua name=v\nredis.register_function('version', function() return 2 end)"));
            assertEquals("ERR Library 'v' already exists", exists.getMessage());
            assertEquals("v", j.functionLoadReplace("#!lua name=v\nredis.register_function('version', function() return 2 end)"));
            assertEquals(2L, j.fcall("version", List.of(), List.of()));

            assertEquals("OK", j.functionDelete("v"));
            assertEquals("ERR Library not found", assertThrows(JedisDataException.class, () -> j.functionDelete("v"))
                    .getMessage());
        }
    }

    @Test
    void overMaxmemoryOnlyAllowOomAndNoWritesFunctionsShouldRun() {
        try (Jedis j = jedis()) {
            j.set("filler", "x".repeat(10_000));
            j.functionLoad("#!lua name=oom\n"
                    + "redis.register_function('plain', function(keys) return redis.call('set', keys[1], 'v') end)\n"
                    + "redis.register_function{function_name='oomok', flags={'allow-oom'},"
                    + " callback=function(keys) return redis.call('set', keys[1], 'v') end}\n"
                    + "redis.register_function{function_name='reader', flags={'no-writes'},"
                    + " callback=function(keys) return redis.call('strlen', keys[1]) end}");
            j.configSet("maxmemory-policy", "noeviction");
            j.configSet("maxmemory", "1");

            JedisDataException e = assertThrows(JedisDataException.class, () -> j.fcall("plain", List.of("a"), List.of()));
            assertEquals("OOM command not allowed when used memory > 'maxmemory'.", e.getMessage());
            assertEquals("OK", j.fcall("oomok", List.of("b"), List.of()));
            assertEquals(10_000L, j.fcall("reader", List.of("filler"), List.of()));

            j.configSet("maxmemory", "0");
            assertEquals(Boolean.FALSE, j.exists("a"));
            assertEquals("v", j.get("b"));
        }
    }

    @Test
    void statsShouldCountLibrariesAndFunctions() {
        try (Jedis j = jedis()) {
            j.functionLoad(RATE_LIMITER);

            FunctionStats stats = j.functionStats();

            assertNull(stats.getRunningScript());
            assertEquals(1L, stats.getEngines().get("LUA").get("libraries_count"));
            assertEquals(2L, stats.getEngines().get("LUA").get("functions_count"));
        }
    }

    @Test
    void loadErrorsShouldCarryRedisTexts() {
        try (Jedis j = jedis()) {
            assertEquals("ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent"
                    + " global variable 'call'",
                    assertThrows(JedisDataException.class, () -> j.functionLoad("#!lua name=x\nredis.call('ping')"))
                            .getMessage());
            assertEquals("ERR No functions registered",
                    assertThrows(JedisDataException.class, () -> j.functionLoad("#!lua name=x\nlocal a = 1"))
                            .getMessage());
            assertEquals("ERR Error compiling function: user_function:2: unexpected symbol near '='",
                    assertThrows(JedisDataException.class, () -> j.functionLoad("#!lua name=x\nlocal a = = 1"))
                            .getMessage());
            assertEquals("ERR Missing library metadata",
                    assertThrows(JedisDataException.class, () -> j.functionLoad("return 1")).getMessage());
        }
    }

    @Test
    void aFunctionShouldNotSeeEvalGlobalsAndGetsKeysAndArgsAsParameters() {
        try (Jedis j = jedis()) {
            j.eval("return 1", List.of("evalkey"), List.of("evalarg"));
            j.functionLoad("#!lua name=g\n"
                    + "redis.register_function('keys', function(keys, args) return {keys[1], args[1], #keys, #args} end)\n"
                    + "redis.register_function('leak', function() return KEYS end)");

            assertEquals(List.of("a", "b", 1L, 2L), j.fcall("keys", List.of("a"), List.of("b", "c")));
            JedisDataException e = assertThrows(JedisDataException.class, () -> j.fcall("leak", List.of(), List.of()));
            assertEquals("ERR user_function:3: Script attempted to access nonexistent global variable 'KEYS' script: leak,"
                    + " on @user_function:3.", e.getMessage());
        }
    }
}
