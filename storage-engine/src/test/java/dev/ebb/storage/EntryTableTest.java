package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link EntryTable} against a {@link HashMap} model: random writes with grows and shrinks, the scan guarantee, fair draws. */
final class EntryTableTest {

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void randomOperationsShouldMatchAModelThroughGrowsAndShrinks(final boolean pairs) {
        final EntryTable table = pairs ? EntryTable.forPairs(7) : EntryTable.forMembers(7);
        final Map<ByteKey, byte[]> model = new HashMap<>();
        final List<ByteKey> present = new ArrayList<>();
        final Map<ByteKey, Integer> index = new HashMap<>();
        final Random random = new Random(42);
        int grows = 0;
        int shrinks = 0;
        // Phases: fill towards 40k keys, drain to a few hundred, fill again; the key range keeps hits and misses mixed.
        final int[] targets = {40_000, 300, 25_000, 10};
        for (final int target : targets) {
            while (model.size() != target) {
                final boolean insert = model.size() < target ? random.nextInt(10) < 8 : random.nextInt(10) < 1;
                // Draining, removals pick a present key most of the time, so the phase ends.
                final byte[] key = !insert && model.size() > target && random.nextInt(4) > 0
                    ? present.get(random.nextInt(present.size())).bytes : key(random.nextInt(60_000));
                final int capacity = table.capacity();
                if (insert) {
                    final byte[] entry = entry(pairs, key, random.nextInt(1000));
                    final byte[] expected = model.put(new ByteKey(key), entry);
                    if (expected == null) {
                        index.put(new ByteKey(key), present.size());
                        present.add(new ByteKey(key));
                    }
                    final byte[] previous = table.put(key, entry);
                    assertSame(expected, previous);
                } else {
                    final byte[] expected = model.remove(new ByteKey(key));
                    final Integer at = index.remove(new ByteKey(key));
                    if (at != null) {
                        final ByteKey last = present.remove(present.size() - 1);
                        if (at < present.size()) {
                            present.set(at, last);
                            index.put(last, at);
                        }
                    }
                    assertSame(expected, table.remove(key));
                }
                grows += table.capacity() > capacity ? 1 : 0;
                shrinks += table.capacity() < capacity ? 1 : 0;
                assertEquals(model.size(), table.size());
                final byte[] probe = key(random.nextInt(60_000));
                final int handle = table.find(probe);
                final byte[] stored = model.get(new ByteKey(probe));
                if (stored == null) {
                    assertEquals(-1, handle);
                } else {
                    assertSame(stored, table.entryAt(handle));
                }
            }
            final Map<ByteKey, byte[]> seen = new HashMap<>();
            table.forEach(entry -> assertNull(seen.put(new ByteKey(keyOf(pairs, entry)), entry)));
            assertEquals(model.keySet(), seen.keySet());
        }
        assertTrue(grows >= 10 && shrinks >= 5, "grows=" + grows + ", shrinks=" + shrinks);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void scanShouldReturnEveryEntryPresentThroughoutAcrossResizes(final boolean pairs) {
        final EntryTable table = pairs ? EntryTable.forPairs(11) : EntryTable.forMembers(11);
        final Set<ByteKey> stable = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            final byte[] key = bytes("stable:" + i);
            table.put(key, entry(pairs, key, i));
            stable.add(new ByteKey(key));
        }
        final List<byte[]> churn = new ArrayList<>();
        for (int i = 0; i < 4_000; i++) {
            churn.add(bytes("churn:" + i));
            table.put(churn.get(i), entry(pairs, churn.get(i), i));
        }
        final Set<ByteKey> reported = new HashSet<>();
        final int startCapacity = table.capacity();
        int maxCapacity = startCapacity;
        int minCapacity = startCapacity;
        int callsWhileRehashing = 0;
        int next = churn.size();
        boolean growing = true;
        final Random random = new Random(3);
        long cursor = 0;
        do {
            callsWhileRehashing += table.isRehashing() ? 1 : 0;
            cursor = table.scan(cursor, entry -> reported.add(new ByteKey(keyOf(pairs, entry))));
            // Churn: grow to four times the start, then delete every churn key (shrinks), interleaved with the scan.
            for (int i = 0; i < 40; i++) {
                if (growing && next < 20_000) {
                    final byte[] key = bytes("churn:" + next++);
                    churn.add(key);
                    table.put(key, entry(pairs, key, next));
                } else {
                    growing = false;
                    if (!churn.isEmpty()) {
                        table.remove(churn.remove(random.nextInt(churn.size())));
                    }
                }
            }
            maxCapacity = Math.max(maxCapacity, table.capacity());
            minCapacity = Math.min(minCapacity, table.capacity());
        } while (cursor != 0);

        assertTrue(reported.containsAll(stable), "every stable entry reported");
        assertTrue(maxCapacity > startCapacity && minCapacity < maxCapacity,
            "the scan crossed grows and shrinks: " + startCapacity + " " + maxCapacity + " " + minCapacity);
        assertTrue(callsWhileRehashing > 0, "some calls ran during a resize");
    }

