package dev.ebb.storage.rdb;

import static dev.ebb.storage.rdb.RdbValues.assertSameValue;
import static dev.ebb.storage.rdb.RdbValues.b;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Whole RDB files through {@link RdbWriter} and {@link RdbReader}: every type and encoding with
 * expiries, LRU/LFU data, AUX fields, several databases and function code; Redis's error texts;
 * and a fuzz loop over every truncation point and many flipped bytes, all of which must be refused
 * with an {@link RdbException} (never another exception, never a partial success).
 */
class RdbFileTest {
    /** What a reader saw, in order. */
    static final class Recorder implements RdbVisitor {
        final Map<String, String> aux = new LinkedHashMap<>();
        final List<String> events = new ArrayList<>();
        final Map<String, Object> values = new LinkedHashMap<>();
        final List<String> functions = new ArrayList<>();
        int version;

        @Override
        public void version(int v) {
            version = v;
        }

        @Override
        public void aux(byte[] key, byte[] value) {
            aux.put(new String(key, StandardCharsets.UTF_8), new String(value, StandardCharsets.UTF_8));
        }

        @Override
        public void selectDb(int db) {
            events.add("select " + db);
        }

        @Override
        public void resizeDb(long size, long expires) {
            events.add("resize " + size + " " + expires);
        }

        @Override
        public void entry(int db, byte[] key, Object value, long expireAtMs, long lruIdleSeconds, int lfuFreq) {
            String k = new String(key, StandardCharsets.UTF_8);
            events.add(db + ":" + k + " " + expireAtMs + " " + lruIdleSeconds + " " + lfuFreq);
            values.put(db + ":" + k, value);
        }

        @Override
        public void function(byte[] code) {
            functions.add(new String(code, StandardCharsets.UTF_8));
        }
    }

