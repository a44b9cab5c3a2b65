package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A script running past busy-reply-threshold: other clients get -BUSY, SCRIPT KILL stops a script
 * that has not written, a script that wrote is UNKILLABLE and runs to its end unless SHUTDOWN NOSAVE
 * stops the server. A connection opened while the script is busy is answered -BUSY too.
 */
class ScriptBusyTest {
    private static final String BUSY = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
    private static final String LOOP = "local i = 0 while true do i = i + 1 end";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("busy-reply-threshold", "50");

    private static final ExecutorService callers = Executors.newCachedThreadPool();

    @AfterAll
    static void stopCallers() {
        callers.shutdownNow();
    }

    @Test
    void scriptKillShouldStopABusyReadOnlyScriptWhileOthersGetBusy() throws Exception {
        try (Jedis caller = new Jedis(ebb.host(), ebb.port(), 10_000); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            other.set("k", "v");
            String sha = Scripting.sha1hex(LOOP.getBytes());
            Future<JedisDataException> script = callers.submit(
                    () -> assertThrows(JedisDataException.class, () -> caller.eval(LOOP)));

            JedisDataException busy = awaitBusy(other);

            assertEquals(BUSY, busy.getMessage());
            assertEquals(BUSY, assertThrows(JedisDataException.class, () -> other.ping()).getMessage());
            assertEquals("OK", other.scriptKill());
            assertEquals("ERR Script killed by user with SCRIPT KILL... script: " + sha + ", on @user_script:1.",
                    script.get(10, TimeUnit.SECONDS).getMessage());
            assertEquals("v", other.get("k"));
            assertEquals("PONG", caller.ping());
        }
    }

    @Test
    void aConnectionOpenedDuringABusyScriptShouldGetBusyAndMaySendScriptKill() throws Exception {
        try (Jedis caller = new Jedis(ebb.host(), ebb.port(), 30_000); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            other.ping();
            Future<JedisDataException> script = callers.submit(
                    () -> assertThrows(JedisDataException.class, () -> caller.eval(LOOP)));
            awaitBusy(other);

            try (Jedis fresh = new Jedis(ebb.host(), ebb.port(), 5_000)) {
                assertEquals(BUSY, assertThrows(JedisDataException.class, () -> fresh.get("k")).getMessage());
                assertEquals("OK", fresh.scriptKill());
            }

            assertTrue(script.get(20, TimeUnit.SECONDS).getMessage().startsWith("ERR Script killed by user"));
            assertEquals("PONG", caller.ping());
        }
    }

