package dev.ebb.storage.rdb;

import static dev.ebb.storage.rdb.RdbValues.assertHex;
import static dev.ebb.storage.rdb.RdbValues.assertSameValue;
import static dev.ebb.storage.rdb.RdbValues.b;
import static dev.ebb.storage.rdb.RdbValues.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * DUMP payloads byte for byte against ones redis-server 7.2.4 produced (DUMP of the same values on
 * the reference, hex-encoded here), and every encoding through create + parse.
 */
class DumpPayloadTest {
    /** SET s1 hello. */
    private static final String STRING = "000568656c6c6f0b000aad620598abc983";
    /** SET s2 12345. */
    private static final String INT16 = "00c139300b00f44b57546e63e130";
    /** SET s3 with 100 'a' (LZF compressed by liblzf). */
    private static final String LZF = "00c3094064016161e057000161610b00817c08744df21bf8";
    /** RPUSH l1 a 1 -5000 70000 3000000000 hello. */
    private static final String LIST = "120102262600000006008161020101f178ec03f270110104f4005ed0b200000000098568656c6c6f06ff0b001b5fad1cdc0763f5";
    /** SADD si 1 2 70000. */
    private static final String INTSET = "0b1404000000030000000100000002000000701101000b00ec0a7c75a68239dc";
    /** SADD sl a b 3. */
    private static final String SET_LISTPACK = "140f0f00000003008161028162020301ff0b0012019276c04c040e";
    /** ZADD z1 1 a 2.5 b -3 c 1e20 d. */
    private static final String ZSET_LISTPACK = "1124240000000800816302dffd02816102010181620283322e35048164028531652b323006ff0b0093f01e50c1dc0694";
    /** HSET h1 f v n 42. */
    private static final String HASH_LISTPACK = "1012120000000400816602817602816e022a01ff0b0096ef550c8ffd3018";

    @Test
    void createShouldMatchRedisByteForByte() {
        assertHex(STRING, DumpPayload.create(b("hello"), true, 0));
        assertHex(INT16, DumpPayload.create(b("12345"), true, 0));
        assertHex(LIST, DumpPayload.create(RdbValues.list("a", "1", "-5000", "70000", "3000000000", "hello"), true, 0));
        assertHex(INTSET, DumpPayload.create(RdbValues.set("1", "2", "70000"), true, 0));
        assertHex(SET_LISTPACK, DumpPayload.create(RdbValues.set("a", "b", "3"), true, 0));
        assertHex(ZSET_LISTPACK, DumpPayload.create(RdbValues.zset("a", 1, "b", 2.5, "c", -3, "d", 1e20), true, 0));
        assertHex(HASH_LISTPACK, DumpPayload.create(RdbValues.hash("f", "v", "n", "42"), true, 0));
    }

    @Test
    void parseShouldReadRedisPayloads() throws Exception {
        assertSameValue(b("hello"), parse(STRING));
        assertSameValue(b("12345"), parse(INT16));
        assertSameValue(b("a".repeat(100)), parse(LZF));
        assertSameValue(RdbValues.list("a", "1", "-5000", "70000", "3000000000", "hello"), parse(LIST));
        assertSameValue(RdbValues.set("1", "2", "70000"), parse(INTSET));
        assertSameValue(RdbValues.set("a", "b", "3"), parse(SET_LISTPACK));
        assertSameValue(RdbValues.zset("a", 1, "b", 2.5, "c", -3, "d", 1e20), parse(ZSET_LISTPACK));
        assertSameValue(RdbValues.hash("f", "v", "n", "42"), parse(HASH_LISTPACK));
    }

    @Test
    void everyEncodingShouldSurviveCreateAndParse() throws Exception {
        for (boolean compression : new boolean[] {true, false}) {
            for (Map.Entry<String, Object> e : RdbValues.everyEncoding().entrySet()) {
                byte[] payload = DumpPayload.create(e.getValue(), compression, 0);

                assertTrue(DumpPayload.verify(payload), e.getKey());
                assertSameValue(e.getValue(), DumpPayload.parse(payload, RdbLimits.DEFAULTS, 0));
            }
        }
    }

    @Test
    void compressionShouldShrinkRepetitiveStrings() throws Exception {
        byte[] text = b("abc".repeat(1000));

        byte[] compressed = DumpPayload.create(text, true, 0);
        byte[] plain = DumpPayload.create(text, false, 0);

        assertTrue(compressed.length < 200, "compressed payload of " + compressed.length + " bytes");
        assertEquals(1 + 2 + 3000 + 10, plain.length);
        assertSameValue(text, DumpPayload.parse(compressed, RdbLimits.DEFAULTS, 0));
    }

    @Test
    void verifyShouldRefuseWrongChecksumVersionOrLength() {
        byte[] good = hex(STRING);
        byte[] flipped = good.clone();
        flipped[3] ^= 1;
        byte[] newer = good.clone();
        newer[good.length - 10] = 12;

        assertTrue(DumpPayload.verify(good));
        assertFalse(DumpPayload.verify(flipped));
        assertFalse(DumpPayload.verify(newer));
        assertFalse(DumpPayload.verify(new byte[9]));
    }

    @Test
    void parseShouldRefuseEmptyCollectionsAndUnknownTypes() {
        byte[] emptySet = withFooter(new byte[] {RdbConstants.TYPE_SET, 0});
        byte[] stream = withFooter(new byte[] {RdbConstants.TYPE_STREAM_LISTPACKS_3, 0});
        byte[] unknown = withFooter(new byte[] {(byte) 99, 0});

        assertThrows(RdbException.class, () -> DumpPayload.parse(emptySet, RdbLimits.DEFAULTS, 0));
        assertThrows(RdbException.class, () -> DumpPayload.parse(stream, RdbLimits.DEFAULTS, 0));
        assertThrows(RdbException.class, () -> DumpPayload.parse(unknown, RdbLimits.DEFAULTS, 0));
    }

    static byte[] withFooter(byte[] body) {
        byte[] out = new byte[body.length + 10];
        System.arraycopy(body, 0, out, 0, body.length);
        out[body.length] = RdbConstants.VERSION;
        long crc = Crc64.update(0, out, 0, body.length + 2);
        for (int i = 0; i < 8; i++) {
            out[body.length + 2 + i] = (byte) (crc >>> (8 * i));
        }
        return out;
    }

    private static Object parse(String payloadHex) throws RdbException {
        byte[] payload = hex(payloadHex);
        assertTrue(DumpPayload.verify(payload));
        return DumpPayload.parse(payload, RdbLimits.DEFAULTS, 0);
    }
}
