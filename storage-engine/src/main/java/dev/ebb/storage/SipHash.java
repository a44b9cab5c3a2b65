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
 * longs; allocates nothing. Instances are immutable and thread-safe.
 */
final class SipHash {

    private static final VarHandle LONG_LE =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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
        long v0 = k0 ^ 0x736f6d6570736575L;
        long v1 = k1 ^ 0x646f72616e646f6dL;
        long v2 = k0 ^ 0x6c7967656e657261L;
        long v3 = k1 ^ 0x7465646279746573L;
        final int length = data.length;
        final int fullBlocks = length >>> 3;
        final long tail = tailBlock(data, fullBlocks << 3, length);
        // Words 0..fullBlocks-1 come from the input, word fullBlocks is the tail with the length in its top
        // byte, and the FINAL_ROUNDS rounds after it compress zero words (a no-op xor), v2 having been xored
        // with 0xff before the first: one round body serves compression and finalization alike, and the
        // word is chosen by selects rather than branches.
        final int rounds = fullBlocks + 1 + FINAL_ROUNDS;
        for (int round = 0; round < rounds; round++) {
            final long m = round < fullBlocks ? (long) LONG_LE.get(data, round << 3) : round == fullBlocks ? tail : 0L;
            v2 ^= round == fullBlocks + 1 ? 0xffL : 0L;
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
        }
        return v0 ^ v1 ^ v2 ^ v3;
    }

    /** The last 0..7 bytes, little-endian, with the input length (mod 256) in the most significant byte. */
    private static long tailBlock(final byte[] data, final int from, final int length) {
        final int tailBytes = length - from;
        final long lengthByte = ((long) length) << 56;
        if (tailBytes == 0) {
            return lengthByte;
        }
        if (length >= Long.BYTES) {
            // One read of the last eight bytes; the shift drops those that belonged to the previous block.
            return lengthByte | ((long) LONG_LE.get(data, length - Long.BYTES) >>> ((Long.BYTES - tailBytes) << 3));
        }
        long block = lengthByte;
        for (int i = length - 1; i >= from; i--) {
            block |= (data[i] & 0xffL) << ((i - from) << 3);
        }
        return block;
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
