package dev.ebb.server.command;

/**
 * Longest common subsequence of two byte strings, with exactly the answer Redis's LCS gives: the
 * same subsequence when several exist, the same match ranges in the same order.
 *
 * <p>The classic dynamic programme: L(i, j), the LCS length of the first i bytes of a and the first
 * j bytes of b, is L(i-1, j-1) + 1 when a[i-1] == b[j-1], else max(L(i-1, j), L(i, j-1)). The
 * subsequence is recovered by walking back from (n, m): on equal bytes take the byte and step
 * diagonally; otherwise step up when L(i-1, j) > L(i, j-1), else left. Redis keeps the whole table
 * of 32-bit lengths for that walk, but at a cell with different bytes the walk only needs the one
 * comparison. So this class fills the table row by row keeping just two rows of lengths, and
 * records one "step up" bit per cell: n x m bits, a 32nd of Redis's memory, for the same walk and
 * the same answer. {@link #length} (LCS ... LEN) needs no walk and keeps only the two rows.
 *
 * <p>Match ranges are collected during the walk as Redis emits them: a run of diagonal steps is one
 * range, closed by the next non-diagonal step or by reaching the start of either string; ranges
 * come out from the end of the strings towards their start.
 *
 * <p>Costs: O(n x m) time; O(n x m / 8) bytes for {@link #compute}, O(m) for {@link #length}.
 * Callers bound n x m first (Redis refuses when its own table would exceed proto-max-bulk-len).
 * Instances are immutable once built; not shared between threads.
 */
final class Lcs {
    private final byte[] sequence;
    /** Per range: start and end in a, start and end in b (inclusive); {@link #rangeCount} of them. */
    private final int[] ranges;
    private final int rangeCount;

    private Lcs(byte[] sequence, int[] ranges, int rangeCount) {
        this.sequence = sequence;
        this.ranges = ranges;
        this.rangeCount = rangeCount;
    }

    /** The LCS length of {@code a} and {@code b}, in O(|b|) memory. */
    static int length(byte[] a, byte[] b) {
        return fill(a, b, null);
    }

    /** The LCS of {@code a} and {@code b} with its match ranges. */
    static Lcs compute(byte[] a, byte[] b) {
        int m = b.length;
        long[] stepUp = new long[(int) (((long) a.length * m + 63) >>> 6)];
        int length = fill(a, b, stepUp);
        byte[] sequence = new byte[length];
        int[] ranges = new int[4 * length];
        int count = 0;
        int at = length;
        int i = a.length;
        int j = m;
        int aStart = -1;
        int aEnd = 0;
        int bStart = 0;
        int bEnd = 0;
        while (i > 0 && j > 0) {
            boolean close;
            if (a[i - 1] == b[j - 1]) {
                sequence[--at] = a[i - 1];
                if (aStart < 0) {
                    aStart = i - 1;
                    aEnd = aStart;
                    bStart = j - 1;
                    bEnd = bStart;
                } else {
                    // An open range always ends at the previous diagonal step, so this extends it.
                    aStart--;
                    bStart--;
                }
                close = aStart == 0 || bStart == 0;
                i--;
                j--;
            } else {
                if (isSet(stepUp, (long) (i - 1) * m + (j - 1))) {
                    i--;
                } else {
                    j--;
                }
                close = aStart >= 0;
            }
            if (close) {
                ranges[count * 4] = aStart;
                ranges[count * 4 + 1] = aEnd;
                ranges[count * 4 + 2] = bStart;
                ranges[count * 4 + 3] = bEnd;
                count++;
                aStart = -1;
            }
        }
        return new Lcs(sequence, ranges, count);
    }

    /**
     * Fills the length table row by row and returns L(n, m); when {@code stepUp} is not null, sets
     * bit (i-1) x m + (j-1) for every cell with different bytes where L(i-1, j) > L(i, j-1).
     */
    private static int fill(byte[] a, byte[] b, long[] stepUp) {
        int m = b.length;
        int[] previous = new int[m + 1];
        int[] current = new int[m + 1];
        for (int i = 1; i <= a.length; i++) {
            byte ai = a[i - 1];
            long rowBit = (long) (i - 1) * m;
            for (int j = 1; j <= m; j++) {
                if (ai == b[j - 1]) {
                    current[j] = previous[j - 1] + 1;
                } else {
                    int up = previous[j];
                    int left = current[j - 1];
                    if (up > left) {
                        current[j] = up;
                        if (stepUp != null) {
                            long bit = rowBit + j - 1;
                            stepUp[(int) (bit >>> 6)] |= 1L << bit;
                        }
                    } else {
                        current[j] = left;
                    }
                }
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[m];
    }

    private static boolean isSet(long[] bits, long bit) {
        return (bits[(int) (bit >>> 6)] & (1L << bit)) != 0;
    }

    /** The subsequence itself. */
    byte[] sequence() {
        return sequence;
    }

    int rangeCount() {
        return rangeCount;
    }

    int aStart(int range) {
        return ranges[range * 4];
    }

    int aEnd(int range) {
        return ranges[range * 4 + 1];
    }

    int bStart(int range) {
        return ranges[range * 4 + 2];
    }

    int bEnd(int range) {
        return ranges[range * 4 + 3];
    }

    /** Bytes in a range (the same in both strings). */
    int rangeLength(int range) {
        return aEnd(range) - aStart(range) + 1;
    }
}
