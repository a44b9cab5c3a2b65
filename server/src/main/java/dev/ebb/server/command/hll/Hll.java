package dev.ebb.server.command.hll;

/**
 * Redis 7.2's HyperLogLog string layout, byte for byte, and the arithmetic on it that needs no
 * state: validation, the cached cardinality, dense register access, the element hash, merging
 * into plain registers and PFDEBUG DECODE's text.
 *
 * <p>An HLL is a string value. Its 16-byte header is the magic {@code HYLL}, an encoding byte
 * ({@link #DENSE} 0 or {@link #SPARSE} 1), three unused bytes and the cached cardinality as 8
 * little-endian bytes, whose most significant bit set means "not valid, count again". The
 * {@value #REGISTERS} registers (P = 14 bits of the hash choose one; the run of zeros in the
 * other 50 bits, plus one, is the value: 1..51) follow in one of two encodings:
 * <ul>
 *   <li><b>dense</b>: 6 bits per register, least significant bits first: register 0 is the low 6
 *       bits of byte 0, register 1 the high 2 bits of byte 0 and the low 4 of byte 1 … 12288
 *       bytes, so a dense HLL is always {@value #DENSE_SIZE} bytes.</li>
 *   <li><b>sparse</b>: run-length opcodes covering all registers in order: {@code 00xxxxxx} ZERO,
 *       1..64 zero registers; {@code 01xxxxxx yyyyyyyy} XZERO, 1..16384 zero registers (14 bits);
 *       {@code 1vvvvvxx} VAL, 1..4 registers of value 1..32. A new HLL is one XZERO of 16384.
 *       A value above 32, or growth past {@code hll-sparse-max-bytes}, converts it to dense
 *       ({@link HllSketch}).</li>
 * </ul>
 * Stateless; every method works on the array it is given. Thread-safe.
 */
public final class Hll {
    /** Bits of the hash that choose the register. */
    static final int P = 14;
    /** Bits left for the run of zeros. */
    static final int Q = 64 - P;
    public static final int REGISTERS = 1 << P;
    static final int BITS = 6;
    static final int REGISTER_MAX = (1 << BITS) - 1;
    public static final int HEADER_SIZE = 16;
    public static final int DENSE_SIZE = HEADER_SIZE + (REGISTERS * BITS + 7) / 8;
    public static final int DENSE = 0;
    public static final int SPARSE = 1;
    static final int ENCODING_OFFSET = 4;
    static final int CARDINALITY_OFFSET = 8;
    /** The "cache not valid" bit, in the last byte of the cached cardinality. */
    private static final int INVALID_CACHE_BIT = 0x80;
    private static final long HASH_SEED = 0xadc83b19L;

    static final int SPARSE_XZERO_BIT = 0x40;
    static final int SPARSE_VAL_BIT = 0x80;
    static final int SPARSE_VAL_MAX_VALUE = 32;
    static final int SPARSE_VAL_MAX_LEN = 4;
    static final int SPARSE_ZERO_MAX_LEN = 64;

    private Hll() {
    }

    /**
     * Whether {@code s} has an HLL's shape, as Redis checks before every HLL command: at least a
     * header, the magic, a known encoding and, if dense, exactly the dense size. A sparse body is
     * only found corrupt when it is walked.
     */
    public static boolean isHll(byte[] s) {
        return s.length >= HEADER_SIZE && s[0] == 'H' && s[1] == 'Y' && s[2] == 'L' && s[3] == 'L'
                && (s[ENCODING_OFFSET] & 0xff) <= SPARSE
                && (s[ENCODING_OFFSET] != DENSE || s.length == DENSE_SIZE);
    }

    /** {@link #DENSE} or {@link #SPARSE} (of an array {@link #isHll} accepted). */
    public static int encoding(byte[] s) {
        return s[ENCODING_OFFSET];
    }

    public static boolean hasValidCache(byte[] s) {
        return (s[CARDINALITY_OFFSET + 7] & INVALID_CACHE_BIT) == 0;
    }

