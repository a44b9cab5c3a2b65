package dev.ebb.bench.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.storage.LongDict;
import org.junit.jupiter.api.Test;

class DictSamplingBiasTest {
    private static final int SLOTS = 1 << 12;

    @Test
    void dictAtLoadShouldHoldTheRequestedKeysInExactlyTheRequestedSlots() {
        for (double load : DictSamplingBias.LOADS) {
            LongDict dict = DictSamplingBias.dictAtLoad(SLOTS, load, 5);

            assertEquals(SLOTS, dict.capacity(), "load " + load);
            assertEquals((int) Math.ceil(load * SLOTS), dict.size(), "load " + load);
            assertFalse(dict.isRehashing(), "load " + load);
        }
    }

    @Test
    void dictAtLoadShouldRejectALoadTheDictCannotRestAt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DictSamplingBias.dictAtLoad(SLOTS, 0.9, 5));

        assertEquals("load must be in [0.1, 0.75]: load=0.9", e.getMessage());
    }

    @Test
    void measureShouldReportDrawsNearUniformAndWithinTheEnginesBound() {
        LongDict dict = DictSamplingBias.dictAtLoad(SLOTS, 0.5, 5);

        String[] columns = DictSamplingBias.measure(dict, 0.5).split(",");

        assertEquals(DictSamplingBias.CSV_HEADER.split(",").length, columns.length);
        assertEquals("2048", columns[1]);
        assertEquals(String.valueOf(2048L * DictSamplingBias.DRAWS_PER_KEY), columns[2]);
        double maxRatio = Double.parseDouble(columns[3]);
        double neverDrawn = Double.parseDouble(columns[8]);
        assertTrue(maxRatio > 1 && maxRatio <= 16, "max ratio " + maxRatio);
        assertTrue(neverDrawn > 0.2 && neverDrawn < 0.6, "never drawn " + neverDrawn);
    }
}
