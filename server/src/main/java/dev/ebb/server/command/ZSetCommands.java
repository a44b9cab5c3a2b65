package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.MOVABLE_KEYS;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.storage.zset.SortedSet;
import java.util.List;

/**
 * Sorted set commands: the table rows of the whole family, and the member commands (ZADD,
 * ZINCRBY, ZSCORE, ZMSCORE, ZCARD, ZREM, ZRANK, ZREVRANK). Ranges live in
 * {@link ZSetRangeCommands}, pops, random members and ZSCAN in {@link ZSetPopCommands}, and the
 * set algebra in {@link ZSetAlgebraCommands}. ZADD and ZINCRBY share {@link #zaddGeneric}, whose
 * writing half {@link #addScores} GEOADD calls with the scores it computed.
 *
 * <p>The value is a {@link SortedSet} changed in place; every write that changed it reports the
 * change of its memory estimate, signals WATCH, publishes its keyspace event and deletes the key
 * when the set becomes empty ({@link ZSetSupport#afterWrite}).
 */
public final class ZSetCommands {
    /** ZADD / GEOADD flag: reply the number of members changed, not only added. */
    static final int CH = 1 << 8;

    private ZSetCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        CommandGroup g = CommandGroup.SORTED_SET;
        return List.of(
                spec("zadd", -4, WRITE | DENYOOM | FAST, 1, 1, 1, ZSetCommands::zadd)
                        .doc(g, "1.2.0", "Adds one or more members to a sorted set, or updates their scores."
                                + " Creates the key if it doesn't exist.",
                                "key [NX | XX] [GT | LT] [CH] [INCR] score member [score member ...]"),
                spec("zincrby", 4, WRITE | DENYOOM | FAST, 1, 1, 1, ZSetCommands::zincrby)
                        .doc(g, "1.2.0", "Increments the score of a member in a sorted set.",
                                "key increment member"),
                spec("zscore", 3, READONLY | FAST, 1, 1, 1, ZSetCommands::zscore)
                        .doc(g, "1.2.0", "Returns the score of a member in a sorted set.", "key member"),
                spec("zmscore", -3, READONLY | FAST, 1, 1, 1, ZSetCommands::zmscore)
                        .doc(g, "6.2.0", "Returns the score of one or more members in a sorted set.",
                                "key member [member ...]"),
                spec("zcard", 2, READONLY | FAST, 1, 1, 1, ZSetCommands::zcard)
                        .doc(g, "1.2.0", "Returns the number of members in a sorted set.", "key"),
                spec("zrem", -3, WRITE | FAST, 1, 1, 1, ZSetCommands::zrem)
                        .doc(g, "1.2.0", "Removes one or more members from a sorted set."
                                + " Deletes the sorted set if all members were removed.", "key member [member ...]"),
                spec("zrank", -3, READONLY | FAST, 1, 1, 1, ZSetCommands::zrank)
                        .doc(g, "2.0.0", "Returns the index of a member in a sorted set ordered by ascending"
                                + " scores.", "key member [WITHSCORE]"),
                spec("zrevrank", -3, READONLY | FAST, 1, 1, 1, ZSetCommands::zrevrank)
                        .doc(g, "2.0.0", "Returns the index of a member in a sorted set ordered by descending"
                                + " scores.", "key member [WITHSCORE]"),
                spec("zcount", 4, READONLY | FAST, 1, 1, 1, ZSetRangeCommands::zcount)
                        .doc(g, "2.0.0", "Returns the count of members in a sorted set that have scores within"
                                + " a range.", "key min max"),
                spec("zlexcount", 4, READONLY | FAST, 1, 1, 1, ZSetRangeCommands::zlexcount)
                        .doc(g, "2.8.9", "Returns the number of members in a sorted set within a"
                                + " lexicographical range.", "key min max"),
                spec("zrange", -4, READONLY, 1, 1, 1, ZSetRangeCommands::zrange)
                        .doc(g, "1.2.0", "Returns members in a sorted set within a range of indexes.",
                                "key start stop [BYSCORE | BYLEX] [REV] [LIMIT offset count] [WITHSCORES]"),
                spec("zrevrange", -4, READONLY, 1, 1, 1, ZSetRangeCommands::zrevrange)
                        .doc(g, "1.2.0", "Returns members in a sorted set within a range of indexes in reverse"
                                + " order.", "key start stop [WITHSCORES]"),
                spec("zrangebyscore", -4, READONLY, 1, 1, 1, ZSetRangeCommands::zrangebyscore)
                        .doc(g, "1.0.5", "Returns members in a sorted set within a range of scores.",
                                "key min max [WITHSCORES] [LIMIT offset count]"),
                spec("zrevrangebyscore", -4, READONLY, 1, 1, 1, ZSetRangeCommands::zrevrangebyscore)
                        .doc(g, "2.2.0", "Returns members in a sorted set within a range of scores in reverse"
                                + " order.", "key max min [WITHSCORES] [LIMIT offset count]"),
                spec("zrangebylex", -4, READONLY, 1, 1, 1, ZSetRangeCommands::zrangebylex)
                        .doc(g, "2.8.9", "Returns members in a sorted set within a lexicographical range.",
                                "key min max [LIMIT offset count]"),
                spec("zrevrangebylex", -4, READONLY, 1, 1, 1, ZSetRangeCommands::zrevrangebylex)
                        .doc(g, "2.8.9", "Returns members in a sorted set within a lexicographical range in"
                                + " reverse order.", "key max min [LIMIT offset count]"),
                spec("zrangestore", -5, WRITE | DENYOOM, 1, 2, 1, ZSetRangeCommands::zrangestore)
                        .doc(g, "6.2.0", "Stores a range of members from sorted set in a key.",
                                "dst src min max [BYSCORE | BYLEX] [REV] [LIMIT offset count]"),
                spec("zremrangebyrank", 4, WRITE, 1, 1, 1, ZSetRangeCommands::zremrangebyrank)
                        .doc(g, "2.0.0", "Removes members in a sorted set within a range of indexes."
                                + " Deletes the sorted set if all members were removed.", "key start stop"),
                spec("zremrangebyscore", 4, WRITE, 1, 1, 1, ZSetRangeCommands::zremrangebyscore)
                        .doc(g, "1.2.0", "Removes members in a sorted set within a range of scores."
                                + " Deletes the sorted set if all members were removed.", "key min max"),
                spec("zremrangebylex", 4, WRITE, 1, 1, 1, ZSetRangeCommands::zremrangebylex)
                        .doc(g, "2.8.9", "Removes members in a sorted set within a lexicographical range."
                                + " Deletes the sorted set if all members were removed.", "key min max"),
                spec("zpopmin", -2, WRITE | FAST, 1, 1, 1, ZSetPopCommands::zpopmin)
                        .doc(g, "5.0.0", "Returns the lowest-scoring members from a sorted set after removing"
                                + " them. Deletes the sorted set if the last member was popped.", "key [count]"),
                spec("zpopmax", -2, WRITE | FAST, 1, 1, 1, ZSetPopCommands::zpopmax)
                        .doc(g, "5.0.0", "Returns the highest-scoring members from a sorted set after removing"
                                + " them. Deletes the sorted set if the last member was popped.", "key [count]"),
                spec("zmpop", -4, WRITE | MOVABLE_KEYS, 0, 0, 0, ZSetPopCommands::zmpop)
                        .doc(g, "7.0.0", "Returns the highest- or lowest-scoring members from one or more sorted"
                                + " sets after removing them. Deletes the sorted set if the last member was"
                                + " popped.", "numkeys key [key ...] <MIN | MAX> [COUNT count]"),
                spec("zrandmember", -2, READONLY, 1, 1, 1, ZSetPopCommands::zrandmember)
                        .doc(g, "6.2.0", "Returns one or more random members from a sorted set.",
                                "key [count [WITHSCORES]]"),
                spec("zscan", -3, READONLY, 1, 1, 1, ZSetPopCommands::zscan)
                        .doc(g, "2.8.0", "Iterates over members and scores of a sorted set.",
                                "key cursor [MATCH pattern] [COUNT count]"),
                spec("zunion", -3, READONLY | MOVABLE_KEYS, 0, 0, 0, ZSetAlgebraCommands::zunion)
                        .doc(g, "6.2.0", "Returns the union of multiple sorted sets.",
                                "numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE <SUM | MIN | MAX>]"
                                        + " [WITHSCORES]"),
                spec("zinter", -3, READONLY | MOVABLE_KEYS, 0, 0, 0, ZSetAlgebraCommands::zinter)
                        .doc(g, "6.2.0", "Returns the intersect of multiple sorted sets.",
                                "numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE <SUM | MIN | MAX>]"
                                        + " [WITHSCORES]"),
                spec("zdiff", -3, READONLY | MOVABLE_KEYS, 0, 0, 0, ZSetAlgebraCommands::zdiff)
                        .doc(g, "6.2.0", "Returns the difference between multiple sorted sets.",
                                "numkeys key [key ...] [WITHSCORES]"),
                spec("zunionstore", -4, WRITE | DENYOOM | MOVABLE_KEYS, 1, 1, 1, ZSetAlgebraCommands::zunionstore)
                        .doc(g, "2.0.0", "Stores the union of multiple sorted sets in a key.",
                                "destination numkeys key [key ...] [WEIGHTS weight [weight ...]]"
                                        + " [AGGREGATE <SUM | MIN | MAX>]"),
                spec("zinterstore", -4, WRITE | DENYOOM | MOVABLE_KEYS, 1, 1, 1, ZSetAlgebraCommands::zinterstore)
                        .doc(g, "2.0.0", "Stores the intersect of multiple sorted sets in a key.",
                                "destination numkeys key [key ...] [WEIGHTS weight [weight ...]]"
                                        + " [AGGREGATE <SUM | MIN | MAX>]"),
                spec("zdiffstore", -4, WRITE | DENYOOM | MOVABLE_KEYS, 1, 1, 1, ZSetAlgebraCommands::zdiffstore)
                        .doc(g, "6.2.0", "Stores the difference of multiple sorted sets in a key.",
                                "destination numkeys key [key ...]"),
                spec("zintercard", -3, READONLY | MOVABLE_KEYS, 0, 0, 0, ZSetAlgebraCommands::zintercard)
                        .doc(g, "7.0.0", "Returns the number of members of the intersect of multiple sorted"
                                + " sets.", "numkeys key [key ...] [LIMIT limit]"));
    }

    // ---------------------------------------------------------------- ZADD / ZINCRBY

    /** ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...]. */
    static void zadd(Client c, byte[][] argv) {
        int flags = 0;
        int i = 2;
        for (; i < argv.length; i++) {
            byte[] a = argv[i];
            if (Arguments.is(a, "nx")) {
                flags |= SortedSet.NX;
            } else if (Arguments.is(a, "xx")) {
                flags |= SortedSet.XX;
            } else if (Arguments.is(a, "gt")) {
                flags |= SortedSet.GT;
            } else if (Arguments.is(a, "lt")) {
                flags |= SortedSet.LT;
            } else if (Arguments.is(a, "ch")) {
                flags |= CH;
            } else if (Arguments.is(a, "incr")) {
                flags |= SortedSet.INCR;
            } else {
                break;
            }
        }
        zaddGeneric(c, argv, i, flags);
    }

    /** ZINCRBY key increment member: ZADD key INCR increment member, with a NaN check. */
    static void zincrby(Client c, byte[][] argv) {
        zaddGeneric(c, argv, 2, SortedSet.INCR);
    }

    /**
     * The routine behind ZADD and ZINCRBY: checks the option combinations, parses every score
     * before touching the key (so a bad one changes nothing), then adds or updates.
     */
    private static void zaddGeneric(Client c, byte[][] argv, int first, int flags) {
        int elements = argv.length - first;
        if (elements == 0 || elements % 2 != 0) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        if ((flags & SortedSet.NX) != 0 && (flags & SortedSet.XX) != 0) {
            c.reply().error(Errors.ZADD_XX_NX);
            return;
        }
        int gtLtNx = flags & (SortedSet.GT | SortedSet.LT | SortedSet.NX);
        if (Integer.bitCount(gtLtNx) > 1) {
            c.reply().error(Errors.ZADD_GT_LT_NX);
            return;
        }
        boolean incr = (flags & SortedSet.INCR) != 0;
        int pairs = elements / 2;
        if (incr && pairs > 1) {
            c.reply().error(Errors.ZADD_INCR_PAIR);
            return;
        }
        double[] scores = new double[pairs];
        byte[][] members = new byte[pairs][];
        for (int p = 0; p < pairs; p++) {
            scores[p] = ZSetSupport.scoreOrReply(c, argv[first + 2 * p]);
            if (Double.isNaN(scores[p])) {
                return;
            }
            members[p] = argv[first + 2 * p + 1];
        }
        addScores(c, argv[1], members, scores, flags);
    }

    /**
     * The writing half of ZADD, shared with GEOADD: adds or updates {@code members} with their
     * parsed {@code scores} under the ZADD flags (plus {@code CH}) and replies as ZADD does.
     */
    static void addScores(Client c, byte[] key, byte[][] members, double[] scores, int flags) {
        int pairs = members.length;
        boolean incr = (flags & SortedSet.INCR) != 0;
        long maxMemberLength = 0;
        for (byte[] member : members) {
            maxMemberLength = Math.max(maxMemberLength, member.length);
        }
        Object v = ZSetSupport.lookupWrite(c, key);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        SortedSet set = (SortedSet) v;
        boolean created = false;
        if (set == null) {
            if ((flags & SortedSet.XX) != 0) {
                replyAddNothing(c, incr);
                return;
            }
            set = ZSetSupport.create(c, pairs, maxMemberLength);
            created = true;
        }
        long before = set.memoryBytes();
        long maxEntries = ZSetSupport.maxEntries(c);
        long maxValue = ZSetSupport.maxValue(c);
        // As Redis's zsetTypeMaybeConvert: more pairs than a listpack may hold convert it first,
        // whatever they turn out to add.
        boolean converted = !created && pairs > maxEntries && set.encoding().equals("listpack");
        if (converted) {
            set.toSkiplistEncoding();
        }
        long added = 0;
        long updated = 0;
        long processed = 0;
        for (int p = 0; p < pairs; p++) {
            int result = set.add(members[p], scores[p], flags, maxEntries, maxValue);
            if (result == SortedSet.NAN) {
                // only INCR (a single pair) can produce NaN, and then nothing has changed
                c.reply().error(Errors.ZSET_NAN);
                return;
            }
            if (result == SortedSet.ADDED) {
                added++;
            } else if (result == SortedSet.UPDATED) {
                updated++;
            }
            if (result != SortedSet.NOP) {
                processed++;
            }
        }
        String event = incr ? "zincr" : "zadd";
        if (created) {
            if (set.size() > 0) {
                ZSetSupport.storeNew(c, key, set, event);
            }
        } else if (added + updated > 0) {
            ZSetSupport.afterWrite(c, key, set, before, event);
        } else if (converted) {
            c.db().adjustMemory(set.memoryBytes() - before);
        }
        if (incr) {
            if (processed > 0) {
                c.reply().doubleValue(set.addedScore());
            } else {
                c.reply().nullBulk();
            }
        } else {
            c.reply().integer((flags & CH) != 0 ? added + updated : added);
        }
    }

    private static void replyAddNothing(Client c, boolean incr) {
        if (incr) {
            c.reply().nullBulk();
        } else {
            c.reply().integer(0);
        }
    }

    // ---------------------------------------------------------------- reads and removal

    static void zscore(Client c, byte[][] argv) {
        Object v = ZSetSupport.lookupRead(c, argv[1]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        double score = v == null ? Double.NaN : ((SortedSet) v).score(argv[2]);
        if (Double.isNaN(score)) {
            c.reply().nullBulk();
        } else {
            c.reply().doubleValue(score);
        }
    }

    static void zmscore(Client c, byte[][] argv) {
        ZSetSupport.replyPerMember(c, argv, false, RespWriter::doubleValue);
    }

    static void zcard(Client c, byte[][] argv) {
        Object v = ZSetSupport.lookupRead(c, argv[1]);
        if (v != Values.WRONG_TYPE) {
            c.reply().integer(v == null ? 0 : ((SortedSet) v).size());
        }
    }

    static void zrem(Client c, byte[][] argv) {
        Object v = ZSetSupport.lookupWrite(c, argv[1]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        if (v == null) {
            c.reply().integer(0);
            return;
        }
        SortedSet set = (SortedSet) v;
        long before = set.memoryBytes();
        long removed = 0;
        for (int i = 2; i < argv.length && set.size() > 0; i++) {
            if (set.remove(argv[i])) {
                removed++;
            }
        }
        if (removed > 0) {
            ZSetSupport.afterWrite(c, argv[1], set, before, "zrem");
        }
        c.reply().integer(removed);
    }

    static void zrank(Client c, byte[][] argv) {
        rankGeneric(c, argv, false);
    }

    static void zrevrank(Client c, byte[][] argv) {
        rankGeneric(c, argv, true);
    }

    /**
     * ZRANK / ZREVRANK key member [WITHSCORE] (WITHSCORE as Redis 7.2: [rank, score], and a
     * null array for a missing member).
     */
    private static void rankGeneric(Client c, byte[][] argv, boolean reverse) {
        if (argv.length > 4) {
            c.reply().error(Errors.wrongArity(reverse ? "zrevrank" : "zrank"));
            return;
        }
        boolean withScore = argv.length == 4;
        if (withScore && !Arguments.is(argv[3], "withscore")) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        Object v = ZSetSupport.lookupRead(c, argv[1]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        long rank = v == null ? -1 : ((SortedSet) v).rank(argv[2], reverse);
        RespWriter w = c.reply();
        if (rank < 0) {
            if (withScore) {
                w.nullArray();
            } else {
                w.nullBulk();
            }
        } else if (withScore) {
            w.arrayHeader(2);
            w.integer(rank);
            w.doubleValue(((SortedSet) v).score(argv[2]));
        } else {
            w.integer(rank);
        }
    }
}
