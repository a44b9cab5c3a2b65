package dev.ebb.storage.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class StreamValueTest {
    private static byte[][] argv(String... s) {
        byte[][] out = new byte[s.length][];
        for (int i = 0; i < s.length; i++) {
            out[i] = s[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    private static List<StreamEntry> all(StreamValue s, boolean rev) {
        List<StreamEntry> out = new ArrayList<>();
        s.forEach(StreamId.MIN, StreamId.MAX, rev, out::add);
        return out;
    }

    /**
     * The node bytes redis-server 7.2.4 stores for {@code XADD s 1-1 name 12345678 value 1234567890123456}
     * followed by {@code XADD s 1-2 name abc value 7}, as DEBUG LISTPACK / the RDB payload show them.
     */
    @Test
    void nodeBytesShouldBeRedisListpackLayout() {
        StreamValue s = new StreamValue();
        s.append(new StreamId(1, 1), argv("name", "12345678", "value", "1234567890123456"), 0, 4, 100, 4096);
        s.append(new StreamId(1, 2), argv("name", "abc", "other", "-5"), 0, 4, 100, 4096);

        byte[] lp = s.nodes()[0].listpackBytes();

        // header: total bytes, element count
        assertEquals(lp.length, (lp[0] & 0xFF) | (lp[1] & 0xFF) << 8);
        int elements = (lp[4] & 0xFF) | (lp[5] & 0xFF) << 8;
        // master: count, deleted, 2, name, value, 0 (6); entry 1 SAMEFIELDS: flags, ms, seq, 2 values, lp-count (6);
        // entry 2: flags, ms, seq, num-fields, 4 field/values, lp-count (9)
        assertEquals(21, elements);
        assertEquals((byte) 0xFF, lp[lp.length - 1]);
        assertEquals(2, Listpack.readInt(lp, 6));
        assertEquals(0, Listpack.readInt(lp, Listpack.next(lp, 6)));
    }

    @Test
    void shouldMatchASortedMapUnderRandomAppendsDeletesAndTrims() {
        Random random = new Random(42);
        StreamValue s = new StreamValue();
        TreeMap<StreamId, String> model = new TreeMap<>();
        long ms = 1;
        for (int step = 0; step < 5000; step++) {
            int op = random.nextInt(10);
            if (op < 7) {
                ms += random.nextInt(3);
                StreamId id = s.lastId().ms() == ms ? new StreamId(ms, s.lastId().seq() + 1) : new StreamId(ms, 0);
                String v = Integer.toString(random.nextInt(100000) - 50000);
                String[] fields = random.nextBoolean() ? new String[] {"a", v} : new String[] {"a", v, "b", "x" + v};
                s.append(id, argv(fields), 0, fields.length, 1 + random.nextInt(20), 4096);
                model.put(id, v);
            } else if (op < 9 && !model.isEmpty()) {
                StreamId victim = random.nextBoolean() ? model.firstKey() : model.lastKey();
                assertTrue(s.delete(victim));
                assertFalse(s.delete(victim));
                model.remove(victim);
            } else {
                long keep = random.nextInt(50);
                s.trim(keep, null, false, 0);
                while (model.size() > keep) {
                    model.pollFirstEntry();
                }
            }
            assertEquals(model.size(), s.length());
        }

        List<StreamEntry> forward = all(s, false);
        List<StreamEntry> backward = all(s, true);
        assertEquals(new ArrayList<>(model.keySet()), forward.stream().map(StreamEntry::id).toList());
        for (int i = 0; i < forward.size(); i++) {
            StreamEntry e = forward.get(i);
            assertArrayEquals(model.get(e.id()).getBytes(StandardCharsets.UTF_8), e.values()[0]);
            assertEquals(e.id(), backward.get(forward.size() - 1 - i).id());
        }
    }

    @Test
    void memoryEstimateShouldBeTheNodeBytesPlusASmallOverheadPerNode() {
        StreamValue s = new StreamValue();
        for (int i = 1; i <= 10_000; i++) {
            s.append(new StreamId(1, i), argv("name", "12345678", "value", "1234567890123456"), 0, 4, 100, 4096);
        }
        long listpacks = 0;
        for (StreamNode node : s.nodes()) {
            listpacks += node.listpackBytes().length;
        }

        assertEquals(100, s.nodeCount());
        assertTrue(s.memoryBytes() >= listpacks, "estimate=" + s.memoryBytes() + " listpacks=" + listpacks);
        assertTrue(s.memoryBytes() < listpacks + 100 * 128 + 4096, "estimate=" + s.memoryBytes() + " listpacks=" + listpacks);
    }

    @Test
    void approximateTrimShouldDropOnlyWholeNodes() {
        StreamValue s = new StreamValue();
        for (int i = 1; i <= 250; i++) {
            s.append(new StreamId(1, i), argv("f", "v"), 0, 2, 100, 4096);
        }

        assertEquals(100, s.trim(120, null, true, 0));
        assertEquals(150, s.length());
        assertEquals(new StreamId(1, 101), s.firstId());
        assertEquals(30, s.trim(120, null, false, 0));
        assertEquals(new StreamId(1, 131), s.firstId());
        assertEquals(2, s.nodeCount());
    }

    @Test
    void listpackIntegersShouldRoundTripAtEveryEncodingEdge() {
        long[] values = {0, 127, 128, -1, -4096, 4095, 4096, -4097, 32767, -32768, 32768, 8388607, -8388608,
            8388608, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE + 1L, Long.MAX_VALUE, Long.MIN_VALUE};
        byte[] buf = new byte[16];
        for (long v : values) {
            int end = Listpack.writeInt(buf, 0, v);

            assertEquals(v, Listpack.readInt(buf, 0));
            assertEquals(end, Listpack.next(buf, 0));
            assertEquals(end, Listpack.intSize(v));
        }
    }
}
