package dev.ebb.storage.zset;

import java.util.Arrays;

/**
 * A member interval of ZRANGEBYLEX, ZLEXCOUNT, ZREMRANGEBYLEX: each bound is {@code -} (below every
 * member), {@code +} (above every member), or a byte string, inclusive ({@code [a}) or exclusive
 * ({@code (a}). Members compare as unsigned bytes, as Redis's memcmp. Immutable.
 */
public final class LexRange {
    private static final int MINUS = -1;
    private static final int PLUS = 1;
    private static final int VALUE = 0;

    private final int minKind;
    private final byte[] min;
    private final boolean minExclusive;
    private final int maxKind;
    private final byte[] max;
    private final boolean maxExclusive;

    private LexRange(int minKind, byte[] min, boolean minExclusive, int maxKind, byte[] max, boolean maxExclusive) {
        this.minKind = minKind;
        this.min = min;
        this.minExclusive = minExclusive;
        this.maxKind = maxKind;
        this.max = max;
        this.maxExclusive = maxExclusive;
    }

    /**
     * Parses Redis's bound syntax: {@code -}, {@code +}, {@code [value} or {@code (value}.
     *
     * @return the range, or null if either bound has another form
     */
    public static LexRange parse(byte[] min, byte[] max) {
        int minKind = kind(min);
        int maxKind = kind(max);
        if (minKind == Integer.MIN_VALUE || maxKind == Integer.MIN_VALUE) {
            return null;
        }
        return new LexRange(minKind, value(min, minKind), minKind == VALUE && min[0] == '(',
                maxKind, value(max, maxKind), maxKind == VALUE && max[0] == '(');
    }

    private static int kind(byte[] bound) {
        if (bound.length == 1 && bound[0] == '-') {
            return MINUS;
        }
        if (bound.length == 1 && bound[0] == '+') {
            return PLUS;
        }
        if (bound.length >= 1 && (bound[0] == '[' || bound[0] == '(')) {
            return VALUE;
        }
        return Integer.MIN_VALUE;
    }

    private static byte[] value(byte[] bound, int kind) {
        return kind == VALUE ? Arrays.copyOfRange(bound, 1, bound.length) : null;
    }

    /** Whether {@code member} is at or past the lower bound. */
    public boolean gteMin(byte[] member) {
        if (minKind != VALUE) {
            return minKind == MINUS;
        }
        int cmp = Arrays.compareUnsigned(member, min);
        return minExclusive ? cmp > 0 : cmp >= 0;
    }

    /** Whether {@code member} is at or before the upper bound. */
    public boolean lteMax(byte[] member) {
        if (maxKind != VALUE) {
            return maxKind == PLUS;
        }
        int cmp = Arrays.compareUnsigned(member, max);
        return maxExclusive ? cmp < 0 : cmp <= 0;
    }

    /** Whether {@code member} lies inside the interval. */
    public boolean contains(byte[] member) {
        return gteMin(member) && lteMax(member);
    }

    /** Whether no member can lie inside. */
    public boolean isEmpty() {
        if (minKind == PLUS || maxKind == MINUS) {
            return true;
        }
        if (minKind == MINUS || maxKind == PLUS) {
            return false;
        }
        int cmp = Arrays.compareUnsigned(min, max);
        return cmp > 0 || (cmp == 0 && (minExclusive || maxExclusive));
    }
}
