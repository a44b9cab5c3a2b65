package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class KeyBytesTest {

    @Test
    void equalShouldAgreeWithArraysEqualsForEveryLengthAndEveryDifferingByte() {
        final SplittableRandom random = new SplittableRandom(9);
        for (int length = 0; length <= 70; length++) {
            final byte[] key = new byte[length];
            for (int i = 0; i < length; i++) {
                key[i] = (byte) random.nextInt(256);
            }
            final byte[] copy = key.clone();

            assertEquals(true, KeyBytes.equal(key, copy), "equal copies of length " + length);
            for (int i = 0; i < length; i++) {
                final byte[] changed = key.clone();
                changed[i] ^= (byte) (1 + random.nextInt(255));

                assertEquals(false, KeyBytes.equal(key, changed), "length " + length + ", byte " + i + " differs");
                assertEquals(false, KeyBytes.equal(changed, key), "length " + length + ", byte " + i + " differs");
            }
            final byte[] longer = Arrays.copyOf(key, length + 1);

            assertEquals(false, KeyBytes.equal(key, longer), "prefix of length " + length);
        }
    }

    @Test
    void equalRangeShouldAgreeWithArraysEqualsOfTheRange() {
        final SplittableRandom random = new SplittableRandom(5);
        final byte[] stored = new byte[90];
        for (int i = 0; i < stored.length; i++) {
            stored[i] = (byte) random.nextInt(256);
        }
        for (int from = 0; from < 6; from++) {
            for (int length = 0; from + length <= 80; length++) {
                final byte[] key = Arrays.copyOfRange(stored, from, from + length);

                assertEquals(true, KeyBytes.equalRange(stored, from, length, key), "from " + from + ", length " + length);
                assertEquals(false, KeyBytes.equalRange(stored, from, length + 1, key));
                for (int i = 0; i < length; i++) {
                    final byte[] changed = key.clone();
                    changed[i] ^= 1;

                    assertEquals(false, KeyBytes.equalRange(stored, from, length, changed));
                }
            }
        }
    }
}
