package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import redis.clients.jedis.Jedis;

/**
 * Redisson's RLock over RESP2 against Ebb: its Lua scripts on hashes (run with EVALSHA), waiters
 * woken by the unlock message on the lock's pub/sub channel, lease expiry and the watchdog that
 * renews a lock held without a lease. Leases and the watchdog run on Redisson's own timers, so
 * these tests use real, short waits (the watchdog timeout is set to 2 s).
 */
class RedissonLockTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static final long WATCHDOG_MILLIS = 2_000;

    private static RedissonClient redisson;

    @BeforeAll
    static void connect() {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + ebb.host() + ":" + ebb.port())
                .setConnectionMinimumIdleSize(2).setConnectionPoolSize(8)
                .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(2);
        config.setLockWatchdogTimeout(WATCHDOG_MILLIS);
        config.setUseScriptCache(true);
        redisson = Redisson.create(config);
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown(0, 2, TimeUnit.SECONDS);
    }

    @Test
    void lockShouldBeReentrantAndReleasedByUnlock() {
        RLock lock = redisson.getLock("lock:plain");

        lock.lock();
        lock.lock();

        assertTrue(lock.isLocked());
        assertTrue(lock.isHeldByCurrentThread());
        assertEquals(2, lock.getHoldCount());
        lock.unlock();
        assertTrue(lock.isLocked());
        lock.unlock();
        assertFalse(lock.isLocked());
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            assertFalse(jedis.exists("lock:plain"));
        }
    }

    @Test
    void lockHeldByAnotherThreadShouldNotBeAcquiredOrUnlocked() throws Exception {
        RLock lock = redisson.getLock("lock:other");
        lock.lock(30, TimeUnit.SECONDS);
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertFalse(other.submit(() -> lock.tryLock(0, 5, TimeUnit.SECONDS)).get(5, TimeUnit.SECONDS));
            Future<?> foreignUnlock = other.submit(lock::unlock);
            Exception failure = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                    () -> foreignUnlock.get(5, TimeUnit.SECONDS));
            assertTrue(failure.getCause() instanceof IllegalMonitorStateException, failure.toString());
        } finally {
            other.shutdownNow();
            lock.unlock();
        }
        assertFalse(lock.isLocked());
    }

    @Test
    void tryLockWithLeaseShouldSetThePttlAndExpire() throws Exception {
        RLock lock = redisson.getLock("lock:lease");

        assertTrue(lock.tryLock(0, 1, TimeUnit.SECONDS));

        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            long pttl = jedis.pttl("lock:lease");
            assertTrue(pttl > 0 && pttl <= 1_000, "pttl " + pttl);
            assertEquals("hash", jedis.type("lock:lease"));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (lock.isLocked() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertFalse(lock.isLocked(), "the lease expired");
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertTrue(other.submit(() -> {
                boolean got = lock.tryLock(0, 5, TimeUnit.SECONDS);
                lock.unlock();
                return got;
            }).get(5, TimeUnit.SECONDS));
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void waiterShouldBeWokenByTheUnlockMessage() throws Exception {
        RLock lock = redisson.getLock("lock:wake");
        lock.lock(30, TimeUnit.SECONDS);
        ExecutorService waiter = Executors.newSingleThreadExecutor();
        CountDownLatch waiting = new CountDownLatch(1);
        try {
            Future<Long> acquiredAt = waiter.submit(() -> {
                waiting.countDown();
                boolean got = lock.tryLock(20, 5, TimeUnit.SECONDS);
                long at = System.nanoTime();
                if (got) {
                    lock.unlock();
                }
                return got ? at : Long.MIN_VALUE;
            });
            assertTrue(waiting.await(5, TimeUnit.SECONDS));
            Thread.sleep(300);
            long unlockedAt = System.nanoTime();
            lock.unlock();

            long millis = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(10, TimeUnit.SECONDS) - unlockedAt);

            // The lock's TTL was 30 s and the waiter's wait 20 s: only the unlock message on
            // redisson_lock__channel:{lock:wake} can wake it this early.
            assertTrue(millis >= 0 && millis < 3_000, "waiter acquired " + millis + " ms after the unlock");
        } finally {
            waiter.shutdownNow();
        }
    }

    @Test
    void watchdogShouldRenewALockHeldWithoutLease() throws Exception {
        RLock lock = redisson.getLock("lock:watchdog");
        lock.lock();
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            long first = jedis.pttl("lock:watchdog");
            assertTrue(first > 0 && first <= WATCHDOG_MILLIS, "pttl " + first);

            Thread.sleep(WATCHDOG_MILLIS + 1_000);

            long renewed = jedis.pttl("lock:watchdog");
            assertTrue(renewed > WATCHDOG_MILLIS / 3, "renewed pttl " + renewed);
            assertTrue(lock.isHeldByCurrentThread());
        } finally {
            lock.unlock();
        }
        assertFalse(lock.isLocked());
    }

    @Test
    void lockShouldExcludeConcurrentThreads() throws Exception {
        int threads = 4;
        int iterations = 25;
        RLock lock = redisson.getLock("lock:mutex");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        int[] counter = new int[1];
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < iterations; i++) {
                        lock.lock();
                        try {
                            if (inside.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            counter[0]++;
                            inside.decrementAndGet();
                        } finally {
                            lock.unlock();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, overlaps.get());
        assertEquals(threads * iterations, counter[0]);
        assertFalse(lock.isLocked());
    }
}
