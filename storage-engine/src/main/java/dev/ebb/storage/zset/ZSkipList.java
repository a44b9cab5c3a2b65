package dev.ebb.storage.zset;

import dev.ebb.storage.Values;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/*
 * The large sorted set's order: a skiplist (Pugh) over (score, member), members comparing as
 * unsigned bytes when scores tie, as Redis's zskiplist.
 *
 * Each node has a random number of levels (level k+1 with probability 1/4 given level k, at most
 * 32), and at every level a forward link and the link's span: how many level-0 steps it jumps.
 * Summing spans along a search path gives the rank of where the search stops, so rank lookups
 * (ZRANK), "element at rank" (ZRANGE by index, ZRANDMEMBER) and range starts (ZRANGEBYSCORE) all
 * cost O(log n) expected; walking on from there costs O(1) a member along the level-0 links,
 * backwards along the backward links. Insert and delete fix up the spans of the nodes whose links
 * pass over the changed node: the "update" vector of the last node before it at each level.
 *
 * Costs: insert, delete, rank, element at rank, first/last in a score or lex range O(log n)
 * expected; removing a range O(log n + removed). Memory per node: the node object (40 bytes,
 * holding the level-0 link), for the one node in four with more levels a links array and a spans
 * array for the levels above 0, and the member array (shared with the dict of SortedSet). The lex searches assume all scores are equal, as Redis's
 * ZRANGEBYLEX does; with mixed scores the result is unspecified (but bounded and safe).
 *
 * Not thread-safe: belongs to the command loop thread like the whole keyspace.
 */
final class ZSkipList {
    static final int MAX_LEVEL = 32;
    /** Node object: header 12, member 4, score 8, backward 4, next0 4, upper 4, upperSpan 4. */
    static final long NODE_OBJECT_BYTES = 40;
    private static final long LIST_OBJECT_BYTES = 48;

    /**
     * One member: its score, its links at each of its levels and their spans. Three nodes in four
     * have one level, so level 0 is held in a field and only higher levels in arrays (null for a
     * one-level node); a level-0 link always steps over one member, so its span is not stored.
     */
    static final class Node {
        final byte[] member;
        double score;
        Node backward;
        Node next0;
        private final Node[] upper;
        private final int[] upperSpan;

        Node(byte[] member, double score, int level) {
            this.member = member;
            this.score = score;
            this.upper = level == 1 ? null : new Node[level - 1];
            this.upperSpan = level == 1 ? null : new int[level - 1];
        }

        int level() {
            return upper == null ? 1 : upper.length + 1;
        }

        Node next(int i) {
            return i == 0 ? next0 : upper[i - 1];
        }

        void setNext(int i, Node n) {
            if (i == 0) {
                next0 = n;
            } else {
                upper[i - 1] = n;
            }
        }

        int span(int i) {
            return i == 0 ? 1 : upperSpan[i - 1];
        }

        void setSpan(int i, int span) {
            if (i != 0) {
                upperSpan[i - 1] = span;
            }
        }
    }

    private final Node header = new Node(null, 0, MAX_LEVEL);
    private Node tail;
    private int length;
    private int level = 1;
    private long nodeBytes;
    private final Node[] update = new Node[MAX_LEVEL];
    private final int[] rankAt = new int[MAX_LEVEL];

    int length() {
        return length;
    }

    Node first() {
        return header.next0;
    }

    Node last() {
        return tail;
    }

    /** Bytes of the list and its nodes, members included. O(1). */
    long memoryBytes() {
        return LIST_OBJECT_BYTES + nodeBytesOf(MAX_LEVEL, -1) + nodeBytes;
    }

    static long nodeBytesOf(int level, int memberLength) {
        return NODE_OBJECT_BYTES + (level == 1 ? 0 : 2 * Values.arrayBytes(level - 1, 4))
                + (memberLength < 0 ? 0 : Values.byteArrayBytes(memberLength));
    }

    private static long nodeBytes(Node n) {
        return nodeBytesOf(n.level(), n.member.length);
    }

    /** Whether (score, member) sorts before node {@code n}'s pair. */
    private static boolean before(Node n, double score, byte[] member) {
        return n.score < score || (n.score == score && Arrays.compareUnsigned(n.member, member) < 0);
    }

