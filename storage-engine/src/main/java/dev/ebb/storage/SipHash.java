package dev.ebb.storage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * SipHash-1-2 (one compression round per 8-byte block, two finalization rounds) over a {@code byte[]}
 * with a 128-bit secret key, the keyed hash Redis uses for its dicts.
 *
 * <p>A keyed hash makes the bucket of a key unpredictable to anyone who does not know the key, so a client
 * cannot craft many keys that collide and turn O(1) look-ups into O(n) scans (hash flooding). The key is
 * derived from a 64-bit seed, so tests are reproducible while a server seeds it randomly at start-up.
 *
 * <p>Cost: one round per 8 input bytes plus three, reading the input eight bytes at a time as little-endian
 * longs (and the tail in at most three reads); allocates nothing. Instances are immutable and thread-safe.
 */
final class SipHash {

    private static final VarHandle LONG_LE =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
        MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** The SplitMix64 increment, 2^64 divided by the golden ratio. */
    static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    /** Finalization rounds, the "2" of SipHash-1-2; the compression uses one round per block. */
    private static final int FINAL_ROUNDS = 2;

    private final long k0;
    private final long k1;

    /**
     * Derives the 128-bit key from {@code seed} with two SplitMix64 steps, so nearby seeds give unrelated keys.
     *
     * @param seed any value; equal seeds give equal hash functions
     */
    SipHash(final long seed) {
        this(splitMix64(seed), splitMix64(seed + GOLDEN_GAMMA));
    }

    /**
     * Uses the given key halves directly (the reference test vectors are stated this way).
     *
     * @param k0 the first 64 bits of the key, little-endian
     * @param k1 the last 64 bits of the key, little-endian
     */
    SipHash(final long k0, final long k1) {
        this.k0 = k0;
        this.k1 = k1;
    }

    /**
     * Hashes the whole array.
     *
     * @param data the bytes to hash, any length including zero
     * @return the 64-bit SipHash-1-2 of {@code data}
     */
    long hash(final byte[] data) {
        return hash(data, 0, data.length);
    }

    /**
     * Hashes {@code data[from, from + length)}, reading nothing outside it: equal to {@link #hash(byte[])}
     * of a copy of the range (the large hash encoding keys its packed entries by a range this way).
     *
     * @param data   the array holding the bytes
     * @param from   the first byte of the range
     * @param length the number of bytes, zero or more
     * @return the 64-bit SipHash-1-2 of the range
     */
    long hash(final byte[] data, final int from, final int length) {
        long v0 = k0 ^ 0x736f6d6570736575L;
        long v1 = k1 ^ 0x646f72616e646f6dL;
        long v2 = k0 ^ 0x6c7967656e657261L;
        long v3 = k1 ^ 0x7465646279746573L;
        final int blockEnd = from + (length & ~7);
        // One round per full block, then one for the tail block (the last 0..7 bytes with the length in its
        // top byte); the finalization (finish) follows with v2 xored with 0xff first. The loop body is the
        // round; the tail block is its last iteration's word.
        final long tail = tailBlock(data, from, blockEnd, length);
        for (int offset = from; ; offset += Long.BYTES) {
            final long m = offset < blockEnd ? (long) LONG_LE.get(data, offset) : tail;
            v3 ^= m;
            v0 += v1;
            v1 = Long.rotateLeft(v1, 13);
            v1 ^= v0;
            v0 = Long.rotateLeft(v0, 32);
            v2 += v3;
            v3 = Long.rotateLeft(v3, 16);
            v3 ^= v2;
            v0 += v3;
            v3 = Long.rotateLeft(v3, 21);
            v3 ^= v0;
            v2 += v1;
            v1 = Long.rotateLeft(v1, 17);
            v1 ^= v2;
            v2 = Long.rotateLeft(v2, 32);
            v0 ^= m;
            if (offset >= blockEnd) {
                break;
            }
        }
        return finish(v0, v1, v2 ^ 0xffL, v3);
    }

    /**
     * The finalization's {@link #FINAL_ROUNDS} rounds and the xor of the state. A method of its own so that
     * {@link #hash} stays under C2's inlining limit for hot methods ({@code FreqInlineSize}, 325 bytes of
     * bytecode): with these rounds written out in it, it was 352 bytes and every look-up paid for a call.
     */
    private static long finish(long v0, long v1, long v2, long v3) {
        for (int round = 0; round < FINAL_ROUNDS; round++) {
            v0 += v1;
            v1 = Long.rotateLeft(v1, 13);
            v1 ^= v0;
            v0 = Long.rotateLeft(v0, 32);
            v2 += v3;
            v3 = Long.rotateLeft(v3, 16);
            v3 ^= v2;
            v0 += v3;
            v3 = Long.rotateLeft(v3, 21);
            v3 ^= v0;
            v2 += v1;
            v1 = Long.rotateLeft(v1, 17);
            v1 ^= v2;
            v2 = Long.rotateLeft(v2, 32);
        }
        return v0 ^ v1 ^ v2 ^ v3;
    }

    /**
     * The last 0..7 bytes of the range, little-endian, with its length (mod 256) in the most significant
     * byte. Reads whole words rather than single bytes: one 8-byte read when the range has a full block
     * before the tail, else two possibly overlapping 4-byte reads (4 to 7 bytes) or three single ones (1 to 3).
     */
    private static long tailBlock(final byte[] data, final int from, final int blockEnd, final int length) {
        final int end = from + length;
        final int tailBytes = end - blockEnd;
        final long lengthByte = ((long) length) << 56;
        if (tailBytes == 0) {
            return lengthByte;
        }
        if (blockEnd > from) {
            // The last eight bytes; the shift drops those that belonged to the previous block.
            return lengthByte | ((long) LONG_LE.get(data, end - Long.BYTES) >>> ((Long.BYTES - tailBytes) << 3));
        }
        if (length >= Integer.BYTES) {
            // Bytes 0..3 and length-4..length-1; where they overlap both reads put the same byte in place.
            final long low = (int) INT_LE.get(data, from) & 0xffffffffL;
            final long high = (int) INT_LE.get(data, end - Integer.BYTES) & 0xffffffffL;
            return lengthByte | low | high << ((length - Integer.BYTES) << 3);
        }
        // One to three bytes: the first, the middle and the last (some of them the same byte).
        final int middle = length >>> 1;
        return lengthByte | (data[from] & 0xffL) | (data[from + middle] & 0xffL) << (middle << 3)
            | (data[end - 1] & 0xffL) << ((length - 1) << 3);
    }

    /**
     * One SplitMix64 output for state {@code x}: a bijective 64-bit mixer (Steele, Lea, Flood 2014).
     *
     * @param x the state
     * @return the mixed value
     */
    static long splitMix64(final long x) {
        long z = x + GOLDEN_GAMMA;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
