package dev.ebb.storage.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Field TTLs in both encodings of {@link HashValue}: storage, reads that skip due fields, bounded expiry steps. */
class HashValueFieldExpiryTest {
    private static final long NOW = 1_000_000;
    private static final long SMALL = 128;
    private static final long VALUE_LIMIT = 64;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static HashValue hash(boolean large, int fields) {
        HashValue h = new HashValue();
        if (large) {
            h.convertForNewFields(Long.MAX_VALUE, 0);
        }
        for (int i = 0; i < fields; i++) {
            h.put(b("f" + i), b("v" + i), SMALL, VALUE_LIMIT);
        }
        return h;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void fieldExpiryShouldBeStoredReadAndRemovedByPersistAndHset(boolean large) {
        HashValue h = hash(large, 3);

        assertTrue(h.setFieldExpiry(b("f1"), NOW + 100));
        assertFalse(h.setFieldExpiry(b("nope"), NOW + 100));

        assertEquals(NOW + 100, h.fieldExpiry(b("f1")));
        assertEquals(HashValue.NO_TTL, h.fieldExpiry(b("f0")));
        assertEquals(HashValue.NO_FIELD, h.fieldExpiry(b("nope")));
        assertEquals(1, h.volatileCount());
        assertEquals(NOW + 100, h.earliestExpiry());
        assertEquals(large ? "hashtable" : "listpackex", h.encodingName());
        assertTrue(h.persistField(b("f1")));
        assertFalse(h.persistField(b("f1")));
        assertEquals(HashValue.NO_EXPIRY, h.earliestExpiry());
        h.setFieldExpiry(b("f2"), NOW + 5);
        h.putKeepTtl(b("f2"), b("x"), SMALL, VALUE_LIMIT);
        assertEquals(NOW + 5, h.fieldExpiry(b("f2")));
        h.put(b("f2"), b("y"), SMALL, VALUE_LIMIT);
        assertEquals(HashValue.NO_TTL, h.fieldExpiry(b("f2")));
        assertEquals(0, h.volatileCount());
        assertEquals(3, h.size());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void readsTakingNowShouldSkipDueFieldsUntilTheyAreExpired(boolean large) {
        HashValue h = hash(large, 4);
        h.setFieldExpiry(b("f0"), NOW - 1);
        h.setFieldExpiry(b("f1"), NOW);
        h.setFieldExpiry(b("f2"), NOW + 1);

        assertNull(h.get(b("f0"), NOW));
        assertArrayEquals(b("v1"), h.get(b("f1"), NOW));
        assertArrayEquals(b("v0"), h.get(b("f0")));
        assertEquals(3, h.liveSize(NOW));
        List<String> live = new ArrayList<>();
        h.forEachLive(NOW, (f, v) -> live.add(new String(f, StandardCharsets.UTF_8)));
        assertEquals(3, live.size());
        assertFalse(live.contains("f0"));

        assertEquals(1, h.expireFields(NOW, 10));

        assertEquals(3, h.size());
        assertEquals(NOW, h.earliestExpiry());
        assertEquals(2, h.expireFields(NOW + 2, 10));
        assertEquals(1, h.size());
        assertEquals(HashValue.NO_EXPIRY, h.earliestExpiry());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void expireFieldsShouldStopAtItsLimitEarliestFirstInTheLargeEncoding(boolean large) {
        HashValue h = hash(large, 100);
        for (int i = 0; i < 100; i++) {
            h.setFieldExpiry(b("f" + i), NOW - 1000 + i);
        }

        assertEquals(30, h.expireFields(NOW, 30));

        assertEquals(70, h.size());
        if (large) {
            assertEquals(NOW - 1000 + 30, h.earliestExpiry());
        }
        assertEquals(70, h.expireFields(NOW, 1000));
        assertEquals(0, h.size());
        assertEquals(0, h.volatileCount());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void boundedExpiryShouldLeaveTheEarliestExpiryOfWhatIsLeftExact(boolean large) {
        HashValue h = hash(large, 6);
        h.setFieldExpiry(b("f0"), NOW - 3);
        h.setFieldExpiry(b("f1"), NOW - 2);
        h.setFieldExpiry(b("f2"), NOW - 1);
        h.setFieldExpiry(b("f3"), NOW + 9);
        h.setFieldExpiry(b("f4"), NOW + 5);

        assertEquals(2, h.expireFields(NOW, 2));
        assertEquals(NOW - 1, h.earliestExpiry(), "a due field the limit left behind stays the earliest");
        assertEquals(1, h.expireFields(NOW, 10));
        assertEquals(NOW + 5, h.earliestExpiry());
        assertEquals(3, h.size());
        assertEquals(0, h.expireFields(NOW + 5, 10));
        assertEquals(2, h.expireFields(NOW + 10, 10));
        assertEquals(HashValue.NO_EXPIRY, h.earliestExpiry());
        assertEquals(1, h.size());
    }

    @Test
    void conversionToHashtableShouldKeepFieldTtls() {
        HashValue h = hash(false, 3);
        h.setFieldExpiry(b("f1"), NOW + 7);

        h.put(b("long"), new byte[100], SMALL, VALUE_LIMIT);

        assertFalse(h.isCompact());
        assertEquals(NOW + 7, h.fieldExpiry(b("f1")));
        assertEquals(NOW + 7, h.earliestExpiry());
        assertEquals(1, h.volatileCount());
    }

    @Test
    void compactTtlShouldCostEightBytesPerVolatileFieldAndNothingPerPersistentOne() {
        HashValue plain = hash(false, 10);
        HashValue withTtls = hash(false, 10);
        for (int i = 0; i < 4; i++) {
            withTtls.setFieldExpiry(b("f" + i), NOW + i);
        }

        long delta = withTtls.memoryBytes() - plain.memoryBytes();

        assertTrue(delta >= 4 * 8 - 8 && delta <= 4 * 8 + 8, "delta " + delta);
    }

    @Test
    void copyShouldCarryTtlsInBothEncodings() {
        for (boolean large : new boolean[] {false, true}) {
            HashValue h = hash(large, 5);
            h.setFieldExpiry(b("f3"), NOW + 3);

            HashValue copy = h.copy();
            h.persistField(b("f3"));

            assertEquals(NOW + 3, copy.fieldExpiry(b("f3")));
            assertEquals(NOW + 3, copy.earliestExpiry());
        }
    }

    /** Random operations against a model: values, TTLs and the earliest expiry always agree. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void randomOperationsShouldMatchAModel(boolean large) {
        SplittableRandom random = new SplittableRandom(large ? 7 : 11);
        HashValue h = hash(large, 0);
        Map<String, String> values = new HashMap<>();
        Map<String, Long> ttls = new HashMap<>();
        long now = NOW;
        for (int step = 0; step < 20_000; step++) {
            String f = "f" + random.nextInt(large ? 300 : 40);
            switch (random.nextInt(7)) {
                case 0 -> {
                    h.put(b(f), b("v" + step), large ? 0 : SMALL, VALUE_LIMIT);
                    values.put(f, "v" + step);
                    ttls.remove(f);
                }
                case 1 -> {
                    if (h.setFieldExpiry(b(f), now + random.nextInt(500))) {
                        ttls.put(f, h.fieldExpiry(b(f)));
                    }
                }
                case 2 -> {
                    h.persistField(b(f));
                    ttls.remove(f);
                }
                case 3 -> {
                    h.remove(b(f));
                    values.remove(f);
                    ttls.remove(f);
                }
                case 4 -> {
                    long expiry = now + random.nextInt(500);
                    h.putWithExpiry(b(f), b("w" + step), expiry, large ? 0 : SMALL, VALUE_LIMIT);
                    values.put(f, "w" + step);
                    ttls.put(f, expiry);
                }
                case 5 -> now += random.nextInt(20);
                default -> {
                    long at = now;
                    int removed = h.expireFields(at, 1 + random.nextInt(5));
                    List<String> due = new ArrayList<>();
                    ttls.forEach((k, w) -> {
                        if (at > w && h.fieldExpiry(b(k)) == HashValue.NO_FIELD) {
                            due.add(k);
                        }
                    });
                    assertEquals(removed, due.size());
                    due.forEach(k -> {
                        values.remove(k);
                        ttls.remove(k);
                    });
                }
            }
            assertEquals(values.size(), h.size());
            assertEquals(ttls.size(), h.volatileCount());
            long min = ttls.values().stream().mapToLong(Long::longValue).min().orElse(HashValue.NO_EXPIRY);
            assertEquals(min, h.earliestExpiry());
        }
        values.forEach((f, v) -> assertArrayEquals(b(v), h.get(b(f))));
    }
}
