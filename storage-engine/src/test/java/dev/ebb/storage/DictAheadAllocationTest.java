package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The next table's arrays allocated ahead on the background thread: handed over when ready and of the right
 * capacity, never otherwise, and a large table grows and shrinks through them with its contents intact.
 * The waits are for the background allocation, bounded at a few seconds.
 */
final class DictAheadAllocationTest {

    private static final long WAIT_NANOS = 5_000_000_000L;

    @Test
    void takeShouldHandOverReadyZeroedArraysOfTheRequestedCapacityOnce() {
        final NextTable next = new NextTable();

        next.request(NextTable.AHEAD_MIN_CAPACITY, 1, int[]::new);
        awaitReady(next::readyCapacity);
        final NextTable.Prepared prepared = next.take(NextTable.AHEAD_MIN_CAPACITY);

        assertNotNull(prepared);
        assertEquals(NextTable.AHEAD_MIN_CAPACITY * 2, prepared.rows.length);
        assertEquals(NextTable.AHEAD_MIN_CAPACITY, ((int[]) prepared.columns).length);
        assertNull(next.take(NextTable.AHEAD_MIN_CAPACITY), "taken once");
        assertEquals(0, next.readyCapacity());
    }

    @Test
    void takeShouldRefuseArraysMadeForAnotherCapacity() {
        final NextTable next = new NextTable();
        next.request(NextTable.AHEAD_MIN_CAPACITY, 0, long[]::new);
        awaitReady(next::readyCapacity);

        final NextTable.Prepared prepared = next.take(NextTable.AHEAD_MIN_CAPACITY * 2);

        assertNull(prepared);
        assertEquals(0, next.readyCapacity(), "the mismatched arrays were dropped");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dict", "LongDict"})
    void aLargeTableShouldGrowAndShrinkThroughReadyArraysWithEveryKeyKept(final String kind) {
        final TableUnderTest table = DictPropertyTest.subject(kind, 201);
        final KeyModel model = new KeyModel();
        final int capacity = NextTable.AHEAD_MIN_CAPACITY * 2;
        int next = 0;
        while (table.table.size() <= TableSizing.aheadFill(capacity) || table.table.capacity() < capacity) {
            put(table, model, next++);
        }
        table.table.rehashSteps(Integer.MAX_VALUE);
        final long memoryBeforeReady = table.table.memoryBytes();
        awaitReady(table.table::readyAheadCapacity);
        assertEquals(capacity * 2, table.table.readyAheadCapacity());
        assertEquals(memoryBeforeReady, table.table.memoryBytes(),
            "memoryBytes must not move when the background thread finishes (callers account it incrementally)");
        assertTrue(table.table.aheadBytes() > 0);
        table.assertMatches(model.values);

        while (!table.table.isRehashing()) {
            put(table, model, next++);
        }

        assertEquals(capacity * 2, table.table.capacity());
        assertEquals(0, table.table.readyAheadCapacity(), "the ready arrays were taken");
        table.table.rehashSteps(Integer.MAX_VALUE);
        table.assertMatches(model.values);

        final SplittableRandom random = new SplittableRandom(201);
        int removed = 0;
        while (table.table.size() * 8L >= table.table.capacity()) {
            remove(table, model, removed++);
        }
        awaitReady(table.table::readyAheadCapacity);
        while (!table.table.isRehashing()) {
            remove(table, model, removed++);
        }
        assertEquals(0, table.table.readyAheadCapacity(), "the ready shrink arrays were taken");
        while (table.table.isRehashing()) {
            remove(table, model, removed + random.nextInt(next - removed));
        }
        table.assertMatches(model.values);
        assertTrue(table.table.capacity() < capacity * 2, "shrank to " + table.table.capacity());
    }

    @Test
    void aGrowShouldWaitPastThreeQuartersForArraysStillBeingAllocatedThenAllocateInlineAtSevenEighths()
            throws InterruptedException {
        final TableUnderTest table = DictPropertyTest.subject("Dict", 301);
        final KeyModel model = new KeyModel();
        final int capacity = NextTable.AHEAD_MIN_CAPACITY * 2;
        final CountDownLatch release = holdAllocatorThread();
        int next = 0;
        try {
            next = fillToThreeQuarters(table, model, capacity);

            while (table.table.size() < TableSizing.fillLimit(capacity)) {
                put(table, model, next++);
                assertFalse(table.table.isRehashing(), "grew at " + table.table.size() + " keys");
            }
            assertEquals(capacity, table.table.capacity());
            table.assertMatches(model.values);

            put(table, model, next++);

            assertTrue(table.table.isRehashing(), "the insert past 7/8 starts the grow with inline arrays");
            assertEquals(capacity * 2, table.table.capacity());
        } finally {
            release.countDown();
        }
        table.table.rehashSteps(Integer.MAX_VALUE);
        table.assertMatches(model.values);
    }

    @Test
    void aGrowPutOffPastThreeQuartersShouldTakeTheArraysOnceTheyAreReady() throws InterruptedException {
        final TableUnderTest table = DictPropertyTest.subject("LongDict", 302);
        final KeyModel model = new KeyModel();
        final int capacity = NextTable.AHEAD_MIN_CAPACITY * 2;
        final CountDownLatch release = holdAllocatorThread();
        int next;
        try {
            next = fillToThreeQuarters(table, model, capacity);
            for (int i = 0; i < 100; i++) {
                put(table, model, next++);
            }
            assertFalse(table.table.isRehashing());
        } finally {
            release.countDown();
        }
        awaitReady(table.table::readyAheadCapacity);

        put(table, model, next);

        assertTrue(table.table.isRehashing());
        assertEquals(capacity * 2, table.table.capacity());
        assertEquals(0, table.table.readyAheadCapacity(), "the ready arrays were taken");
        table.table.rehashSteps(Integer.MAX_VALUE);
        table.assertMatches(model.values);
    }

    /**
     * Blocks the allocation thread until the returned latch is counted down, so that every request made
     * meanwhile stays pending.
     */
    private static CountDownLatch holdAllocatorThread() throws InterruptedException {
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        NextTable.runOnAllocatorThread(() -> {
            holding.countDown();
            try {
                release.await(WAIT_NANOS, TimeUnit.NANOSECONDS);
            } catch (final InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(holding.await(WAIT_NANOS, TimeUnit.NANOSECONDS), "the allocation thread did not start the hold");
        return release;
    }

    /**
     * Puts keys 0.. until the table has {@code capacity} slots, no resize under way and 3/4 of them full, so
     * that the next insert is the one that would start a grow; returns the next key number.
     */
    private static int fillToThreeQuarters(final TableUnderTest table, final KeyModel model, final int capacity) {
        int next = 0;
        while (table.table.capacity() < capacity || table.table.size() < TableSizing.maxFill(capacity)) {
            put(table, model, next++);
            if (table.table.capacity() == capacity) {
                table.table.rehashSteps(Integer.MAX_VALUE);
            }
        }
        assertFalse(table.table.isRehashing());
        assertEquals(TableSizing.maxFill(capacity), table.table.size());
        return next;
    }

    private static void put(final TableUnderTest table, final KeyModel model, final int n) {
        final byte[] key = KeyFixtures.ascii("key:" + n);
        table.put(key, n);
        model.put(key, n);
    }

    private static void remove(final TableUnderTest table, final KeyModel model, final int n) {
        final byte[] key = KeyFixtures.ascii("key:" + n);
        table.remove(key);
        model.remove(key);
    }

    private static void awaitReady(final java.util.function.IntSupplier readyCapacity) {
        final long deadline = System.nanoTime() + WAIT_NANOS;
        while (readyCapacity.getAsInt() == 0) {
            assertTrue(System.nanoTime() < deadline, "the background allocation did not finish in 5 s");
            Thread.onSpinWait();
        }
    }
}
