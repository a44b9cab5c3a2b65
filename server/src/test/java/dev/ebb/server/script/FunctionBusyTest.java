package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A function running past busy-reply-threshold, as in Redis: others get the -BUSY that names
 * FUNCTION KILL, FUNCTION STATS reports it, SCRIPT KILL cannot stop it and FUNCTION KILL can;
 * while EVAL is busy it is the other way round. FUNCTION LOAD stops a library's code after 500 ms.
 */
class FunctionBusyTest {
    private static final String BUSY_FUNCTION =
            "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";
    private static final String BUSY_EVAL =
            "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("busy-reply-threshold", "50");

    private static final ExecutorService callers = Executors.newCachedThreadPool();

    @AfterAll
    static void stopCallers() {
        callers.shutdownNow();
    }

    @BeforeEach
    void loadSpinner() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            j.functionFlush();
            j.functionLoad("#!lua name=spin\nredis.register_function('spin', function(keys, args)\n"
                    + "  local i = 0 while true do i = i + 1 end\nend)");
        }
    }

    @Test
    void functionKillShouldStopABusyFunctionAndScriptKillShouldNot() throws Exception {
        try (Jedis caller = new Jedis(ebb.host(), ebb.port(), 30_000); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            other.ping();
            Future<JedisDataException> run = callers.submit(
                    () -> assertThrows(JedisDataException.class, () -> caller.fcall("spin", List.of("k"), List.of("a"))));

            JedisDataException busy;
            Map<String, Object> running;
            JedisDataException scriptKill;
            try {
                busy = awaitBusy(other);
                running = other.functionStats().getRunningScript();
                scriptKill = assertThrows(JedisDataException.class, other::scriptKill);
            } finally {
                killQuietly(other);
            }

            assertEquals(BUSY_FUNCTION, busy.getMessage());
            assertEquals("spin", running.get("name"));
            assertEquals(List.of("FCALL", "spin", "1", "k", "a"), running.get("command"));
            assertEquals(BUSY_FUNCTION, scriptKill.getMessage());
            assertEquals("ERR Script killed by user with SCRIPT KILL... script: spin, on @user_function:3.",
                    run.get(20, TimeUnit.SECONDS).getMessage());
            assertEquals("PONG", caller.ping());
            assertEquals("NOTBUSY No scripts in execution right now.",
                    assertThrows(JedisDataException.class, other::functionKill).getMessage());
        }
    }

    @Test
    void whileEvalIsBusyFunctionKillAndStatsShouldPointToScriptKill() throws Exception {
        try (Jedis caller = new Jedis(ebb.host(), ebb.port(), 30_000); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            other.ping();
            Future<JedisDataException> run = callers.submit(
                    () -> assertThrows(JedisDataException.class, () -> caller.eval("while true do end")));

            JedisDataException busy;
            JedisDataException functionKill;
            JedisDataException functionStats;
            try {
                busy = awaitBusy(other);
                functionKill = assertThrows(JedisDataException.class, other::functionKill);
                functionStats = assertThrows(JedisDataException.class, other::functionStats);
            } finally {
                assertEquals("OK", other.scriptKill());
            }

            assertEquals(BUSY_EVAL, busy.getMessage());
            assertEquals(BUSY_EVAL, functionKill.getMessage());
            assertEquals(BUSY_EVAL, functionStats.getMessage());
            assertTrue(run.get(20, TimeUnit.SECONDS).getMessage().startsWith("ERR Script killed by user"));
        }
    }

    @Test
    void loadShouldStopALibraryWhoseCodeRunsTooLong() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port(), 30_000)) {
            JedisDataException e = assertThrows(JedisDataException.class, () -> j.functionLoad(
                    "#!lua name=slow\nredis.register_function('x', function() return 1 end)\nwhile true do end"));

            assertEquals("ERR Error registering functions: ERR FUNCTION LOAD timeout", e.getMessage());
            assertEquals(1, j.functionList().size());
        }
    }

    /** FUNCTION KILL until it is answered OK or NOTBUSY, so that a failed test leaves no function spinning. */
    private static void killQuietly(Jedis other) {
        for (int i = 0; i < 100; i++) {
            try {
                other.functionKill();
                return;
            } catch (JedisDataException e) {
                if (e.getMessage().startsWith("NOTBUSY")) {
                    return;
                }
            }
        }
    }

    private static JedisDataException awaitBusy(Jedis other) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            try {
                other.ping();
            } catch (JedisDataException e) {
                return e;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the function never became busy");
    }
}
