package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Both dicts against a {@code HashMap} model under long seeded random operation sequences. */
final class DictPropertyTest {

    private static final int PEAK_KEYS = 50_000;
    private static final int TROUGH_KEYS = 5;

    static TableUnderTest subject(final String kind, final long seed) {
        return "Dict".equals(kind) ? TableUnderTest.dict(seed) : TableUnderTest.longDict(seed);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dict", "LongDict"})
    void shouldMatchHashMapThroughRepeatedGrowsAndShrinks(final String kind) {
        final long seed = 0x5eed;
        final TableUnderTest table = subject(kind, seed);
        final KeyModel model = new KeyModel();
        final SplittableRandom random = new SplittableRandom(seed);
        final List<byte[]> awkwardKeys = new ArrayList<>(KeyFixtures.sharedPrefixKeys(64));
        awkwardKeys.addAll(KeyFixtures.collidingKeys(seed, 32, 16));
        // Hashing 1 MB costs about 0.4 ms, so these are toggled only every few thousand operations; each stays
        // in (or out of) the table across several resizes.
        final List<byte[]> extremeKeys = KeyFixtures.extremeLengthKeys();
        int operations = 0;

        for (int cycle = 0; cycle < 2; cycle++) {
            int peakCapacity = 0;
            while (model.size() < PEAK_KEYS) {
                randomOperation(table, model, random, awkwardKeys, 65);
                peakCapacity = Math.max(peakCapacity, table.table.capacity());
                toggleEveryFewThousand(table, model, extremeKeys, ++operations);
            }
            table.assertMatches(model.values);
            int troughCapacity = Integer.MAX_VALUE;
            while (model.size() > TROUGH_KEYS) {
                randomOperation(table, model, random, awkwardKeys, 20);
                troughCapacity = Math.min(troughCapacity, table.table.capacity());
                toggleEveryFewThousand(table, model, extremeKeys, ++operations);
            }
            table.assertMatches(model.values);

            assertTrue(peakCapacity >= 65_536, "grew to " + peakCapacity);
            assertTrue(troughCapacity <= 64, "shrank to " + troughCapacity);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dict", "LongDict"})
    void shouldKeepCollidingKeysApartWhenTheirClusterWrapsAround(final String kind) {
        final long seed = 77;
        final TableUnderTest table = subject(kind, seed);
        final KeyModel model = new KeyModel();
        final SplittableRandom random = new SplittableRandom(seed);
        // Every one of these has the last slot as its home in every table up to 4096 slots.
        final List<byte[]> colliding = KeyFixtures.collidingKeys(seed, 64, 12);

        for (int round = 0; round < 4; round++) {
            while (model.size() < 2_000) {
                randomOperation(table, model, random, colliding, 65);
                assertAllPresent(table, model, colliding);
            }
            while (model.size() > TROUGH_KEYS) {
                randomOperation(table, model, random, colliding, 20);
                assertAllPresent(table, model, colliding);
            }
            table.assertMatches(model.values);
        }
    }

    @Test
    void shouldTellApartKeysWithTheSameHomeSlotAndHashTag() {
        final long seed = 78;
        final TableUnderTest table = subject("Dict", seed);
        final KeyModel model = new KeyModel();
        final SplittableRandom random = new SplittableRandom(seed);
        // The same home (the last slot) in every table up to 256 slots, and the same 7-bit tag in every table.
        final List<byte[]> colliding = KeyFixtures.collidingKeys(seed, 40, 8, 7);
        for (int i = 0; i < colliding.size(); i++) {
            assertNull(table.put(colliding.get(i), i));
            model.put(colliding.get(i), i);
        }
        assertAllPresent(table, model, colliding);

        for (int round = 0; round < 4; round++) {
            while (model.size() < 180) {
                randomOperation(table, model, random, colliding, 65);
                assertAllPresent(table, model, colliding);
            }
            while (model.size() > TROUGH_KEYS) {
                randomOperation(table, model, random, colliding, 20);
                assertAllPresent(table, model, colliding);
            }
            table.assertMatches(model.values);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dict", "LongDict"})
    void shouldStoreEmptyAndOneMegabyteKeysAndTellSharedPrefixesApart(final String kind) {
        final TableUnderTest table = subject(kind, 3);
        final KeyModel model = new KeyModel();
        final List<byte[]> keys = new ArrayList<>(KeyFixtures.extremeLengthKeys());
        keys.addAll(KeyFixtures.sharedPrefixKeys(200));

        for (int i = 0; i < keys.size(); i++) {
            assertNull(table.put(keys.get(i), i));
            model.put(keys.get(i), i);
        }
        table.assertMatches(model.values);
        for (int i = 0; i < keys.size(); i += 2) {
            assertEquals(Long.valueOf(i), table.remove(keys.get(i)));
            model.remove(keys.get(i));
        }

        table.assertMatches(model.values);
        assertNull(table.get(new byte[0]), "the empty key was removed");
        assertEquals(Long.valueOf(1), table.get(keys.get(1).clone()), "a 1 MB key is found by content");
        assertNull(table.get(new byte[KeyFixtures.ONE_MEGABYTE - 1]), "a 1 MB - 1 prefix is another key");
    }

    @Test
    void putShouldKeepTheStoredKeyInstanceAndMetaOnReplace() {
        final Dict<String> dict = new Dict<>(1);
        final byte[] stored = KeyFixtures.ascii("name");
        dict.put(stored, "first");
        dict.setMetaAt(dict.find(stored), 99);

        final String previous = dict.put(KeyFixtures.ascii("name"), "second");

        assertEquals("first", previous);
        final int handle = dict.find(KeyFixtures.ascii("name"));
        assertSame(stored, dict.keyAt(handle));
        assertEquals("second", dict.valueAt(handle));
        assertEquals(99, dict.metaAt(handle));
    }

    @Test
    void longDictPutShouldKeepTheStoredKeyInstanceAndReportInsertOrReplace() {
        final LongDict dict = new LongDict(1);
        final byte[] stored = KeyFixtures.ascii("name");

        final boolean inserted = dict.put(stored, 10);
        final boolean insertedAgain = dict.put(KeyFixtures.ascii("name"), 20);

        assertTrue(inserted);
        assertFalse(insertedAgain);
        final int handle = dict.find(KeyFixtures.ascii("name"));
        assertSame(stored, dict.keyAt(handle));
        assertEquals(20, dict.valueAt(handle));
        assertEquals(-1, dict.get(KeyFixtures.ascii("other"), -1));
    }

    @Test
    void handlesShouldReadAndUpdateValueAndMetaWithOneLookup() {
        final Dict<String> dict = new Dict<>(2);
        final byte[] key = KeyFixtures.ascii("k");
        dict.put(key, "v1");

        final int handle = dict.find(key);
        dict.setValueAt(handle, "v2");
        dict.setMetaAt(handle, Dict.META_MASK);

        assertArrayEquals(key, dict.keyAt(handle));
        assertEquals("v2", dict.get(key));
        assertEquals(Dict.META_MASK, dict.metaAt(dict.find(key)), "all 24 meta bits kept");
        dict.setMetaAt(handle, -7);
        assertEquals(-7 & Dict.META_MASK, dict.metaAt(handle), "bits above the 24th dropped");
        assertEquals("v2", dict.get(key), "the dict's own bits untouched by setMetaAt");
        assertEquals(-1, dict.find(KeyFixtures.ascii("absent")));
        assertEquals(-1, new Dict<String>(2).randomHandle(), "randomHandle of an empty dict");
    }

    @Test
    void clearShouldRemoveEverythingAndReturnToMinimumCapacity() {
        final Dict<String> dict = new Dict<>(4);
        for (int i = 0; i < 10_000; i++) {
            dict.put(KeyFixtures.ascii("key:" + i), "v");
        }

        dict.clear();

        assertEquals(0, dict.size());
        assertTrue(dict.isEmpty());
        assertFalse(dict.isRehashing());
        assertEquals(OpenTable.MIN_CAPACITY, dict.capacity());
        assertNull(dict.get(KeyFixtures.ascii("key:1")));
        assertNull(dict.put(KeyFixtures.ascii("key:1"), "again"), "usable after clear");
        assertEquals(1, dict.size());
    }

    @Test
    void putShouldRejectNullKeysAndValues() {
        final Dict<String> dict = new Dict<>(5);

        final NullPointerException nullValue = assertThrows(NullPointerException.class,
            () -> dict.put(new byte[1], null));
        final NullPointerException nullKey = assertThrows(NullPointerException.class,
            () -> dict.put(null, "v"));

        assertEquals("value", nullValue.getMessage());
        assertEquals("key", nullKey.getMessage());
        assertEquals(0, dict.size());
    }

    /**
     * One random operation, checked against the model: a put ({@code putPercent}% of the time; a fifth of them
     * replace a present key), a remove (mostly of a present key) or a get with find. One in twenty operations
     * uses a key from {@code awkwardKeys}.
     */
    static void randomOperation(final TableUnderTest table, final KeyModel model,
                                        final SplittableRandom random, final List<byte[]> awkwardKeys,
                                        final int putPercent) {
        final int roll = random.nextInt(100);
        final byte[] key;
        if (random.nextInt(20) == 0) {
            key = awkwardKeys.get(random.nextInt(awkwardKeys.size()));
        } else if (model.size() > 0 && (roll >= putPercent || random.nextInt(5) == 0)) {
            key = random.nextInt(10) == 0 ? KeyFixtures.randomKey(random) : model.randomPresentKey(random);
        } else {
            key = KeyFixtures.randomKey(random);
        }
        if (roll < putPercent) {
            final long value = random.nextLong(Long.MAX_VALUE);
            assertEquals(model.put(key, value), table.put(key, value), "put");
        } else if (roll < 90) {
            assertEquals(model.remove(key), table.remove(key), "remove");
        } else {
            final Long expected = model.get(key);
            assertEquals(expected, table.get(key), "get");
            final int handle = table.table.find(key);
            assertEquals(expected != null, handle >= 0, "find");
            if (handle >= 0) {
                assertArrayEquals(key, table.table.keyAt(handle));
                assertEquals(expected.longValue(), table.valueAt(handle));
            }
        }
    }

    /** Every 5,000th operation inserts the next of {@code keys} if absent, or removes it if present. */
    private static void toggleEveryFewThousand(final TableUnderTest table, final KeyModel model,
                                               final List<byte[]> keys, final int operation) {
        if (operation % 5_000 != 0) {
            return;
        }
        final byte[] key = keys.get(operation / 5_000 % keys.size());
        if (model.get(key) == null) {
            assertNull(table.put(key, operation));
            model.put(key, operation);
        } else {
            assertEquals(model.remove(key), table.remove(key));
        }
    }

    private static void assertAllPresent(final TableUnderTest table, final KeyModel model, final List<byte[]> keys) {
        assertEquals(model.size(), table.table.size());
        for (final byte[] key : keys) {
            assertEquals(model.get(key), table.get(key));
        }
    }
}