    /** The cached cardinality, meaningful when {@link #hasValidCache}. */
    public static long cachedCardinality(byte[] s) {
        long card = 0;
        for (int i = 7; i >= 0; i--) {
            card = card << 8 | (s[CARDINALITY_OFFSET + i] & 0xff);
        }
        return card;
    }

    /** Stores {@code card} as the cached cardinality, which makes the cache valid. */
    public static void setCachedCardinality(byte[] s, long card) {
        for (int i = 0; i < 8; i++) {
            s[CARDINALITY_OFFSET + i] = (byte) (card >>> (8 * i));
        }
    }

    static void invalidateCache(byte[] s) {
        s[CARDINALITY_OFFSET + 7] |= (byte) INVALID_CACHE_BIT;
    }

    /** A new, empty HLL: sparse, one XZERO opcode covering every register, cache valid at 0. */
    static byte[] newSparse() {
        byte[] s = new byte[HEADER_SIZE + 2];
        s[0] = 'H';
        s[1] = 'Y';
        s[2] = 'L';
        s[3] = 'L';
        s[ENCODING_OFFSET] = SPARSE;
        putXzero(s, HEADER_SIZE, REGISTERS);
        return s;
    }

    // ---------------------------------------------------------------- hash

    /** The 64-bit hash Redis gives an element added to an HLL. */
    public static long hash(byte[] element) {
        return MurmurHash64A.hash(element, 0, element.length, HASH_SEED);
    }

    /** As {@link #hash} for the eight little-endian bytes of {@code word} (PFSELFTEST's elements). */
    static long hashLong(long word) {
        return MurmurHash64A.hashLong(word, HASH_SEED);
    }

    /** The register a hash addresses: its low {@value #P} bits. */
    static int registerIndex(long hash) {
        return (int) hash & (REGISTERS - 1);
    }

    /**
     * The value a hash offers its register: the length of the pattern {@code 0…01} in the bits
     * above the index, counted from the least significant, the 1 included (1..{@value #Q} + 1).
     */
    static int patternLength(long hash) {
        return Long.numberOfTrailingZeros((hash >>> P) | (1L << Q)) + 1;
    }

    // ---------------------------------------------------------------- dense registers

    /** Dense register {@code index} of the HLL {@code s} (registers from {@link #HEADER_SIZE}). */
    static int denseRegister(byte[] s, int index) {
        int bit = index * BITS;
        int at = HEADER_SIZE + (bit >>> 3);
        int shift = bit & 7;
        int v = (s[at] & 0xff) >>> shift;
        if (shift > 8 - BITS) {
            v |= (s[at + 1] & 0xff) << (8 - shift);
        }
        return v & REGISTER_MAX;
    }

    /** Sets dense register {@code index} of {@code s} to {@code value} (0..63). */
    static void setDenseRegister(byte[] s, int index, int value) {
        int bit = index * BITS;
        int at = HEADER_SIZE + (bit >>> 3);
        int shift = bit & 7;
        s[at] = (byte) ((s[at] & ~(REGISTER_MAX << shift)) | (value << shift));
        if (shift > 8 - BITS) {
            s[at + 1] = (byte) ((s[at + 1] & ~(REGISTER_MAX >>> (8 - shift))) | (value >>> (8 - shift)));
        }
    }

    /** Every register of a dense HLL, in order (PFDEBUG GETREG). */
    public static int[] registers(byte[] dense) {
        int[] out = new int[REGISTERS];
        for (int i = 0; i < REGISTERS; i++) {
            out[i] = denseRegister(dense, i);
        }
        return out;
    }

    // ---------------------------------------------------------------- sparse opcodes

    static boolean isZero(int op) {
        return (op & 0xc0) == 0;
    }

    static boolean isXzero(int op) {
        return (op & 0xc0) == SPARSE_XZERO_BIT;
    }

    static boolean isVal(int op) {
        return (op & SPARSE_VAL_BIT) != 0;
    }

    static int zeroLength(int op) {
        return (op & 0x3f) + 1;
    }

