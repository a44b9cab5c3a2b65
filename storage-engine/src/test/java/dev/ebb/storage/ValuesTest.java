package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ValuesTest {

    @Test
    void byteArrayShouldCostHeaderPlusLengthRoundedUpToEight() {
        assertEquals(16, Values.memoryOf(new byte[0]));
        assertEquals(24, Values.memoryOf(new byte[1]));
        assertEquals(24, Values.memoryOf(new byte[8]));
        assertEquals(32, Values.memoryOf(new byte[9]));
        assertEquals(16 + 1024, Values.memoryOf(new byte[1024]));
    }

    @Test
    void keyShouldCostTheSameAsAByteArrayValue() {
        assertEquals(Values.memoryOf(new byte[13]), Values.keyBytes(new byte[13]));
    }

    @Test
    void memoryEstimatedValueShouldReportItsOwnEstimate() {
        MemoryEstimated value = () -> 4242;

        assertEquals(4242, Values.memoryOf(value));
    }

    @Test
    void arrayBytesShouldAlignElementArrays() {
        assertEquals(16 + 8 * 8, Values.arrayBytes(8, Long.BYTES));
        assertEquals(16 + 16, Values.arrayBytes(3, Values.REFERENCE_BYTES));
    }

    @Test
    void unsupportedValueTypeShouldBeRejectedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Values.memoryOf("text"));

        assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    }

    @Test
    void storingAValueWithoutAnEstimateShouldFailBeforeChangingTheDatabase() {
        Database db = new Database(0, 1);
        long before = db.usedMemory();

        assertThrows(IllegalArgumentException.class, () -> db.setKey("k".getBytes(), 12L, 0));

        assertEquals(0, db.size());
        assertEquals(before, db.usedMemory());
    }
}
