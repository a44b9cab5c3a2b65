package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
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
        while (table.table.size() <= OpenTable.aheadFill(capacity) || table.table.capacity() < capacity) {
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
