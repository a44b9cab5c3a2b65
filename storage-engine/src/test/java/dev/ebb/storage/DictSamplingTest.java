package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** randomKey's bias bound, fairRandomHandle's uniformity and sampleKeys' contract. */
final class DictSamplingTest {

    /** No key may be drawn more than this many times more often than under a uniform draw. */
    private static final double MAX_OVERSAMPLING = 20;

    private static final int CAPACITY = 32_768;
    private static final int DRAWS_PER_KEY = 100;

    /**
     * Loads from just above the shrink threshold (1/10) to the maximum (3/4); the smallest holds 3,277 keys,
     * the largest 24,576, all in a table of 32,768 slots.
     */
    @ParameterizedTest
    @ValueSource(doubles = {0.1001, 0.2, 0.375, 0.5, 0.75})
    void randomKeyShouldNotOverPickAnyKeyMoreThanTwentyTimesUniformAtAnyAllowedLoad(final double load) {
        final int keys = (int) Math.ceil(load * CAPACITY);
        final LongDict dict = tableAtLoad(keys);
        final int[] picks = new int[TableSizing.maxFill(CAPACITY)];
        final int draws = keys * DRAWS_PER_KEY;

        for (int i = 0; i < draws; i++) {
            picks[idOf(dict.randomKey())]++;
        }

        int mostPicks = 0;
        int present = 0;
        for (int id = 0; id < picks.length; id++) {
            if (dict.containsKey(keyOf(id))) {
                present++;
                assertTrue(picks[id] > 0, "key " + id + " was never drawn");
                mostPicks = Math.max(mostPicks, picks[id]);
            } else {
                assertEquals(0, picks[id], "drew removed key " + id);
            }
        }
        assertEquals(keys, present);
        final double oversampling = mostPicks / (double) DRAWS_PER_KEY;
        assertTrue(oversampling <= MAX_OVERSAMPLING, "most drawn key came up " + oversampling + "x uniform");
    }

    /**
     * fairRandomHandle draws every key equally often: over {@value #DRAWS_PER_KEY} draws per key the
     * chi-square statistic stays near its degrees of freedom (keys - 1, standard deviation
     * sqrt(2 (keys - 1))); the bound is eight standard deviations above, which a uniform draw misses
     * with negligible probability while the walk's bias (up to 16x) lands far above it.
     */
    @ParameterizedTest
    @ValueSource(doubles = {0.1001, 0.375, 0.75})
    void fairRandomHandleShouldDrawEveryKeyUniformlyAtAnyAllowedLoad(final double load) {
        final int keys = (int) Math.ceil(load * CAPACITY);
        final LongDict dict = tableAtLoad(keys);
        final int[] picks = new int[TableSizing.maxFill(CAPACITY)];

        for (int i = 0; i < keys * DRAWS_PER_KEY; i++) {
            picks[idOf(dict.keyAt(dict.fairRandomHandle()))]++;
        }

        double chiSquare = 0;
        for (int id = 0; id < picks.length; id++) {
            if (dict.containsKey(keyOf(id))) {
                chiSquare += (picks[id] - DRAWS_PER_KEY) * (double) (picks[id] - DRAWS_PER_KEY) / DRAWS_PER_KEY;
            } else {
                assertEquals(0, picks[id], "drew removed key " + id);
            }
        }
        final double bound = keys - 1 + 8 * Math.sqrt(2.0 * (keys - 1));
        assertTrue(chiSquare < bound, "chi-square " + chiSquare + " over " + bound);
    }

    @Test
    void randomKeyAndSampleKeysOfEmptyDictShouldFindNothing() {
        final Dict<String> dict = new Dict<>(1);
        dict.put(KeyFixtures.ascii("a"), "v");
        dict.remove(KeyFixtures.ascii("a"));

        assertNull(dict.randomKey());
        assertEquals(-1, dict.randomHandle());
        assertEquals(0, dict.sampleKeys(new byte[5][], 5));
        assertNull(new LongDict(1).randomKey());
    }

    @Test
    void sampleKeysShouldReturnDistinctPresentKeys() {
        final LongDict dict = tableAtLoad(5_000);
        final byte[][] out = new byte[20][];

        for (int round = 0; round < 2_000; round++) {
            final int found = dict.sampleKeys(out, 20);

            assertEquals(20, found);
            final Set<ByteKey> distinct = new HashSet<>();
            for (int i = 0; i < found; i++) {
                assertTrue(dict.containsKey(out[i]), "sampled an absent key");
                assertTrue(distinct.add(new ByteKey(out[i])), "sampled a key twice");
            }
        }
    }

    @Test
    void sampleKeysShouldReturnAllKeysWhenFewerThanAsked() {
        final Dict<String> dict = new Dict<>(2);
        for (int i = 0; i < 5; i++) {
            dict.put(keyOf(i), "v");
        }
        final byte[][] out = new byte[20][];

        final int found = dict.sampleKeys(out, 20);

        assertEquals(5, found);
        final Set<ByteKey> distinct = new HashSet<>();
        for (int i = 0; i < found; i++) {
            distinct.add(new ByteKey(out[i]));
        }
        assertEquals(5, distinct.size());
    }

    @Test
    void samplingDuringResizeShouldReturnOnlyPresentKeysFromBothTables() {
        final LongDict dict = new LongDict(3);
        final int keys = TableSizing.maxFill(8192) + 1;
        for (int i = 0; i < keys; i++) {
            dict.put(keyOf(i), i);
        }
        dict.rehashSteps(4_096);
        assertTrue(dict.isRehashing());
        final byte[][] out = new byte[16][];
        boolean sawOld = false;
        boolean sawLive = false;

        for (int round = 0; round < 1_000; round++) {
            final int handle = dict.randomHandle();
            sawOld |= OpenTable.isOldHandle(handle);
            sawLive |= !OpenTable.isOldHandle(handle);
            assertEquals(idOf(dict.keyAt(handle)), dict.valueAt(handle));
            final int found = dict.sampleKeys(out, 16);
            assertEquals(16, found);
            for (int i = 0; i < found; i++) {
                assertTrue(dict.containsKey(out[i]));
            }
        }

        assertTrue(sawOld && sawLive, "random handles came from both tables");
        assertTrue(dict.isRehashing(), "sampling does not migrate");
    }

    @Test
    void sampleKeysShouldRejectCountsOutsideTheArray() {
        final Dict<String> dict = new Dict<>(4);

        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> dict.sampleKeys(new byte[2][], 3));

        assertEquals("count must be in [0, out.length]: count=3, out.length=2", error.getMessage());
        assertFalse(dict.isRehashing());
    }

    /**
     * A table of {@link #CAPACITY} slots at rest holding {@code keys} keys: filled to 3/4 (ids 0..24575), then
     * the lowest ids removed until {@code keys} remain (never under 1/10, so it does not shrink).
     */
    private static LongDict tableAtLoad(final int keys) {
        final LongDict dict = new LongDict(keys);
        final int full = TableSizing.maxFill(CAPACITY);
        for (int id = 0; id < full; id++) {
            dict.put(keyOf(id), id);
        }
        for (int id = 0; dict.size() > keys; id++) {
            dict.remove(keyOf(id));
        }
        dict.rehashSteps(Integer.MAX_VALUE);
        assertEquals(CAPACITY, dict.capacity());
        assertFalse(dict.isRehashing());
        return dict;
    }

    private static byte[] keyOf(final int id) {
        return ByteBuffer.allocate(4).putInt(id).array();
    }

    private static int idOf(final byte[] key) {
        return ByteBuffer.wrap(key).getInt();
    }
}
