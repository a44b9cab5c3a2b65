package dev.ebb.server.differential;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * Seeded random commands over every data family, for {@link DifferentialTest}: a few keys per family
 * plus keys every family shares (so WRONGTYPE comes up often), small members and values, scores that
 * include infinities and malformed numbers, options in random combinations, and now and then a
 * command cut short (arity errors) or given a junk option (syntax errors). Commands whose reply is
 * random (SPOP, SRANDMEMBER, RANDOMKEY…) or depends on timing (TTL) are left out, because they would
 * also make the two servers' data diverge; commands whose reply order Redis leaves unspecified are
 * listed in {@link #UNORDERED} and {@link #UNORDERED_PAIRS}.
 */
final class CommandGenerator {
    /** Replies compared as multisets of elements. */
    static final Set<String> UNORDERED = Set.of("SMEMBERS", "SINTER", "SUNION", "SDIFF", "HKEYS", "HVALS", "KEYS");
    /** Replies compared as multisets of (field, value) pairs. */
    static final Set<String> UNORDERED_PAIRS = Set.of("HGETALL");

    private final Random random;
    private final List<Function<Random, List<String>>> templates = new ArrayList<>();

    CommandGenerator(long seed) {
        this.random = new Random(seed);
        strings();
        lists();
        hashes();
        sets();
        sortedSets();
        keys();
    }

    /** The next command, as its arguments. */
    List<String> next() {
        List<String> args = new ArrayList<>(templates.get(random.nextInt(templates.size())).apply(random));
        int roll = random.nextInt(100);
        if (roll < 3 && args.size() > 1) {
            return new ArrayList<>(args.subList(0, 1 + random.nextInt(args.size() - 1)));
        } else if (roll < 5) {
            args.add(random.nextBoolean() ? "NOSUCHOPTION" : "7");
        }
        return args;
    }

    private void add(Function<Random, List<String>> template) {
        templates.add(template);
    }

    private static List<String> of(String... args) {
        return Arrays.asList(args);
    }

    private static String pick(Random r, String... choices) {
        return choices[r.nextInt(choices.length)];
    }

    private static String key(Random r, String family) {
        return r.nextInt(10) < 8 ? family + r.nextInt(4) : "shared" + r.nextInt(2);
    }

    private static String member(Random r) {
        return "m" + r.nextInt(8);
    }

    private static String value(Random r) {
        return switch (r.nextInt(6)) {
            case 0 -> String.valueOf(r.nextInt(200) - 50);
            case 1 -> "";
            case 2 -> "v" + r.nextInt(5);
            case 3 -> "1.5";
            case 4 -> "x".repeat(1 + r.nextInt(70));
            default -> "hello world";
        };
    }

    private static String integer(Random r) {
        return switch (r.nextInt(12)) {
            case 0 -> "abc";
            case 1 -> "9223372036854775807";
            case 2 -> "-9223372036854775808";
            default -> String.valueOf(r.nextInt(21) - 10);
        };
    }

    private static String score(Random r) {
        return switch (r.nextInt(14)) {
            case 0 -> "inf";
            case 1 -> "-inf";
            case 2 -> "nope";
            case 3 -> "1.5";
            case 4 -> "-0.25";
            case 5 -> "1e3";
            default -> String.valueOf(r.nextInt(11) - 5);
        };
    }

    private static String bound(Random r) {
        String s = score(r);
        return r.nextInt(4) == 0 ? "(" + s : s;
    }

    private static String lexBound(Random r) {
        return switch (r.nextInt(6)) {
            case 0 -> "-";
            case 1 -> "+";
            case 2 -> "m" + r.nextInt(8);
            default -> pick(r, "[", "(") + "m" + r.nextInt(8);
        };
    }

    private void strings() {
        add(r -> {
            List<String> a = new ArrayList<>(of("SET", key(r, "s"), value(r)));
            if (r.nextBoolean()) {
                a.add(pick(r, "NX", "XX", "GET", "KEEPTTL"));
            }
            return a;
        });
        add(r -> of("GET", key(r, "s")));
        add(r -> of("APPEND", key(r, "s"), value(r)));
        add(r -> of(pick(r, "INCR", "DECR"), key(r, "s")));
        add(r -> of(pick(r, "INCRBY", "DECRBY"), key(r, "s"), integer(r)));
        add(r -> of("INCRBYFLOAT", key(r, "s"), pick(r, "1.5", "-0.1", "3", "1e2", "abc", "10.5e3")));
        add(r -> of("STRLEN", key(r, "s")));
        add(r -> of("GETRANGE", key(r, "s"), integer(r), integer(r)));
        add(r -> of("SETRANGE", key(r, "s"), String.valueOf(r.nextInt(12)), value(r)));
        add(r -> of("MGET", key(r, "s"), key(r, "s"), key(r, "l")));
        add(r -> of("MSET", key(r, "s"), value(r), key(r, "s"), value(r)));
        add(r -> of(pick(r, "SETNX", "GETSET"), key(r, "s"), value(r)));
        add(r -> of("GETDEL", key(r, "s")));
        add(r -> of("SETBIT", key(r, "s"), String.valueOf(r.nextInt(40)), pick(r, "0", "1", "2")));
        add(r -> of("GETBIT", key(r, "s"), String.valueOf(r.nextInt(40))));
        add(r -> of("BITCOUNT", key(r, "s")));
        add(r -> of("BITPOS", key(r, "s"), pick(r, "0", "1")));
        add(r -> of("LCS", key(r, "s"), key(r, "s")));
    }

    private void lists() {
        add(r -> of(pick(r, "LPUSH", "RPUSH"), key(r, "l"), member(r), member(r)));
        add(r -> of(pick(r, "LPUSHX", "RPUSHX"), key(r, "l"), member(r)));
        add(r -> r.nextBoolean() ? of(pick(r, "LPOP", "RPOP"), key(r, "l"))
                : of(pick(r, "LPOP", "RPOP"), key(r, "l"), integer(r)));
        add(r -> of("LLEN", key(r, "l")));
        add(r -> of("LRANGE", key(r, "l"), integer(r), integer(r)));
        add(r -> of("LINDEX", key(r, "l"), integer(r)));
        add(r -> of("LSET", key(r, "l"), integer(r), member(r)));
        add(r -> of("LINSERT", key(r, "l"), pick(r, "BEFORE", "AFTER", "MIDDLE"), member(r), member(r)));
        add(r -> of("LREM", key(r, "l"), integer(r), member(r)));
        add(r -> of("LTRIM", key(r, "l"), integer(r), integer(r)));
        add(r -> r.nextBoolean() ? of("LPOS", key(r, "l"), member(r))
                : of("LPOS", key(r, "l"), member(r), "RANK", integer(r), "COUNT", String.valueOf(r.nextInt(3))));
        add(r -> of("LMOVE", key(r, "l"), key(r, "l"), pick(r, "LEFT", "RIGHT"), pick(r, "LEFT", "RIGHT")));
        add(r -> of("RPOPLPUSH", key(r, "l"), key(r, "l")));
        add(r -> of("LMPOP", "2", key(r, "l"), key(r, "l"), pick(r, "LEFT", "RIGHT"), "COUNT", integer(r)));
    }

    private void hashes() {
        add(r -> of("HSET", key(r, "h"), member(r), value(r), member(r), value(r)));
        add(r -> of("HSETNX", key(r, "h"), member(r), value(r)));
        add(r -> of("HGET", key(r, "h"), member(r)));
        add(r -> of("HMGET", key(r, "h"), member(r), member(r)));
        add(r -> of("HDEL", key(r, "h"), member(r), member(r)));
        add(r -> of(pick(r, "HLEN", "HGETALL", "HKEYS", "HVALS"), key(r, "h")));
        add(r -> of("HEXISTS", key(r, "h"), member(r)));
        add(r -> of("HINCRBY", key(r, "h"), member(r), integer(r)));
        add(r -> of("HINCRBYFLOAT", key(r, "h"), member(r), pick(r, "1.5", "-2", "abc", "0.1")));
        add(r -> of("HSTRLEN", key(r, "h"), member(r)));
    }

    private void sets() {
        add(r -> of("SADD", key(r, "t"), member(r), pick(r, "1", "2", "300", member(r))));
        add(r -> of("SREM", key(r, "t"), member(r), member(r)));
        add(r -> of(pick(r, "SCARD", "SMEMBERS"), key(r, "t")));
        add(r -> of("SISMEMBER", key(r, "t"), member(r)));
        add(r -> of("SMISMEMBER", key(r, "t"), member(r), member(r)));
        add(r -> of(pick(r, "SINTER", "SUNION", "SDIFF"), key(r, "t"), key(r, "t")));
        add(r -> of(pick(r, "SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE"), key(r, "t"), key(r, "t"), key(r, "t")));
        add(r -> of("SMOVE", key(r, "t"), key(r, "t"), member(r)));
        add(r -> of("SINTERCARD", "2", key(r, "t"), key(r, "t")));
    }

    private void sortedSets() {
        add(r -> {
            List<String> a = new ArrayList<>(of("ZADD", key(r, "z")));
            if (r.nextInt(3) == 0) {
                a.add(pick(r, "NX", "XX", "GT", "LT", "CH"));
            }
            if (r.nextInt(6) == 0) {
                a.add("INCR");
            }
            a.add(score(r));
            a.add(member(r));
            if (r.nextBoolean()) {
                a.add(score(r));
                a.add(member(r));
            }
            return a;
        });
        add(r -> of("ZINCRBY", key(r, "z"), score(r), member(r)));
        add(r -> of("ZSCORE", key(r, "z"), member(r)));
        add(r -> of("ZMSCORE", key(r, "z"), member(r), member(r)));
        add(r -> of("ZCARD", key(r, "z")));
        add(r -> of("ZCOUNT", key(r, "z"), bound(r), bound(r)));
        add(r -> r.nextBoolean() ? of(pick(r, "ZRANK", "ZREVRANK"), key(r, "z"), member(r))
                : of(pick(r, "ZRANK", "ZREVRANK"), key(r, "z"), member(r), "WITHSCORE"));
        add(r -> r.nextBoolean() ? of("ZRANGE", key(r, "z"), integer(r), integer(r))
                : of("ZRANGE", key(r, "z"), integer(r), integer(r), "WITHSCORES"));
        add(r -> of("ZRANGE", key(r, "z"), bound(r), bound(r), "BYSCORE", pick(r, "REV", "WITHSCORES"), "LIMIT",
                integer(r), integer(r)));
        add(r -> of(pick(r, "ZRANGEBYSCORE", "ZREVRANGEBYSCORE"), key(r, "z"), bound(r), bound(r), "WITHSCORES"));
        add(r -> of(pick(r, "ZRANGEBYLEX", "ZREVRANGEBYLEX", "ZLEXCOUNT"), key(r, "z"), lexBound(r), lexBound(r)));
        add(r -> of("ZREVRANGE", key(r, "z"), integer(r), integer(r), "WITHSCORES"));
        add(r -> of("ZREM", key(r, "z"), member(r), member(r)));
        add(r -> of("ZREMRANGEBYRANK", key(r, "z"), integer(r), integer(r)));
        add(r -> of("ZREMRANGEBYSCORE", key(r, "z"), bound(r), bound(r)));
        add(r -> r.nextBoolean() ? of(pick(r, "ZPOPMIN", "ZPOPMAX"), key(r, "z"))
                : of(pick(r, "ZPOPMIN", "ZPOPMAX"), key(r, "z"), integer(r)));
        add(r -> of(pick(r, "ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE"), key(r, "z"), "2", key(r, "z"),
                key(r, "t")));
        add(r -> of(pick(r, "ZUNIONSTORE", "ZINTERSTORE"), key(r, "z"), "2", key(r, "z"), key(r, "z"),
                "WEIGHTS", score(r), score(r), "AGGREGATE", pick(r, "SUM", "MIN", "MAX")));
        add(r -> of(pick(r, "ZUNION", "ZINTER", "ZDIFF"), "2", key(r, "z"), key(r, "z"), "WITHSCORES"));
        add(r -> of("ZRANGESTORE", key(r, "z"), key(r, "z"), integer(r), integer(r)));
        add(r -> of("ZINTERCARD", "2", key(r, "z"), key(r, "z")));
    }

    private void keys() {
        String[] families = {"s", "l", "h", "t", "z"};
        add(r -> of("DEL", key(r, pick(r, families)), key(r, pick(r, families))));
        add(r -> of("EXISTS", key(r, pick(r, families)), key(r, pick(r, families))));
        add(r -> of("TYPE", key(r, pick(r, families))));
        add(r -> of(pick(r, "RENAME", "RENAMENX"), key(r, pick(r, families)), key(r, pick(r, families))));
        add(r -> r.nextBoolean() ? of("COPY", key(r, pick(r, families)), key(r, pick(r, families)))
                : of("COPY", key(r, pick(r, families)), key(r, pick(r, families)), "REPLACE"));
        add(r -> of("EXPIRE", key(r, pick(r, families)), "1000", pick(r, "NX", "XX", "GT", "LT")));
        add(r -> of("PERSIST", key(r, pick(r, families))));
        add(r -> of("OBJECT", "ENCODING", key(r, pick(r, families))));
        add(r -> {
            List<String> a = new ArrayList<>(of(pick(r, "SORT", "SORT_RO"), key(r, pick(r, "l", "t", "z"))));
            if (r.nextBoolean()) {
                a.add("ALPHA");
            }
            if (r.nextBoolean()) {
                a.add(pick(r, "ASC", "DESC"));
            }
            if (r.nextInt(3) == 0) {
                a.addAll(of("LIMIT", integer(r), integer(r)));
            }
            if (r.nextInt(4) == 0) {
                a.addAll(of("BY", pick(r, "nosort", "s*", "h*->m1")));
            }
            if (r.nextInt(4) == 0) {
                a.addAll(of("GET", pick(r, "#", "s*", "h*->m2")));
            }
            return a;
        });
        add(r -> of("BITFIELD", key(r, "s"), pick(r, "OVERFLOW", "GET"), pick(r, "WRAP", "SAT", "FAIL", "u8"),
                pick(r, "INCRBY", "SET", "GET"), pick(r, "u8", "i5", "i64", "u63", "u64", "x1"),
                pick(r, "#1", "3", "100", "-1"), integer(r)));
        add(r -> of("PFADD", key(r, pick(r, "p", "s")), member(r), value(r)));
        add(r -> of("PFCOUNT", key(r, pick(r, "p", "s")), key(r, "p")));
        add(r -> of("PFMERGE", key(r, "p"), key(r, "p"), key(r, pick(r, "p", "s"))));
        add(r -> of("DBSIZE"));
        add(r -> of("KEYS", pick(r, "*", "s*", "shared?", "[hz]1")));
    }
}