    static int xzeroLength(int op, int second) {
        return ((op & 0x3f) << 8 | second) + 1;
    }

    static int valValue(int op) {
        return ((op >>> 2) & 0x1f) + 1;
    }

    static int valLength(int op) {
        return (op & 0x3) + 1;
    }

    static byte valOpcode(int value, int length) {
        return (byte) ((value - 1) << 2 | (length - 1) | SPARSE_VAL_BIT);
    }

    /** Writes ZERO or XZERO opcodes for {@code length} zero registers at {@code at}; returns the next offset. */
    static int putZeros(byte[] s, int at, int length) {
        if (length > SPARSE_ZERO_MAX_LEN) {
            return putXzero(s, at, length);
        }
        s[at] = (byte) (length - 1);
        return at + 1;
    }

    private static int putXzero(byte[] s, int at, int length) {
        s[at] = (byte) ((length - 1) >>> 8 | SPARSE_XZERO_BIT);
        s[at + 1] = (byte) (length - 1);
        return at + 2;
    }

    /** Byte {@code i} of {@code s} as Redis reads it: the string's terminating zero and beyond are 0. */
    static int byteAt(byte[] s, int length, int i) {
        return i < length ? s[i] & 0xff : 0;
    }

    // ---------------------------------------------------------------- merging, decoding

    /**
     * Raises each of {@code max}'s {@value #REGISTERS} plain byte registers to the HLL {@code s}'s
     * value for it (PFMERGE, PFCOUNT of several keys). Returns false, with {@code max} partly
     * updated, if {@code s} is sparse and its opcodes do not reach exactly the last register. As in
     * Redis, the walk stops at a VAL that would pass the last register, so opcodes beyond it are
     * not looked at (the single-key count, {@link HllEstimator#count}, refuses them).
     */
    public static boolean mergeInto(byte[] max, byte[] s) {
        if (encoding(s) == DENSE) {
            for (int i = 0, at = HEADER_SIZE; i < REGISTERS; i += 4, at += 3) {
                int b0 = s[at] & 0xff;
                int b1 = s[at + 1] & 0xff;
                int b2 = s[at + 2] & 0xff;
                raise(max, i, b0 & 63);
                raise(max, i + 1, (b0 >>> 6 | b1 << 2) & 63);
                raise(max, i + 2, (b1 >>> 4 | b2 << 4) & 63);
                raise(max, i + 3, b2 >>> 2);
            }
            return true;
        }
        int index = 0;
        int p = HEADER_SIZE;
        while (p < s.length) {
            int op = s[p] & 0xff;
            if (isZero(op)) {
                index += zeroLength(op);
                p++;
            } else if (isXzero(op)) {
                index += xzeroLength(op, byteAt(s, s.length, p + 1));
                p += 2;
            } else {
                int run = valLength(op);
                if (index + run > REGISTERS) {
                    break;
                }
                int value = valValue(op);
                for (int end = index + run; index < end; index++) {
                    raise(max, index, value);
                }
                p++;
            }
        }
        return index == REGISTERS;
    }

    private static void raise(byte[] max, int index, int value) {
        if (value > max[index]) {
            max[index] = (byte) value;
        }
    }

    /**
     * PFDEBUG DECODE's text for a sparse HLL: {@code z:LEN} for ZERO, {@code Z:LEN} for XZERO,
     * {@code v:VALUE,LEN} for VAL, separated by spaces.
     */
    public static String decodeSparse(byte[] s) {
        StringBuilder out = new StringBuilder();
        int p = HEADER_SIZE;
        while (p < s.length) {
            int op = s[p] & 0xff;
            if (out.length() > 0) {
                out.append(' ');
            }
            if (isZero(op)) {
                out.append("z:").append(zeroLength(op));
                p++;
            } else if (isXzero(op)) {
                out.append("Z:").append(xzeroLength(op, byteAt(s, s.length, p + 1)));
                p += 2;
            } else {
                out.append("v:").append(valValue(op)).append(',').append(valLength(op));
                p++;
            }
        }
        return out.toString();
    }
}