    private static int randomLevel() {
        int lvl = 1;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (lvl < MAX_LEVEL && (random.nextInt() & 0xFFFF) < 0xFFFF / 4) {
            lvl++;
        }
        return lvl;
    }

    /** Inserts a member known to be absent. O(log n) expected. */
    Node insert(double score, byte[] member) {
        Node node = new Node(member, score, randomLevel());
        insertNode(node);
        nodeBytes += nodeBytes(node);
        return node;
    }

    private void insertNode(Node node) {
        double score = node.score;
        byte[] member = node.member;
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            rankAt[i] = i == level - 1 ? 0 : rankAt[i + 1];
            while (x.next(i) != null && before(x.next(i), score, member)) {
                rankAt[i] += x.span(i);
                x = x.next(i);
            }
            update[i] = x;
        }
        int lvl = node.level();
        if (lvl > level) {
            for (int i = level; i < lvl; i++) {
                rankAt[i] = 0;
                update[i] = header;
                header.setSpan(i, length);
            }
            level = lvl;
        }
        for (int i = 0; i < lvl; i++) {
            node.setNext(i, update[i].next(i));
            update[i].setNext(i, node);
            node.setSpan(i, update[i].span(i) - (rankAt[0] - rankAt[i]));
            update[i].setSpan(i, rankAt[0] - rankAt[i] + 1);
        }
        for (int i = lvl; i < level; i++) {
            update[i].setSpan(i, update[i].span(i) + 1);
        }
        node.backward = update[0] == header ? null : update[0];
        if (node.next0 != null) {
            node.next0.backward = node;
        } else {
            tail = node;
        }
        length++;
    }

    /** Fills {@link #update} with the last node before (score, member) at every level. */
    private Node findUpdate(double score, byte[] member) {
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next(i) != null && before(x.next(i), score, member)) {
                x = x.next(i);
            }
            update[i] = x;
        }
        return x.next0;
    }

    private void unlink(Node x) {
        for (int i = 0; i < level; i++) {
            if (update[i].next(i) == x) {
                update[i].setSpan(i, update[i].span(i) + x.span(i) - 1);
                update[i].setNext(i, x.next(i));
            } else {
                update[i].setSpan(i, update[i].span(i) - 1);
            }
        }
        if (x.next0 != null) {
            x.next0.backward = x.backward;
        } else {
            tail = x.backward;
        }
        while (level > 1 && header.next(level - 1) == null) {
            level--;
        }
        length--;
    }

    /** Deletes the node of (score, member), which must be present. O(log n) expected. */
    void delete(Node node) {
        Node x = findUpdate(node.score, node.member);
        if (x != node) {
            throw new IllegalStateException("skiplist node not found at its score: score=" + node.score);
        }
        unlink(x);
        nodeBytes -= nodeBytes(x);
    }

    /**
     * Changes {@code node}'s score to {@code newScore}, in place when its position is unchanged,
     * else by moving the node (no allocation). O(log n) expected.
     */
    void updateScore(Node node, double newScore) {
        Node prev = node.backward;
        Node next = node.next0;
        if ((prev == null || prev.score < newScore
                || (prev.score == newScore && Arrays.compareUnsigned(prev.member, node.member) < 0))
                && (next == null || newScore < next.score
                || (newScore == next.score && Arrays.compareUnsigned(node.member, next.member) < 0))) {
            node.score = newScore;
            return;
        }
        Node x = findUpdate(node.score, node.member);
        if (x != node) {
            throw new IllegalStateException("skiplist node not found at its score: score=" + node.score);
        }
        unlink(x);
        node.score = newScore;
        insertNode(node);
    }

    /** 1-based rank of (score, member), which must be present; 0 if it is not. O(log n) expected. */
    long rank(double score, byte[] member) {
        long rank = 0;
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next(i) != null && (before(x.next(i), score, member)
                    || (x.next(i).score == score && Arrays.equals(x.next(i).member, member)))) {
                rank += x.span(i);
                x = x.next(i);
            }
            if (x.member != null && x.score == score && Arrays.equals(x.member, member)) {
                return rank;
            }
        }
        return 0;
    }

    /** The node at 1-based {@code rank}, or null out of range. O(log n) expected. */
    Node byRank(long rank) {
        if (rank < 1 || rank > length) {
            return null;
        }
        long traversed = 0;
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next(i) != null && traversed + x.span(i) <= rank) {
                traversed += x.span(i);
                x = x.next(i);
            }
            if (traversed == rank) {
                return x;
            }
        }
        return null;
    }

    /** The first node inside {@code range}, or null. O(log n) expected. */
    Node firstInRange(ScoreRange range) {
        if (range.isEmpty() || tail == null || !range.gteMin(tail.score) || !range.lteMax(first().score)) {
            return null;
        }
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next(i) != null && !range.gteMin(x.next(i).score)) {
                x = x.next(i);
            }
        }
        x = x.next0;
        return x != null && range.lteMax(x.score) ? x : null;
    }

    /** The last node inside {@code range}, or null. O(log n) expected. */
    Node lastInRange(ScoreRange range) {
        if (range.isEmpty() || tail == null || !range.gteMin(tail.score) || !range.lteMax(first().score)) {
            return null;
        }
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next(i) != null && range.lteMax(x.next(i).score)) {
                x = x.next(i);
            }
        }
        return x != header && range.gteMin(x.score) ? x : null;
    }

    /** The first node inside the lex {@code range}, or null. O(log n) expected. */
    Node firstInLex(LexRange range) {
        if (range.isEmpty() || tail == null || !range.gteMin(tail.member) || !range.lteMax(first().member)) {
            return null;
        }
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next(i) != null && !range.gteMin(x.next(i).member)) {
                x = x.next(i);
            }
        }
        x = x.next0;
        return x != null && range.lteMax(x.member) ? x : null;
    }

    /** The last node inside the lex {@code range}, or null. O(log n) expected. */
    Node lastInLex(LexRange range) {
        if (range.isEmpty() || tail == null || !range.gteMin(tail.member) || !range.lteMax(first().member)) {
            return null;
        }
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next(i) != null && range.lteMax(x.next(i).member)) {
                x = x.next(i);
            }
        }
        return x != header && range.gteMin(x.member) ? x : null;
    }

    /**
     * Removes the nodes of 1-based ranks {@code start..end} (inclusive, within bounds), telling
     * {@code removed} about each. O(log n + removed).
     */
    long deleteRangeByRank(long start, long end, ZEntryVisitor removed) {
        long traversed = 0;
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next(i) != null && traversed + x.span(i) < start) {
                traversed += x.span(i);
                x = x.next(i);
            }
            update[i] = x;
        }
        traversed++;
        x = x.next0;
        long count = 0;
        while (x != null && traversed <= end) {
            Node next = x.next0;
            unlinkAfterSearch(x);
            removed.visit(x.member, x.score);
            count++;
            traversed++;
            x = next;
        }
        return count;
    }

    /** Removes every node inside {@code range}, telling {@code removed}. O(log n + removed). */
    long deleteRangeByScore(ScoreRange range, ZEntryVisitor removed) {
        if (range.isEmpty()) {
            return 0;
        }
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next(i) != null && !range.gteMin(x.next(i).score)) {
                x = x.next(i);
            }
            update[i] = x;
        }
        x = x.next0;
        long count = 0;
        while (x != null && range.lteMax(x.score)) {
            Node next = x.next0;
            unlinkAfterSearch(x);
            removed.visit(x.member, x.score);
            count++;
            x = next;
        }
        return count;
    }

    /** Removes every node inside the lex {@code range}, telling {@code removed}. O(log n + removed). */
    long deleteRangeByLex(LexRange range, ZEntryVisitor removed) {
        if (range.isEmpty()) {
            return 0;
        }
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next(i) != null && !range.gteMin(x.next(i).member)) {
                x = x.next(i);
            }
            update[i] = x;
        }
        x = x.next0;
        long count = 0;
        while (x != null && range.lteMax(x.member)) {
            Node next = x.next0;
            unlinkAfterSearch(x);
            removed.visit(x.member, x.score);
            count++;
            x = next;
        }
        return count;
    }

    /**
     * Unlinks {@code x} when {@link #update} holds the last nodes before it; after the unlink the
     * same vector is right for x's successor, so range deletes reuse it.
     */
    private void unlinkAfterSearch(Node x) {
        unlink(x);
        nodeBytes -= nodeBytes(x);
    }
}
