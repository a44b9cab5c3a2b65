package dev.ebb.server.command;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.storage.zset.LexRange;
import dev.ebb.storage.zset.ScoreRange;
import dev.ebb.storage.zset.SortedSet;
import dev.ebb.storage.zset.ZEntryVisitor;

/**
 * Sorted set range commands. ZRANGE, ZREVRANGE, ZRANGEBYSCORE, ZREVRANGEBYSCORE, ZRANGEBYLEX,
 * ZREVRANGEBYLEX and ZRANGESTORE are one routine, {@link #rangeGeneric}, as in Redis: the older
 * commands are ZRANGE with the range type and direction fixed. Also ZCOUNT, ZLEXCOUNT and the
 * ZREMRANGEBY* commands.
 *
 * <p>Costs on the large encoding: O(log n) to find a range plus O(1) a member returned; the
 * reply's length is computed first (from ranks, O(log n)) so nothing is buffered.
 */
final class ZSetRangeCommands {
    private static final int AUTO = 0;
    private static final int BY_RANK = 1;
    private static final int BY_SCORE = 2;
    private static final int BY_LEX = 3;
    private static final int FORWARD = 1;
    private static final int REVERSE = 2;

    private ZSetRangeCommands() {
    }

    static void zrange(Client c, byte[][] argv) {
        rangeGeneric(c, argv, 1, AUTO, AUTO, null);
    }

    static void zrevrange(Client c, byte[][] argv) {
        rangeGeneric(c, argv, 1, BY_RANK, REVERSE, null);
    }

    static void zrangebyscore(Client c, byte[][] argv) {
        rangeGeneric(c, argv, 1, BY_SCORE, FORWARD, null);
    }

    static void zrevrangebyscore(Client c, byte[][] argv) {
        rangeGeneric(c, argv, 1, BY_SCORE, REVERSE, null);
    }

    static void zrangebylex(Client c, byte[][] argv) {
        rangeGeneric(c, argv, 1, BY_LEX, FORWARD, null);
    }

    static void zrevrangebylex(Client c, byte[][] argv) {
        rangeGeneric(c, argv, 1, BY_LEX, REVERSE, null);
    }

    static void zrangestore(Client c, byte[][] argv) {
        rangeGeneric(c, argv, 2, AUTO, AUTO, argv[1]);
    }

