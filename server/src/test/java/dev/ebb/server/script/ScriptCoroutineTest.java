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
