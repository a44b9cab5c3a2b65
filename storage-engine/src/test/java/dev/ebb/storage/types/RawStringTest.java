package dev.ebb.storage.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.storage.Values;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RawStringTest {
    private static final int MB = 1 << 20;

    @Test
    void greedyCapacityShouldDoubleBelowOneMegabyteAndAddOneAboveRoundedToSizeClasses() {
        assertEquals(16, RawString.greedyCapacity(2));
        assertEquals(458_752, RawString.greedyCapacity(200_000));
        assertEquals(2 * MB + MB / 2, RawString.greedyCapacity(MB + 1));
        assertEquals(640 * MB, RawString.greedyCapacity(512 * MB));
        assertEquals(RawString.MAX_LENGTH, RawString.greedyCapacity(RawString.MAX_LENGTH - 5));
    }

    @Test
    void greedyCapacityShouldCopyOnlyLogarithmicallyOftenForOneMegabyteAppends() {
        int capacity = 0;
        int copies = 0;
        for (int length = MB; length <= 512 * MB; length += MB) {
            if (length > capacity) {
                capacity = RawString.greedyCapacity(length);
                copies++;
            }
        }

        assertTrue(copies < 40, "copies: " + copies);
    }

    @Test
    void appendInPlaceShouldLeaveTheStoredBytesOfTheOldValueUnchanged() {
        RawString first = new RawString(Arrays.copyOf(new byte[] {'a', 'b'}, 16), 2);

        RawString second = first.appendInPlace(new byte[] {'c', 'd'});
        RawString third = second.extendInPlace(6).appendInPlace(new byte[] {'z'});

        assertSame(first.bytes(), third.bytes());
        assertEquals(2, first.length());
        assertArrayEquals(new byte[] {'a', 'b'}, Arrays.copyOf(first.bytes(), first.length()));
        assertArrayEquals(new byte[] {'a', 'b', 'c', 'd', 0, 0, 'z'}, Arrays.copyOf(third.bytes(), third.length()));
    }

    @Test
    void copyShouldBeExactAndShareNothing() {
        RawString value = new RawString(Arrays.copyOf(new byte[] {'x', 'y'}, 16), 2);

        RawString copy = value.copy();

        assertNotSame(value.bytes(), copy.bytes());
        assertEquals(2, copy.bytes().length);
        assertEquals(0, copy.spare());
    }

    @Test
    void memoryShouldCountTheWholeCapacity() {
        RawString value = new RawString(new byte[1000], 10);

        assertEquals(24 + Values.byteArrayBytes(1000), value.memoryBytes());
    }

    @Test
    void growingBeyondTheCapacityShouldBeRefused() {
        RawString value = new RawString(new byte[4], 3);

        assertThrows(IllegalArgumentException.class, () -> value.appendInPlace(new byte[2]));
        assertThrows(IllegalArgumentException.class, () -> value.extendInPlace(5));
        assertThrows(IllegalArgumentException.class, () -> new RawString(new byte[4], 5));
    }
}
