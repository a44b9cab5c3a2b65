package dev.ebb.server.command.hll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Counts equal redis-server 7.2.4's PFCOUNT for the same registers. */
class HllEstimatorTest {
    @Test
    void countShouldEqualRedisForItsSparseAndDenseValues() {
        assertEquals(HllFixtures.SPARSE_1000_COUNT, HllEstimator.count(HllFixtures.load(HllFixtures.SPARSE_1000)));
        assertEquals(HllFixtures.DENSE_20000_COUNT, HllEstimator.count(HllFixtures.load(HllFixtures.DENSE_20000)));
    }

    @Test
    void sparseDenseAndPlainRegistersShouldCountTheSame() {
        HllSketch sketch = HllSketch.over(HllFixtures.load(HllFixtures.SPARSE_1000), 3000);
        byte[] registers = new byte[Hll.REGISTERS];
        Hll.mergeInto(registers, HllFixtures.load(HllFixtures.SPARSE_1000));

        sketch.toDense();

        assertEquals(HllFixtures.SPARSE_1000_COUNT, HllEstimator.count(sketch.toByteArray()));
        assertEquals(HllFixtures.SPARSE_1000_COUNT, HllEstimator.countRegisters(registers));
    }

    /**
     * As in Redis: counting one key walks every opcode and refuses a VAL past the last register,
     * while merging (PFMERGE, PFCOUNT of several keys) and the dense conversion stop before it.
     */
    @Test
    void aValPastTheLastRegisterShouldFailTheCountButNotTheMerge() {
        byte[] sparse = HllFixtures.load(HllFixtures.SPARSE_1000);
        byte[] extended = Arrays.copyOf(sparse, sparse.length + 1);
        extended[sparse.length] = Hll.valOpcode(1, 1);
        byte[] registers = new byte[Hll.REGISTERS];

        assertEquals(-1, HllEstimator.count(extended));
        assertTrue(Hll.mergeInto(registers, extended));
        assertEquals(HllFixtures.SPARSE_1000_COUNT, HllEstimator.countRegisters(registers));
    }

    @Test
    void anEmptyHllShouldCountZero() {
        assertEquals(0, HllEstimator.count(Hll.newSparse()));
        assertEquals(0, HllEstimator.countRegisters(new byte[Hll.REGISTERS]));
    }

    /** Redis's llroundl of an estimate a long cannot hold: what redis-server 7.2.4 replies. */
    @Test
    void registersAllAt50OrMoreShouldCountAsRedisDoesLongMin() {
        byte[] registers = new byte[Hll.REGISTERS];
        Arrays.fill(registers, (byte) 50);

        assertEquals(Long.MIN_VALUE, HllEstimator.countRegisters(registers));
    }

    @Test
    void aSparseBodyNotCoveringExactlyTheRegistersShouldBeRefused() {
        byte[] sparse = HllFixtures.load(HllFixtures.SPARSE_1000);

        assertEquals(-1, HllEstimator.count(Arrays.copyOf(sparse, sparse.length - 1)));
        assertEquals(-1, HllEstimator.count(Arrays.copyOf(sparse, sparse.length + 1)));
    }
}
