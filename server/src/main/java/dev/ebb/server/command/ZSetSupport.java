package dev.ebb.server.command;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.Database;
import dev.ebb.storage.zset.LexRange;
import dev.ebb.storage.zset.ScoreRange;
import dev.ebb.storage.zset.SortedSet;
import java.nio.charset.StandardCharsets;

/**
 * What the sorted set commands share: key look-ups that reply WRONGTYPE, the write epilogue
 * (memory accounting, deleting an emptied set), score and range parsing with Redis's errors, and
 * the member/score reply shapes of RESP2 and RESP3.
 */
final class ZSetSupport {
    private ZSetSupport() {
    }

    // ---------------------------------------------------------------- look-ups

    /**
     * The sorted set at {@code key} for a read, or null if there is none; replies WRONGTYPE and
     * returns {@link Values#WRONG_TYPE} for another type. Counts a keyspace hit or miss.
     */
    static Object lookupRead(Client c, byte[] key) {
        Object v = c.db().lookupRead(key, c.server().nowMs());
        c.server().stats().lookup(v != null);
        return checkType(c, v);
    }

    /** Writes one member's entry of a {@link #replyPerMember} array from its score. */
    @FunctionalInterface
    interface ScoreReply {
        void write(RespWriter w, double score);
    }

    /**
     * ZMSCORE, GEOPOS, GEOHASH: the sorted set at {@code argv[1]} is looked up (WRONGTYPE replied for
     * another type) and the reply is an array with one entry per member {@code argv[2..]}: written by
     * {@code present} from its score, or a null (a null array if {@code missingAsArray}) when the
     * member or the key is missing.
     */
    static void replyPerMember(Client c, byte[][] argv, boolean missingAsArray, ScoreReply present) {
        Object v = lookupRead(c, argv[1]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        RespWriter w = c.reply();
        w.arrayHeader(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            double score = v == null ? Double.NaN : ((SortedSet) v).score(argv[i]);
            if (!Double.isNaN(score)) {
                present.write(w, score);
            } else if (missingAsArray) {
                w.nullArray();
            } else {
                w.nullBulk();
            }
        }
    }

    /** As {@link #lookupRead} for a command about to write the key (no hit/miss count). */
    static Object lookupWrite(Client c, byte[] key) {
        return checkType(c, c.db().lookupWrite(key, c.server().nowMs()));
    }

    private static Object checkType(Client c, Object v) {
        if (v == null || v instanceof SortedSet) {
            return v;
        }
        c.reply().error(Errors.WRONGTYPE);
        return Values.WRONG_TYPE;
    }

    /** A new, empty set sized for {@code sizeHint} members of up to {@code maxMemberLength} bytes. */
    static SortedSet create(Client c, long sizeHint, long maxMemberLength) {
        return SortedSet.create(sizeHint, maxMemberLength, maxEntries(c), maxValue(c));
    }

    static long maxEntries(Client c) {
        return c.server().config().zsetMaxListpackEntries();
    }

    static long maxValue(Client c) {
        return c.server().config().zsetMaxListpackValue();
    }

    /**
     * After a stored set was changed in place (call it only if something changed): reports the
     * size change to the database, signals the key (WATCH), publishes the keyspace event
     * {@code event}, and deletes the key if the set is now empty (Redis never keeps an empty
     * aggregate), publishing "del". See {@link Aggregates#changed}.
     */
    static void afterWrite(Client c, byte[] key, SortedSet set, long bytesBefore, String event) {
        Aggregates.changed(c, key, set, bytesBefore, set.size() == 0, NotifyKeyspaceEvents.ZSET, event);
    }

    /**
     * Stores a sorted set this command created at the missing {@code key}, publishes
     * {@code event} and wakes clients blocked on the key (BZPOPMIN …).
     */
    static void storeNew(Client c, byte[] key, SortedSet set, String event) {
        Aggregates.created(c, key, set, NotifyKeyspaceEvents.ZSET, event);
        c.server().blockingKeys().signalKeyAsReady(c.db(), key);
    }

    /**
     * Stores a freshly built result at {@code key} (ZUNIONSTORE, ZRANGESTORE …), replacing any
     * value and time to live, or deletes the key when the result is empty, as Redis does.
     */
    static void storeResult(Client c, byte[] key, SortedSet result, String event) {
        Database db = c.db();
        long now = c.server().nowMs();
        if (result.size() == 0) {
            db.expireIfNeeded(key, now);
            if (db.delete(key) != null) {
                Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", key);
            }
        } else {
            db.setKey(key, result, now);
            Notifications.notify(c, NotifyKeyspaceEvents.ZSET, event, key);
            c.server().blockingKeys().signalKeyAsReady(db, key);
        }
    }

    // ---------------------------------------------------------------- numbers

    /**
     * Parses a score or increment as Redis's getDoubleFromObject: decimal, exponent, hexadecimal or
     * {@code inf} forms, no spaces, no NaN, and no overflow to infinity or underflow to zero.
     *
     * @return the value, or NaN if it is not a valid float
     */
    static double parseScore(byte[] arg) {
        double d;
        try {
            d = Arguments.parseDouble(arg);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
        if (Double.isInfinite(d) && !isInfinityWord(arg, 0)) {
            return Double.NaN;
        }
        if (d == 0 && hasNonZeroDigitBeforeExponent(arg)) {
            return Double.NaN;
        }
        return d;
    }

    /** {@link #parseScore} replying {@code ERR value is not a valid float}; NaN after replying. */
    static double scoreOrReply(Client c, byte[] arg) {
        double d = parseScore(arg);
        if (Double.isNaN(d)) {
            c.reply().error(Errors.NOT_FLOAT);
        }
        return d;
    }

    private static boolean isInfinityWord(byte[] arg, int from) {
        String s = new String(arg, from, arg.length - from, StandardCharsets.ISO_8859_1)
                .toLowerCase(java.util.Locale.ROOT);
        if (s.startsWith("+") || s.startsWith("-")) {
            s = s.substring(1);
        }
        return s.equals("inf") || s.equals("infinity");
    }

    /** Whether the mantissa has a digit other than 0 (then a zero value is an underflow); hex-aware. */
    private static boolean hasNonZeroDigitBeforeExponent(byte[] arg) {
        int i = arg.length > 0 && (arg[0] == '-' || arg[0] == '+') ? 1 : 0;
        boolean hex = arg.length > i + 1 && arg[i] == '0' && (arg[i + 1] == 'x' || arg[i + 1] == 'X');
        for (i = hex ? i + 2 : i; i < arg.length; i++) {
            byte b = arg[i];
            if (hex ? b == 'p' || b == 'P' : b == 'e' || b == 'E') {
                return false;
            }
            if ((b >= '1' && b <= '9') || (hex && Character.digit(b, 16) > 0)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Parses one bound of a score range as Redis's zslParseRange: an optional {@code (} for an
     * exclusive bound, then what C's strtod accepts in full (leading spaces allowed, the empty
     * string is 0, overflow gives an infinity); NaN is refused.
     *
     * @return the bound, or NaN if it is invalid
     */
    static double parseRangeBound(byte[] arg, int from) {
        int i = from;
        while (i < arg.length && isSpace(arg[i])) {
            i++;
        }
        if (i == arg.length) {
            return i == from ? 0 : Double.NaN;
        }
        try {
            return Arguments.strtod(new String(arg, i, arg.length - i, StandardCharsets.ISO_8859_1));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || (b >= '\t' && b <= '\r');
    }

    /** Parses {@code min max} of a score range; replies {@code ERR min or max is not a float} and returns null. */
    static ScoreRange scoreRangeOrReply(Client c, byte[] min, byte[] max) {
        boolean minEx = min.length > 0 && min[0] == '(';
        boolean maxEx = max.length > 0 && max[0] == '(';
        double lo = parseRangeBound(min, minEx ? 1 : 0);
        double hi = parseRangeBound(max, maxEx ? 1 : 0);
        if (Double.isNaN(lo) || Double.isNaN(hi)) {
            c.reply().error(Errors.ZSET_MIN_MAX_NOT_FLOAT);
            return null;
        }
        return new ScoreRange(lo, minEx, hi, maxEx);
    }

    /** Parses {@code min max} of a lex range; replies {@code ERR min or max not valid string range item} and returns null. */
    static LexRange lexRangeOrReply(Client c, byte[] min, byte[] max) {
        LexRange range = LexRange.parse(min, max);
        if (range == null) {
            c.reply().error(Errors.ZSET_LEX_RANGE);
        }
        return range;
    }

    // ---------------------------------------------------------------- replies

    /**
     * The header of a list of {@code count} members, with scores if asked: RESP2 a flat array
     * (member, score, member, score …), RESP3 an array of [member, score] pairs.
     */
    static void entriesHeader(RespWriter w, long count, boolean withScores) {
        if (withScores && w.protocol() == 2) {
            w.arrayHeader((int) (count * 2));
        } else {
            w.arrayHeader((int) count);
        }
    }

    /** One member of a list opened by {@link #entriesHeader}. */
    static void entry(RespWriter w, byte[] member, double score, boolean withScores) {
        if (!withScores) {
            w.bulk(member);
            return;
        }
        if (w.protocol() == 3) {
            w.arrayHeader(2);
        }
        w.bulk(member);
        w.doubleValue(score);
    }
}
