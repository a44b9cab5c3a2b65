package dev.ebb.storage.rdb;

import static dev.ebb.storage.rdb.RdbValues.assertSameValue;
import static dev.ebb.storage.rdb.RdbValues.b;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The encodings of RDB versions 9 and 10 (Redis 6.x and 7.0) and older that Ebb reads but never
 * writes: ziplists (every entry encoding, both previous-length forms) as LIST_ZIPLIST,
 * LIST_QUICKLIST, HASH_ZIPLIST and ZSET_ZIPLIST; plain ZSET with text scores; 16-bit intsets; the
 * seconds EXPIRETIME of old files. Built here byte by byte after ziplist.c's layout.
 */
class OlderEncodingsTest {
    /** A ziplist of the given entries: String for strings, Long for integers (in Redis's smallest encoding). */
    static byte[] ziplist(Object... entries) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int prev = 0;
        for (Object e : entries) {
            ByteArrayOutputStream entry = new ByteArrayOutputStream();
            if (prev < 254) {
                entry.write(prev);
            } else {
                entry.write(0xFE);
                le(entry, prev, 4);
            }
            if (e instanceof String s) {
                byte[] data = s.getBytes(StandardCharsets.UTF_8);
                if (data.length < 64) {
                    entry.write(data.length);
                } else if (data.length < 16384) {
                    entry.write(0x40 | (data.length >> 8));
                    entry.write(data.length & 0xFF);
                } else {
                    entry.write(0x80);
                    entry.write(data.length >>> 24);
                    entry.write(data.length >>> 16);
                    entry.write(data.length >>> 8);
                    entry.write(data.length);
                }
                entry.writeBytes(data);
            } else {
                long v = (Long) e;
                if (v >= 0 && v <= 12) {
                    entry.write(0xF1 + (int) v);
                } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
                    entry.write(0xFE);
                    le(entry, v, 1);
                } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
                    entry.write(0xC0);
                    le(entry, v, 2);
                } else if (v >= -(1 << 23) && v < (1 << 23)) {
                    entry.write(0xF0);
                    le(entry, v, 3);
                } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
                    entry.write(0xD0);
                    le(entry, v, 4);
                } else {
                    entry.write(0xE0);
                    le(entry, v, 8);
                }
            }
            prev = entry.size();
            body.writeBytes(entry.toByteArray());
        }
        ByteArrayOutputStream zl = new ByteArrayOutputStream();
        int total = 10 + body.size() + 1;
        le(zl, total, 4);
        le(zl, 10 + body.size() - prev, 4);
        le(zl, entries.length, 2);
        zl.writeBytes(body.toByteArray());
        zl.write(0xFF);
        return zl.toByteArray();
    }

    private static void le(ByteArrayOutputStream out, long v, int width) {
        for (int i = 0; i < width; i++) {
            out.write((int) (v >>> (8 * i)));
        }
    }

    /** A DUMP payload of RDB version 9 around {@code body}. */
    private static Object parseV9(byte[] body) throws RdbException {
        byte[] payload = new byte[body.length + 10];
        System.arraycopy(body, 0, payload, 0, body.length);
        payload[body.length] = 9;
        long crc = Crc64.update(0, payload, 0, body.length + 2);
        for (int i = 0; i < 8; i++) {
            payload[body.length + 2 + i] = (byte) (crc >>> (8 * i));
        }
        return DumpPayload.parse(payload, RdbLimits.DEFAULTS, 0);
    }

    private static byte[] typeAndBlob(int type, byte[] blob) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(type);
        try {
            RdbOutput o = new RdbOutput(out, false);
            o.writeString(blob);
            o.flush();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return out.toByteArray();
    }

    @Test
    void ziplistEntriesOfEveryEncodingShouldRead() throws Exception {
        String big = "y".repeat(300);
        Object[] entries = {"a", "hello", 0L, 12L, 100L, -100L, 1000L, 100000L, 100000000L, 10000000000L,
                -10000000000L, "z".repeat(70), big, "after-a-long-one"};
        List<String> expected = new ArrayList<>();
        for (Object e : entries) {
            expected.add(e.toString());
        }

        Object list = parseV9(typeAndBlob(RdbConstants.TYPE_LIST_ZIPLIST, ziplist(entries)));

        assertSameValue(RdbValues.list(expected.toArray(new String[0])), list);
    }

    @Test
    void quicklistOfZiplistsShouldRead() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(RdbConstants.TYPE_LIST_QUICKLIST);
        RdbOutput o = new RdbOutput(out, true);
        o.writeLength(2);
        o.writeString(ziplist("a", 1L, "b"));
        o.writeString(ziplist("c", 2L));
        o.flush();

        assertSameValue(RdbValues.list("a", "1", "b", "c", "2"), parseV9(out.toByteArray()));
    }

    @Test
    void hashAndZsetZiplistsShouldRead() throws Exception {
        Object hash = parseV9(typeAndBlob(RdbConstants.TYPE_HASH_ZIPLIST, ziplist("f", "v", "n", 42L)));
        Object zset = parseV9(typeAndBlob(RdbConstants.TYPE_ZSET_ZIPLIST, ziplist("a", 1L, "b", "2.5", "c", "-inf")));

        assertSameValue(RdbValues.hash("f", "v", "n", "42"), hash);
        assertSameValue(RdbValues.zset("a", 1, "b", 2.5, "c", Double.NEGATIVE_INFINITY), zset);
    }

    @Test
    void corruptZiplistsShouldBeRefused() {
        byte[] good = ziplist("a", 1L, "b");
        byte[] badPrev = good.clone();
        badPrev[10 + 3] = 7;
        byte[] badTotal = good.clone();
        badTotal[0]++;
        byte[] oddHash = ziplist("f", "v", "n");

        assertThrows(RdbException.class, () -> parseV9(typeAndBlob(RdbConstants.TYPE_LIST_ZIPLIST, badPrev)));
        assertThrows(RdbException.class, () -> parseV9(typeAndBlob(RdbConstants.TYPE_LIST_ZIPLIST, badTotal)));
        assertThrows(RdbException.class, () -> parseV9(typeAndBlob(RdbConstants.TYPE_HASH_ZIPLIST, oddHash)));
    }

    @Test
    void plainZsetWithTextScoresAndSmallIntsetShouldRead() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(RdbConstants.TYPE_ZSET);
        RdbOutput o = new RdbOutput(out, false);
        o.writeLength(3);
        o.writeString(b("a"));
        o.writeByte(3);
        o.writeBytes(b("1.5"), 0, 3);
        o.writeString(b("b"));
        o.writeByte(254);
        o.writeString(b("c"));
        o.writeByte(255);
        o.flush();
        byte[] intset = {2, 0, 0, 0, 3, 0, 0, 0, (byte) 0xFF, (byte) 0xFF, 5, 0, 0, 1};

        Object zset = parseV9(out.toByteArray());
        Object set = parseV9(typeAndBlob(RdbConstants.TYPE_SET_INTSET, intset));

        assertSameValue(RdbValues.zset("a", 1.5, "b", Double.POSITIVE_INFINITY, "c", Double.NEGATIVE_INFINITY), zset);
        assertSameValue(RdbValues.set("-1", "5", "256"), set);
    }

    @Test
    void version9FileWithSecondExpiriesShouldRead() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(b("REDIS0009"));
        RdbOutput o = new RdbOutput(out, false);
        o.writeByte(RdbConstants.OPCODE_EXPIRETIME);
        o.writeLe(2_000_000_000L, 4);
        o.writeByte(RdbConstants.TYPE_HASH_ZIPLIST);
        o.writeString(b("h"));
        o.writeString(ziplist("f", "v"));
        o.writeByte(RdbConstants.OPCODE_EOF);
        o.flush();
        byte[] withoutCrc = out.toByteArray();
        byte[] file = java.util.Arrays.copyOf(withoutCrc, withoutCrc.length + 8);
        RdbFileTest.Recorder r = new RdbFileTest.Recorder();

        new RdbReader(RdbLimits.DEFAULTS, true).read(new ByteArrayInputStream(file), r);

        assertEquals(9, r.version);
        assertEquals(List.of("0:h 2000000000000 -1 -1"), r.events);
        assertSameValue(RdbValues.hash("f", "v"), r.values.get("0:h"));
    }
}
