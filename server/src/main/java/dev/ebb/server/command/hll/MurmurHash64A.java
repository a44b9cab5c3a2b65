package dev.ebb.server.command.hll;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash2's 64-bit variant (MurmurHash64A) as Redis's HyperLogLog uses it: eight-byte blocks
 * read little-endian whatever the platform, so a given element hashes to the same value on every
 * machine and in Redis. Pure and stateless; thread-safe.
 */
public final class MurmurHash64A {
    private static final long M = 0xc6a4a7935bd1e995L;
    private static final int R = 47;
    private static final VarHandle LITTLE_ENDIAN_LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private MurmurHash64A() {
    }

    /** The hash of {@code data[offset, offset + length)}. */
    public static long hash(byte[] data, int offset, int length, long seed) {
        long h = seed ^ (length * M);
        int blocksEnd = offset + (length & ~7);
        int i = offset;
        for (; i < blocksEnd; i += Long.BYTES) {
            h = mixBlock(h, (long) LITTLE_ENDIAN_LONGS.get(data, i));
        }
        int tail = length & 7;
        if (tail > 0) {
            for (int k = tail - 1; k >= 0; k--) {
                h ^= (long) (data[i + k] & 0xff) << (8 * k);
            }
            h *= M;
        }
        return finish(h);
    }

    /** The hash of the eight bytes of {@code word} in little-endian order (as an x86 {@code uint64_t}). */
    public static long hashLong(long word, long seed) {
        return finish(mixBlock(seed ^ (Long.BYTES * M), word));
    }

    private static long mixBlock(long h, long k) {
        k *= M;
        k ^= k >>> R;
        k *= M;
        h ^= k;
        return h * M;
    }

    private static long finish(long h) {
        h ^= h >>> R;
        h *= M;
        h ^= h >>> R;
        return h;
    }
}
