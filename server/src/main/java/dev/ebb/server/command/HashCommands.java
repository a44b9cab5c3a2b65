package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.storage.types.HashValue;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The hash family: HSET, HGET, HINCRBY, HRANDFIELD, HSCAN … over {@link HashValue}. Writes go
 * through {@link #hashForWriteOrReply} (creating the hash when asked) and end with
 * {@link #finishWrite}, which stores a new hash or ends the change of an existing one through
 * {@link Aggregates#changed} (memory, WATCH signal, keyspace event, deletion once empty).
 */
public final class HashCommands {
    /** Largest HRANDFIELD count WITH VALUES Redis accepts (LONG_MAX / 2). */
    private static final long RANDFIELD_MAX_WITH_VALUES = Long.MAX_VALUE / 2;
    /** Redis's threshold: for counts above size / 3 it copies the hash and removes, below it samples. */
    private static final int RANDOM_SAMPLE_FACTOR = 3;

    private HashCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("hset", -4, WRITE | DENYOOM | FAST, 1, 1, 1, HashCommands::hset)
                        .doc(CommandGroup.HASH, "2.0.0", "Creates or modifies the value of a field in a hash.",
                                "key field value [field value ...]"),
                spec("hsetnx", 4, WRITE | DENYOOM | FAST, 1, 1, 1, HashCommands::hsetnx)
                        .doc(CommandGroup.HASH, "2.0.0",
                                "Sets the value of a field in a hash only when the field doesn't exist.",
                                "key field value"),
                spec("hmset", -4, WRITE | DENYOOM | FAST, 1, 1, 1, HashCommands::hmset)
                        .doc(CommandGroup.HASH, "2.0.0", "Sets the values of multiple fields.",
                                "key field value [field value ...]"),
                spec("hget", 3, READONLY | FAST, 1, 1, 1, HashCommands::hget)
                        .doc(CommandGroup.HASH, "2.0.0", "Returns the value of a field in a hash.", "key field"),
                spec("hmget", -3, READONLY | FAST, 1, 1, 1, HashCommands::hmget)
                        .doc(CommandGroup.HASH, "2.0.0", "Returns the values of all fields in a hash.",
                                "key field [field ...]"),
                spec("hgetall", 2, READONLY, 1, 1, 1, HashCommands::hgetall)
                        .doc(CommandGroup.HASH, "2.0.0", "Returns all fields and values in a hash.", "key"),
                spec("hdel", -3, WRITE | FAST, 1, 1, 1, HashCommands::hdel)
                        .doc(CommandGroup.HASH, "2.0.0",
                                "Deletes one or more fields and their values from a hash."
                                        + " Deletes the hash if no fields remain.", "key field [field ...]"),
                spec("hexists", 3, READONLY | FAST, 1, 1, 1, HashCommands::hexists)
                        .doc(CommandGroup.HASH, "2.0.0", "Determines whether a field exists in a hash.",
                                "key field"),
                spec("hlen", 2, READONLY | FAST, 1, 1, 1, HashCommands::hlen)
                        .doc(CommandGroup.HASH, "2.0.0", "Returns the number of fields in a hash.", "key"),
                spec("hstrlen", 3, READONLY | FAST, 1, 1, 1, HashCommands::hstrlen)
                        .doc(CommandGroup.HASH, "3.2.0", "Returns the length of the value of a field.",
                                "key field"),
                spec("hkeys", 2, READONLY, 1, 1, 1, HashCommands::hkeys)
                        .doc(CommandGroup.HASH, "2.0.0", "Returns all fields in a hash.", "key"),
                spec("hvals", 2, READONLY, 1, 1, 1, HashCommands::hvals)
                        .doc(CommandGroup.HASH, "2.0.0", "Returns all values in a hash.", "key"),
                spec("hincrby", 4, WRITE | DENYOOM | FAST, 1, 1, 1, HashCommands::hincrby)
                        .doc(CommandGroup.HASH, "2.0.0",
                                "Increments the integer value of a field in a hash by a number."
                                        + " Uses 0 as initial value if the field doesn't exist.",
                                "key field increment"),
                spec("hincrbyfloat", 4, WRITE | DENYOOM | FAST, 1, 1, 1, HashCommands::hincrbyfloat)
                        .doc(CommandGroup.HASH, "2.6.0",
                                "Increments the floating point value of a field by a number."
                                        + " Uses 0 as initial value if the field doesn't exist.",
                                "key field increment"),
                spec("hrandfield", -2, READONLY, 1, 1, 1, HashCommands::hrandfield)
                        .doc(CommandGroup.HASH, "6.2.0", "Returns one or more random fields from a hash.",
                                "key [count [WITHVALUES]]"),
                spec("hscan", -3, READONLY, 1, 1, 1, HashCommands::hscan)
                        .doc(CommandGroup.HASH, "2.8.0", "Iterates over fields and values of a hash.",
                                "key cursor [MATCH pattern] [COUNT count]"));
    }

    /**
     * The hash at {@code key} for a read, its due fields expired first: the hash, null if missing,
     * {@link Values#WRONG_TYPE} after replying.
     */
    private static Object hashForReadOrReply(Client c, byte[] key) {
        return HashFieldExpiryCommands.hashOrReply(c, key, false);
    }

    /** The hash at {@code key} for a write: the hash, null if missing, {@link Values#WRONG_TYPE} after replying. */
    private static Object hashForWriteOrReply(Client c, byte[] key) {
        return HashFieldExpiryCommands.hashOrReply(c, key, true);
    }

    /**
     * Stores a hash created by this command, or accounts for the change of an existing one, and
     * publishes the keyspace event {@code event} (Redis's signalModifiedKey and notification).
     */
    private static void finishWrite(Client c, byte[] key, HashValue h, boolean created, long before, String event) {
        if (created) {
            Aggregates.created(c, key, h, NotifyKeyspaceEvents.HASH, event);
        } else {
            HashFieldExpiryCommands.finish(c, key, h, before, event);
        }
    }

    private static boolean put(Client c, HashValue h, byte[] field, byte[] value) {
        ServerConfig config = c.server().config();
        return h.put(field, value, config.hashMaxListpackEntries(), config.hashMaxListpackValue());
    }

    /** HINCRBY's write: an existing live field keeps its time to live (as Redis 7.4); a new or expired one has none. */
    private static void putKeepTtl(Client c, HashValue h, byte[] field, byte[] value, boolean live) {
        if (!live) {
            put(c, h, field, value);
            return;
        }
        ServerConfig config = c.server().config();
        h.putKeepTtl(field, value, config.hashMaxListpackEntries(), config.hashMaxListpackValue());
    }

    static void hset(Client c, byte[][] argv) {
        long added = hsetGeneric(c, argv, "hset");
        if (added >= 0) {
            c.reply().integer(added);
        }
    }

    static void hmset(Client c, byte[][] argv) {
        if (hsetGeneric(c, argv, "hmset") >= 0) {
            c.reply().ok();
        }
    }

    /** HSET and HMSET: the number of new fields, or -1 after replying an error. */
    private static long hsetGeneric(Client c, byte[][] argv, String name) {
        if (argv.length % 2 != 0) {
            c.reply().error(Errors.wrongArity(name));
            return -1;
        }
        Object found = hashForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return -1;
        }
        HashValue h = found == null ? new HashValue() : (HashValue) found;
        long before = h.memoryBytes();
        // As Redis's hashTypeTryConversion: more pairs than a listpack may hold convert it first.
        h.convertForNewFields((argv.length - 2) / 2, c.server().config().hashMaxListpackEntries());
        long added = 0;
        for (int i = 2; i < argv.length; i += 2) {
            if (put(c, h, argv[i], argv[i + 1])) {
                added++;
            }
        }
        finishWrite(c, argv[1], h, found == null, before, "hset");
        return added;
    }

    static void hsetnx(Client c, byte[][] argv) {
        Object found = hashForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        HashValue h = found == null ? new HashValue() : (HashValue) found;
        if (h.get(argv[2], c.server().nowMs()) != null) {
            c.reply().integer(0);
            return;
        }
        long before = h.memoryBytes();
        put(c, h, argv[2], argv[3]);
        finishWrite(c, argv[1], h, found == null, before, "hset");
        c.reply().integer(1);
    }

    static void hget(Client c, byte[][] argv) {
        Object found = hashForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        c.reply().bulk(found == null ? null : ((HashValue) found).get(argv[2], c.server().nowMs()));
    }

    static void hmget(Client c, byte[][] argv) {
        Object found = hashForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        c.reply().arrayHeader(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            c.reply().bulk(found == null ? null : ((HashValue) found).get(argv[i], c.server().nowMs()));
        }
    }

    static void hgetall(Client c, byte[][] argv) {
        Object found = hashForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().mapHeader(0);
            return;
        }
        HashValue h = (HashValue) found;
        long now = c.server().nowMs();
        c.reply().mapHeader(h.liveSize(now));
        h.forEachLive(now, (field, value) -> {
            c.reply().bulk(field);
            c.reply().bulk(value);
        });
    }

    static void hkeys(Client c, byte[][] argv) {
        replyAll(c, argv, true);
    }

    static void hvals(Client c, byte[][] argv) {
        replyAll(c, argv, false);
    }

    private static void replyAll(Client c, byte[][] argv, boolean fields) {
        Object found = hashForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().arrayHeader(0);
            return;
        }
        HashValue h = (HashValue) found;
        long now = c.server().nowMs();
        c.reply().arrayHeader(h.liveSize(now));
        h.forEachLive(now, (field, value) -> c.reply().bulk(fields ? field : value));
    }

    static void hdel(Client c, byte[][] argv) {
        Object found = hashForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().integer(0);
            return;
        }
        HashValue h = (HashValue) found;
        long before = h.memoryBytes();
        long deleted = 0;
        for (int i = 2; i < argv.length && h.size() > 0; i++) {
            if (h.remove(argv[i])) {
                deleted++;
            }
        }
        if (deleted > 0) {
            HashFieldExpiryCommands.finish(c, argv[1], h, before, "hdel");
        }
        c.reply().integer(deleted);
    }

    static void hexists(Client c, byte[][] argv) {
        Object found = hashForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        c.reply().integer(found != null && ((HashValue) found).get(argv[2], c.server().nowMs()) != null ? 1 : 0);
    }

    static void hlen(Client c, byte[][] argv) {
        Object found = hashForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        c.reply().integer(found == null ? 0 : ((HashValue) found).liveSize(c.server().nowMs()));
    }

    static void hstrlen(Client c, byte[][] argv) {
        Object found = hashForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        byte[] value = found == null ? null : ((HashValue) found).get(argv[2], c.server().nowMs());
        c.reply().integer(value == null ? 0 : value.length);
    }

    /** HINCRBY: the increment is checked first, then the key's type, then the field's value, as Redis does. */
    static void hincrby(Client c, byte[][] argv) {
        if (!Arguments.isLongOrReply(c, argv[3])) {
            return;
        }
        long increment = Arguments.parseLong(argv[3]);
        Object found = hashForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        HashValue h = found == null ? new HashValue() : (HashValue) found;
        byte[] current = h.get(argv[2], c.server().nowMs());
        long value = 0;
        if (current != null) {
            try {
                value = Arguments.parseLong(current);
            } catch (NumberFormatException e) {
                c.reply().error(Errors.HASH_VALUE_NOT_INTEGER);
                return;
            }
        }
        if ((increment < 0 && value < 0 && increment < Long.MIN_VALUE - value)
                || (increment > 0 && value > 0 && increment > Long.MAX_VALUE - value)) {
            c.reply().error(Errors.INCR_OVERFLOW);
            return;
        }
        long result = value + increment;
        long before = h.memoryBytes();
        putKeepTtl(c, h, argv[2], StringCommands.decimalBytes(result), current != null);
        finishWrite(c, argv[1], h, found == null, before, "hincrby");
        c.reply().integer(result);
    }

    /** HINCRBYFLOAT: Redis's long double sum, printed as INCRBYFLOAT prints it. */
    static void hincrbyfloat(Client c, byte[][] argv) {
        LongDouble increment = LongDouble.parse(argv[3]);
        if (increment == null) {
            c.reply().error(Errors.NOT_FLOAT);
            return;
        }
        if (!increment.isFinite()) {
            c.reply().error(Errors.NAN_OR_INFINITY);
            return;
        }
        Object found = hashForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        HashValue h = found == null ? new HashValue() : (HashValue) found;
        byte[] current = h.get(argv[2], c.server().nowMs());
        LongDouble value = current == null ? LongDouble.ZERO : LongDouble.parse(current);
        if (value == null) {
            c.reply().error(Errors.HASH_VALUE_NOT_FLOAT);
            return;
        }
        LongDouble sum = value.plus(increment);
        if (!sum.isFinite()) {
            c.reply().error(Errors.INCR_NAN_OR_INF);
            return;
        }
        byte[] text = sum.toHumanBytes();
        long before = h.memoryBytes();
        putKeepTtl(c, h, argv[2], text, current != null);
        finishWrite(c, argv[1], h, found == null, before, "hincrbyfloat");
        Propagate.as(c, Propagate.HSET, argv[1], argv[2], text);
        c.reply().bulk(text);
    }

    /**
     * HRANDFIELD key [count [WITHVALUES]], Redis's four cases: a negative count draws with
     * repetition (O(count)); a count at least the size returns the whole hash; a count above a
     * third of the size copies the fields and drops random ones; a smaller count draws distinct
     * fields until it has enough (O(count) expected).
     */
    static void hrandfield(Client c, byte[][] argv) {
        if (argv.length == 2) {
            Object found = hashForReadOrReply(c, argv[1]);
            if (found == Values.WRONG_TYPE) {
                return;
            }
            if (found == null) {
                c.reply().nullBulk();
                return;
            }
            HashValue h = (HashValue) found;
            if (h.liveSize(c.server().nowMs()) < h.size()) {
                List<byte[]> live = liveFields(c, h);
                c.reply().bulk(live.isEmpty() ? null : live.get(ThreadLocalRandom.current().nextInt(live.size() / 2) * 2));
                return;
            }
            c.reply().bulk(h.fieldAt(h.randomPosition(ThreadLocalRandom.current().nextLong())));
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
        boolean withValues = argv.length == 4 && Arguments.is(argv[3], "withvalues");
        if (argv.length > 4 || (argv.length == 4 && !withValues)) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        if (withValues && (count < -RANDFIELD_MAX_WITH_VALUES || count > RANDFIELD_MAX_WITH_VALUES)) {
            c.reply().error(Errors.OUT_OF_RANGE);
            return;
        }
        Object found = hashForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null || count == 0) {
            c.reply().arrayHeader(0);
            return;
        }
        HashValue h = (HashValue) found;
        if (h.liveSize(c.server().nowMs()) < h.size()) {
            // Due fields the bounded lazy step left (a large hash): draw from a copy of the live ones.
            h = liveCopy(c, h);
            if (h.size() == 0) {
                c.reply().arrayHeader(0);
                return;
            }
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (count < 0) {
            // A reply header holds an int: larger repeated draws are cut there (Redis would try to send them all).
            int n = (int) Math.min(-count, Integer.MAX_VALUE / 2);
            replyPairsHeader(c, n, withValues);
            for (int i = 0; i < n; i++) {
                int at = h.randomPosition(random.nextLong());
                replyPair(c, h.fieldAt(at), h.valueAt(at), withValues);
            }
            return;
        }
        if (count >= h.size()) {
            replyPairsHeader(c, h.size(), withValues);
            h.forEach((field, value) -> replyPair(c, field, value, withValues));
            return;
        }
        int wanted = (int) count;
        List<byte[]> picked = new ArrayList<>(wanted * 2);
        if ((long) wanted * RANDOM_SAMPLE_FACTOR > h.size()) {
            List<byte[]> all = new ArrayList<>(h.size() * 2);
            h.forEach((field, value) -> {
                all.add(field);
                all.add(value);
            });
            for (int pairs = all.size() / 2; pairs > wanted; pairs--) {
                int drop = random.nextInt(pairs);
                all.set(drop * 2, all.get(pairs * 2 - 2));
                all.set(drop * 2 + 1, all.get(pairs * 2 - 1));
            }
            picked.addAll(all.subList(0, wanted * 2));
        } else {
            Set<ByteBuffer> seen = new HashSet<>();
            while (seen.size() < wanted) {
                int at = h.randomPosition(random.nextLong());
                if (seen.add(ByteBuffer.wrap(h.fieldAt(at)))) {
                    picked.add(h.fieldAt(at));
                    picked.add(h.valueAt(at));
                }
            }
        }
        replyPairsHeader(c, wanted, withValues);
        for (int i = 0; i < picked.size(); i += 2) {
            replyPair(c, picked.get(i), picked.get(i + 1), withValues);
        }
    }

    private static List<byte[]> liveFields(Client c, HashValue h) {
        List<byte[]> all = new ArrayList<>();
        h.forEachLive(c.server().nowMs(), (field, value) -> {
            all.add(field);
            all.add(value);
        });
        return all;
    }

    private static HashValue liveCopy(Client c, HashValue h) {
        HashValue copy = new HashValue();
        h.forEachLive(c.server().nowMs(), (field, value) -> copy.put(field, value, 0, 0));
        return copy;
    }

    private static void replyPairsHeader(Client c, long pairs, boolean withValues) {
        c.reply().arrayHeader((int) (withValues && c.protocol() == 2 ? pairs * 2 : pairs));
    }

    /** One HRANDFIELD element: the field, or field and value (RESP3: as a two-element array). */
    private static void replyPair(Client c, byte[] field, byte[] value, boolean withValues) {
        if (withValues && c.protocol() == 3) {
            c.reply().arrayHeader(2);
        }
        c.reply().bulk(field);
        if (withValues) {
            c.reply().bulk(value);
        }
    }

    /**
     * HSCAN key cursor [MATCH pattern] [COUNT count]: a compact hash is returned whole with cursor
     * 0; a large one is walked with the dict's scan (SCAN's guarantee), COUNT bounding the steps.
     */
    static void hscan(Client c, byte[][] argv) {
        if (!Aggregates.cursorValidOrReply(c, argv[2])) {
            return;
        }
        Object found = hashForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            Aggregates.replyEmptyScan(c);
            return;
        }
        Aggregates.ScanOptions options = Aggregates.scanOptionsOrReply(c, argv);
        if (options == null) {
            return;
        }
        HashValue h = (HashValue) found;
        long now = c.server().nowMs();
        List<byte[]> out = new ArrayList<>();
        long[] visited = new long[1];
        long cursor = options.cursor();
        long stepsLeft = options.maxSteps();
        do {
            cursor = h.scan(cursor, now, (field, value) -> {
                visited[0]++;
                if (options.matches(field)) {
                    out.add(field);
                    out.add(value);
                }
            });
        } while (cursor != 0 && --stepsLeft > 0 && visited[0] < options.count());
        c.reply().arrayHeader(2);
        c.reply().bulk(Long.toUnsignedString(cursor));
        c.reply().arrayHeader(out.size());
        for (byte[] b : out) {
            c.reply().bulk(b);
        }
    }
}
