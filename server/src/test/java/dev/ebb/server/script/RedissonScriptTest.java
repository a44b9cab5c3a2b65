package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RAtomicLong;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import redis.clients.jedis.Jedis;

/**
 * Redisson over RESP2 against Ebb: the objects whose scripts need only strings and keys, and
 * Redisson's script cache (EVALSHA, loading a script once on NOSCRIPT) seen through MONITOR. RLock is
 * in {@link RedissonLockTest}, RMap and RMapCache in {@link RedissonMapTest}.
 */
class RedissonScriptTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static RedissonClient redisson;

    @BeforeAll
    static void connect() {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + ebb.host() + ":" + ebb.port())
                .setConnectionMinimumIdleSize(1).setConnectionPoolSize(2)
                .setSubscriptionConnectionMinimumIdleSize(0).setSubscriptionConnectionPoolSize(1);
        config.setCodec(StringCodec.INSTANCE);
        config.setUseScriptCache(true);
        redisson = Redisson.create(config);
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown(0, 2, TimeUnit.SECONDS);
    }

    @Test
    void bucketShouldSetGetCompareAndSetAndExpire() {
        RBucket<String> bucket = redisson.getBucket("bucket");

        bucket.set("v1");

        assertEquals("v1", bucket.get());
        assertTrue(bucket.compareAndSet("v1", "v2"));
        assertFalse(bucket.compareAndSet("v1", "v3"));
        assertEquals("v2", bucket.getAndSet("v4"));
        assertTrue(bucket.setIfAbsent("x") == false);
        assertEquals("v4", bucket.getAndDelete());
        assertNull(bucket.get());
        assertTrue(bucket.trySet("t", 10, TimeUnit.SECONDS));
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertTrue(j.pttl("bucket") > 0);
        }
    }

    @Test
    void atomicLongShouldCountAndCompareAndSetThroughScripts() {
        RAtomicLong counter = redisson.getAtomicLong("counter");

        counter.set(5);

        assertEquals(6, counter.incrementAndGet());
        assertEquals(6, counter.getAndAdd(4));
        assertTrue(counter.compareAndSet(10, 20));
        assertFalse(counter.compareAndSet(10, 30));
        assertEquals(20, counter.getAndDelete());
        assertEquals(0, counter.get());
    }

    @Test
    void redissonShouldRunItsScriptsFromTheScriptCache() {
        RBucket<String> bucket = redisson.getBucket("cached");
        bucket.set("v");
        ebb.server().runOnLoop(server -> server.scripting().flush());

        assertTrue(bucket.compareAndSet("v", "w"));

        int[] cached = new int[1];
        ebb.server().runOnLoop(server -> cached[0] = server.scripting().cachedScripts());
        assertEquals(1, cached[0], "Redisson loaded its script (SCRIPT LOAD, or EVAL after NOSCRIPT)");
        assertEquals("w", bucket.get());
    }

    @Test
    void redissonShouldLoadAScriptOnceAndThenCallItByEvalsha() throws Exception {
        RBucket<String> bucket = redisson.getBucket("monitored");
        bucket.set("a");
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port());
                Socket monitor = new Socket(ebb.host(), ebb.port())) {
            assertEquals("OK", jedis.scriptFlush());
            OutputStream out = monitor.getOutputStream();
            out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(monitor.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("+OK", in.readLine());

            assertTrue(bucket.compareAndSet("a", "b"));
            jedis.echo("first-call-done");
            assertTrue(bucket.compareAndSet("b", "c"));
            jedis.echo("second-call-done");

            List<String> first = commandsUntil(in, "first-call-done");
            List<String> second = commandsUntil(in, "second-call-done");
            assertEquals(List.of("\"EVALSHA\"", "\"SCRIPT\" \"LOAD\"", "\"EVALSHA\""), scriptCommands(first),
                    "first call: EVALSHA, NOSCRIPT, SCRIPT LOAD, EVALSHA: " + first);
            assertEquals(List.of("\"EVALSHA\""), scriptCommands(second), "second call: " + second);
            String evalsha = second.stream().filter(c -> c.startsWith("\"EVALSHA\"")).findFirst().orElseThrow();
            String sha = evalsha.substring(11, 51);
            assertTrue(jedis.scriptExists(sha));
            assertEquals("c", bucket.get());
        }
    }

    /** The MONITOR lines (without time and client) up to the ECHO of {@code marker}. */
    private static List<String> commandsUntil(BufferedReader monitor, String marker) throws Exception {
        List<String> commands = new ArrayList<>();
        for (int lines = 0; lines < 1_000; lines++) {
            String line = monitor.readLine();
            String command = line.substring(line.indexOf("] ") + 2);
            if (command.equalsIgnoreCase("\"echo\" \"" + marker + "\"")) {
                return commands;
            }
            commands.add(command);
        }
        throw new AssertionError("no ECHO " + marker + " on the monitor: " + commands);
    }

    /** EVAL, EVALSHA and SCRIPT LOAD among {@code commands}, upper-cased, without their arguments. */
    private static List<String> scriptCommands(List<String> commands) {
        List<String> scripts = new ArrayList<>();
        for (String command : commands) {
            String upper = command.toUpperCase(java.util.Locale.ROOT);
            if (upper.startsWith("\"SCRIPT\" \"LOAD\"")) {
                scripts.add("\"SCRIPT\" \"LOAD\"");
            } else if (upper.startsWith("\"EVAL")) {
                scripts.add(upper.substring(0, upper.indexOf('"', 1) + 1));
            }
        }
        return scripts;
    }
}
