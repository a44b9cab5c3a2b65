package dev.ebb.server.command.hll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The HLL layout: shape checks, header, dense registers, the hash, merging and DECODE's text. */
class HllTest {
    private static byte[] header(int encoding, int length) {
        byte[] s = new byte[length];
        s[0] = 'H';
        s[1] = 'Y';
        s[2] = 'L';
        s[3] = 'L';
        s[4] = (byte) encoding;
        return s;
    }

    @Test
    void isHllShouldAcceptOnlyTheMagicAKnownEncodingAndTheDenseSize() {
        assertTrue(Hll.isHll(Hll.newSparse()));
        assertTrue(Hll.isHll(header(Hll.DENSE, Hll.DENSE_SIZE)));
        assertTrue(Hll.isHll(header(Hll.SPARSE, Hll.HEADER_SIZE)));

        assertFalse(Hll.isHll(Arrays.copyOf(Hll.newSparse(), 15)));
        assertFalse(Hll.isHll("HYLX\u0001...........".getBytes(StandardCharsets.ISO_8859_1)));
        assertFalse(Hll.isHll(header(2, 18)));
        assertFalse(Hll.isHll(header(0xff, 18)));
        assertFalse(Hll.isHll(header(Hll.DENSE, Hll.DENSE_SIZE - 1)));
        assertFalse(Hll.isHll(header(Hll.DENSE, Hll.DENSE_SIZE + 1)));
    }

    @Test
    void newSparseShouldBeOneXzeroOfEveryRegisterWithAValidZeroCache() {
        byte[] s = Hll.newSparse();

        assertArrayEquals(new byte[] {'H', 'Y', 'L', 'L', 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, (byte) 0xff}, s);
        assertTrue(Hll.hasValidCache(s));
        assertEquals("Z:16384", Hll.decodeSparse(s));
    }

    @Test
    void cachedCardinalityShouldBeLittleEndianWithTheTopBitMarkingItInvalid() {
        byte[] s = Hll.newSparse();

        Hll.setCachedCardinality(s, 0x0102030405060708L);
        assertEquals(8, s[8]);
        assertEquals(1, s[15]);
        assertTrue(Hll.hasValidCache(s));
        assertEquals(0x0102030405060708L, Hll.cachedCardinality(s));

        Hll.invalidateCache(s);
        assertFalse(Hll.hasValidCache(s));
        assertEquals((byte) 0x81, s[15]);
    }

    @Test
    void denseRegistersShouldKeepTheirValueAndLeaveTheirNeighboursAlone() {
        byte[] s = header(Hll.DENSE, Hll.DENSE_SIZE);
        int[] expected = new int[Hll.REGISTERS];
        SplittableRandom random = new SplittableRandom(16);

        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < Hll.REGISTERS; i++) {
                expected[i] = random.nextInt(64);
                Hll.setDenseRegister(s, i, expected[i]);
            }
            assertArrayEquals(expected, Hll.registers(s));
        }
        assertEquals('L', s[3]);
    }

    @Test
    void denseRegistersShouldBePackedLeastSignificantBitsFirst() {
        byte[] s = header(Hll.DENSE, Hll.DENSE_SIZE);

        Hll.setDenseRegister(s, 1, 0b111111);
        Hll.setDenseRegister(s, Hll.REGISTERS - 1, 0b100001);

        assertEquals((byte) 0b11000000, s[16]);
        assertEquals(0b00001111, s[17]);
        assertEquals((byte) 0b10000100, s[Hll.DENSE_SIZE - 1]);
    }

    @Test
    void patternLengthShouldCountTheZerosAboveTheIndexPlusOne() {
        assertEquals(1, Hll.patternLength(1L << 14));
        assertEquals(3, Hll.patternLength(0b100L << 14 | 0x3fff));
        assertEquals(51, Hll.patternLength(0));
        assertEquals(0x3fff, Hll.registerIndex(-1L));
    }

    @Test
    void hashOfEightBytesShouldEqualTheHashOfTheLittleEndianWord() {
        long word = 0x1122334455667788L;
        byte[] bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(word).array();
        byte[] padded = new byte[12];
        System.arraycopy(bytes, 0, padded, 3, 8);

        assertEquals(Hll.hash(bytes), Hll.hashLong(word));
        assertEquals(Hll.hash(bytes), MurmurHash64A.hash(padded, 3, 8, 0xadc83b19L));
    }

    @Test
    void mergeIntoShouldTakeEachRegistersMaximumAndRefuseACorruptSparseBody() {
        byte[] max = new byte[Hll.REGISTERS];
        max[5] = 9;
        byte[] dense = header(Hll.DENSE, Hll.DENSE_SIZE);
        Hll.setDenseRegister(dense, 5, 3);
        Hll.setDenseRegister(dense, Hll.REGISTERS - 1, 40);
        // sparse: XZERO 100, VAL 7 x2, XZERO 16282
        byte[] sparse = Arrays.copyOf(header(Hll.SPARSE, Hll.HEADER_SIZE), Hll.HEADER_SIZE + 5);
        int at = Hll.putZeros(sparse, Hll.HEADER_SIZE, 100);
        sparse[at] = Hll.valOpcode(7, 2);
        Hll.putZeros(sparse, at + 1, Hll.REGISTERS - 102);

        assertTrue(Hll.mergeInto(max, dense));
        assertTrue(Hll.mergeInto(max, sparse));

        assertEquals(9, max[5]);
        assertEquals(40, max[Hll.REGISTERS - 1]);
        assertEquals(7, max[100]);
        assertEquals(7, max[101]);
        assertEquals(0, max[102]);
        assertEquals("Z:100 v:7,2 Z:16282", Hll.decodeSparse(sparse));
        assertFalse(Hll.mergeInto(new byte[Hll.REGISTERS], Arrays.copyOf(sparse, sparse.length - 1)));
    }
}
