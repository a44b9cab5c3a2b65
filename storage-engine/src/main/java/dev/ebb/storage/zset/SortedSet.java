package dev.ebb.storage.zset;

import dev.ebb.storage.Dict;
import dev.ebb.storage.MemoryEstimated;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A sorted set value: members ({@code byte[]}, binary safe) ordered by a double score, ties broken
 * by the members' unsigned bytes, as Redis's zset.
 *
 * <p><b>Encodings.</b> A set starts as a {@link ZListpack} (two sorted parallel arrays, reported as
 * {@code listpack}) and converts once, for good, to a {@link ZSkipList} plus a {@link Dict} from
 * member to skiplist node (reported as {@code skiplist}) when an insert would pass
 * {@code zset-max-listpack-entries} members or brings a member longer than
 * {@code zset-max-listpack-value} bytes; the thresholds are arguments of {@link #add}, so CONFIG
 * SET applies to the next write. As in Redis, removals never convert back; {@link #create} picks
 * the encoding of a new set from the size it will have (ZUNIONSTORE and friends).
 *
 * <p><b>Costs</b> (n members). Listpack: score look-up, add, remove O(n); ranks O(1) once found;
 * n is small by construction. Skiplist: score look-up O(1) (the dict), add, remove, rank,
 * element at rank, range start O(log n) expected; range walks O(1) a member.
 * {@link #memoryBytes()} is O(1).
 *
 * <p><b>Scores</b> are never NaN; {@link #score} answers NaN for "absent". The listpack stores
 * -0 as 0 ({@code x + 0.0}), as Redis's listpack does; the skiplist keeps -0, as Redis's does.
 *
 * <p>Not thread-safe: a value belongs to the command loop thread. Member arrays handed in are
 * stored as they are: callers must not modify them afterwards.
 */
public final class SortedSet implements MemoryEstimated {
    /** {@link #add} flag: only add new members. */
    public static final int NX = 1;
    /** {@link #add} flag: only update existing members. */
    public static final int XX = 1 << 1;
    /** {@link #add} flag: update only to a greater score. */
    public static final int GT = 1 << 2;
    /** {@link #add} flag: update only to a lesser score. */
    public static final int LT = 1 << 3;
    /** {@link #add} flag: the score is an increment of the current one (0 for a new member). */
    public static final int INCR = 1 << 4;

    /** {@link #add} result: NX, XX, GT or LT ruled the change out; nothing changed. */
    public static final int NOP = 0;
    /** {@link #add} result: the member was added. */
    public static final int ADDED = 1;
    /** {@link #add} result: the member's score changed. */
    public static final int UPDATED = 2;
    /** {@link #add} result: the increment would give NaN; nothing changed. */
    public static final int NAN = 3;
    /** {@link #add} result: the member exists and already has the resulting score. */
    public static final int UNCHANGED = 4;

    private static final long OBJECT_BYTES = 32;
    /** The Dict object and its fields, beside the slot arrays its memoryBytes() counts. */
    private static final long DICT_OBJECT_BYTES = 72;

    private ZListpack listpack;
    private ZSkipList skiplist;
    private Dict<ZSkipList.Node> dict;
    private double addedScore;
    private final ZEntryVisitor dictRemover = (member, score) -> dict.remove(member);

    private SortedSet(boolean large, int capacity) {
        if (large) {
            skiplist = new ZSkipList();
            dict = new Dict<>(ThreadLocalRandom.current().nextLong());
        } else {
            listpack = new ZListpack(capacity);
        }
    }

    /**
     * An empty set in the encoding fit for {@code sizeHint} members of at most
     * {@code maxMemberLength} bytes under the given thresholds (Redis's zsetTypeCreate).
     */
    public static SortedSet create(long sizeHint, long maxMemberLength, long maxListpackEntries,
            long maxListpackValue) {
        boolean large = sizeHint > maxListpackEntries || maxMemberLength > maxListpackValue;
        return new SortedSet(large, (int) Math.min(Math.max(sizeHint, 0), maxListpackEntries));
    }

    /** {@code listpack} or {@code skiplist}, as OBJECT ENCODING reports it. */
    public String encoding() {
        return listpack != null ? "listpack" : "skiplist";
    }

    public int size() {
        return listpack != null ? listpack.size() : skiplist.length();
    }

    @Override
    public long memoryBytes() {
        if (listpack != null) {
            return OBJECT_BYTES + listpack.memoryBytes();
        }
        return OBJECT_BYTES + skiplist.memoryBytes() + DICT_OBJECT_BYTES + dict.memoryBytes();
    }

    /** {@code member}'s score, or NaN if it is absent. O(1) large, O(n) small. */
    public double score(byte[] member) {
        if (listpack != null) {
            int i = listpack.indexOf(member);
            return i < 0 ? Double.NaN : listpack.scoreAt(i);
        }
        ZSkipList.Node node = dict.get(member);
        return node == null ? Double.NaN : node.score;
    }

    /**
     * Redis's zsetAdd: adds {@code member} or updates its score under the {@link #NX} …
     * {@link #INCR} flags (the caller has rejected incompatible combinations). Converts to the
     * large encoding first if the insert would pass a threshold. The score after the call (for
     * INCR's reply) is then {@link #addedScore()}.
     *
     * @param score the score, or the increment with {@link #INCR}; not NaN
     * @return {@link #ADDED}, {@link #UPDATED}, {@link #UNCHANGED}, {@link #NOP} or {@link #NAN}
     */
    public int add(byte[] member, double score, int flags, long maxListpackEntries, long maxListpackValue) {
        // one look-up serves both the test and the update
        int index = -1;
        ZSkipList.Node node = null;
        double current;
        if (listpack != null) {
            index = listpack.indexOf(member);
            current = index < 0 ? Double.NaN : listpack.scoreAt(index);
        } else {
            node = dict.get(member);
            current = node == null ? Double.NaN : node.score;
        }
        if (!Double.isNaN(current)) {
            if ((flags & NX) != 0) {
                addedScore = current;
                return NOP;
            }
            double updated = score;
            if ((flags & INCR) != 0) {
                updated = current + score;
                if (Double.isNaN(updated)) {
                    return NAN;
                }
            }
            if (((flags & LT) != 0 && updated >= current) || ((flags & GT) != 0 && updated <= current)) {
                addedScore = current;
                return NOP;
            }
            addedScore = updated;
            if (updated == current) {
                return UNCHANGED;
            }
            if (listpack != null) {
                listpack.updateScore(index, updated + 0.0);
            } else {
                skiplist.updateScore(node, updated);
            }
            return UPDATED;
        }
        if ((flags & XX) != 0) {
            return NOP;
        }
        if (listpack != null && (listpack.size() + 1 > maxListpackEntries || member.length > maxListpackValue)) {
            convertToSkiplist();
        }
        insert(member, score);
        addedScore = score;
        return ADDED;
    }

    /** The score {@link #add} left the member with (unchanged one for NX/GT/LT no-ops). */
    public double addedScore() {
        return addedScore;
    }

    private void insert(byte[] member, double score) {
        if (listpack != null) {
            listpack.insert(member, score + 0.0);
        } else {
            dict.put(member, skiplist.insert(score, member));
        }
    }

    /**
     * Converts a listpack set to the skiplist encoding now, for good (Redis's SORT does this to
     * every sorted set it sorts); nothing if it already is one. O(n log n).
     */
    public void toSkiplistEncoding() {
        if (listpack != null) {
            convertToSkiplist();
        }
    }

    private void convertToSkiplist() {
        ZListpack small = listpack;
        listpack = null;
        skiplist = new ZSkipList();
        dict = new Dict<>(ThreadLocalRandom.current().nextLong());
        for (int i = 0, n = small.size(); i < n; i++) {
            insert(small.memberAt(i), small.scoreAt(i));
        }
    }

    /** Removes {@code member}; whether it was present. */
    public boolean remove(byte[] member) {
        if (listpack != null) {
            int i = listpack.indexOf(member);
            if (i < 0) {
                return false;
            }
            listpack.removeRange(i, i + 1);
            return true;
        }
        ZSkipList.Node node = dict.remove(member);
        if (node == null) {
            return false;
        }
        skiplist.delete(node);
        return true;
    }

    /** 0-based rank of {@code member}, from the highest score if {@code reverse}; -1 if absent. */
    public long rank(byte[] member, boolean reverse) {
        long rank;
        if (listpack != null) {
            rank = listpack.indexOf(member);
            if (rank < 0) {
                return -1;
            }
        } else {
            ZSkipList.Node node = dict.get(member);
            if (node == null) {
                return -1;
            }
            rank = skiplist.rank(node.score, member) - 1;
        }
        return reverse ? size() - 1 - rank : rank;
    }

    /**
     * Visits ranks {@code start..end} (0-based, inclusive, {@code 0 <= start <= end < size()}),
     * counted from the highest score if {@code reverse}, in that order.
     */
    public void visitRange(long start, long end, boolean reverse, ZEntryVisitor visitor) {
        checkRanks(start, end);
        long count = end - start + 1;
        if (listpack != null) {
            for (long k = 0; k < count; k++) {
                int i = (int) (reverse ? size() - 1 - start - k : start + k);
                visitor.visit(listpack.memberAt(i), listpack.scoreAt(i));
            }
            return;
        }
        ZSkipList.Node node = skiplist.byRank(reverse ? size() - start : start + 1);
        for (long k = 0; k < count; k++) {
            visitor.visit(node.member, node.score);
            node = reverse ? node.backward : node.next0;
        }
    }

    private void checkRanks(long start, long end) {
        if (start < 0 || start > end || end >= size()) {
            throw new IndexOutOfBoundsException("rank range out of bounds: start=" + start + ", end=" + end
                    + ", size=" + size());
        }
    }

    /** The member at 0-based {@code rank} (ascending), with its score. */
    public void visitAt(long rank, ZEntryVisitor visitor) {
        visitRange(rank, rank, false, visitor);
    }

    /** Visits every member in ascending order. */
    public void forEach(ZEntryVisitor visitor) {
        if (size() > 0) {
            visitRange(0, size() - 1, false, visitor);
        }
    }

    /**
     * Visits the members inside {@code range} in ascending order (descending if {@code reverse}),
     * skipping the first {@code offset} and stopping after {@code limit} (negative: no limit).
     *
     * @return the number visited
     */
    public long visitScoreRange(ScoreRange range, boolean reverse, long offset, long limit, ZEntryVisitor visitor) {
        if (listpack != null) {
            return visitIndexes(listpack.lowerBound(range), listpack.upperBound(range), reverse, offset, limit,
                    visitor);
        }
        ZSkipList.Node first = skiplist.firstInRange(range);
        if (first == null) {
            return 0;
        }
        ZSkipList.Node last = skiplist.lastInRange(range);
        return visitNodes(first, last, reverse, offset, limit, visitor);
    }

    /** As {@link #visitScoreRange} for a lex range (meaningful when all scores are equal). */
    public long visitLexRange(LexRange range, boolean reverse, long offset, long limit, ZEntryVisitor visitor) {
        if (listpack != null) {
            if (range.isEmpty()) {
                return 0;
            }
            int lo = listpack.lexLowerBound(range);
            return visitIndexes(lo, listpack.lexUpperBound(range, lo), reverse, offset, limit, visitor);
        }
        ZSkipList.Node first = skiplist.firstInLex(range);
        if (first == null) {
            return 0;
        }
        ZSkipList.Node last = skiplist.lastInLex(range);
        return visitNodes(first, last, reverse, offset, limit, visitor);
    }

    private long visitIndexes(int lo, int hi, boolean reverse, long offset, long limit, ZEntryVisitor visitor) {
        long available = Math.max(0, hi - lo - offset);
        long n = limit < 0 ? available : Math.min(available, limit);
        for (long k = 0; k < n; k++) {
            int i = (int) (reverse ? hi - 1 - offset - k : lo + offset + k);
            visitor.visit(listpack.memberAt(i), listpack.scoreAt(i));
        }
        return n;
    }

    private long visitNodes(ZSkipList.Node first, ZSkipList.Node last, boolean reverse, long offset, long limit,
            ZEntryVisitor visitor) {
        if (last == null) {
            return 0;
        }
        long firstRank = skiplist.rank(first.score, first.member);
        long lastRank = skiplist.rank(last.score, last.member);
        long available = Math.max(0, lastRank - firstRank + 1 - offset);
        long n = limit < 0 ? available : Math.min(available, limit);
        if (n == 0) {
            return 0;
        }
        ZSkipList.Node node = skiplist.byRank(reverse ? lastRank - offset : firstRank + offset);
        for (long k = 0; k < n; k++) {
            visitor.visit(node.member, node.score);
            node = reverse ? node.backward : node.next0;
        }
        return n;
    }

    /** Members inside {@code range} (ZCOUNT). O(log n) large. */
    public long count(ScoreRange range) {
        if (listpack != null) {
            return Math.max(0, listpack.upperBound(range) - listpack.lowerBound(range));
        }
        ZSkipList.Node first = skiplist.firstInRange(range);
        return first == null ? 0 : rankSpan(first, skiplist.lastInRange(range));
    }

    /** Members inside the lex {@code range} (ZLEXCOUNT). O(log n) large, O(n) small. */
    public long lexCount(LexRange range) {
        if (listpack != null) {
            if (range.isEmpty()) {
                return 0;
            }
            int lo = listpack.lexLowerBound(range);
            return listpack.lexUpperBound(range, lo) - lo;
        }
        ZSkipList.Node first = skiplist.firstInLex(range);
        return first == null ? 0 : rankSpan(first, skiplist.lastInLex(range));
    }

    private long rankSpan(ZSkipList.Node first, ZSkipList.Node last) {
        if (last == null) {
            return 0;
        }
        return Math.max(0, skiplist.rank(last.score, last.member) - skiplist.rank(first.score, first.member) + 1);
    }

    /** Removes ranks {@code start..end} (0-based ascending, inclusive, within bounds). */
    public long removeRangeByRank(long start, long end) {
        checkRanks(start, end);
        if (listpack != null) {
            listpack.removeRange((int) start, (int) end + 1);
            return end - start + 1;
        }
        return skiplist.deleteRangeByRank(start + 1, end + 1, dictRemover);
    }

    /** Removes the members inside {@code range}; how many. */
    public long removeRangeByScore(ScoreRange range) {
        if (listpack != null) {
            int lo = listpack.lowerBound(range);
            int hi = listpack.upperBound(range);
            if (hi <= lo) {
                return 0;
            }
            listpack.removeRange(lo, hi);
            return hi - lo;
        }
        return skiplist.deleteRangeByScore(range, dictRemover);
    }

    /** Removes the members inside the lex {@code range}; how many. */
    public long removeRangeByLex(LexRange range) {
        if (listpack != null) {
            if (range.isEmpty()) {
                return 0;
            }
            int lo = listpack.lexLowerBound(range);
            int hi = listpack.lexUpperBound(range, lo);
            listpack.removeRange(lo, hi);
            return hi - lo;
        }
        return skiplist.deleteRangeByLex(range, dictRemover);
    }

    /**
     * Removes up to {@code count} members from the low end (the high end if {@code max}),
     * visiting each in pop order before removal: the one routine behind ZPOPMIN, ZPOPMAX, ZMPOP
     * (and their blocking forms).
     *
     * @return the number popped
     */
    public long pop(boolean max, long count, ZEntryVisitor visitor) {
        long n = Math.min(count, size());
        if (n <= 0) {
            return 0;
        }
        visitRange(0, n - 1, max, visitor);
        if (max) {
            removeRangeByRank(size() - n, size() - 1);
        } else {
            removeRangeByRank(0, n - 1);
        }
        return n;
    }

    /**
     * One ZSCAN step: a small set reports everything at once and answers cursor 0; a large one
     * scans its dict with the SCAN guarantee (every member present throughout is reported at
     * least once, duplicates possible). The visitor must not modify this set.
     *
     * @return the next cursor, 0 when done
     */
    public long scan(long cursor, ZEntryVisitor visitor) {
        if (listpack != null) {
            forEach(visitor);
            return 0;
        }
        return dict.scan(cursor, (member, node) -> visitor.visit(member, node.score));
    }

    /** A deep copy (COPY) in the same encoding; member arrays, never modified, are shared. */
    public SortedSet copy() {
        SortedSet copy = new SortedSet(listpack == null, size());
        forEach(copy::insert);
        return copy;
    }
}
