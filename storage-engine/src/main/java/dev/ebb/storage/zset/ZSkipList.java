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
 * expected; removing a range O(log n + removed).
 *
 * Memory and speed: a search reads one forward link per step, so the links of the lower levels
 * live in fields of the node itself (Redis keeps all of a node's levels inline in one
 * allocation). A node of one level is a {@link Node} (32 bytes), of two a {@link Node2} (40), of
 * three a {@link Node3} (48), of four a {@link Node4} (56); only a node of five levels or more
 * (1 in 256) is a {@link NodeN} with arrays for its levels above the fourth. A step at levels 0-3
 * therefore touches one cache line, the next node's, as in Redis; about 35 bytes a node on
 * average, plus the member array (shared with the dict of SortedSet). The lex searches assume all
 * scores are equal, as Redis's ZRANGEBYLEX does; with mixed scores the result is unspecified (but
 * bounded and safe).
 *
 * Not thread-safe: belongs to the command loop thread like the whole keyspace.
 */
final class ZSkipList {
    static final int MAX_LEVEL = 32;
    /** Levels held in fields; a node with more keeps the rest in arrays ({@link NodeN}). */
    private static final int INLINE_LEVELS = 4;
    private static final long LIST_OBJECT_BYTES = 48;

    /**
     * One member: its score, and its links at each of its levels with their spans. A level-0 link
     * always steps over one member, so its span is not stored. Subclasses add the fields of the
     * higher levels; {@link #next} and {@link #span} pick the field by level with a cast, not a
     * virtual call, so the search loops stay monomorphic.
     */
    static class Node {
        final byte[] member;
        double score;
        Node backward;
        Node next0;

        Node(byte[] member, double score) {
            this.member = member;
            this.score = score;
        }

        static Node create(byte[] member, double score, int level) {
            switch (level) {
                case 1:
                    return new Node(member, score);
                case 2:
                    return new Node2(member, score);
                case 3:
                    return new Node3(member, score);
                case 4:
                    return new Node4(member, score);
                default:
                    return new NodeN(member, score, level);
            }
        }

        int level() {
            return 1;
        }

        final Node next(int i) {
            switch (i) {
                case 0:
                    return next0;
                case 1:
                    return ((Node2) this).next1;
                case 2:
                    return ((Node3) this).next2;
                case 3:
                    return ((Node4) this).next3;
                default:
                    return ((NodeN) this).upper[i - INLINE_LEVELS];
            }
        }

        final void setNext(int i, Node n) {
            switch (i) {
                case 0:
                    next0 = n;
                    break;
                case 1:
                    ((Node2) this).next1 = n;
                    break;
                case 2:
                    ((Node3) this).next2 = n;
                    break;
                case 3:
                    ((Node4) this).next3 = n;
                    break;
                default:
                    ((NodeN) this).upper[i - INLINE_LEVELS] = n;
            }
        }

        final int span(int i) {
            switch (i) {
                case 0:
                    return 1;
                case 1:
                    return ((Node2) this).span1;
                case 2:
                    return ((Node3) this).span2;
                case 3:
                    return ((Node4) this).span3;
                default:
                    return ((NodeN) this).upperSpan[i - INLINE_LEVELS];
            }
        }

        final void setSpan(int i, int span) {
            switch (i) {
                case 0:
                    break;
                case 1:
                    ((Node2) this).span1 = span;
                    break;
                case 2:
                    ((Node3) this).span2 = span;
                    break;
                case 3:
                    ((Node4) this).span3 = span;
                    break;
                default:
                    ((NodeN) this).upperSpan[i - INLINE_LEVELS] = span;
            }
        }
    }

    /** A node of two levels. */
    static class Node2 extends Node {
        Node next1;
        int span1;

        Node2(byte[] member, double score) {
            super(member, score);
        }

        @Override
        int level() {
            return 2;
        }
    }

    /** A node of three levels. */
    static class Node3 extends Node2 {
        Node next2;
        int span2;

        Node3(byte[] member, double score) {
            super(member, score);
        }

        @Override
        int level() {
            return 3;
        }
    }

    /** A node of four levels. */
    static class Node4 extends Node3 {
        Node next3;
        int span3;

        Node4(byte[] member, double score) {
            super(member, score);
        }

        @Override
        int level() {
            return 4;
        }
    }

    /** A node of five levels or more: the levels above the fourth in arrays. */
    static final class NodeN extends Node4 {
        final Node[] upper;
        final int[] upperSpan;

        NodeN(byte[] member, double score, int level) {
            super(member, score);
            upper = new Node[level - INLINE_LEVELS];
            upperSpan = new int[level - INLINE_LEVELS];
        }

        @Override
        int level() {
            return upper.length + INLINE_LEVELS;
        }
    }

    private final Node header = Node.create(null, 0, MAX_LEVEL);
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

    /**
     * Heap bytes of a node of {@code level} levels and its member of {@code memberLength} bytes
     * (none if negative). Object header 12, then member 4, score 8, backward 4, next0 4 = 32; each
     * inline level above 0 adds a link and a span (8); a {@link NodeN} adds its two array
     * references and the arrays.
     */
    static long nodeBytesOf(int level, int memberLength) {
        long node = level <= INLINE_LEVELS ? 32 + 8L * (level - 1)
                : 64 + 2 * Values.arrayBytes(level - INLINE_LEVELS, 4);
        return node + (memberLength < 0 ? 0 : Values.byteArrayBytes(memberLength));
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
        Node node = Node.create(member, score, randomLevel());
        insertNode(node);
        nodeBytes += nodeBytes(node);
        return node;
    }

    private void insertNode(Node node) {
        double score = node.score;
        byte[] member = node.member;
        Node x = header;
        for (int i = level - 1; i >= 0; i--) {
            int rank = i == level - 1 ? 0 : rankAt[i + 1];
            Node next;
            while ((next = x.next(i)) != null && before(next, score, member)) {
                rank += x.span(i);
                x = next;
            }
            rankAt[i] = rank;
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
            Node next;
            while ((next = x.next(i)) != null && before(next, score, member)) {
                x = next;
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
