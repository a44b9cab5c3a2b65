package dev.ebb.storage.zset;

/**
 * A score interval of ZRANGEBYSCORE, ZCOUNT, ZREMRANGEBYSCORE …: {@code min} and {@code max},
 * each inclusive or exclusive ({@code (1.5}). Infinite bounds are plain infinities. Immutable.
 */
public record ScoreRange(double min, boolean minExclusive, double max, boolean maxExclusive) {

    /** Whether {@code score} is at or past the lower bound. */
    public boolean gteMin(double score) {
        return minExclusive ? score > min : score >= min;
    }

    /** Whether {@code score} is at or before the upper bound. */
    public boolean lteMax(double score) {
        return maxExclusive ? score < max : score <= max;
    }

    /** Whether {@code score} lies inside the interval. */
    public boolean contains(double score) {
        return gteMin(score) && lteMax(score);
    }

    /** Whether no score can lie inside (min above max, or equal with an exclusive end). */
    public boolean isEmpty() {
        return min > max || (min == max && (minExclusive || maxExclusive));
    }
}