    /**
     * The one range routine. {@code keyIndex} is where the source key is (the range bounds follow
     * it); {@code type} and {@code direction} are fixed by the older commands and AUTO for ZRANGE
     * and ZRANGESTORE, whose options choose them; {@code destination} is ZRANGESTORE's key (then
     * WITHSCORES is not an option and the reply is the stored count). Options are checked first,
     * then the bounds, then the key, giving Redis's error precedence.
     */
    private static void rangeGeneric(Client c, byte[][] argv, int keyIndex, int type, int direction,
            byte[] destination) {
        boolean withScores = false;
        boolean limited = false;
        long offset = 0;
        long limit = -1;
        for (int j = keyIndex + 3; j < argv.length; j++) {
            int left = argv.length - j - 1;
            byte[] a = argv[j];
            if (destination == null && Arguments.is(a, "withscores")) {
                withScores = true;
            } else if (left >= 2 && Arguments.is(a, "limit")) {
                if (!Arguments.isLongOrReply(c, argv[j + 1])) {
                    return;
                }
                offset = Arguments.parseLong(argv[j + 1]);
                if (!Arguments.isLongOrReply(c, argv[j + 2])) {
                    return;
                }
                limit = Arguments.parseLong(argv[j + 2]);
                j += 2;
                limited = true;
            } else if (direction == AUTO && Arguments.is(a, "rev")) {
                direction = REVERSE;
            } else if (type == AUTO && Arguments.is(a, "bylex")) {
                type = BY_LEX;
            } else if (type == AUTO && Arguments.is(a, "byscore")) {
                type = BY_SCORE;
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        type = type == AUTO ? BY_RANK : type;
        boolean reverse = direction == REVERSE;
        // As Redis 7.2: by rank, only a LIMIT whose count is -1 (no limit) is accepted, and its
        // offset is then ignored.
        if (limited && type == BY_RANK && limit != -1) {
            c.reply().error(Errors.ZRANGE_LIMIT_WITHOUT_BY);
            return;
        }
        if (withScores && type == BY_LEX) {
            c.reply().error(Errors.ZRANGE_BYLEX_WITHSCORES);
            return;
        }
        byte[] minArg = argv[keyIndex + 1];
        byte[] maxArg = argv[keyIndex + 2];
        if (reverse && type != BY_RANK) {
            byte[] t = minArg;
            minArg = maxArg;
            maxArg = t;
        }
        long start = 0;
        long end = 0;
        ScoreRange scoreRange = null;
        LexRange lexRange = null;
        if (type == BY_RANK) {
            if (!Arguments.isLongOrReply(c, minArg)) {
                return;
            }
            start = Arguments.parseLong(minArg);
            if (!Arguments.isLongOrReply(c, maxArg)) {
                return;
            }
            end = Arguments.parseLong(maxArg);
        } else if (type == BY_SCORE) {
            scoreRange = ZSetSupport.scoreRangeOrReply(c, minArg, maxArg);
            if (scoreRange == null) {
                return;
            }
        } else {
            lexRange = ZSetSupport.lexRangeOrReply(c, minArg, maxArg);
            if (lexRange == null) {
                return;
            }
        }
        Object v = ZSetSupport.lookupRead(c, argv[keyIndex]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        SortedSet set = v == null ? null : (SortedSet) v;
        RangeSink sink = destination == null ? new ReplySink(c.reply(), withScores) : new StoreSink(c);
        if (set == null) {
            sink.begin(0);
        } else if (type == BY_RANK) {
            long size = set.size();
            start = start < 0 ? Math.max(start + size, 0) : start;
            end = end < 0 ? end + size : end;
            if (start > end || start >= size) {
                sink.begin(0);
            } else {
                end = Math.min(end, size - 1);
                sink.begin(end - start + 1);
                set.visitRange(start, end, reverse, sink);
            }
        } else {
            long total = type == BY_SCORE ? set.count(scoreRange) : set.lexCount(lexRange);
            long available = offset < 0 ? 0 : Math.max(0, total - offset);
            long n = limit < 0 ? available : Math.min(available, limit);
            sink.begin(n);
            if (n > 0) {
                if (type == BY_SCORE) {
                    set.visitScoreRange(scoreRange, reverse, offset, n, sink);
                } else {
                    set.visitLexRange(lexRange, reverse, offset, n, sink);
                }
            }
        }
        sink.end(destination);
    }

    /** Where a range goes: a reply, or ZRANGESTORE's new set. */
    private interface RangeSink extends ZEntryVisitor {
        void begin(long count);

        void end(byte[] destination);
    }

    private static final class ReplySink implements RangeSink {
        private final RespWriter w;
        private final boolean withScores;

        ReplySink(RespWriter w, boolean withScores) {
            this.w = w;
            this.withScores = withScores;
        }

        @Override
        public void begin(long count) {
            ZSetSupport.entriesHeader(w, count, withScores);
        }

        @Override
        public void visit(byte[] member, double score) {
            ZSetSupport.entry(w, member, score, withScores);
        }

        @Override
        public void end(byte[] destination) {
        }
    }

    private static final class StoreSink implements RangeSink {
        private final Client c;
        private final long maxEntries;
        private final long maxValue;
        private SortedSet result;

        StoreSink(Client c) {
            this.c = c;
            this.maxEntries = ZSetSupport.maxEntries(c);
            this.maxValue = ZSetSupport.maxValue(c);
        }

        @Override
        public void begin(long count) {
            result = ZSetSupport.create(c, count, 0);
        }

        @Override
        public void visit(byte[] member, double score) {
            result.add(member, score, 0, maxEntries, maxValue);
        }

        @Override
        public void end(byte[] destination) {
            ZSetSupport.storeResult(c, destination, result, "zrangestore");
            c.reply().integer(result.size());
        }
    }

    // ---------------------------------------------------------------- counts

    static void zcount(Client c, byte[][] argv) {
        ScoreRange range = ZSetSupport.scoreRangeOrReply(c, argv[2], argv[3]);
        if (range == null) {
            return;
        }
        Object v = ZSetSupport.lookupRead(c, argv[1]);
        if (v != Values.WRONG_TYPE) {
            c.reply().integer(v == null ? 0 : ((SortedSet) v).count(range));
        }
    }

    static void zlexcount(Client c, byte[][] argv) {
        LexRange range = ZSetSupport.lexRangeOrReply(c, argv[2], argv[3]);
        if (range == null) {
            return;
        }
        Object v = ZSetSupport.lookupRead(c, argv[1]);
        if (v != Values.WRONG_TYPE) {
            c.reply().integer(v == null ? 0 : ((SortedSet) v).lexCount(range));
        }
    }

    // ---------------------------------------------------------------- removal by range

    static void zremrangebyrank(Client c, byte[][] argv) {
        if (!Arguments.isLongOrReply(c, argv[2])) {
            return;
        }
        long start = Arguments.parseLong(argv[2]);
        if (!Arguments.isLongOrReply(c, argv[3])) {
            return;
        }
        long end = Arguments.parseLong(argv[3]);
        SortedSet set = setForRemovalOrReply(c, argv[1]);
        if (set == null) {
            return;
        }
        long size = set.size();
        start = start < 0 ? Math.max(start + size, 0) : start;
        end = end < 0 ? end + size : end;
        if (start > end || start >= size) {
            c.reply().integer(0);
            return;
        }
        end = Math.min(end, size - 1);
        long before = set.memoryBytes();
        long removed = set.removeRangeByRank(start, end);
        ZSetSupport.afterWrite(c, argv[1], set, before, "zremrangebyrank");
        c.reply().integer(removed);
    }

    static void zremrangebyscore(Client c, byte[][] argv) {
        ScoreRange range = ZSetSupport.scoreRangeOrReply(c, argv[2], argv[3]);
        if (range == null) {
            return;
        }
        SortedSet set = setForRemovalOrReply(c, argv[1]);
        if (set != null) {
            long before = set.memoryBytes();
            long removed = set.removeRangeByScore(range);
            if (removed > 0) {
                ZSetSupport.afterWrite(c, argv[1], set, before, "zremrangebyscore");
            }
            c.reply().integer(removed);
        }
    }

    static void zremrangebylex(Client c, byte[][] argv) {
        LexRange range = ZSetSupport.lexRangeOrReply(c, argv[2], argv[3]);
        if (range == null) {
            return;
        }
        SortedSet set = setForRemovalOrReply(c, argv[1]);
        if (set != null) {
            long before = set.memoryBytes();
            long removed = set.removeRangeByLex(range);
            if (removed > 0) {
                ZSetSupport.afterWrite(c, argv[1], set, before, "zremrangebylex");
            }
            c.reply().integer(removed);
        }
    }

    /** The set at {@code key} for a ZREMRANGEBY* command; null after replying 0 or WRONGTYPE. */
    private static SortedSet setForRemovalOrReply(Client c, byte[] key) {
        Object v = ZSetSupport.lookupWrite(c, key);
        if (v == null) {
            c.reply().integer(0);
            return null;
        }
        return v == Values.WRONG_TYPE ? null : (SortedSet) v;
    }
}