    @Test
    void scriptKillWithoutARunningScriptShouldAnswerNotBusy() {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            JedisDataException e = assertThrows(JedisDataException.class, j::scriptKill);

            assertEquals("NOTBUSY No scripts in execution right now.", e.getMessage());
        }
    }

    @Test
    void aScriptThatWroteShouldBeUnkillableAndPlainShutdownShouldGetBusy() throws Exception {
        try (Jedis caller = new Jedis(ebb.host(), ebb.port(), 60_000); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            other.ping(); // connected before the script: new connections are accepted only after it
            Future<Object> script = callers.submit(
                    () -> caller.eval("redis.call('set', 'written', '1') for i = 1, 1e8 do end return 'done'"));

            awaitBusy(other);

            JedisDataException kill = assertThrows(JedisDataException.class, other::scriptKill);
            assertTrue(kill.getMessage().startsWith("UNKILLABLE Sorry the script already executed write commands"),
                    kill.getMessage());
            assertEquals(BUSY, assertThrows(JedisDataException.class,
                    () -> other.sendCommand(redis.clients.jedis.Protocol.Command.SHUTDOWN)).getMessage());
            assertEquals("done", script.get(60, TimeUnit.SECONDS));
            assertEquals("1", other.get("written"));
        }
    }

    @Test
    void shutdownNosaveShouldEndABusyScriptThatWrote() throws Exception {
        EbbServer server = EbbServer.start(ServerConfig.fromText("port 0\nbusy-reply-threshold 50\n"));
        try (Jedis caller = new Jedis("127.0.0.1", server.port(), 60_000);
                Jedis other = new Jedis("127.0.0.1", server.port())) {
            other.ping();
            // The caller gets the kill error just before the connection closes (Redis's process exits instead).
            Future<?> script = callers.submit(() -> assertThrows(redis.clients.jedis.exceptions.JedisException.class,
                    () -> caller.eval("redis.call('set', 'written', '1') " + LOOP)));
            awaitBusy(other);

            assertThrows(JedisConnectionException.class,
                    () -> other.sendCommand(redis.clients.jedis.Protocol.Command.SHUTDOWN, "NOSAVE"),
                    "no reply: the server closes the connection");

            assertTimeoutPreemptively(Duration.ofSeconds(20), server::awaitTermination);
            script.get(20, TimeUnit.SECONDS);
        } finally {
            server.close();
        }
    }

    @Test
    void aProtocolErrorDuringABusyScriptShouldBeAnsweredAndTheConnectionClosed() throws Exception {
        try (Jedis caller = new Jedis(ebb.host(), ebb.port(), 30_000); Jedis other = new Jedis(ebb.host(), ebb.port());
                java.net.Socket raw = new java.net.Socket(ebb.host(), ebb.port())) {
            other.ping();
            raw.setSoTimeout(20_000);
            Future<JedisDataException> script = callers.submit(
                    () -> assertThrows(JedisDataException.class, () -> caller.eval(LOOP)));
            awaitBusy(other);

            raw.getOutputStream().write("*1\r\n$abc\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

            // Written and closed while the script still runs: nothing here ends it.
            assertEquals("-ERR Protocol error: invalid bulk length\r\n",
                    new String(raw.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals(BUSY, assertThrows(JedisDataException.class, () -> other.ping()).getMessage());
            assertEquals("OK", other.scriptKill());
            assertTrue(script.get(20, TimeUnit.SECONDS).getMessage().startsWith("ERR Script killed by user"));
        }
    }

    @Test
    void aMessagePublishedInTheScriptsBatchShouldReachItsSubscriberWhileTheScriptRuns() throws Exception {
        try (java.net.Socket subscriber = new java.net.Socket(ebb.host(), ebb.port());
                java.net.Socket caller = new java.net.Socket(ebb.host(), ebb.port());
                Jedis other = new Jedis(ebb.host(), ebb.port(), 20_000)) {
            other.ping();
            subscriber.setSoTimeout(10_000);
            caller.setSoTimeout(20_000);
            subscriber.getOutputStream().write(resp("SUBSCRIBE", "busy-ch"));
            assertEquals("*3\r\n$9\r\nsubscribe\r\n$7\r\nbusy-ch\r\n:1\r\n", read(subscriber, 36));

            // One write: the PUBLISH queues the message for the turn's write-out, then the script
            // holds the loop. Redis 7.2.4 delivers it once the script is past busy-reply-threshold.
            byte[] publish = resp("PUBLISH", "busy-ch", "m");
            byte[] eval = resp("EVAL", LOOP, "0");
            byte[] both = java.util.Arrays.copyOf(publish, publish.length + eval.length);
            System.arraycopy(eval, 0, both, publish.length, eval.length);
            caller.getOutputStream().write(both);

            String message;
            try {
                message = read(subscriber, 37);
            } finally {
                assertEquals("OK", other.scriptKill());
            }
            assertEquals("*3\r\n$7\r\nmessage\r\n$7\r\nbusy-ch\r\n$1\r\nm\r\n", message);
            assertEquals(":1\r\n-ERR Script killed by user", read(caller, 30));
        }
    }

    private static byte[] resp(String... args) {
        StringBuilder out = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            out.append('$').append(a.length()).append("\r\n").append(a).append("\r\n");
        }
        return out.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static String read(java.net.Socket socket, int bytes) throws java.io.IOException {
        return new String(socket.getInputStream().readNBytes(bytes), java.nio.charset.StandardCharsets.US_ASCII);
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
