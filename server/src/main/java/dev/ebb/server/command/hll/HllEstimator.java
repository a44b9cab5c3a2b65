package dev.ebb.server.command.hll;

import static dev.ebb.server.command.hll.Hll.HEADER_SIZE;
import static dev.ebb.server.command.hll.Hll.Q;
import static dev.ebb.server.command.hll.Hll.REGISTERS;

/**
 * Redis 7.2's cardinality estimate (hyperloglog.c {@code hllCount}): Otmar Ertl's improved
 * estimator ("New cardinality estimation algorithms for HyperLogLog sketches", arXiv:1702.01284),
 * which needs only the histogram of register values. The arithmetic is done in the same order, in
 * IEEE doubles, with the same final rounding, so a count equals Redis's for the same registers.
 *
 * <p>Cost: one pass over the registers (16384 of them, or a sparse HLL's opcodes) plus about a
 * hundred floating-point steps. Stateless; thread-safe.
 */
public final class HllEstimator {
    /** 0.5 / ln(2), the estimator's constant for an infinite number of registers. */
    private static final double ALPHA_INF = 0.721347520444481703680;
    /** Redis sizes its histogram for any 6-bit register value. */
    private static final int HISTOGRAM_SIZE = 64;

    private HllEstimator() {
    }

    /**
     * The estimated cardinality of the HLL {@code s} (dense or sparse, already checked by
     * {@link Hll#isHll}), or -1 if its sparse opcodes do not cover exactly the registers.
     */
    public static long count(byte[] s) {
        int[] histogram = new int[HISTOGRAM_SIZE];
        if (Hll.encoding(s) == Hll.DENSE) {
            denseHistogram(s, histogram);
        } else if (!sparseHistogram(s, histogram)) {
            return -1;
        }
        return estimate(histogram);
    }

    /** The estimated cardinality of {@value Hll#REGISTERS} plain byte registers (PFCOUNT of several keys). */
    public static long countRegisters(byte[] registers) {
        int[] histogram = new int[HISTOGRAM_SIZE];
        for (byte r : registers) {
            histogram[r]++;
        }
        return estimate(histogram);
    }

    /** Four registers per three bytes, least significant bits first. */
    private static void denseHistogram(byte[] s, int[] histogram) {
        for (int at = HEADER_SIZE; at < HEADER_SIZE + REGISTERS * Hll.BITS / 8; at += 3) {
            int b0 = s[at] & 0xff;
            int b1 = s[at + 1] & 0xff;
            int b2 = s[at + 2] & 0xff;
            histogram[b0 & 63]++;
            histogram[(b0 >>> 6 | b1 << 2) & 63]++;
            histogram[(b1 >>> 4 | b2 << 4) & 63]++;
            histogram[b2 >>> 2]++;
        }
    }

    /** False if the opcodes do not add up to exactly {@value Hll#REGISTERS} registers. */
    private static boolean sparseHistogram(byte[] s, int[] histogram) {
        long index = 0;
        int p = HEADER_SIZE;
        while (p < s.length) {
            int op = s[p] & 0xff;
            int run;
            if (Hll.isZero(op)) {
                run = Hll.zeroLength(op);
                histogram[0] += run;
                p++;
            } else if (Hll.isXzero(op)) {
                run = Hll.xzeroLength(op, Hll.byteAt(s, s.length, p + 1));
                histogram[0] += run;
                p += 2;
            } else {
                run = Hll.valLength(op);
                histogram[Hll.valValue(op)] += run;
                p++;
            }
            index += run;
        }
        return index == REGISTERS;
    }

    /** Redis's hllCount after the histogram. */
    static long estimate(int[] histogram) {
        double m = REGISTERS;
        double z = m * tau((m - histogram[Q + 1]) / m);
        for (int j = Q; j >= 1; --j) {
            z += histogram[j];
            z *= 0.5;
        }
        z += m * sigma(histogram[0] / m);
        double e = ALPHA_INF * m * m / z;
        // llroundl: halves away from zero (the quotient is never negative), and LLONG_MIN for what
        // a long cannot hold (z is 0 when every register is 51 or more, which only SETRANGE builds).
        return e < 0x1p63 ? Math.round(e) : Long.MIN_VALUE;
    }

    /** Ertl's sigma: x + x^2 + 2 x^4 + 4 x^8 + … summed until it stops changing. */
    private static double sigma(double x) {
        if (x == 1.0) {
            return Double.POSITIVE_INFINITY;
        }
        double zPrime;
        double y = 1;
        double z = x;
        do {
            x *= x;
            zPrime = z;
            z += x * y;
            y += y;
        } while (zPrime != z);
        return z;
    }

    /** Ertl's tau, by repeated square roots. */
    private static double tau(double x) {
        if (x == 0.0 || x == 1.0) {
            return 0.0;
        }
        double zPrime;
        double y = 1.0;
        double z = 1 - x;
        do {
            x = Math.sqrt(x);
            zPrime = z;
            y *= 0.5;
            double d = 1 - x;
            z -= d * d * y;
        } while (zPrime != z);
        return z / 3;
    }
}
