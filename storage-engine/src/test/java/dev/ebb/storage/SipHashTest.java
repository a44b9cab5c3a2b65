package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

final class SipHashTest {

    /** Key bytes 00..0f as the reference vectors state it. */
    private static final SipHash REFERENCE_KEY = new SipHash(0x0706050403020100L, 0x0f0e0d0c0b0a0908L);

    /**
     * Expected SipHash-1-2 outputs for messages 00, 01, ... of the given lengths under key 00..0f, computed
     * with an independent C transcription of the reference algorithm (c = 1, d = 2) that reproduces the
     * published SipHash-2-4 vectors when run with c = 2, d = 4.
     */
    private static final int[] LENGTHS = {0, 1, 7, 8, 9, 15, 16, 17, 63};
    private static final long[] EXPECTED = {
        0xcea28b51565c12e2L, 0x94aaf38c34ce7ba6L, 0xf03c4cbcf492b05aL, 0x606845b4d093af74L, 0xe304e78271c74a56L,
        0xec8f61bc1c8966a6L, 0x1311f4dfe747a751L, 0x899c7b292c85339cL, 0xff6d07afacbad6d9L,
    };

    @Test
    void hashShouldMatchReferenceVectorsAtEveryTailLength() {
        for (int i = 0; i < LENGTHS.length; i++) {
            final byte[] message = new byte[LENGTHS[i]];
            for (int b = 0; b < message.length; b++) {
                message[b] = (byte) b;
            }

            final long hash = REFERENCE_KEY.hash(message);

            assertEquals(EXPECTED[i], hash, "length " + LENGTHS[i]);
        }
    }

    @Test
    void equalSeedsShouldGiveEqualHashesAndDifferentSeedsDifferentOnes() {
        final byte[] key = "user:1000".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

        final long first = new SipHash(42).hash(key);
        final long again = new SipHash(42).hash(key);
        final long otherSeed = new SipHash(43).hash(key);

        assertEquals(first, again);
        assertNotEquals(first, otherSeed);
    }
}
