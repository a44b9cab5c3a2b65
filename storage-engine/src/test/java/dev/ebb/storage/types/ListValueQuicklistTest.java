package dev.ebb.storage.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.storage.rdb.Lzf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ListValue} as packed listpack nodes against a {@link java.util.ArrayList} model under
 * seeded random operations, for many node sizes ({@code list-max-listpack-size}) and compress
 * depths: pushes and pops at both ends, reads and writes by index (negative indexes as the
 * commands turn them into positions), inserts in the middle (node splits and merges), LREM in
 * both directions, LTRIM, copies, and the nodes as RDB writes them.
 */
class ListValueQuicklistTest {
    private static final byte[][] VOCABULARY = vocabulary();

    static Stream<Arguments> shapes() {
        List<Arguments> out = new ArrayList<>();
        for (int fill : new int[] {-1, -2, -5, 1, 2, 3, 5, 16, 128}) {
            for (int depth : new int[] {0, 1, 2, 3}) {
                out.add(Arguments.of(fill, depth));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "fill {0} depth {1}")
    @MethodSource("shapes")
    void randomOperationsShouldMatchAnArrayList(int fill, int depth) throws IOException {
        Random random = new Random(31L * fill + depth);
        ListValue list = new ListValue();
        List<byte[]> model = new ArrayList<>();

        for (int step = 0; step < 6000; step++) {
            apply(random, list, model, fill, depth);
            if (step % 97 == 0) {
                assertSame(model, list);
            }
        }

        assertSame(model, list);
        assertSame(model, list.copy());
    }

    @Test
    void innerNodesShouldBeCompressedBeyondTheDepth() throws IOException {
        ListValue list = ListValue.quicklist(-1, 2);
        byte[] element = "element:compressible-compressible-compressible".getBytes(StandardCharsets.US_ASCII);

        for (int i = 0; i < 5000; i++) {
            list.pushTail(element);
        }

        List<Boolean> compressed = nodeKinds(list);
        assertTrue(compressed.size() > 6, "nodes: " + compressed.size());
        assertFalse(compressed.get(0) || compressed.get(1), "head nodes raw");
        assertFalse(compressed.get(compressed.size() - 1) || compressed.get(compressed.size() - 2), "tail nodes raw");
        for (int k = 2; k < compressed.size() - 2; k++) {
            assertTrue(compressed.get(k), "inner node " + k + " compressed");
        }
        assertTrue(list.memoryBytes() < 5000L * element.length / 4, "memory " + list.memoryBytes());
        assertArrayEquals(element, list.get(2500));
    }

    @Test
    void popsShouldDecompressTheNodesThatReachTheEnds() throws IOException {
        ListValue list = ListValue.quicklist(-1, 1);
        for (int i = 0; i < 3000; i++) {
            list.pushTail(("item-" + (i % 50) + "-padding-padding-padding").getBytes(StandardCharsets.US_ASCII));
        }

        for (int i = 0; i < 1500; i++) {
            list.popHead();
        }

        List<Boolean> compressed = nodeKinds(list);
        assertFalse(compressed.get(0));
        assertFalse(compressed.get(compressed.size() - 1));
        assertTrue(compressed.size() < 3 || compressed.get(1));
        assertArrayEquals("item-0-padding-padding-padding".getBytes(StandardCharsets.US_ASCII), list.get(0));
    }

    @Test
    void listpackShouldBecomeQuicklistPastTheLimitAndBackWhenItShrinks() {
        ListValue list = new ListValue();
        byte[] element = new byte[100];
        Arrays.fill(element, (byte) 'x');

        while (list.estimatedListpackBytes() + element.length <= 8192) {
            list.growing(-2, 0, element.length, 1);
            list.pushTail(element);
        }
        assertEquals("listpack", list.encodingName());
        list.growing(-2, 0, element.length, 1);
        list.pushTail(element);
        assertEquals("quicklist", list.encodingName());
        assertEquals(2, list.quicklistNodes());

        while (list.size() > 30) {
            list.popTail();
            list.settle(-2);
        }

        assertEquals("listpack", list.encodingName());
        assertEquals(1, list.quicklistNodes());
    }

    private static void apply(Random random, ListValue list, List<byte[]> model, int fill, int depth) {
        int op = random.nextInt(100);
        int bias = model.size() > 3000 ? 30 : 0;
        byte[] e = VOCABULARY[random.nextInt(VOCABULARY.length)];
        if (op < 22 - bias / 2) {
            list.growing(fill, depth, e.length, 1);
            list.pushHead(e);
            model.add(0, e);
        } else if (op < 44 - bias) {
            list.growing(fill, depth, e.length, 1);
            list.pushTail(e);
            model.add(e);
        } else if (op < 52) {
            byte[] popped = list.popHead();
            byte[] expected = model.isEmpty() ? null : model.remove(0);
            assertBytes(expected, popped);
        } else if (op < 60) {
            byte[] popped = list.popTail();
            byte[] expected = model.isEmpty() ? null : model.remove(model.size() - 1);
            assertBytes(expected, popped);
        } else if (op < 68 && !model.isEmpty()) {
            int at = position(random, model.size());
            assertArrayEquals(model.get(at), list.get(at));
            assertTrue(list.matches(at, model.get(at)));
        } else if (op < 74 && !model.isEmpty()) {
            int at = position(random, model.size());
            list.growing(fill, depth, e.length, 1);
            list.set(at, e);
            model.set(at, e);
        } else if (op < 82 && !model.isEmpty()) {
            int pivot = list.indexOf(e);
            assertEquals(indexOf(model, e), pivot);
            int at = pivot >= 0 ? pivot : random.nextInt(model.size());
            boolean after = random.nextBoolean();
            byte[] inserted = VOCABULARY[random.nextInt(VOCABULARY.length)];
            list.growing(fill, depth, inserted.length, 1);
            list.insert(at, after, inserted);
            model.add(after ? at + 1 : at, inserted);
        } else if (op < 86 && !model.isEmpty()) {
            int at = random.nextInt(model.size());
            list.removeAt(at);
            model.remove(at);
        } else if (op < 92) {
            long limit = random.nextInt(3) == 0 ? Long.MAX_VALUE : 1 + random.nextInt(4);
            boolean fromTail = random.nextBoolean();
            long expected = removeFromModel(model, e, limit, fromTail);
            assertEquals(expected, list.removeMatching(e, limit, fromTail));
        } else if (op < 94 && !model.isEmpty()) {
            int start = random.nextInt(model.size());
            int end = Math.min(model.size() - 1, start + random.nextInt(model.size()));
            if (random.nextInt(20) == 0) {
                list.retain(0, -1);
                model.clear();
            } else {
                list.retain(start, end);
                model.subList(end + 1, model.size()).clear();
                model.subList(0, start).clear();
            }
        } else if (op < 96 && !model.isEmpty()) {
            int start = random.nextInt(model.size());
            int end = Math.min(model.size() - 1, start + random.nextInt(50));
            for (int i = start; i <= end; i++) {
                assertArrayEquals(model.get(i), list.get(i), "index " + i);
            }
            for (int i = end; i >= start; i--) {
                assertArrayEquals(model.get(i), list.get(i), "index " + i);
            }
        }
        list.settle(fill);
    }

    /** A random index as a command gets it (negative from the tail), turned into a position. */
    private static int position(Random random, int size) {
        int index = random.nextBoolean() ? random.nextInt(size) : -1 - random.nextInt(size);
        return index < 0 ? index + size : index;
    }

    private static long removeFromModel(List<byte[]> model, byte[] e, long limit, boolean fromTail) {
        long removed = 0;
        if (!fromTail) {
            for (int i = 0; i < model.size() && removed < limit; ) {
                if (Arrays.equals(model.get(i), e)) {
                    model.remove(i);
                    removed++;
                } else {
                    i++;
                }
            }
        } else {
            for (int i = model.size() - 1; i >= 0 && removed < limit; i--) {
                if (Arrays.equals(model.get(i), e)) {
                    model.remove(i);
                    removed++;
                }
            }
        }
        return removed;
    }

    private static int indexOf(List<byte[]> model, byte[] e) {
        for (int i = 0; i < model.size(); i++) {
            if (Arrays.equals(model.get(i), e)) {
                return i;
            }
        }
        return -1;
    }

    private static void assertSame(List<byte[]> model, ListValue list) throws IOException {
        assertEquals(model.size(), list.size());
        for (int i = 0; i < model.size(); i++) {
            assertArrayEquals(model.get(i), list.get(i), "index " + i);
        }
        List<byte[]> fromNodes = new ArrayList<>();
        list.writeNodes(new ListValue.NodeSink() {
            @Override
            public void listpack(byte[] buf, int off, int len) {
                fromNodes.addAll(entries(Arrays.copyOfRange(buf, off, off + len)));
            }

            @Override
            public void compressed(byte[] lzf, long listpackBytes) throws IOException {
                byte[] lp = new byte[(int) listpackBytes];
                new Lzf().decompress(lzf, lp);
                fromNodes.addAll(entries(lp));
            }
        });
        assertEquals(model.size(), fromNodes.size());
        for (int i = 0; i < model.size(); i++) {
            assertArrayEquals(model.get(i), fromNodes.get(i), "node entry " + i);
        }
    }

    /** The entries of a whole listpack, checking its header and end byte. */
    private static List<byte[]> entries(byte[] lp) {
        int total = (lp[0] & 0xFF) | (lp[1] & 0xFF) << 8 | (lp[2] & 0xFF) << 16 | (lp[3] & 0xFF) << 24;
        assertEquals(lp.length, total);
        assertEquals((byte) 0xFF, lp[lp.length - 1]);
        int count = (lp[4] & 0xFF) | (lp[5] & 0xFF) << 8;
        List<byte[]> out = new ArrayList<>();
        for (int pos = ListNode.HEADER; pos < lp.length - 1; pos += ListpackEntry.length(lp, pos)) {
            out.add(ListpackEntry.read(lp, pos));
            assertEquals(pos, ListpackEntry.previous(lp, pos + ListpackEntry.length(lp, pos)));
        }
        assertEquals(count, out.size());
        return out;
    }

    private static List<Boolean> nodeKinds(ListValue list) throws IOException {
        List<Boolean> kinds = new ArrayList<>();
        list.writeNodes(new ListValue.NodeSink() {
            @Override
            public void listpack(byte[] buf, int off, int len) {
                kinds.add(false);
            }

            @Override
            public void compressed(byte[] lzf, long listpackBytes) {
                kinds.add(true);
            }
        });
        return kinds;
    }

    private static void assertBytes(byte[] expected, byte[] actual) {
        if (expected == null) {
            assertNull(actual);
        } else {
            assertArrayEquals(expected, actual);
        }
    }

    private static byte[][] vocabulary() {
        List<byte[]> words = new ArrayList<>();
        for (String s : new String[] {"a", "b", "hello", "element:000001", "0", "1", "-1", "127", "128", "-4096",
                "4095", "32767", "-32769", "8388607", "2147483647", "-2147483649", "9223372036854775807",
                "-9223372036854775808", "007", "1.5", "", " 1"}) {
            words.add(s.getBytes(StandardCharsets.US_ASCII));
        }
        for (int len : new int[] {63, 64, 100, 127, 128, 500, 4095, 4096, 9000}) {
            byte[] b = new byte[len];
            Arrays.fill(b, (byte) ('a' + len % 26));
            words.add(b);
        }
        return words.toArray(new byte[0][]);
    }
}
