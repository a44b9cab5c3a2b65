package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.SetParams;

/**
 * The distributed-lock pattern: acquire with SET NX PX, release with the Lua compare-and-delete.
 * Mutual exclusion holds under contention, a stale holder cannot release another's lock, and a
 * crashed holder's lock expires (manual clock: no sleeping for the TTL).
 */
class ScriptLockTest {
    static final String RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1])"
            + " else return 0 end";
    private static final String LOCK = "lock:res";
    private static final int THREADS = 4;
    private static final int ITERATIONS = 150;

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    @Test
    void contendingThreadsShouldNeverHoldTheLockTogether() throws Exception {
        String sha;
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            sha = j.scriptLoad(RELEASE);
            j.set("counter", "0");
        }
        AtomicInteger holders = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger failedReleases = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            workers.add(pool.submit(() -> {
                try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
                    for (int i = 0; i < ITERATIONS; i++) {
                        String token = UUID.randomUUID().toString();
                        while (!"OK".equals(j.set(LOCK, token, SetParams.setParams().nx().px(5000)))) {
                            Thread.onSpinWait();
                        }
                        if (holders.incrementAndGet() != 1) {
                            violations.incrementAndGet();
                        }
                        // A read-modify-write that loses updates unless the lock really excludes.
                        long value = Long.parseLong(j.get("counter"));
                        j.set("counter", Long.toString(value + 1));
                        holders.decrementAndGet();
                        if (!Long.valueOf(1).equals(j.evalsha(sha, List.of(LOCK), List.of(token)))) {
                            failedReleases.incrementAndGet();
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> w : workers) {
            w.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertEquals(0, violations.get());
        assertEquals(0, failedReleases.get());
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            assertEquals(Integer.toString(THREADS * ITERATIONS), j.get("counter"));
            assertNull(j.get(LOCK));
        }
    }

    @Test
    void aStaleHolderShouldNotReleaseAnotherHoldersLock() {
        try (Jedis a = new Jedis(ebb.host(), ebb.port()); Jedis b = new Jedis(ebb.host(), ebb.port())) {
            assertEquals("OK", a.set(LOCK, "token-a", SetParams.setParams().nx().px(1000)));
            ebb.advanceClock(1001);
            assertEquals("OK", b.set(LOCK, "token-b", SetParams.setParams().nx().px(1000)));

            Object staleRelease = a.eval(RELEASE, List.of(LOCK), List.of("token-a"));

            assertEquals(0L, staleRelease);
            assertEquals("token-b", b.get(LOCK));
            assertEquals(1L, b.eval(RELEASE, List.of(LOCK), List.of("token-b")));
            assertNull(b.get(LOCK));
        }
    }

    @Test
    void aCrashedHoldersLockShouldExpire() {
        try (Jedis b = new Jedis(ebb.host(), ebb.port())) {
            try (Jedis crashed = new Jedis(ebb.host(), ebb.port())) {
                assertEquals("OK", crashed.set(LOCK, "token-crashed", SetParams.setParams().nx().px(5000)));
            }
            assertNull(b.set(LOCK, "token-b", SetParams.setParams().nx().px(5000)));
            ebb.advanceClock(4999);
            assertNull(b.set(LOCK, "token-b", SetParams.setParams().nx().px(5000)));

            ebb.advanceClock(2);

            assertEquals("OK", b.set(LOCK, "token-b", SetParams.setParams().nx().px(5000)));
            assertEquals(1L, b.eval(RELEASE, List.of(LOCK), List.of("token-b")));
        }
    }
}
