package dev.ebb.server.command;

/**
 * The bit arithmetic of BITFIELD, apart from any command or keyspace: reading and writing an
 * integer of 1 to 64 bits at any bit offset of a byte array (bit 0 is the most significant bit
 * of the first byte, as SETBIT numbers them), and Redis's overflow rules for storing a value or
 * adding an increment in such a field.
 *
 * <p>Unsigned fields are at most 63 bits (BITFIELD refuses u64); their values are plain
 * non-negative longs. A SET value is given as the signed 64-bit integer the client sent, and for
 * an unsigned field it is read as the unsigned 64-bit number with those bits, as Redis reads it:
 * so {@code SET u8 -5} overflows upwards (SAT stores 255, WRAP stores 251).
 *
 * <p>Each overflow check answers 1 (above the range), -1 (below) or 0 (fits); {@code ...Wrap} and
 * {@code ...Max}/{@code ...Min} give the value WRAP and SAT store instead. Reads past the end
 * of the array see zero bits; writes need an array long enough. Stateless and thread-safe.
 */
final class Bitfields {
    /** OVERFLOW WRAP: wrap around modulo 2^bits (two's complement for signed fields). */
    static final int WRAP = 0;
    /** OVERFLOW SAT: store the field's maximum or minimum. */
    static final int SAT = 1;
    /** OVERFLOW FAIL: store nothing and answer nil. */
    static final int FAIL = 2;

    private Bitfields() {
    }

    /** The {@code bits}-bit unsigned integer at bit {@code offset}, zero bits past the end of {@code s}. */
    static long getUnsigned(byte[] s, long offset, int bits) {
        long value = 0;
        long bit = offset;
        int remaining = bits;
        while (remaining > 0) {
            long index = bit >>> 3;
            int inByte = (int) (bit & 7);
            int take = Math.min(8 - inByte, remaining);
            int b = index < s.length ? s[(int) index] & 0xff : 0;
            value = (value << take) | ((b >>> (8 - inByte - take)) & ((1 << take) - 1));
            bit += take;
            remaining -= take;
        }
        return value;
    }

    /** The {@code bits}-bit two's complement integer at bit {@code offset}, sign-extended. */
    static long getSigned(byte[] s, long offset, int bits) {
        long value = getUnsigned(s, offset, bits);
        return bits < 64 ? (value << (64 - bits)) >> (64 - bits) : value;
    }

    /**
     * Writes the low {@code bits} bits of {@code value} at bit {@code offset}, most significant
     * first; {@code s} must hold bit {@code offset + bits - 1}.
     */
    static void set(byte[] s, long offset, int bits, long value) {
        long end = offset + bits;
        int remaining = bits;
        long v = value;
        while (remaining > 0) {
            long last = end - 1;
            int index = (int) (last >>> 3);
            int inByte = (int) (last & 7);
            int take = Math.min(inByte + 1, remaining);
            int shift = 7 - inByte;
            int mask = ((1 << take) - 1) << shift;
            s[index] = (byte) ((s[index] & ~mask) | (((int) v << shift) & mask));
            v >>>= take;
            end -= take;
            remaining -= take;
        }
    }

    /** The largest value of an unsigned field of {@code bits} (1..63) bits. */
    static long unsignedMax(int bits) {
        return (1L << bits) - 1;
    }

    /**
     * Whether {@code value + incr} leaves the range of an unsigned {@code bits}-bit field: 1 above,
     * -1 below, 0 inside. {@code value} is an unsigned 64-bit number (a SET value above the range
     * counts as above, whatever its sign as a long).
     */
    static int unsignedOverflow(long value, long incr, int bits) {
        long max = unsignedMax(bits);
        long maxIncr = max - value;
        long minIncr = -value;
        if (Long.compareUnsigned(value, max) > 0 || (incr > 0 && incr > maxIncr)) {
            return 1;
        }
        if (incr < 0 && incr < minIncr) {
            return -1;
        }
        return 0;
    }

    /** {@code value + incr} modulo 2^bits: what OVERFLOW WRAP stores in an unsigned field. */
    static long unsignedWrap(long value, long incr, int bits) {
        return (value + incr) & unsignedMax(bits);
    }

    /** The largest value of a signed field of {@code bits} (1..64) bits. */
    static long signedMax(int bits) {
        return bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
    }

    /** The smallest value of a signed field of {@code bits} (1..64) bits. */
    static long signedMin(int bits) {
        return -signedMax(bits) - 1;
    }

    /**
     * Whether {@code value + incr} leaves the range of a signed {@code bits}-bit field: 1 above,
     * -1 below, 0 inside. For 64-bit fields this is whether the long addition overflows.
     */
    static int signedOverflow(long value, long incr, int bits) {
        long max = signedMax(bits);
        long min = -max - 1;
        // Either difference may overflow a long; each is only trusted where it cannot.
        long maxIncr = max - value;
        long minIncr = min - value;
        if (value > max || (bits != 64 && incr > maxIncr) || (value >= 0 && incr > 0 && incr > maxIncr)) {
            return 1;
        }
        if (value < min || (bits != 64 && incr < minIncr) || (value < 0 && incr < 0 && incr < minIncr)) {
            return -1;
        }
        return 0;
    }

    /**
     * {@code value + incr} wrapped into a signed {@code bits}-bit field (two's complement): what
     * OVERFLOW WRAP stores.
     */
    static long signedWrap(long value, long incr, int bits) {
        long sum = value + incr;
        return bits < 64 ? (sum << (64 - bits)) >> (64 - bits) : sum;
    }
}
