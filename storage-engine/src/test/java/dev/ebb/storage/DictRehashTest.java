package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Incremental resize: correctness while two tables exist, the per-write bound, and the cron's time box. */
final class DictRehashTest {

    @ParameterizedTest
    @ValueSource(strings = {"Dict", "LongDict"})
    void everyOperationShouldStayCorrectWhileGrowing(final String kind) {
        final TableUnderTest table = DictPropertyTest.subject(kind, 101);
        final KeyModel model = new KeyModel();
        final SplittableRandom random = new SplittableRandom(101);
        for (int i = 0; i < TableSizing.maxFill(8192); i++) {
            final byte[] key = KeyFixtures.ascii("key:" + i);
            table.put(key, i);
            model.put(key, i);
        }
        table.table.rehashSteps(Integer.MAX_VALUE);
        assertFalse(table.table.isRehashing());

        table.put(KeyFixtures.ascii("one more"), -1);
        model.put(KeyFixtures.ascii("one more"), -1);
        final int operationsWhileRehashing = runWhileRehashing(table, model, random, 60);

        assertEquals(16_384, table.table.capacity());
        assertTrue(operationsWhileRehashing > 500, "operations during the grow: " + operationsWhileRehashing);
        table.assertMatches(model.values);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dict", "LongDict"})
    void everyOperationShouldStayCorrectWhileShrinking(final String kind) {
        final TableUnderTest table = DictPropertyTest.subject(kind, 102);
        final KeyModel model = new KeyModel();
        final SplittableRandom random = new SplittableRandom(102);
        final int keys = TableSizing.maxFill(16_384);
        for (int i = 0; i < keys; i++) {
            final byte[] key = KeyFixtures.ascii("key:" + i);
            table.put(key, i);
            model.put(key, i);
        }
        for (int i = 0; !table.table.isRehashing(); i++) {
            final byte[] key = KeyFixtures.ascii("key:" + i);
            table.remove(key);
            model.remove(key);
        }
        assertTrue(table.table.size() * 10 < 16_384, "the shrink started under 1/10");

        final int operationsWhileRehashing = runWhileRehashing(table, model, random, 45);

        assertTrue(table.table.capacity() < 16_384);
        assertTrue(operationsWhileRehashing > 50, "operations during the shrink: " + operationsWhileRehashing);
        table.assertMatches(model.values);
    }

    @Test
    void metaShouldMoveWithItsEntryThroughAGrowAndAShrink() {
        final Dict<String> dict = new Dict<>(103);
        for (int i = 0; i < TableSizing.maxFill(1024); i++) {
            dict.put(KeyFixtures.ascii("key:" + i), "v" + i);
            dict.setMetaAt(dict.find(KeyFixtures.ascii("key:" + i)), i * 7);
        }

        dict.put(KeyFixtures.ascii("trigger"), "t");
        assertTrue(dict.isRehashing());
        final int oldHandle = dict.find(KeyFixtures.ascii("key:5"));
        dict.setMetaAt(oldHandle, 5 * 7);
        dict.rehashSteps(Integer.MAX_VALUE);
        for (int i = 0; i < 700; i++) {
            dict.remove(KeyFixtures.ascii("key:" + i));
        }
        dict.rehashSteps(Integer.MAX_VALUE);

        assertFalse(dict.isRehashing());
        assertTrue(dict.capacity() < 2_048, "shrank to " + dict.capacity());
        for (int i = 700; i < TableSizing.maxFill(1024); i++) {
            final int handle = dict.find(KeyFixtures.ascii("key:" + i));
            assertEquals("v" + i, dict.valueAt(handle));
            assertEquals(i * 7, dict.metaAt(handle));
        }
    }

    @Test
    void handlesShouldNameSlotsOfTheOldTableDuringAResize() {
        final Dict<String> dict = new Dict<>(104);
        for (int i = 0; i <= TableSizing.maxFill(64); i++) {
            dict.put(KeyFixtures.ascii("key:" + i), "v" + i);
        }
        assertTrue(dict.isRehashing());

        int oldHandles = 0;
        for (int i = 0; i <= TableSizing.maxFill(64); i++) {
            final int handle = dict.find(KeyFixtures.ascii("key:" + i));
            if (OpenTable.isOldHandle(handle)) {
                oldHandles++;
                dict.setValueAt(handle, "updated");
                dict.setMetaAt(handle, 42);
            }
        }
        dict.rehashSteps(Integer.MAX_VALUE);

        assertTrue(oldHandles > 0, "some keys were still in the old table");
        int updated = 0;
        for (int i = 0; i <= TableSizing.maxFill(64); i++) {
            final int handle = dict.find(KeyFixtures.ascii("key:" + i));
            if ("updated".equals(dict.valueAt(handle))) {
                updated++;
                assertEquals(42, dict.metaAt(handle));
            }
        }
        assertEquals(oldHandles, updated);
    }

    @Test
    void liveTableShouldNeverPassThreeQuartersWhenInsertsFloodAShrink() {
        final LongDict dict = new LongDict(105);
        final int full = TableSizing.maxFill(32_768);
        for (int i = 0; i < full; i++) {
            dict.put(KeyFixtures.ascii("key:" + i), i);
        }
        int removed = 0;
        while (!dict.isRehashing()) {
            dict.remove(KeyFixtures.ascii("key:" + removed++));
        }
        final int shrunkCapacity = dict.capacity();

        // Only inserts follow: the small live table must take them all while the old one drains.
        for (int i = 0; i < 60_000; i++) {
            dict.put(KeyFixtures.ascii("new:" + i), i);

            assertTrue(dict.liveCount() <= TableSizing.fillLimit(dict.capacity()),
                "live table over its fill limit at insert " + i + ": " + dict.liveCount() + " in " + dict.capacity());
        }
        assertEquals(16_384, shrunkCapacity, "3,276 keys fit 16,384 slots at load 3/8 or less");
        assertEquals(full - removed + 60_000, dict.size());
        assertEquals(7L, dict.get(KeyFixtures.ascii("new:7"), -1));
        assertEquals(full - 1L, dict.get(KeyFixtures.ascii("key:" + (full - 1)), -1));
    }

    @Test
    void rehashForShouldStopOnceItsBudgetIsSpent() {
        final Dict<Integer> dict = growingDict(106, 65_536);
        final long[] reads = {0};
        final NanoClock clock = () -> 1_000 * reads[0]++;

        final int chunks = dict.rehashFor(5_000, clock);

        assertEquals(5, chunks, "one chunk per 1,000 ns of a 5,000 ns budget");
        assertEquals(6, reads[0], "the clock is read before the first chunk and after each");
        assertTrue(dict.isRehashing());
    }

    @Test
    void rehashForShouldReturnAsSoonAsTheResizeIsDone() {
        final Dict<Integer> dict = growingDict(107, 2_048);
        final long[] reads = {0};

        final int chunks = dict.rehashFor(Long.MAX_VALUE, () -> reads[0]++);

        assertFalse(dict.isRehashing());
        assertTrue(chunks >= 1 && chunks <= 2_048 / OpenTable.REHASH_CHUNK_SLOTS + 1, "chunks: " + chunks);
        assertEquals(chunks, reads[0], "no clock read after the chunk that finished");
        for (int i = 0; i <= TableSizing.maxFill(2_048); i++) {
            assertEquals(i, dict.get(KeyFixtures.ascii("key:" + i)));
        }
    }

    @Test
    void rehashForShouldNotReadTheClockWhenNoResizeIsInProgress() {
        final Dict<Integer> dict = new Dict<>(108);
        dict.put(KeyFixtures.ascii("k"), 1);

        final int chunks = dict.rehashFor(1_000, () -> {
            throw new AssertionError("clock read");
        });

        assertEquals(0, chunks);
        assertEquals(0, dict.rehashSteps(100));
    }

    @Test
    void rehashStepsShouldRejectNegativeCounts() {
        final Dict<Integer> dict = new Dict<>(109);

        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> dict.rehashSteps(-1));

        assertEquals("slots must not be negative: slots=-1", error.getMessage());
    }

