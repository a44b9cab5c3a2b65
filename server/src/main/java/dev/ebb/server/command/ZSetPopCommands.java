package dev.ebb.server.command;

import dev.ebb.resp.RespDoubles;
import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.util.Glob;
import dev.ebb.storage.zset.SortedSet;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * ZPOPMIN, ZPOPMAX, ZMPOP, ZRANDMEMBER and ZSCAN.
 *
 * <p>Every pop goes through {@link #popAndReply}, which takes the reply shape as an argument, so
 * the blocking forms reuse it once a blocked client is served: BZPOPMIN/BZPOPMAX with
 * {@link PopReply#KEYED_FLAT} and count 1, BZMPOP with {@link PopReply#KEYED_PAIRS}; ZMPOP's
 * argument parsing is {@link #parseMpopOrReply}, which BZMPOP can call with the timeout skipped.
 */
final class ZSetPopCommands {
    private static final long SCAN_DEFAULT_COUNT = 10;
    private static final long SCAN_MAX_STEPS_PER_COUNT = 10;

    /** How a pop's result is replied. */
    enum PopReply {
        /** ZPOPMIN key: member, score (flat, also in RESP3). */
        FLAT,
        /** ZPOPMIN key count: RESP2 flat, RESP3 [member, score] pairs. */
        PAIRS,
        /** ZMPOP / BZMPOP: [key, [[member, score] …]]. */
        KEYED_PAIRS,
        /** BZPOPMIN / BZPOPMAX: [key, member, score]. */
        KEYED_FLAT
    }

    private ZSetPopCommands() {
    }

    static void zpopmin(Client c, byte[][] argv) {
        popCommand(c, argv, false);
    }

    static void zpopmax(Client c, byte[][] argv) {
        popCommand(c, argv, true);
    }

    /** ZPOPMIN / ZPOPMAX key [count]. */
    private static void popCommand(Client c, byte[][] argv, boolean max) {
        if (argv.length > 3) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        long count = 1;
        if (argv.length == 3) {
            count = positiveOrReply(c, argv[2]);
            if (count < 0) {
                return;
            }
        }
        Object v = ZSetSupport.lookupWrite(c, argv[1]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        if (v == null || count == 0) {
            c.reply().emptyArray();
            return;
        }
        popAndReply(c, argv[1], (SortedSet) v, max, count, argv.length == 3 ? PopReply.PAIRS : PopReply.FLAT);
    }

    /** Redis's getPositiveLongFromObjectOrReply for ZPOPMIN's count; -1 after replying. */
    private static long positiveOrReply(Client c, byte[] arg) {
        long n;
        try {
            n = Arguments.parseLong(arg);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0) {
            c.reply().error(Errors.NOT_POSITIVE);
            return -1;
        }
        return n;
    }

    /**
     * Pops up to {@code count} (at least 1) members from the low end (high end if {@code max}) of
     * the stored, non-empty {@code set} at {@code key}, replies them in {@code shape}, accounts
     * the memory and deletes the key if it empties. The one pop routine of ZPOPMIN, ZPOPMAX and
     * ZMPOP, and of the blocking forms when they serve a client.
     */
    static void popAndReply(Client c, byte[] key, SortedSet set, boolean max, long count, PopReply shape) {
        RespWriter w = c.reply();
        long n = Math.min(count, set.size());
        switch (shape) {
            case FLAT -> w.arrayHeader((int) (2 * n));
            case PAIRS -> ZSetSupport.entriesHeader(w, n, true);
            case KEYED_PAIRS -> {
                w.arrayHeader(2);
                w.bulk(key);
                w.arrayHeader((int) n);
            }
            case KEYED_FLAT -> {
                w.arrayHeader(1 + (int) (2 * n));
                w.bulk(key);
            }
        }
        long before = set.memoryBytes();
        boolean pairs = shape == PopReply.KEYED_PAIRS;
        boolean protocolPairs = shape == PopReply.PAIRS;
        set.pop(max, n, (member, score) -> {
            if (pairs) {
                w.arrayHeader(2);
                w.bulk(member);
                w.doubleValue(score);
            } else if (protocolPairs) {
                ZSetSupport.entry(w, member, score, true);
            } else {
                w.bulk(member);
                w.doubleValue(score);
            }
        });
        ZSetSupport.afterWrite(c, key, set, before, max ? "zpopmax" : "zpopmin");
        // ZMPOP, BZMPOP and a served BZPOPMIN/BZPOPMAX propagate as the plain pop, as in Redis.
        if (shape == PopReply.KEYED_PAIRS && Propagate.active(c)) {
            Propagate.as(c, max ? Propagate.ZPOPMAX : Propagate.ZPOPMIN, key, Propagate.number(n));
        } else if (shape == PopReply.KEYED_FLAT) {
            Propagate.as(c, max ? Propagate.ZPOPMAX : Propagate.ZPOPMIN, key);
        }
    }

    /** ZMPOP's parsed arguments: keys at {@code argv[firstKey .. firstKey + numKeys)}. */
    record MpopArguments(int firstKey, int numKeys, boolean max, long count) {
    }

    /**
     * Parses {@code numkeys key [key ...] <MIN | MAX> [COUNT count]} starting at
     * {@code argv[numKeysIndex]}, with Redis's errors; null after replying one.
     */
    static MpopArguments parseMpopOrReply(Client c, byte[][] argv, int numKeysIndex) {
        long numKeys;
        try {
            numKeys = Arguments.parseLong(argv[numKeysIndex]);
        } catch (NumberFormatException e) {
            numKeys = 0;
        }
        if (numKeys <= 0) {
            c.reply().error(Errors.NUMKEYS_NOT_POSITIVE);
            return null;
        }
        int firstKey = numKeysIndex + 1;
        if (numKeys >= argv.length - firstKey) {
            c.reply().error(Errors.SYNTAX);
            return null;
        }
        int where = firstKey + (int) numKeys;
        boolean max;
        if (Arguments.is(argv[where], "min")) {
            max = false;
        } else if (Arguments.is(argv[where], "max")) {
            max = true;
        } else {
            c.reply().error(Errors.SYNTAX);
            return null;
        }
        long count = -1;
        for (int j = where + 1; j < argv.length; j++) {
            if (count < 0 && j + 1 < argv.length && Arguments.is(argv[j], "count")) {
                try {
                    count = Arguments.parseLong(argv[j + 1]);
                } catch (NumberFormatException e) {
                    count = 0;
                }
                if (count <= 0) {
                    c.reply().error(Errors.COUNT_NOT_POSITIVE);
                    return null;
                }
                j++;
            } else {
                c.reply().error(Errors.SYNTAX);
                return null;
            }
        }
        return new MpopArguments(firstKey, (int) numKeys, max, count < 0 ? 1 : count);
    }

    /** ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]: pops from the first non-empty key. */
    static void zmpop(Client c, byte[][] argv) {
        MpopArguments args = parseMpopOrReply(c, argv, 1);
        if (args == null) {
            return;
        }
        for (int i = 0; i < args.numKeys(); i++) {
            byte[] key = argv[args.firstKey() + i];
            Object v = ZSetSupport.lookupWrite(c, key);
            if (v == Values.WRONG_TYPE) {
                return;
            }
            if (v != null) {
                popAndReply(c, key, (SortedSet) v, args.max(), args.count(), PopReply.KEYED_PAIRS);
                return;
            }
        }
        c.reply().nullArray();
    }

    // ---------------------------------------------------------------- ZRANDMEMBER

    /**
     * ZRANDMEMBER key [count [WITHSCORES]]. A positive count gives distinct members (the whole
     * set when it is at least the size), a negative one |count| independent draws. Each draw is a
     * uniform rank, O(log n) on the large encoding.
     */
    static void zrandmember(Client c, byte[][] argv) {
        if (argv.length > 4 || (argv.length == 4 && !Arguments.is(argv[3], "withscores"))) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        if (argv.length == 2) {
            Object v = ZSetSupport.lookupRead(c, argv[1]);
            if (v == null) {
                c.reply().nullBulk();
            } else if (v != Values.WRONG_TYPE) {
                SortedSet set = (SortedSet) v;
                set.visitAt(ThreadLocalRandom.current().nextLong(set.size()), (m, s) -> c.reply().bulk(m));
            }
            return;
        }
        long count;
        try {
            count = Arguments.parseLong(argv[2]);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.NOT_INTEGER);
            return;
        }
        if (count == Long.MIN_VALUE) {
            c.reply().error(Errors.COUNT_OUT_OF_RANGE);
            return;
        }
        boolean withScores = argv.length == 4;
        if (withScores && (count > Long.MAX_VALUE / 2 || count < -Long.MAX_VALUE / 2)) {
            c.reply().error(Errors.OUT_OF_RANGE);
            return;
        }
        Object v = ZSetSupport.lookupRead(c, argv[1]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        if (v == null || count == 0) {
            c.reply().emptyArray();
            return;
        }
        SortedSet set = (SortedSet) v;
        RespWriter w = c.reply();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long size = set.size();
        if (count < 0) {
            long draws = -count;
            ZSetSupport.entriesHeader(w, draws, withScores);
            for (long i = 0; i < draws; i++) {
                set.visitAt(random.nextLong(size), (m, s) -> ZSetSupport.entry(w, m, s, withScores));
            }
            return;
        }
        if (count >= size) {
            ZSetSupport.entriesHeader(w, size, withScores);
            set.forEach((m, s) -> ZSetSupport.entry(w, m, s, withScores));
            return;
        }
        // Floyd's sampling: count distinct ranks in O(count) draws
        Set<Long> ranks = new LinkedHashSet<>();
        for (long j = size - count; j < size; j++) {
            long r = random.nextLong(j + 1);
            if (!ranks.add(r)) {
                ranks.add(j);
            }
        }
        ZSetSupport.entriesHeader(w, count, withScores);
        for (long r : ranks) {
            set.visitAt(r, (m, s) -> ZSetSupport.entry(w, m, s, withScores));
        }
    }

    // ---------------------------------------------------------------- ZSCAN

    /**
     * ZSCAN key cursor [MATCH pattern] [COUNT count]. A listpack set is returned whole with
     * cursor 0; a large one is scanned through its dict with SCAN's guarantee, stepping until
     * COUNT members were collected (or COUNT * 10 steps), then filtered by MATCH. Scores are
     * bulk strings in both protocols, as Redis sends them.
     */
    static void zscan(Client c, byte[][] argv) {
        long cursor;
        try {
            cursor = Arguments.parseCursor(argv[2]);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.INVALID_CURSOR);
            return;
        }
        Object v = ZSetSupport.lookupRead(c, argv[1]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        if (v == null) {
            c.reply().arrayHeader(2);
            c.reply().bulk("0");
            c.reply().emptyArray();
            return;
        }
        long count = SCAN_DEFAULT_COUNT;
        byte[] pattern = null;
        for (int i = 3; i < argv.length; i += 2) {
            boolean hasValue = i + 1 < argv.length;
            if (hasValue && Arguments.is(argv[i], "count")) {
                try {
                    count = Arguments.parseLong(argv[i + 1]);
                } catch (NumberFormatException e) {
                    c.reply().error(Errors.NOT_INTEGER);
                    return;
                }
                if (count < 1) {
                    c.reply().error(Errors.SYNTAX);
                    return;
                }
            } else if (hasValue && Arguments.is(argv[i], "match")) {
                pattern = argv[i + 1];
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        List<byte[]> members = new ArrayList<>();
        List<String> scores = new ArrayList<>();
        Glob glob = pattern == null || (pattern.length == 1 && pattern[0] == '*')
                ? null : Glob.compile(pattern, false);
        SortedSet set = (SortedSet) v;
        long stepsLeft = count > Long.MAX_VALUE / SCAN_MAX_STEPS_PER_COUNT
                ? Long.MAX_VALUE : count * SCAN_MAX_STEPS_PER_COUNT;
        long[] seen = new long[1];
        do {
            cursor = set.scan(cursor, (m, s) -> {
                seen[0]++;
                if (glob == null || glob.matches(m)) {
                    members.add(m);
                    scores.add(RespDoubles.format(s));
                }
            });
        } while (cursor != 0 && stepsLeft-- > 0 && seen[0] < count);
        RespWriter w = c.reply();
        w.arrayHeader(2);
        w.bulk(Long.toUnsignedString(cursor));
        w.arrayHeader(members.size() * 2);
        for (int i = 0; i < members.size(); i++) {
            w.bulk(members.get(i));
            w.bulk(scores.get(i));
        }
    }
}
