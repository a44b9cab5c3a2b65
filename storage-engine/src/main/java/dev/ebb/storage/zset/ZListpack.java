package dev.ebb.storage.zset;

import dev.ebb.storage.Values;
import java.util.Arrays;

/**
 * The small sorted set ("listpack" in OBJECT ENCODING): members and scores in two parallel
 * arrays sorted by (score, member), members comparing as unsigned bytes on equal scores. No
 * object per member besides its byte array, no hash: Redis's listpack trades the same way.
 *
 * <p>Costs: find a member O(n) (a scan, as in Redis); insert and delete O(n) (an array move);
 * by rank O(1); first/last in a score range O(log n) (binary search); lex ranges O(n). The
 * arrays grow by half and never shrink; n is at most {@code zset-max-listpack-entries} (128 by
 * default), beyond which {@link SortedSet} converts to {@link ZSkipList}. Not thread-safe.
 */
final class ZListpack {
    private static final int INITIAL_CAPACITY = 4;
    private static final long OBJECT_BYTES = 32;

    private byte[][] members;
    private double[] scores;
    private int size;
    private long memberBytes;

    ZListpack(int capacity) {
        int c = Math.max(capacity, INITIAL_CAPACITY);
        members = new byte[c][];
        scores = new double[c];
    }

    int size() {
        return size;
    }

    byte[] memberAt(int i) {
        return members[i];
    }

    double scoreAt(int i) {
        return scores[i];
    }

    long memoryBytes() {
        return OBJECT_BYTES + Values.arrayBytes(members.length, Values.REFERENCE_BYTES)
                + Values.arrayBytes(scores.length, 8) + memberBytes;
    }

    /** Index of {@code member}, or -1. O(n). */
    int indexOf(byte[] member) {
        for (int i = 0; i < size; i++) {
            if (Arrays.equals(members[i], member)) {
                return i;
            }
        }
        return -1;
    }

    /** Index where (score, member) belongs: the first entry that sorts after it. O(log n). */
    private int insertionPoint(double score, byte[] member) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            double s = scores[mid];
            if (s < score || (s == score && Arrays.compareUnsigned(members[mid], member) < 0)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Inserts a member known to be absent, in order. O(n). */
    void insert(byte[] member, double score) {
        int at = insertionPoint(score, member);
        if (size == members.length) {
            int c = size + (size >> 1) + 1;
            members = Arrays.copyOf(members, c);
            scores = Arrays.copyOf(scores, c);
        }
        System.arraycopy(members, at, members, at + 1, size - at);
        System.arraycopy(scores, at, scores, at + 1, size - at);
        members[at] = member;
        scores[at] = score;
        size++;
        memberBytes += Values.byteArrayBytes(member.length);
    }

    /** Removes entries {@code from..to-1}. O(n). */
    void removeRange(int from, int to) {
        for (int i = from; i < to; i++) {
            memberBytes -= Values.byteArrayBytes(members[i].length);
        }
        System.arraycopy(members, to, members, from, size - to);
        System.arraycopy(scores, to, scores, from, size - to);
        int newSize = size - (to - from);
        Arrays.fill(members, newSize, size, null);
        size = newSize;
    }

    /** Changes the score of the entry at {@code i}, moving it to keep the order. O(n). */
    void updateScore(int i, double score) {
        byte[] member = members[i];
        removeRange(i, i + 1);
        insert(member, score);
    }

    /** Index of the first entry with a score at or past the range's minimum. O(log n). */
    int lowerBound(ScoreRange range) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (range.gteMin(scores[mid])) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** Index after the last entry with a score at or before the range's maximum. O(log n). */
    int upperBound(ScoreRange range) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (range.lteMax(scores[mid])) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Index of the first entry at or past the lex minimum (scan from the head). O(n). */
    int lexLowerBound(LexRange range) {
        int i = 0;
        while (i < size && !range.gteMin(members[i])) {
            i++;
        }
        return i;
    }

    /** Index after the last entry at or before the lex maximum, from {@code from}. O(n). */
    int lexUpperBound(LexRange range, int from) {
        int i = from;
        while (i < size && range.lteMax(members[i])) {
            i++;
        }
        return i;
    }
}