    @Test
    void fairRandomHandleShouldBeUniformAlsoDuringAResize() {
        final EntryTable table = EntryTable.forMembers(5);
        final int keys = 48;
        for (int i = 0; i < keys; i++) {
            table.put(key(i), key(i));
        }
        // 48 keys fill 64 slots to 3/4; the 49th starts a grow, and the draws below run with two tables.
        table.put(key(keys), key(keys));
        assertTrue(table.isRehashing());
        final Map<ByteKey, Integer> counts = new HashMap<>();
        final int draws = 490_000;
        for (int i = 0; i < draws; i++) {
            counts.merge(new ByteKey(table.entryAt(table.fairRandomHandle())), 1, Integer::sum);
        }

        assertEquals(keys + 1, counts.size());
        final double expected = (double) draws / (keys + 1);
        counts.values().forEach(count -> assertTrue(Math.abs(count - expected) < expected * 0.1,
            "count " + count + " expected about " + expected));
    }

    @Test
    void pairEntriesShouldKeepLongFieldsEmptyFieldsAndEmptyValues() {
        final EntryTable table = EntryTable.forPairs(1);
        final byte[] longField = new byte[300];
        longField[299] = 7;
        final byte[] empty = new byte[0];
        table.put(longField, PairEntry.of(longField, bytes("v")));
        table.put(empty, PairEntry.of(empty, empty));

        final byte[] stored = table.entryAt(table.find(longField));
        assertArrayEquals(longField, PairEntry.copyField(stored));
        assertArrayEquals(bytes("v"), PairEntry.copyValue(stored));
        assertArrayEquals(empty, PairEntry.copyValue(table.entryAt(table.find(empty))));
        assertEquals(-1, table.find(new byte[299]));
    }

    @Test
    void copyShouldShareEntriesButNotSlots() {
        final EntryTable table = EntryTable.forMembers(9);
        for (int i = 0; i < 100; i++) {
            table.put(key(i), key(i));
        }
        final EntryTable copy = table.copy();

        table.remove(key(1));
        copy.put(key(500), key(500));

        assertEquals(-1, table.find(key(1)));
        assertTrue(copy.find(key(1)) >= 0);
        assertEquals(-1, table.find(key(500)));
        assertEquals(101, copy.size());
    }

    @Test
    void memoryShouldCountFiveBytesASlot() {
        final EntryTable table = EntryTable.forMembers(2);
        for (int i = 0; i < 1000; i++) {
            table.put(key(i), key(i));
        }
        while (table.isRehashing()) {
            table.rehashSteps(100);
        }

        assertEquals(Values.arrayBytes(table.capacity(), 4) + Values.arrayBytes(table.capacity(), 1), table.memoryBytes());
    }

    private static byte[] key(final int i) {
        return bytes("member:" + i);
    }

    private static byte[] entry(final boolean pairs, final byte[] key, final int value) {
        return pairs ? PairEntry.of(key, bytes("v" + value)) : key.clone();
    }

    private static byte[] keyOf(final boolean pairs, final byte[] entry) {
        return pairs ? PairEntry.copyField(entry) : entry;
    }

    private static byte[] bytes(final String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
