package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Coroutines in scripts: Lua 5.1's semantics (replies checked against redis-server 7.2.4), the
 * time limit and SCRIPT KILL reaching code that runs inside a coroutine, and the threads behind
 * them: at most {@link LuaCoroutines#MAX_LIVE} live coroutines per script, none left once the
 * script has replied.
 */
class ScriptCoroutineTest {
    private static final String BUSY = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
    private static final String SUSPENDED = "local t = {} for i = 1, tonumber(ARGV[1]) do"
            + " local co = coroutine.create(function() coroutine.yield() end) coroutine.resume(co) t[i] = co end"
            + " return #t";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("busy-reply-threshold", "50");

    private static final ExecutorService callers = Executors.newCachedThreadPool();

    @AfterAll
    static void stopCallers() {
        callers.shutdownNow();
    }

    @Test
    void resumeAndYieldShouldPassValuesAsLua51Does() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(Arrays.asList("true", 2L, "suspended", "true", 20L, "dead", "false", "cannot resume dead coroutine"),
                    j.eval("local co = coroutine.create(function(a) local b = coroutine.yield(a + 1) return b * 2 end)"
                            + " local r = {} local ok, v = coroutine.resume(co, 1)"
                            + " r[1] = tostring(ok) r[2] = v r[3] = coroutine.status(co)"
                            + " ok, v = coroutine.resume(co, 10) r[4] = tostring(ok) r[5] = v r[6] = coroutine.status(co)"
                            + " ok, v = coroutine.resume(co) r[7] = tostring(ok) r[8] = v return r"));
            assertEquals(List.of(1L, "running"), j.eval("local co co = coroutine.create(function()"
                    + " return coroutine.status(co) end) return {coroutine.resume(co)}"));
            assertEquals("table", j.eval("local co = coroutine.create(function() error({x = 1}) end)"
                    + " local ok, e = coroutine.resume(co) return type(e)"));
            assertEquals(Arrays.asList(1L, null, "cannot resume running coroutine"), j.eval("local co co ="
                    + " coroutine.create(function() return coroutine.resume(co) end) return {coroutine.resume(co)}"));
            assertNull(j.eval("return coroutine.running()"));
            assertEquals("thread", j.eval("return coroutine.wrap(function() return type(coroutine.running()) end)()"));
        }
    }

    @Test
    void errorsShouldLeaveCoroutinesAsRedisReportsThem() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            String yield = "return coroutine.yield(1)";
            String wrapped = "return coroutine.wrap(function() redis.call('nosuch') end)()";

            assertEquals("ERR attempt to yield across metamethod/C-call boundary script: " + sha(yield)
                    + ", on @user_script:1.", assertThrows(JedisDataException.class, () -> j.eval(yield)).getMessage());
            assertEquals("ERR Unknown Redis command called from script script: " + sha(wrapped) + ", on @user_script:1.",
                    assertThrows(JedisDataException.class, () -> j.eval(wrapped)).getMessage());
        }
    }

    @Test
    void aSuspendedCoroutineShouldLeaveTheScriptsCallStackAsItWas() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            String suspend = "local co = coroutine.create(function() coroutine.yield() end) coroutine.resume(co) ";
            String index = suspend + "local t = nil return t.x";
            String leveled = suspend + "error('top', 2)";

            assertEquals("ERR user_script:1: attempt to index local 't' (a nil value) script: " + sha(index)
                    + ", on @user_script:1.", assertThrows(JedisDataException.class, () -> j.eval(index)).getMessage());
            assertEquals("ERR top script: " + sha(leveled) + ", on @user_script:1.",
                    assertThrows(JedisDataException.class, () -> j.eval(leveled)).getMessage());
        }
    }

    @Test
    void errorsRaisedInsideCoroutinesShouldBePlacedAsLua51PlacesThem() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            String wrap = "local f = coroutine.wrap(function() error('boom') end) ";
            String tailCalled = wrap + "return f()";

            assertEquals(Arrays.asList(null, "boom"),
                    j.eval("local co = coroutine.create(function() error('boom', 2) end) return {coroutine.resume(co)}"));
            assertEquals("ERR user_script:1: user_script:1: boom script: " + sha(tailCalled) + ", on @user_script:1.",
                    assertThrows(JedisDataException.class, () -> j.eval(tailCalled)).getMessage());
            assertEquals("user_script:1: user_script:1: boom",
                    j.eval(wrap + "local ok, e = pcall(function() return f() end) return e"));
            assertEquals("user_script:1: user_script:1: boom", j.eval(wrap
                    + "local function g() return f() end local ok, e = pcall(function() local x = g() return x end) return e"));
            assertEquals("user_script:1: boom", j.eval(wrap + "local ok, e = pcall(f) return e"));
        }
    }

    @Test
    void yieldingAcrossAMetamethodOrALibraryCallShouldFailAsInLua51() {
        String boundary = "attempt to yield across metamethod/C-call boundary";
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(Arrays.asList(null, boundary), j.eval("local t = setmetatable({}, {__index = function(t, k)"
                    + " return coroutine.yield(k) end}) local co = coroutine.create(function() return t.x end)"
                    + " return {coroutine.resume(co)}"));
            assertEquals(Arrays.asList(1L, null, boundary),
                    j.eval("local co = coroutine.create(function() return pcall(coroutine.yield, 1) end) return {coroutine.resume(co)}"));
            assertEquals(Arrays.asList(null, boundary), j.eval("local co = coroutine.create(function()"
                    + " return table.sort({3, 2, 1}, function(a, b) coroutine.yield() return a < b end) end)"
                    + " return {coroutine.resume(co)}"));
            assertEquals(Arrays.asList(null, boundary), j.eval("local co = coroutine.create(function()"
                    + " for k in function() coroutine.yield() end do end end) return {coroutine.resume(co)}"));
            assertEquals(Arrays.asList(1L, 7L), j.eval("local function g() return coroutine.yield(7) end"
                    + " local co = coroutine.create(function() local function h() return g() end local x = h() return x end)"
                    + " return {coroutine.resume(co)}"), "Lua calls and tail calls are no boundary");
        }
    }

    @Test
    void aFailingRedisCallInsideResumeShouldComeBackAsAnErrorReply() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            String failing = "local co = coroutine.create(function() return redis.call('nosuch') end) ";
            String raised = failing + "local ok, e = coroutine.resume(co) error(e)";

            List<?> resumed = (List<?>) j.eval(failing + "return {coroutine.resume(co)}");
            assertEquals(2, resumed.size());
            assertNull(resumed.get(0));
            assertEquals("ERR Unknown Redis command called from script", ((JedisDataException) resumed.get(1)).getMessage());
            assertEquals(Arrays.asList("table", "ERR Unknown Redis command called from script"),
                    j.eval(failing + "local ok, e = coroutine.resume(co) return {type(e), e.err}"));
            assertEquals("ERR Unknown Redis command called from script script: " + sha(raised) + ", on @user_script:1.",
                    assertThrows(JedisDataException.class, () -> j.eval(raised)).getMessage());
        }
    }

    @Test
    void scriptKillShouldStopALoopInsideACoroutine() throws Exception {
        String loop = "coroutine.wrap(function() while true do end end)()";
        try (Jedis caller = new Jedis(ebb.host(), ebb.port(), 30_000); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            other.ping();
            Future<JedisDataException> script = callers.submit(
                    () -> assertThrows(JedisDataException.class, () -> caller.eval(loop)));

            assertEquals(BUSY, awaitBusy(other).getMessage());
            assertEquals("OK", other.scriptKill());

            assertEquals("ERR Script killed by user with SCRIPT KILL... script: " + sha(loop) + ", on @user_script:1.",
                    script.get(20, TimeUnit.SECONDS).getMessage());
            assertEquals("PONG", caller.ping());
        }
    }

    @Test
    void aKillCaughtByResumeShouldBeRaisedAgainInTheScript() throws Exception {
        String loop = "while true do coroutine.resume(coroutine.create(function() while true do end end)) end";
        try (Jedis caller = new Jedis(ebb.host(), ebb.port(), 30_000); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            other.ping();
            Future<JedisDataException> script = callers.submit(
                    () -> assertThrows(JedisDataException.class, () -> caller.eval(loop)));

            awaitBusy(other);
            assertEquals("OK", other.scriptKill());

            assertTrue(script.get(20, TimeUnit.SECONDS).getMessage().startsWith("ERR Script killed by user with SCRIPT KILL..."));
        }
    }

    @Test
    void suspendedCoroutinesShouldBeCappedAndLeaveNoThreadBehind() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            int before = ManagementFactory.getThreadMXBean().getThreadCount();

            JedisDataException tooMany = assertThrows(JedisDataException.class, () -> j.eval(SUSPENDED, 0, "2000"));
            int afterRefused = ManagementFactory.getThreadMXBean().getThreadCount();
            Object filled = j.eval(SUSPENDED, 0, String.valueOf(LuaCoroutines.MAX_LIVE));
            int afterFilled = ManagementFactory.getThreadMXBean().getThreadCount();

            assertTrue(tooMany.getMessage().startsWith("ERR user_script:1: too many live coroutines (at most "
                    + LuaCoroutines.MAX_LIVE + " per script)"), tooMany.getMessage());
            assertEquals((long) LuaCoroutines.MAX_LIVE, filled);
            assertTrue(afterRefused < before + 20, "threads: " + before + " before, " + afterRefused + " after");
            assertTrue(afterFilled < before + 20, "threads: " + before + " before, " + afterFilled + " after");
            assertEquals(20L, j.eval("local co = coroutine.wrap(function() coroutine.yield(1) return 20 end)"
                    + " co() return co()"), "a coroutine of the next script runs as usual");
        }
    }

    private static String sha(String script) {
        return Scripting.sha1hex(script.getBytes());
    }

    /** Polls with GET until the server answers -BUSY (the script is past its threshold). */
    private static JedisDataException awaitBusy(Jedis j) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try {
                j.get("k");
            } catch (JedisDataException e) {
                return e;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the script never became busy");
    }
}