    static byte[] sampleFile(RdbOptions options) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RdbWriter w = new RdbWriter(bytes, options);
        Map<String, byte[]> aux = new LinkedHashMap<>();
        aux.put("redis-ver", b("7.2.4"));
        aux.put("redis-bits", b("64"));
        aux.put("ctime", b("1700000000"));
        w.header(aux);
        w.function(b("#!lua name=lib\nredis.register_function('f', function() return 1 end)"));
        Map<String, Object> values = RdbValues.everyEncoding();
        w.selectDb(0, values.size(), 1);
        boolean first = true;
        for (Map.Entry<String, Object> e : values.entrySet()) {
            w.entry(b(e.getKey()), e.getValue(), first ? 4_000_000_000_000L : -1, -1, -1);
            first = false;
        }
        w.selectDb(5, 2, 0);
        w.entry(b("idle"), b("v"), -1, 1234, -1);
        w.entry(b("freq"), b("v"), -1, -1, 200);
        w.finish();
        return bytes.toByteArray();
    }

    @Test
    void everyEncodingShouldRoundTripThroughAFile() throws IOException {
        byte[] file = sampleFile(RdbOptions.DEFAULTS);
        Recorder r = new Recorder();

        long consumed = new RdbReader(RdbLimits.DEFAULTS, true).read(new ByteArrayInputStream(file), r);

        assertEquals(file.length, consumed);
        assertEquals(RdbConstants.VERSION, r.version);
        assertEquals("7.2.4", r.aux.get("redis-ver"));
        assertEquals("64", r.aux.get("redis-bits"));
        assertEquals(1, r.functions.size());
        assertTrue(r.functions.get(0).startsWith("#!lua name=lib"));
        for (Map.Entry<String, Object> e : RdbValues.everyEncoding().entrySet()) {
            assertSameValue(e.getValue(), r.values.get("0:" + e.getKey()));
        }
        assertEquals("select 0", r.events.get(0));
        assertEquals("0:str:int8 4000000000000 -1 -1", r.events.get(2));
        assertTrue(r.events.contains("5:idle -1 1234 -1"));
        assertTrue(r.events.contains("5:freq -1 -1 200"));
    }

    @Test
    void headerShouldBeRedis0011AndFooterTheCrc() throws IOException {
        byte[] file = sampleFile(RdbOptions.DEFAULTS);
        byte[] unchecked = sampleFile(new RdbOptions(true, false));

        assertEquals("REDIS0011", new String(file, 0, 9, StandardCharsets.US_ASCII));
        assertEquals(0xFF, file[file.length - 9] & 0xFF);
        long crc = Crc64.update(0, file, 0, file.length - 8);
        for (int i = 0; i < 8; i++) {
            assertEquals((byte) (crc >>> (8 * i)), file[file.length - 8 + i]);
        }
        assertArrayEquals(new byte[8], java.util.Arrays.copyOfRange(unchecked, unchecked.length - 8, unchecked.length));
        new RdbReader(RdbLimits.DEFAULTS, true).read(new ByteArrayInputStream(unchecked), new Recorder());
    }

    @Test
    void compressionOffShouldStillRoundTrip() throws IOException {
        byte[] file = sampleFile(new RdbOptions(false, true));
        Recorder r = new Recorder();

        new RdbReader(RdbLimits.DEFAULTS, true).read(new ByteArrayInputStream(file), r);

        assertSameValue(b("abc".repeat(100)), r.values.get("0:str:compressible"));
    }

    @Test
    void readerShouldGiveRedisErrorTexts() throws IOException {
        byte[] file = sampleFile(RdbOptions.DEFAULTS);
        byte[] badCrc = file.clone();
        badCrc[file.length - 1] ^= 1;
        byte[] newer = file.clone();
        newer[8] = '3';

        assertEquals(RdbException.SHORT_READ, error(java.util.Arrays.copyOf(file, file.length - 3)));
        assertTrue(error(badCrc).startsWith("Wrong RDB checksum expected: ("), error(badCrc));
        assertEquals("Can't handle RDB format version 13", error(newer));
        assertEquals("Wrong signature trying to load DB from file", error(b("RIDES0011")));
    }

    @Test
    void everyTruncationShouldBeRefused() throws IOException {
        byte[] file = sampleFile(RdbOptions.DEFAULTS);

        for (int len = 0; len < file.length; len++) {
            byte[] cut = java.util.Arrays.copyOf(file, len);
            assertThrows(RdbException.class, () -> read(cut), "truncated at " + len);
        }
    }

    @Test
    void flippedBytesShouldBeRefused() throws IOException {
        byte[] file = sampleFile(RdbOptions.DEFAULTS);
        Random random = new Random(19);

        for (int i = 0; i < 3000; i++) {
            byte[] bad = file.clone();
            int at = random.nextInt(bad.length);
            bad[at] ^= (byte) (1 + random.nextInt(255));
            assertThrows(RdbException.class, () -> read(bad), "byte " + at + " flipped");
        }
    }

    @Test
    void corruptValuesShouldFailCleanlyWithoutTheChecksum() throws IOException {
        // with rdbchecksum off the value decoders themselves face the damage: only RdbException may escape
        byte[] file = sampleFile(new RdbOptions(true, false));
        Random random = new Random(7);

        for (int i = 0; i < 3000; i++) {
            byte[] bad = file.clone();
            for (int k = 0; k < 1 + random.nextInt(3); k++) {
                bad[9 + random.nextInt(bad.length - 9)] ^= (byte) (1 + random.nextInt(255));
            }
            try {
                new RdbReader(RdbLimits.DEFAULTS, false).read(new ByteArrayInputStream(bad), new Recorder());
            } catch (RdbException expected) {
                // refused: fine
            }
        }
    }

    @Test
    void hugeLengthsShouldBeRefusedWithoutAllocating() {
        byte[] header = b("REDIS0011");
        byte[] file = new byte[header.length + 12];
        System.arraycopy(header, 0, file, 0, header.length);
        file[9] = RdbConstants.TYPE_STRING;
        file[10] = 1;
        file[11] = 'k';
        file[12] = (byte) RdbConstants.LEN_32BIT;
        file[13] = (byte) 0x7F;
        file[14] = (byte) 0xFF;
        file[15] = (byte) 0xFF;
        file[16] = (byte) 0x00;

        assertEquals(RdbException.SHORT_READ, error(java.util.Arrays.copyOf(file, 17)));
    }

    private static void read(byte[] file) throws IOException {
        new RdbReader(RdbLimits.DEFAULTS, true).read(new ByteArrayInputStream(file), new Recorder());
    }

    private static String error(byte[] file) {
        return assertThrows(RdbException.class, () -> read(file)).getMessage();
    }
}
