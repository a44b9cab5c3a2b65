package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The bit arithmetic of BITFIELD, without a server: field reads and writes at every alignment
 * checked against a bit-by-bit model, and the overflow rules against exact (BigInteger)
 * arithmetic and values recorded from redis-server 7.2.4.
 */
class BitfieldsTest {
    /** Bit {@code i} of {@code s}, bit 0 being the most significant bit of the first byte. */
    private static int bit(byte[] s, long i) {
        return i >>> 3 < s.length ? (s[(int) (i >>> 3)] >> (7 - (i & 7))) & 1 : 0;
    }

    @Test
    void getUnsignedShouldReadTheBitsMostSignificantFirstAtAnyAlignment() {
        Random random = new Random(16);
        byte[] s = new byte[12];
        random.nextBytes(s);

        for (int bits = 1; bits <= 64; bits++) {
            for (long offset = 0; offset <= 40; offset++) {
                long expected = 0;
                for (int k = 0; k < bits; k++) {
                    expected = (expected << 1) | bit(s, offset + k);
                }

                assertEquals(expected, Bitfields.getUnsigned(s, offset, bits), "bits=" + bits + " offset=" + offset);
            }
        }
    }

    @Test
    void readsPastTheEndShouldSeeZeroBits() {
        byte[] s = {(byte) 0xff};

        assertEquals(0xf0, Bitfields.getUnsigned(s, 4, 8));
        assertEquals(0, Bitfields.getUnsigned(s, 8, 64));
        assertEquals(0, Bitfields.getUnsigned(new byte[0], 1_000_000, 33));
    }

    @Test
    void getSignedShouldSignExtendTheTopBitOfTheField() {
        byte[] s = {(byte) 0b1011_0000, 0, 0, 0, 0, 0, 0, 0, (byte) 0x80};

        assertEquals(-1, Bitfields.getSigned(s, 0, 1));
        assertEquals(-2, Bitfields.getSigned(s, 0, 2));
        assertEquals(1, Bitfields.getSigned(s, 1, 2));
        assertEquals(-5, Bitfields.getSigned(s, 0, 4));
        assertEquals(0b1011_0000 - 256, Bitfields.getSigned(s, 0, 8));
        assertEquals(128, Bitfields.getSigned(s, 8, 64));
        assertEquals(Long.MIN_VALUE + 1, Bitfields.getSigned(new byte[] {(byte) 0x80, 0, 0, 0, 0, 0, 0, 1}, 0, 64));
    }

    @Test
    void setShouldWriteOnlyTheFieldsBitsAndReadBackTheSameValue() {
        Random random = new Random(7);
        for (int round = 0; round < 2_000; round++) {
            byte[] s = new byte[12];
            random.nextBytes(s);
            byte[] before = s.clone();
            int bits = 1 + random.nextInt(64);
            long offset = random.nextInt(96 - bits + 1);
            long value = random.nextLong();

            Bitfields.set(s, offset, bits, value);

            long mask = bits == 64 ? -1L : (1L << bits) - 1;
            assertEquals(value & mask, Bitfields.getUnsigned(s, offset, bits));
            for (long i = 0; i < 96; i++) {
                if (i < offset || i >= offset + bits) {
                    assertEquals(bit(before, i), bit(s, i), "bit " + i + " outside the field changed");
                }
            }
        }
    }

    @Test
    void setShouldWriteAcrossByteBoundaries() {
        byte[] s = new byte[3];

        Bitfields.set(s, 4, 16, 0xabcd);

        assertArrayEquals(new byte[] {0x0a, (byte) 0xbc, (byte) 0xd0}, s);
    }

    @Test
    void overflowChecksShouldAgreeWithExactArithmetic() {
        Random random = new Random(42);
        for (int round = 0; round < 20_000; round++) {
            int bits = 1 + random.nextInt(64);
            long min = Bitfields.signedMin(bits);
            long max = Bitfields.signedMax(bits);
            long value = bits == 64 ? random.nextLong() : min + (long) (random.nextDouble() * (max - min));
            long incr = random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(300) - 150;
            BigInteger sum = BigInteger.valueOf(value).add(BigInteger.valueOf(incr));
            int expected = sum.compareTo(BigInteger.valueOf(max)) > 0 ? 1
                    : sum.compareTo(BigInteger.valueOf(min)) < 0 ? -1 : 0;

            assertEquals(expected, Bitfields.signedOverflow(value, incr, bits),
                    "signed bits=" + bits + " value=" + value + " incr=" + incr);
            BigInteger modulus = BigInteger.ONE.shiftLeft(bits);
            BigInteger wrapped = sum.mod(modulus);
            if (wrapped.testBit(bits - 1)) {
                wrapped = wrapped.subtract(modulus);
            }
            assertEquals(wrapped.longValue(), Bitfields.signedWrap(value, incr, bits));

            if (bits < 64) {
                long u = (long) (random.nextDouble() * Bitfields.unsignedMax(bits));
                BigInteger usum = BigInteger.valueOf(u).add(BigInteger.valueOf(incr));
                int uexpected = usum.compareTo(BigInteger.valueOf(Bitfields.unsignedMax(bits))) > 0 ? 1
                        : usum.signum() < 0 ? -1 : 0;

                assertEquals(uexpected, Bitfields.unsignedOverflow(u, incr, bits),
                        "unsigned bits=" + bits + " value=" + u + " incr=" + incr);
                assertEquals(usum.mod(modulus).longValue(), Bitfields.unsignedWrap(u, incr, bits));
            }
        }
    }

    /** SET values as BITFIELD reads them for a u8 field, recorded from redis-server 7.2.4. */
    @ParameterizedTest
    @CsvSource({"256, 1, 0", "-5, 1, 251", "-1, 1, 255", "255, 0, 255", "0, 0, 0"})
    void anUnsignedSetValueShouldBeReadAsAnUnsigned64BitNumber(long value, int overflow, long wrapped) {
        assertEquals(overflow, Bitfields.unsignedOverflow(value, 0, 8));
        assertEquals(wrapped, Bitfields.unsignedWrap(value, 0, 8));
    }

    @Test
    void rangesShouldBeThoseOfTheFieldWidth() {
        assertEquals(1, Bitfields.unsignedMax(1));
        assertEquals(Long.MAX_VALUE, Bitfields.unsignedMax(63));
        assertEquals(0, Bitfields.signedMax(1));
        assertEquals(-1, Bitfields.signedMin(1));
        assertEquals(127, Bitfields.signedMax(8));
        assertEquals(-128, Bitfields.signedMin(8));
        assertEquals(Long.MIN_VALUE, Bitfields.signedMin(64));
    }
}
