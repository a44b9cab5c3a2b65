package dev.ebb.storage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Keys for the dict tests: random ones, and the awkward ones (empty, 1 MB, colliding, long shared prefixes). */
final class KeyFixtures {

    static final int ONE_MEGABYTE = 1 << 20;

    private KeyFixtures() {
    }

    /**
     * Keys whose SipHash under {@code seed} has the low {@code bits} bits all set, found by brute force: in
     * every table of up to {@code 2^bits} slots they share the home slot, and it is the last slot, so their
     * cluster wraps around to slot 0.
     */
    static List<byte[]> collidingKeys(final long seed, final int count, final int bits) {
        return collidingKeys(seed, count, bits, 0);
    }

    /**
     * As {@link #collidingKeys(long, int, int)}, and also sharing the top {@code tagBits} bits of the hash,
     * all set: with 7 they have the same {@link Dict} hash tag, so only their bytes tell them apart.
     */
    static List<byte[]> collidingKeys(final long seed, final int count, final int bits, final int tagBits) {
        final SipHash hash = new SipHash(seed);
        final long mask = (1L << bits) - 1 | (tagBits == 0 ? 0 : -1L << (Long.SIZE - tagBits));
        final List<byte[]> keys = new ArrayList<>(count);
        for (long candidate = 0; keys.size() < count; candidate++) {
            final byte[] key = ascii("collide:" + candidate);
            if ((hash.hash(key) & mask) == mask) {
                keys.add(key);
            }
        }
        return keys;
    }

    /** Keys that differ only in their last bytes after a 300-byte common prefix. */
    static List<byte[]> sharedPrefixKeys(final int count) {
        final List<byte[]> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            final byte[] key = new byte[300 + i % 3];
            java.util.Arrays.fill(key, (byte) 'p');
            key[key.length - 1] = (byte) i;
            key[key.length - 2] = (byte) (i >>> 8);
            keys.add(key);
        }
        return keys;
    }

    /** Two 1 MB keys differing only in their last byte, and the empty key. */
    static List<byte[]> extremeLengthKeys() {
        final byte[] first = new byte[ONE_MEGABYTE];
        final byte[] second = new byte[ONE_MEGABYTE];
        second[ONE_MEGABYTE - 1] = 1;
        return List.of(new byte[0], first, second);
    }

    /** A random key of 0 to 40 random bytes, mostly 1 to 16. */
    static byte[] randomKey(final SplittableRandom random) {
        final int roll = random.nextInt(100);
        final int length = roll < 2 ? 0 : roll < 85 ? 1 + random.nextInt(16) : 17 + random.nextInt(24);
        final byte[] key = new byte[length];
        random.nextBytes(key);
        return key;
    }

    static byte[] ascii(final String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
