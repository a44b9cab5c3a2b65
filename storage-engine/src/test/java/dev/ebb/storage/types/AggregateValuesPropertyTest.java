package dev.ebb.storage.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link HashValue}, {@link SetValue} and {@link ListValue} against Java collections under seeded
 * random operation sequences that cross the encoding thresholds both ways, plus the scan guarantee
 * and memory accounting returning to its empty baseline.
 */
final class AggregateValuesPropertyTest {
    private static final int OPERATIONS = 40_000;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void hashShouldMatchHashMapAcrossConversion() {
        SplittableRandom random = new SplittableRandom(7);
        HashValue hash = new HashValue();
        Map<ByteBuffer, byte[]> model = new HashMap<>();
        for (int op = 0; op < OPERATIONS; op++) {
            byte[] field = bytes("f" + random.nextInt(400));
            if (random.nextInt(3) > 0) {
                byte[] value = bytes("v".repeat(random.nextInt(70)));
                boolean added = hash.put(field, value, 128, 64);
                assertEquals(model.put(ByteBuffer.wrap(field), value) == null, added);
            } else {
                assertEquals(model.remove(ByteBuffer.wrap(field)) != null, hash.remove(field));
            }
            assertEquals(model.size(), hash.size());
        }
        for (Map.Entry<ByteBuffer, byte[]> e : model.entrySet()) {
            assertArrayEquals(e.getValue(), hash.get(e.getKey().array()));
        }
        assertFalse(hash.isCompact());
        long full = hash.memoryBytes();
        for (ByteBuffer field : new ArrayList<>(model.keySet())) {
            hash.remove(field.array());
        }
        assertEquals(0, hash.size());
        assertTrue(hash.memoryBytes() < full);
    }

    @Test
    void compactHashShouldMatchHashMapWithOneAndTwoByteLengths() {
        SplittableRandom random = new SplittableRandom(13);
        HashValue hash = new HashValue();
        Map<ByteBuffer, byte[]> model = new HashMap<>();
        for (int op = 0; op < OPERATIONS; op++) {
            byte[] field = bytes("f" + random.nextInt(100));
            if (random.nextInt(3) > 0) {
                byte[] value = bytes("v".repeat(random.nextInt(300)));
                assertEquals(model.put(ByteBuffer.wrap(field), value) == null, hash.put(field, value, 128, 300));
            } else {
                assertEquals(model.remove(ByteBuffer.wrap(field)) != null, hash.remove(field));
            }
            assertEquals(model.size(), hash.size());
        }
        assertTrue(hash.isCompact());
        Map<ByteBuffer, byte[]> listed = new HashMap<>();
        hash.forEach((f, v) -> listed.put(ByteBuffer.wrap(f), v));
        assertEquals(model.keySet(), listed.keySet());
        for (Map.Entry<ByteBuffer, byte[]> e : model.entrySet()) {
            assertArrayEquals(e.getValue(), hash.get(e.getKey().array()));
            assertArrayEquals(e.getValue(), listed.get(e.getKey()));
        }
        int at = hash.randomPosition(random.nextLong());
        assertArrayEquals(model.get(ByteBuffer.wrap(hash.fieldAt(at))), hash.valueAt(at));
    }

    @Test
    void hashScanShouldVisitEveryFieldPresentThroughoutDespiteGrowth() {
        HashValue hash = new HashValue();
        for (int i = 0; i < 1000; i++) {
            hash.put(bytes("stable" + i), bytes("v"), 128, 64);
        }
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        int added = 0;
        do {
            cursor = hash.scan(cursor, (f, v) -> seen.add(new String(f, StandardCharsets.UTF_8)));
            // Grow through two resizes during the first calls, then let the iteration finish.
            for (int k = 0; k < 40 && added < 3000; k++) {
                hash.put(bytes("extra" + added++), bytes("v"), 128, 64);
            }
        } while (cursor != 0);

        for (int i = 0; i < 1000; i++) {
            assertTrue(seen.contains("stable" + i), "missed stable" + i);
        }
    }

    @Test
    void setShouldMatchHashSetAcrossAllEncodings() {
        SplittableRandom random = new SplittableRandom(11);
        SetValue set = new SetValue();
        Set<ByteBuffer> model = new HashSet<>();
        Set<String> encodings = new HashSet<>();
        for (int op = 0; op < OPERATIONS; op++) {
            int n = random.nextInt(700);
            byte[] member = op < OPERATIONS / 2 ? bytes(String.valueOf(n)) : bytes(random.nextBoolean() ? "m" + n : "" + n);
            if (random.nextInt(3) > 0) {
                assertEquals(model.add(ByteBuffer.wrap(member)), set.add(member, 512, 128, 64));
            } else {
                assertEquals(model.remove(ByteBuffer.wrap(member)), set.remove(member));
            }
            assertEquals(model.size(), set.size());
            encodings.add(set.encodingName());
        }
        Set<ByteBuffer> listed = new HashSet<>();
        set.forEach(m -> listed.add(ByteBuffer.wrap(m)));
        assertEquals(model, listed);
        assertEquals(Set.of("intset", "hashtable"), encodings);
    }

