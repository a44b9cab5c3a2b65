package dev.ebb.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RCountDownLatch;
import org.redisson.api.RList;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RSemaphore;
import org.redisson.api.RSet;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import redis.clients.jedis.Jedis;

/**
 * Redisson objects beyond the list, over RESP2 against Ebb: the read-write lock, fair lock,
 * semaphore and count-down latch (scripts plus pub/sub wake-ups), sets, lists, sorted sets, a
 * blocking queue and a topic.
 */
class RedissonObjectsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static RedissonClient redisson;

    @BeforeAll
    static void connect() {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + ebb.host() + ":" + ebb.port())
                .setConnectionMinimumIdleSize(2).setConnectionPoolSize(6)
                .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(2);
        config.setCodec(StringCodec.INSTANCE);
        config.setLockWatchdogTimeout(2_000);
        redisson = Redisson.create(config);
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown(0, 2, TimeUnit.SECONDS);
    }

    @Test
    void readWriteLockShouldShareReadsAndExcludeWrites() throws Exception {
        RReadWriteLock rw = redisson.getReadWriteLock("rw");
        rw.readLock().lock(10, TimeUnit.SECONDS);
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertTrue(other.submit(() -> {
                boolean got = rw.readLock().tryLock(0, 10, TimeUnit.SECONDS);
                rw.readLock().unlock();
                return got;
            }).get(5, TimeUnit.SECONDS));
            assertFalse(other.submit(() -> rw.writeLock().tryLock(0, 10, TimeUnit.SECONDS)).get(5, TimeUnit.SECONDS));
            Future<Boolean> writer = other.submit(() -> {
                boolean got = rw.writeLock().tryLock(10, 10, TimeUnit.SECONDS);
                rw.writeLock().unlock();
                return got;
            });
            Thread.sleep(200);
            rw.readLock().unlock();
            assertTrue(writer.get(3, TimeUnit.SECONDS), "the writer was woken when the last reader left");
        } finally {
            other.shutdownNow();
        }
        assertFalse(rw.writeLock().isLocked());
    }

    @Test
    void fairLockShouldGrantWaitersInOrder() throws Exception {
        RLock fair = redisson.getFairLock("fair");
        fair.lock(10, TimeUnit.SECONDS);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        BlockingQueue<String> order = new LinkedBlockingQueue<>();
        try {
            Future<?> first = pool.submit(() -> acquireAndRecord(fair, "first", order));
            awaitFairQueueLength(1);
            Future<?> second = pool.submit(() -> acquireAndRecord(fair, "second", order));
            awaitFairQueueLength(2);
            fair.unlock();
            first.get(5, TimeUnit.SECONDS);
            second.get(5, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(List.of("first", "second"), List.copyOf(order));
    }

    /** Waits until this many threads queue for the fair lock "fair", so their order is known. */
    private static void awaitFairQueueLength(long waiters) throws InterruptedException {
        try (Jedis jedis = new Jedis(ebb.host(), ebb.port())) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (jedis.llen("redisson_lock_queue:{fair}") < waiters) {
                assertTrue(System.nanoTime() < deadline, "waiters queued for the fair lock: fewer than " + waiters);
                Thread.sleep(5);
            }
        }
    }

    private static Object acquireAndRecord(RLock lock, String name, BlockingQueue<String> order) throws Exception {
        assertTrue(lock.tryLock(5, 5, TimeUnit.SECONDS));
        order.add(name);
        lock.unlock();
        return null;
    }

    @Test
    void semaphoreAndLatchShouldWakeWaiters() throws Exception {
        RSemaphore semaphore = redisson.getSemaphore("sem");
        assertTrue(semaphore.trySetPermits(1));
        semaphore.acquire();
        assertFalse(semaphore.tryAcquire());
        RCountDownLatch latch = redisson.getCountDownLatch("latch");
        assertTrue(latch.trySetCount(1));
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<Boolean> acquired = other.submit(() -> semaphore.tryAcquire(5, TimeUnit.SECONDS));
            Thread.sleep(200);
            semaphore.release();
            assertTrue(acquired.get(3, TimeUnit.SECONDS));
            Future<Boolean> released = other.submit(() -> latch.await(5, TimeUnit.SECONDS));
            Thread.sleep(200);
            latch.countDown();
            assertTrue(released.get(3, TimeUnit.SECONDS));
        } finally {
            other.shutdownNow();
        }
        assertEquals(0, latch.getCount());
    }

    @Test
    void setListAndSortedSetShouldWork() {
        RSet<String> set = redisson.getSet("set");
        assertTrue(set.add("a"));
        assertFalse(set.add("a"));
        set.addAll(List.of("b", "c"));
        assertEquals(Set.of("a", "b", "c"), set.readAll());
        assertTrue(set.remove("b"));
        assertTrue(set.contains("c"));

        RList<String> list = redisson.getList("list");
        list.addAll(List.of("x", "y", "z"));
        assertEquals("y", list.get(1));
        list.add(1, "w");
        assertEquals(List.of("x", "w", "y", "z"), list.readAll());
        assertTrue(list.remove("y"));
        assertEquals(3, list.size());

        RScoredSortedSet<String> zset = redisson.getScoredSortedSet("zset");
        zset.add(2, "two");
        zset.add(1, "one");
        zset.addScore("one", 5);
        assertEquals(List.of("two", "one"), List.copyOf(zset.readAll()));
        assertEquals(6.0, zset.getScore("one"));
        assertEquals("two", zset.pollFirst());
        assertEquals(1, zset.size());
    }

    @Test
    void blockingQueueShouldHandOverAndTopicShouldDeliver() throws Exception {
        RBlockingQueue<String> queue = redisson.getBlockingQueue("queue");
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<String> taken = other.submit(() -> queue.poll(5, TimeUnit.SECONDS));
            Thread.sleep(200);
            queue.offer("job");
            assertEquals("job", taken.get(3, TimeUnit.SECONDS));
        } finally {
            other.shutdownNow();
        }
        assertNull(queue.poll());

        RTopic topic = redisson.getTopic("news");
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        int listener = topic.addListener(String.class, (channel, message) -> received.add(channel + ":" + message));
        assertEquals(1, topic.publish("hello"));
        assertEquals("news:hello", received.poll(5, TimeUnit.SECONDS));
        topic.removeListener(listener);
    }

    @Test
    void setListenersShouldHearAddsAndRemovesThroughKeyspaceNotifications() throws Exception {
        try (redis.clients.jedis.Jedis jedis = new redis.clients.jedis.Jedis(ebb.host(), ebb.port())) {
            jedis.configSet("notify-keyspace-events", "Es");
        }
        RSet<String> set = redisson.getSet("set:listened");
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        int added = set.addListener((org.redisson.api.listener.SetAddListener) name -> events.add("add " + name));
        int removed = set.addListener((org.redisson.api.listener.SetRemoveListener) name -> events.add("rem " + name));

        set.add("a");
        set.add("b");
        set.remove("a");

        // The two listeners' patterns may sit on different subscription connections, so only the
        // events, not their interleaving, are certain.
        List<String> heard = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String event = events.poll(5, TimeUnit.SECONDS);
            org.junit.jupiter.api.Assertions.assertNotNull(event, "heard only " + heard);
            heard.add(event);
        }
        heard.sort(null);
        assertEquals(List.of("add set:listened", "add set:listened", "rem set:listened"), heard);
        set.removeListener(added);
        set.removeListener(removed);
    }

    @Test
    void listAndSortedSetListenersShouldHearChangesThroughKeyspaceNotifications() throws Exception {
        try (redis.clients.jedis.Jedis jedis = new redis.clients.jedis.Jedis(ebb.host(), ebb.port())) {
            jedis.configSet("notify-keyspace-events", "Elz");
        }
        RList<String> list = redisson.getList("list:listened");
        RScoredSortedSet<String> zset = redisson.getScoredSortedSet("zset:listened");
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        int listAdd = list.addListener((org.redisson.api.listener.ListAddListener) name -> events.add("ladd " + name));
        int zsetAdd = zset.addListener((org.redisson.api.listener.ScoredSortedSetAddListener) name -> events.add("zadd " + name));

        list.add("a");
        assertEquals("ladd list:listened", events.poll(5, TimeUnit.SECONDS));
        zset.add(1, "m");
        assertEquals("zadd zset:listened", events.poll(5, TimeUnit.SECONDS));
        list.removeListener(listAdd);
        zset.removeListener(zsetAdd);
    }
}
