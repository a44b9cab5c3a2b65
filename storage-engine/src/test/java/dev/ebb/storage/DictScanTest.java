package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The SCAN guarantee: keys present for a whole iteration are reported, whatever resizes happen meanwhile. */
final class DictScanTest {

    private static final int STABLE_KEYS = 300;
    private static final int START_KEYS = 3_000;

    @ParameterizedTest
    @CsvSource({"Dict, 11, 24", "Dict, 12, 7", "LongDict, 13, 24", "LongDict, 14, 50"})
    void scanShouldReturnEveryKeyAcrossGrowsAndShrinks(final String kind, final long seed, final int churnPerCall) {
        final TableUnderTest table = DictPropertyTest.subject(kind, seed);
        final Set<ByteKey> stable = new HashSet<>();
        for (int i = 0; i < STABLE_KEYS; i++) {
            final byte[] key = KeyFixtures.ascii("stable:" + i);
            table.put(key, i);
            stable.add(new ByteKey(key));
        }
        final List<byte[]> churn = new ArrayList<>();
        for (int i = 0; i < START_KEYS; i++) {
            churn.add(KeyFixtures.ascii("churn:" + i));
            table.put(churn.get(i), -i);
        }
        final int startCapacity = table.table.capacity();
        final Set<ByteKey> everInserted = new HashSet<>(stable);
        churn.forEach(key -> everInserted.add(new ByteKey(key)));
        final Set<ByteKey> reported = new HashSet<>();
        int maxCapacity = startCapacity;
        int minCapacity = startCapacity;
        int callsWhileGrowing = 0;
        int callsWhileShrinking = 0;
        boolean shrinking = false;
        int nextChurn = START_KEYS;

        long cursor = 0;
        do {
            if (table.table.isRehashing()) {
                if (shrinking) {
                    callsWhileShrinking++;
                } else {
                    callsWhileGrowing++;
                }
            }
            cursor = table.scan(cursor, (key, value) -> reported.add(new ByteKey(key)));
            for (int i = 0; i < churnPerCall; i++) {
                if (!shrinking) {
                    final byte[] key = KeyFixtures.ascii("churn:" + nextChurn++);
                    churn.add(key);
                    everInserted.add(new ByteKey(key));
                    table.put(key, nextChurn);
                    shrinking = table.table.capacity() >= startCapacity * 8 && !table.table.isRehashing();
                } else if (!churn.isEmpty()) {
                    table.remove(churn.remove(churn.size() - 1));
                }
            }
            maxCapacity = Math.max(maxCapacity, table.table.capacity());
            minCapacity = Math.min(minCapacity, table.table.capacity());
        } while (cursor != 0);

        assertTrue(reported.containsAll(stable), () -> "missed " + missing(stable, reported));
        assertTrue(everInserted.containsAll(reported), "reported only keys that were inserted");
        assertTrue(maxCapacity >= startCapacity * 8, "grew x8 during the scan: " + maxCapacity);
        assertTrue(minCapacity * 8 <= maxCapacity, "shrank x8 during the scan: " + minCapacity);
        assertTrue(callsWhileGrowing > 0 && callsWhileShrinking > 0,
            "scanned mid-grow " + callsWhileGrowing + " and mid-shrink " + callsWhileShrinking + " times");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dict", "LongDict"})
    void fullScanOfUnchangedTableShouldReturnEveryKeyExactlyOnce(final String kind) {
        final TableUnderTest table = DictPropertyTest.subject(kind, 21);
        final Map<ByteKey, Long> expected = new HashMap<>();
        for (final byte[] key : KeyFixtures.collidingKeys(21, 40, 10)) {
            expected.put(new ByteKey(key), (long) expected.size());
            table.put(key, expected.size() - 1);
        }
        for (int i = 0; i < 5_000; i++) {
            final byte[] key = KeyFixtures.ascii("key:" + i);
            expected.put(new ByteKey(key), (long) i);
            table.put(key, i);
        }
        table.table.rehashSteps(Integer.MAX_VALUE);
        final Map<ByteKey, Long> reported = new HashMap<>();
        final List<ByteKey> duplicates = new ArrayList<>();

        long cursor = 0;
        int calls = 0;
        do {
            cursor = table.scan(cursor, (key, value) -> {
                if (reported.put(new ByteKey(key), value) != null) {
                    duplicates.add(new ByteKey(key));
                }
            });
            calls++;
        } while (cursor != 0);

        assertEquals(expected, reported);
        assertEquals(List.of(), duplicates);
        assertEquals(table.table.capacity(), calls, "one home slot per call");
    }

    @Test
    void fullScanDuringResizeShouldReturnEveryKey() {
        final Dict<Integer> dict = new Dict<>(31);
        final int keys = TableSizing.maxFill(4096) + 1;
        for (int i = 0; i < keys; i++) {
            dict.put(KeyFixtures.ascii("key:" + i), i);
        }
        assertTrue(dict.isRehashing(), "the last insert started a grow");
        dict.rehashSteps(1_000);
        final Set<Integer> reported = new HashSet<>();

        long cursor = 0;
        do {
            cursor = dict.scan(cursor, (key, value) -> reported.add(value));
        } while (cursor != 0);

        assertTrue(dict.isRehashing(), "the scan itself does not migrate");
        assertEquals(keys, reported.size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dict", "LongDict"})
    void scanOfEmptyTableShouldReturnCursorZeroAndReportNothing(final String kind) {
        final TableUnderTest table = DictPropertyTest.subject(kind, 41);
        table.put(KeyFixtures.ascii("gone"), 1);
        table.remove(KeyFixtures.ascii("gone"));
        final List<byte[]> reported = new ArrayList<>();

        final long next = table.scan(0, (key, value) -> reported.add(key));
        final long fromStaleCursor = table.scan(12345, (key, value) -> reported.add(key));

        assertEquals(0, next);
        assertEquals(0, fromStaleCursor);
        assertEquals(List.of(), reported);
    }

    private static Set<ByteKey> missing(final Set<ByteKey> expected, final Set<ByteKey> reported) {
        final Set<ByteKey> missing = new HashSet<>(expected);
        missing.removeAll(reported);
        return missing;
    }
}