    @Test
    void listpackSetShouldMatchHashSet() {
        SplittableRandom random = new SplittableRandom(17);
        SetValue set = new SetValue();
        set.add(bytes("seed"), 512, 128, 300);
        Set<ByteBuffer> model = new HashSet<>(Set.of(ByteBuffer.wrap(bytes("seed"))));
        for (int op = 0; op < OPERATIONS; op++) {
            int length = random.nextBoolean() ? random.nextInt(30) : 130 + random.nextInt(30);
            byte[] member = bytes(random.nextInt(2) + "m".repeat(length));
            if (random.nextBoolean()) {
                assertEquals(model.add(ByteBuffer.wrap(member)), set.add(member, 512, 128, 300));
            } else {
                assertEquals(model.remove(ByteBuffer.wrap(member)), set.remove(member));
            }
            assertEquals(model.size(), set.size());
            assertEquals("listpack", set.encodingName());
        }
        Set<ByteBuffer> listed = new HashSet<>();
        set.forEach(m -> listed.add(ByteBuffer.wrap(m)));
        assertEquals(model, listed);
    }

    @Test
    void smallMixedSetShouldUseListpackAndPopEverything() {
        SetValue set = new SetValue();
        set.add(bytes("1"), 512, 128, 64);
        set.add(bytes("x"), 512, 128, 64);
        assertEquals("listpack", set.encodingName());
        SplittableRandom random = new SplittableRandom(3);
        Set<String> popped = new HashSet<>();
        while (set.size() > 0) {
            popped.add(new String(set.popRandom(random.nextLong()), StandardCharsets.UTF_8));
        }
        assertEquals(Set.of("1", "x"), popped);
    }

    @Test
    void listShouldMatchArrayListUnderMixedOperations() {
        SplittableRandom random = new SplittableRandom(5);
        ListValue list = new ListValue();
        List<String> model = new ArrayList<>();
        for (int op = 0; op < OPERATIONS; op++) {
            String e = "e" + op;
            switch (random.nextInt(8)) {
                case 0, 1 -> {
                    list.pushHead(bytes(e));
                    model.add(0, e);
                }
                case 2, 3 -> {
                    list.pushTail(bytes(e));
                    model.add(e);
                }
                case 4 -> assertEquals(model.isEmpty() ? null : model.remove(0), text(list.popHead()));
                case 5 -> assertEquals(model.isEmpty() ? null : model.remove(model.size() - 1), text(list.popTail()));
                case 6 -> {
                    if (model.isEmpty()) {
                        list.pushTail(bytes(e));
                        model.add(e);
                    } else {
                        int pivot = random.nextInt(model.size());
                        boolean after = random.nextBoolean();
                        list.insert(pivot, after, bytes(e));
                        model.add(after ? pivot + 1 : pivot, e);
                    }
                }
                default -> {
                    if (!model.isEmpty()) {
                        int at = random.nextInt(model.size());
                        list.removeAt(at);
                        model.remove(at);
                    }
                }
            }
            assertEquals(model.size(), list.size());
        }
        for (int i = 0; i < model.size(); i++) {
            assertEquals(model.get(i), text(list.get(i)));
        }
        list.retain(1, 3);
        assertEquals(model.subList(1, 4), List.of(text(list.get(0)), text(list.get(1)), text(list.get(2))));
    }

    @Test
    void listShouldBecomeAQuicklistBeforeAPushThatPassesTheLimitAndReturnOnlyFromOneNode() {
        ListValue list = new ListValue();
        byte[] element = bytes("x".repeat(100));
        while (list.estimatedListpackBytes() + element.length <= 8192) {
            list.growing(-2, 0, element.length, 1);
            list.pushTail(element);
            list.settle(-2);
            assertEquals("listpack", list.encodingName());
        }

        list.growing(-2, 0, element.length, 1);
        list.pushTail(element);
        list.settle(-2);
        assertEquals("quicklist", list.encodingName());
        while (list.size() > 2) {
            list.popTail();
        }
        list.settle(-2);

        // The last push went into a second node; popping it and all but two of the first node's
        // elements leaves one small node.
        assertEquals("listpack", list.encodingName());
    }

    @Test
    void quicklistOfSeveralNodesShouldStayAQuicklistUntilOneNodeIsLeft() {
        ListValue list = new ListValue();
        list.growing(4, 0, 4, 4);
        for (String e : List.of("a", "b", "c", "d")) {
            list.pushTail(bytes(e));
        }
        list.growing(4, 0, 1, 1);
        list.pushTail(bytes("e"));
        assertEquals("quicklist", list.encodingName());

        list.popHead();
        list.popHead();
        list.popHead();
        list.settle(4);
        assertEquals("quicklist", list.encodingName());

        list.popHead();
        list.settle(4);
        assertEquals("listpack", list.encodingName());
    }

    @Test
    void memoryShouldReturnToBaselineWhenEmptied() {
        ListValue list = new ListValue();
        long empty = list.memoryBytes();
        for (int i = 0; i < 1000; i++) {
            list.pushTail(bytes("element" + i));
        }
        assertTrue(list.memoryBytes() > empty + 1000 * 16);
        while (list.size() > 0) {
            list.popHead();
        }
        assertEquals(empty, list.memoryBytes());
    }

    private static String text(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
