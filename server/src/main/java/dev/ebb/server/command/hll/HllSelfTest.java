package dev.ebb.server.command.hll;

import java.util.SplittableRandom;

/**
 * PFSELFTEST, Redis's self-test of the HLL code, with its two checks:
 * <ol>
 *   <li>Register access: 1000 times, every dense register is set to a random 6-bit value and read
 *       back, so a register that leaks into its neighbours is found.</li>
 *   <li>Estimates: ten million distinct 8-byte elements are added to a dense and to a sparse HLL
 *       at once; at 1, 10, 100 … 10^7 elements the sparse one must still be sparse while small,
 *       both must count the same, and the error must be within six standard errors (1 for 10).</li>
 * </ol>
 * It takes about a second of the command loop, as it takes Redis's main thread. Stateless;
 * thread-safe.
 */
public final class HllSelfTest {
    private static final int REGISTER_CYCLES = 1000;
    private static final int ELEMENTS = 10_000_000;

    private HllSelfTest() {
    }

    /**
     * Runs both checks; null if they pass, else the failure as Redis words it (without the
     * {@code ERR } prefix Redis's error reply adds).
     */
    public static String run(long sparseMaxBytes, SplittableRandom random) {
        String failure = checkRegisters(random);
        return failure != null ? failure : checkEstimates(sparseMaxBytes, random.nextLong());
    }

    private static String checkRegisters(SplittableRandom random) {
        byte[] dense = new byte[Hll.DENSE_SIZE];
        byte[] expected = new byte[Hll.REGISTERS];
        for (int cycle = 0; cycle < REGISTER_CYCLES; cycle++) {
            for (int i = 0; i < Hll.REGISTERS; i++) {
                int r = random.nextInt(Hll.REGISTER_MAX + 1);
                expected[i] = (byte) r;
                Hll.setDenseRegister(dense, i, r);
            }
            for (int i = 0; i < Hll.REGISTERS; i++) {
                int value = Hll.denseRegister(dense, i);
                if (value != expected[i]) {
                    return "TESTFAILED Register " + i + " should be " + expected[i] + " but is " + value;
                }
            }
        }
        return null;
    }

    private static String checkEstimates(long sparseMaxBytes, long seed) {
        HllSketch dense = HllSketch.create(Long.MAX_VALUE);
        dense.toDense();
        HllSketch sparse = HllSketch.create(sparseMaxBytes);
        double relativeError = 1.04 / Math.sqrt(Hll.REGISTERS);
        long checkpoint = 1;
        for (long j = 1; j <= ELEMENTS; j++) {
            long element = j ^ seed;
            dense.addLong(element);
            sparse.addLong(element);
            if (j != checkpoint) {
                continue;
            }
            if (j < sparseMaxBytes / 2 && sparse.encoding() != Hll.SPARSE) {
                return "TESTFAILED sparse encoding not used";
            }
            long denseCount = HllEstimator.count(dense.toByteArray());
            if (denseCount != HllEstimator.count(sparse.toByteArray())) {
                return "TESTFAILED dense/sparse disagree";
            }
            long maxError = j == 10 ? 1 : (long) Math.ceil(relativeError * 6 * checkpoint);
            long error = Math.abs(checkpoint - denseCount);
            if (error > maxError) {
                return "TESTFAILED Too big error. card:" + checkpoint + " abserr:" + error;
            }
            checkpoint *= 10;
        }
        return null;
    }
}
