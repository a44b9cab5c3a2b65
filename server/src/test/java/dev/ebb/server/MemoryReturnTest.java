package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MemoryReturnTest {
    private static final long MB = 1024L * 1024;

    private final AtomicInteger collections = new AtomicInteger();
    private volatile CountDownLatch collected = new CountDownLatch(1);
    private long committed = 512 * MB;
    private final MemoryReturn memoryReturn = new MemoryReturn(() -> committed, () -> {
        collections.incrementAndGet();
        collected.countDown();
    });

    @Test
    void shouldCollectOnceWhenUsedMemoryHalves() throws Exception {
        memoryReturn.cron(200 * MB, 0);

        assertFalse(memoryReturn.cron(101 * MB, 100), "not yet half");
        assertTrue(memoryReturn.cron(1 * MB, 200));
        assertTrue(collected.await(30, TimeUnit.SECONDS));
        assertFalse(memoryReturn.cron(1 * MB, 300), "nothing more went");
        assertEquals(1, collections.get());
        assertEquals(1, memoryReturn.returns());
    }

    @Test
    void shouldWaitFiveSecondsBetweenReturns() throws Exception {
        memoryReturn.cron(200 * MB, 0);
        assertTrue(memoryReturn.cron(0, 100));
        assertTrue(collected.await(30, TimeUnit.SECONDS));
        collected = new CountDownLatch(1);
        memoryReturn.cron(200 * MB, 200);

        assertFalse(memoryReturn.cron(0, 4_000));
        assertTrue(memoryReturn.cron(0, 5_100));
        assertTrue(collected.await(30, TimeUnit.SECONDS));
        assertEquals(2, collections.get());
    }

    @Test
    void shouldNotCollectForSmallDropsOrASmallHeap() {
        memoryReturn.cron(10 * MB, 0);
        assertFalse(memoryReturn.cron(0, 100), "a drop under 16 MB");

        memoryReturn.cron(100 * MB, 200);
        committed = 32 * MB;
        assertFalse(memoryReturn.cron(0, 300), "heap under 64 MB committed");
        assertEquals(0, memoryReturn.returns());
    }
}