    @Test
    void rehashStepsShouldExamineAtMostTheSlotsAskedFor() {
        final Dict<Integer> dict = growingDict(110, 4_096);

        final int examined = dict.rehashSteps(10);
        final int rest = dict.rehashSteps(Integer.MAX_VALUE);

        assertEquals(10, examined);
        assertTrue(rest <= 4_096 - 10, "examined " + rest);
        assertFalse(dict.isRehashing());
    }

    /**
     * A dict that has just started growing from {@code oldCapacity} slots; key "key:i" maps to i. The grow
     * starts on the insert past 3/4, or later (up to 7/8) if the grown arrays are still being allocated ahead.
     */
    private static Dict<Integer> growingDict(final long seed, final int oldCapacity) {
        final Dict<Integer> dict = new Dict<>(seed);
        int i = 0;
        for (; i < TableSizing.maxFill(oldCapacity); i++) {
            dict.put(KeyFixtures.ascii("key:" + i), i);
            dict.rehashSteps(Integer.MAX_VALUE);
        }
        while (!dict.isRehashing()) {
            dict.put(KeyFixtures.ascii("key:" + i), i);
            i++;
        }
        assertEquals(oldCapacity * 2, dict.capacity());
        return dict;
    }

    /** Random operations, each checked, until the resize in progress ends; returns how many ran during it. */
    private static int runWhileRehashing(final TableUnderTest table, final KeyModel model,
                                         final SplittableRandom random, final int putPercent) {
        assertTrue(table.table.isRehashing());
        int operations = 0;
        while (table.table.isRehashing()) {
            DictPropertyTest.randomOperation(table, model, random, List.of(new byte[0]), putPercent);
            operations++;
            if (operations % 256 == 0) {
                table.assertMatches(model.values);
            }
        }
        return operations;
    }
}
