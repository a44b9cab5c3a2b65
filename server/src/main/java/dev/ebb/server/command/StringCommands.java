package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.Database;
import dev.ebb.storage.types.RawString;
import java.util.List;

/**
 * String commands. As in Redis, variants share one generic routine: SET, SETNX, SETEX, PSETEX and
 * GETSET go through {@link #setGeneric}; SET and GETEX parse their options with
 * {@link #parseOptionsOrReply}; INCR, DECR, INCRBY and DECRBY go through {@link #incrDecr}; GETRANGE
 * and the bitmap commands normalise ranges with {@link #rangeStart} and {@link #rangeEnd}.
 *
 * <p>A string value is a {@code byte[]} (SET, INCR …), once APPEND, SETRANGE or SETBIT edited it a
 * {@link dev.ebb.storage.types.RawString} with spare capacity, or an
 * {@link dev.ebb.storage.types.UnsharedString} where Redis's encoding or sharing differs from what
 * the bytes give (the forms are chosen by {@link Strings#stored} and its siblings); {@link Strings}
 * reads all three and grows the second. Stored bytes are never modified: APPEND writes only past the stored length,
 * and SETRANGE, INCR … that change bytes store a new array, keeping the key's time to live
 * (setKeepTtl, which for a key that does not exist is a plain insert). So GET, MGET and GETRANGE
 * reply straight from the stored array, a large one by reference until the socket takes it
 * ({@link dev.ebb.resp.RespWriter#bulkRef}), and an integer is kept as its decimal text (Redis's
 * "int" encoding is only reported, see {@link Types}).
 */
public final class StringCommands {
    private static final int SET_NX = 1;
    private static final int SET_XX = 1 << 1;
    private static final int SET_GET = 1 << 2;
    private static final int SET_KEEPTTL = 1 << 3;
    private static final int SET_EX = 1 << 4;
    private static final int SET_PX = 1 << 5;
    private static final int SET_EXAT = 1 << 6;
    private static final int SET_PXAT = 1 << 7;
    private static final int SET_PERSIST = 1 << 8;
    /** SETNX: reply :1 / :0 instead of +OK / nil. */
    private static final int SET_INTEGER_REPLY = 1 << 9;
    private static final int EXPIRE_UNITS = SET_EX | SET_PX | SET_EXAT | SET_PXAT;
    private static final int SET_OPTIONS = SET_NX | SET_XX | SET_GET | SET_KEEPTTL | EXPIRE_UNITS;
    private static final int GETEX_OPTIONS = SET_PERSIST | EXPIRE_UNITS;
    /** {@link #setGeneric}'s {@code expireAtMs} for "no time to live". */
    private static final long NO_EXPIRE = -1;
    /** Largest Java byte array: a string can be no longer, whatever proto-max-bulk-len says. */
    private static final long MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;
    private static final byte[] EMPTY = new byte[0];
    private static final byte[] MATCHES = {'m', 'a', 't', 'c', 'h', 'e', 's'};
    private static final byte[] LEN = {'l', 'e', 'n'};

    private StringCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("get", 2, READONLY | FAST, 1, 1, 1, StringCommands::get)
                        .doc(CommandGroup.STRING, "1.0.0", "Returns the string value of a key.", "key"),
                spec("set", -3, WRITE | DENYOOM, 1, 1, 1, StringCommands::set)
                        .doc(CommandGroup.STRING, "1.0.0",
                                "Sets the string value of a key, ignoring its type. The key is created if it doesn't exist.",
                                "key value [NX | XX] [GET] [EX seconds | PX milliseconds |"
                                        + " EXAT unix-time-seconds | PXAT unix-time-milliseconds | KEEPTTL]"),
                spec("setnx", 3, WRITE | DENYOOM | FAST, 1, 1, 1, StringCommands::setnx)
                        .doc(CommandGroup.STRING, "1.0.0",
                                "Set the string value of a key only when the key doesn't exist.", "key value"),
                spec("setex", 4, WRITE | DENYOOM, 1, 1, 1, StringCommands::setex)
                        .doc(CommandGroup.STRING, "2.0.0", "Sets the string value and expiration time of a key."
                                + " Creates the key if it doesn't exist.", "key seconds value"),
                spec("psetex", 4, WRITE | DENYOOM, 1, 1, 1, StringCommands::psetex)
                        .doc(CommandGroup.STRING, "2.6.0", "Sets both string value and expiration time in"
                                + " milliseconds of a key. The key is created if it doesn't exist.",
                                "key milliseconds value"),
                spec("getset", 3, WRITE | DENYOOM | FAST, 1, 1, 1, StringCommands::getset)
                        .doc(CommandGroup.STRING, "1.0.0",
                                "Returns the previous string value of a key after setting it to a new value.",
                                "key value"),
                spec("getdel", 2, WRITE | FAST, 1, 1, 1, StringCommands::getdel)
                        .doc(CommandGroup.STRING, "6.2.0",
                                "Returns the string value of a key after deleting the key.", "key"),
                spec("getex", -2, WRITE | FAST, 1, 1, 1, StringCommands::getex)
                        .doc(CommandGroup.STRING, "6.2.0",
                                "Returns the string value of a key after setting its expiration time.",
                                "key [EX seconds | PX milliseconds | EXAT unix-time-seconds |"
                                        + " PXAT unix-time-milliseconds | PERSIST]"),
                spec("mget", -2, READONLY | FAST, 1, -1, 1, StringCommands::mget)
                        .doc(CommandGroup.STRING, "1.0.0",
                                "Atomically returns the string values of one or more keys.", "key [key ...]"),
                spec("mset", -3, WRITE | DENYOOM, 1, -1, 2, StringCommands::mset)
                        .doc(CommandGroup.STRING, "1.0.1",
                                "Atomically creates or modifies the string values of one or more keys.",
                                "key value [key value ...]"),
                spec("msetnx", -3, WRITE | DENYOOM, 1, -1, 2, StringCommands::msetnx)
                        .doc(CommandGroup.STRING, "1.0.1", "Atomically modifies the string values of one or"
                                + " more keys only when all keys don't exist.", "key value [key value ...]"),
                spec("incr", 2, WRITE | DENYOOM | FAST, 1, 1, 1, StringCommands::incr)
                        .doc(CommandGroup.STRING, "1.0.0", "Increments the integer value of a key by one."
                                + " Uses 0 as initial value if the key doesn't exist.", "key"),
                spec("decr", 2, WRITE | DENYOOM | FAST, 1, 1, 1, StringCommands::decr)
                        .doc(CommandGroup.STRING, "1.0.0", "Decrements the integer value of a key by one."
                                + " Uses 0 as initial value if the key doesn't exist.", "key"),
                spec("incrby", 3, WRITE | DENYOOM | FAST, 1, 1, 1, StringCommands::incrby)
                        .doc(CommandGroup.STRING, "1.0.0", "Increments the integer value of a key by a number."
                                + " Uses 0 as initial value if the key doesn't exist.", "key increment"),
                spec("decrby", 3, WRITE | DENYOOM | FAST, 1, 1, 1, StringCommands::decrby)
                        .doc(CommandGroup.STRING, "1.0.0", "Decrements a number from the integer value of a key."
                                + " Uses 0 as initial value if the key doesn't exist.", "key decrement"),
                spec("incrbyfloat", 3, WRITE | DENYOOM | FAST, 1, 1, 1, StringCommands::incrbyfloat)
                        .doc(CommandGroup.STRING, "2.6.0", "Increment the floating point value of a key by a"
                                + " number. Uses 0 as initial value if the key doesn't exist.", "key increment"),
                spec("append", 3, WRITE | DENYOOM | FAST, 1, 1, 1, StringCommands::append)
                        .doc(CommandGroup.STRING, "2.0.0", "Appends a string to the value of a key."
                                + " Creates the key if it doesn't exist.", "key value"),
                spec("strlen", 2, READONLY | FAST, 1, 1, 1, StringCommands::strlen)
                        .doc(CommandGroup.STRING, "2.2.0", "Returns the length of a string value.", "key"),
                spec("getrange", 4, READONLY, 1, 1, 1, StringCommands::getrange)
                        .doc(CommandGroup.STRING, "2.4.0", "Returns a substring of the string stored at a key.",
                                "key start end"),
                spec("substr", 4, READONLY, 1, 1, 1, StringCommands::getrange)
                        .doc(CommandGroup.STRING, "1.0.0", "Returns a substring from a string value.",
                                "key start end"),
                spec("setrange", 4, WRITE | DENYOOM, 1, 1, 1, StringCommands::setrange)
                        .doc(CommandGroup.STRING, "2.2.0", "Overwrites a part of a string value with another by"
                                + " an offset. Creates the key if it doesn't exist.", "key offset value"),
                spec("lcs", -3, READONLY, 1, 2, 1, StringCommands::lcs)
                        .doc(CommandGroup.STRING, "7.0.0", "Finds the longest common substring.",
                                "key1 key2 [LEN] [IDX] [MINMATCHLEN min-match-len] [WITHMATCHLEN]"));
    }

    // ---------------------------------------------------------------- shared routines

    /**
     * The string value at {@code key}, or null if there is none. If the key holds another type it
     * replies WRONGTYPE and returns {@link Values#WRONG_TYPE}. Counts a keyspace hit or miss.
     */
    static Object lookupStringOrReply(Client c, byte[] key) {
        Object v = c.db().lookupRead(key, c.server().nowMs());
        c.server().stats().lookup(v != null);
        Notifications.keyMissIf(v == null, c, key);
        if (v == null || Strings.isString(v)) {
            return v;
        }
        c.reply().error(Errors.WRONGTYPE);
        return Values.WRONG_TYPE;
    }

    /** As {@link #lookupStringOrReply} for a command about to write the key: no keyspace hit/miss. */
    static Object lookupStringForWriteOrReply(Client c, byte[] key) {
        Object v = c.db().lookupWrite(key, c.server().nowMs());
        if (v == null || Strings.isString(v)) {
            return v;
        }
        c.reply().error(Errors.WRONGTYPE);
        return Values.WRONG_TYPE;
    }

    /**
     * The longest string a command may build: {@code proto-max-bulk-len}, as in Redis, but never more
     * than a Java array can hold (about 2 GB; Ebb deliberately differs from Redis above that).
     */
    static long maxStringLength(Client c) {
        return Math.min(c.server().config().protoMaxBulkLen(), MAX_ARRAY_LENGTH);
    }

    /**
     * Redis's range rule for GETRANGE, BITCOUNT and BITPOS: a negative index counts from the end,
     * then the start is clamped to 0. The caller answers "empty" when the start exceeds the end.
     */
    static long rangeStart(long start, long length) {
        return Math.max(start < 0 ? start + length : start, 0);
    }

    /** The end of a range by the rule of {@link #rangeStart}, clamped to [0, length - 1]. */
    static long rangeEnd(long end, long length) {
        return Math.min(Math.max(end < 0 ? end + length : end, 0), length - 1);
    }

    /**
     * GETRANGE and BITCOUNT (not BITPOS) answer "empty" at once when both indexes are negative and
     * the start is after the end, before any clamping.
     */
    static boolean negativeAndReversed(long start, long end) {
        return start < 0 && end < 0 && start > end;
    }

    // ---------------------------------------------------------------- GET / SET family

    static void get(Client c, byte[][] argv) {
        Object v = lookupStringOrReply(c, argv[1]);
        if (v == null) {
            c.reply().nullBulk();
        } else if (v != Values.WRONG_TYPE) {
            Strings.reply(c, v);
        }
    }

    /** SET key value [NX|XX] [GET] [EX|PX|EXAT|PXAT|KEEPTTL]. */
    static void set(Client c, byte[][] argv) {
        long options = parseOptionsOrReply(c, argv, 3, SET_OPTIONS);
        if (options < 0) {
            return;
        }
        long expireAtMs = expireAtOrReply(c, argv, options, "set");
        if (expireAtMs == Arguments.INVALID) {
            return;
        }
        setGeneric(c, (int) options, argv[1], argv[2], expireAtMs);
    }

    static void setnx(Client c, byte[][] argv) {
        setGeneric(c, SET_NX | SET_INTEGER_REPLY, argv[1], argv[2], NO_EXPIRE);
    }

    static void setex(Client c, byte[][] argv) {
        setWithExpire(c, argv, "ex", "setex");
    }

    static void psetex(Client c, byte[][] argv) {
        setWithExpire(c, argv, "px", "psetex");
    }

    private static void setWithExpire(Client c, byte[][] argv, String unit, String command) {
        long expireAtMs = Expiry.absoluteMsOrReply(c, argv[2], unit, command);
        if (expireAtMs != Arguments.INVALID) {
            setGeneric(c, 0, argv[1], argv[3], expireAtMs);
        }
    }

    static void getset(Client c, byte[][] argv) {
        setGeneric(c, SET_GET, argv[1], argv[2], NO_EXPIRE);
    }

    /**
     * The one routine behind SET, SETNX, SETEX, PSETEX and GETSET: honours NX/XX, replies the old
     * value for GET, keeps or replaces the TTL. {@code expireAtMs} is absolute, -1 for none.
     * Without NX, XX or GET it stores without looking the key up first (SET's common case).
     */
    static void setGeneric(Client c, int flags, byte[] key, byte[] value, long expireAtMs) {
        Database db = c.db();
        long now = c.server().nowMs();
        boolean get = (flags & SET_GET) != 0;
        Object old = null;
        if ((flags & (SET_NX | SET_XX | SET_GET)) != 0) {
            old = db.lookupWrite(key, now);
            if (get) {
                c.server().stats().lookup(old != null);
                Notifications.keyMissIf(old == null, c, key);
                if (old != null && !Strings.isString(old)) {
                    c.reply().error(Errors.WRONGTYPE);
                    return;
                }
            }
            boolean found = old != null;
            if (((flags & SET_NX) != 0 && found) || ((flags & SET_XX) != 0 && !found)) {
                if (get) {
                    Strings.reply(c, old);
                } else if ((flags & SET_INTEGER_REPLY) != 0) {
                    c.reply().integer(0);
                } else {
                    c.reply().nullBulk();
                }
                return;
            }
        }
        Object stored = Strings.stored(c, value);
        if (expireAtMs != NO_EXPIRE) {
            db.setWithExpire(key, stored, now, expireAtMs);
        } else if ((flags & SET_KEEPTTL) != 0) {
            db.setKeepTtl(key, stored, now);
        } else {
            db.setKey(key, stored, now);
        }
        Notifications.notify(c, NotifyKeyspaceEvents.STRING, "set", key);
        if (expireAtMs != NO_EXPIRE) {
            Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "expire", key);
        }
        if (get) {
            Strings.reply(c, old);
        } else if ((flags & SET_INTEGER_REPLY) != 0) {
            c.reply().integer(1);
        } else {
            c.reply().ok();
        }
        if (expireAtMs != NO_EXPIRE || get) {
            propagateSet(c, flags, key, value, expireAtMs);
        }
    }

    /**
     * What a SET with a time to live or GET propagates, as Redis 7.2: {@code SET key value PXAT ms}
     * for any expiry (SETEX, PSETEX, SET EX/PX/EXAT), and GETSET or SET … GET without the GET.
     */
    private static void propagateSet(Client c, int flags, byte[] key, byte[] value, long expireAtMs) {
        if (!Propagate.active(c)) {
            return;
        }
        if (expireAtMs != NO_EXPIRE) {
            Propagate.as(c, Propagate.SET, key, value, Propagate.PXAT, Propagate.number(expireAtMs));
            return;
        }
        java.util.List<byte[]> argv = new java.util.ArrayList<>(5);
        argv.add(Propagate.SET);
        argv.add(key);
        argv.add(value);
        if ((flags & SET_NX) != 0) {
            argv.add(Propagate.NX);
        } else if ((flags & SET_XX) != 0) {
            argv.add(Propagate.XX);
        }
        if ((flags & SET_KEEPTTL) != 0) {
            argv.add(Propagate.KEEPTTL);
        }
        Propagate.as(c, argv.toArray(new byte[0][]));
    }

    /**
     * Parses the options of SET (from argv[3]) or GETEX (from argv[2]) as Redis does: NX and XX
     * exclude each other; one expire unit, which may be repeated (the last value wins, and only it
     * is parsed, after this); KEEPTTL and PERSIST exclude every unit; only the options in
     * {@code allowed} exist. Returns the option flags in the low 32 bits and the argv index of the
     * expire value (0 for none) in the high 32 bits, or -1 after replying {@code ERR syntax error}.
     */
    private static long parseOptionsOrReply(Client c, byte[][] argv, int from, int allowed) {
        int flags = 0;
        int expireIndex = 0;
        for (int i = from; i < argv.length; i++) {
            int option = option(argv[i]) & allowed;
            if ((option == SET_NX && (flags & SET_XX) == 0) || (option == SET_XX && (flags & SET_NX) == 0)
                    || option == SET_GET) {
                flags |= option;
            } else if ((option == SET_KEEPTTL || option == SET_PERSIST) && (flags & EXPIRE_UNITS) == 0) {
                flags |= option;
            } else if ((option & EXPIRE_UNITS) != 0 && i + 1 < argv.length
                    && (flags & ~option & (EXPIRE_UNITS | SET_KEEPTTL | SET_PERSIST)) == 0) {
                flags |= option;
                expireIndex = ++i;
            } else {
                c.reply().error(Errors.SYNTAX);
                return -1;
            }
        }
        return flags | ((long) expireIndex << 32);
    }

    private static int option(byte[] arg) {
        if (Arguments.is(arg, "nx")) {
            return SET_NX;
        } else if (Arguments.is(arg, "xx")) {
            return SET_XX;
        } else if (Arguments.is(arg, "get")) {
            return SET_GET;
        } else if (Arguments.is(arg, "ex")) {
            return SET_EX;
        } else if (Arguments.is(arg, "px")) {
            return SET_PX;
        } else if (Arguments.is(arg, "exat")) {
            return SET_EXAT;
        } else if (Arguments.is(arg, "pxat")) {
            return SET_PXAT;
        } else if (Arguments.is(arg, "keepttl")) {
            return SET_KEEPTTL;
        } else if (Arguments.is(arg, "persist")) {
            return SET_PERSIST;
        }
        return 0;
    }

    /**
     * The absolute expiry the options of {@link #parseOptionsOrReply} ask for: {@link #NO_EXPIRE}
     * without a unit, else the parsed value, or {@link Arguments#INVALID} after replying.
     */
    private static long expireAtOrReply(Client c, byte[][] argv, long options, String command) {
        int index = (int) (options >>> 32);
        if (index == 0) {
            return NO_EXPIRE;
        }
        int flags = (int) options;
        String unit = (flags & SET_EX) != 0 ? "ex" : (flags & SET_PX) != 0 ? "px" : (flags & SET_EXAT) != 0 ? "exat"
                : "pxat";
        return Expiry.absoluteMsOrReply(c, argv[index], unit, command);
    }

    /**
     * GETEX key [EX|PX|EXAT|PXAT|PERSIST]: the value, after setting or removing its time to live.
     * A time already past deletes the key, as Redis does.
     */
    static void getex(Client c, byte[][] argv) {
        long options = parseOptionsOrReply(c, argv, 2, GETEX_OPTIONS);
        if (options < 0) {
            return;
        }
        Object v = lookupStringOrReply(c, argv[1]);
        if (v == null) {
            c.reply().nullBulk();
            return;
        }
        if (v == Values.WRONG_TYPE) {
            return;
        }
        long expireAtMs = expireAtOrReply(c, argv, options, "getex");
        if (expireAtMs == Arguments.INVALID) {
            return;
        }
        Database db = c.db();
        if (expireAtMs != NO_EXPIRE) {
            if (expireAtMs <= c.server().nowMs()) {
                db.delete(argv[1]);
                Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", argv[1]);
                Propagate.asExpiredDelete(c, argv[1]);
            } else {
                db.setExpire(argv[1], expireAtMs);
                Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "expire", argv[1]);
                Propagate.asPexpireat(c, argv[1], expireAtMs);
            }
        } else if (((int) options & SET_PERSIST) != 0 && db.persist(argv[1])) {
            Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "persist", argv[1]);
            Propagate.as(c, Propagate.PERSIST, argv[1]);
        }
        Strings.reply(c, v);
    }

    static void getdel(Client c, byte[][] argv) {
        Object v = lookupStringOrReply(c, argv[1]);
        if (v == null) {
            c.reply().nullBulk();
        } else if (v != Values.WRONG_TYPE) {
            c.db().delete(argv[1]);
            Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", argv[1]);
            Propagate.as(c, Propagate.DEL, argv[1]);
            Strings.reply(c, v);
        }
    }

    /** MGET: nil for a missing key and for one holding another type. */
    static void mget(Client c, byte[][] argv) {
        Database db = c.db();
        long now = c.server().nowMs();
        c.reply().arrayHeader(argv.length - 1);
        for (int i = 1; i < argv.length; i++) {
            Object v = db.lookupRead(argv[i], now);
            c.server().stats().lookup(v != null);
            Notifications.keyMissIf(v == null, c, argv[i]);
            if (Strings.isString(v)) {
                Strings.reply(c, v);
            } else {
                c.reply().nullBulk();
            }
        }
    }

    static void mset(Client c, byte[][] argv) {
        if (msetArityOrReply(c, argv, "mset")) {
            msetAll(c, argv);
            c.reply().ok();
        }
    }

    /** MSETNX: sets every pair, or none when any key exists (whatever its type). */
    static void msetnx(Client c, byte[][] argv) {
        if (!msetArityOrReply(c, argv, "msetnx")) {
            return;
        }
        Database db = c.db();
        long now = c.server().nowMs();
        for (int i = 1; i < argv.length; i += 2) {
            if (db.lookupWrite(argv[i], now) != null) {
                c.reply().integer(0);
                return;
            }
        }
        msetAll(c, argv);
        c.reply().integer(1);
    }

    /** MSET and MSETNX take key/value pairs: an odd count is an arity error naming the command. */
    private static boolean msetArityOrReply(Client c, byte[][] argv, String command) {
        if (argv.length % 2 == 0) {
            c.reply().error(Errors.wrongArity(command));
            return false;
        }
        return true;
    }

    private static void msetAll(Client c, byte[][] argv) {
        Database db = c.db();
        long now = c.server().nowMs();
        for (int i = 1; i < argv.length; i += 2) {
            db.setKey(argv[i], Strings.stored(c, argv[i + 1]), now);
            Notifications.notify(c, NotifyKeyspaceEvents.STRING, "set", argv[i]);
        }
    }

    // ---------------------------------------------------------------- counters

    static void incr(Client c, byte[][] argv) {
        incrDecr(c, argv[1], 1);
    }

    static void decr(Client c, byte[][] argv) {
        incrDecr(c, argv[1], -1);
    }

    static void incrby(Client c, byte[][] argv) {
        if (Arguments.isLongOrReply(c, argv[2])) {
            incrDecr(c, argv[1], Arguments.parseLong(argv[2]));
        }
    }

    /** DECRBY: the decrement is negated, so the one decrement that has no negation is refused. */
    static void decrby(Client c, byte[][] argv) {
        if (!Arguments.isLongOrReply(c, argv[2])) {
            return;
        }
        long decrement = Arguments.parseLong(argv[2]);
        if (decrement == Long.MIN_VALUE) {
            c.reply().error(Errors.DECREMENT_OVERFLOW);
            return;
        }
        incrDecr(c, argv[1], -decrement);
    }

    /**
     * The routine behind INCR, DECR, INCRBY and DECRBY: the value must be a canonical 64-bit decimal
     * (no '+', no leading zeros or spaces), a missing key counts as 0, the sum must not overflow.
     * The key keeps its time to live.
     */
    private static void incrDecr(Client c, byte[] key, long increment) {
        Object old = lookupStringForWriteOrReply(c, key);
        if (old == Values.WRONG_TYPE) {
            return;
        }
        long value = 0;
        if (old != null) {
            try {
                value = Arguments.parseLong(Strings.exact(old));
            } catch (NumberFormatException e) {
                c.reply().error(Errors.NOT_INTEGER);
                return;
            }
        }
        if (increment < 0 ? value < Long.MIN_VALUE - increment : value > Long.MAX_VALUE - increment) {
            c.reply().error(Errors.INCR_OVERFLOW);
            return;
        }
        long result = value + increment;
        c.db().setKeepTtl(key, Strings.fromLong(c, result), c.server().nowMs());
        Notifications.notify(c, NotifyKeyspaceEvents.STRING, "incrby", key);
        c.reply().integer(result);
    }

    /** The decimal text of {@code v} as ASCII bytes, without going through a String. */
    static byte[] decimalBytes(long v) {
        long negative = v < 0 ? v : -v;
        int digits = 1;
        for (long rest = negative; rest <= -10; rest /= 10) {
            digits++;
        }
        int length = v < 0 ? digits + 1 : digits;
        byte[] out = new byte[length];
        int at = length;
        do {
            out[--at] = (byte) ('0' - negative % 10);
            negative /= 10;
        } while (negative != 0);
        if (v < 0) {
            out[0] = '-';
        }
        return out;
    }

    /**
     * INCRBYFLOAT: the sum in Redis's long double precision, stored and replied as Redis prints it
     * (see {@link LongDouble}). The key keeps its time to live.
     */
    static void incrbyfloat(Client c, byte[][] argv) {
        Object old = lookupStringForWriteOrReply(c, argv[1]);
        if (old == Values.WRONG_TYPE) {
            return;
        }
        LongDouble value = old == null ? LongDouble.ZERO : LongDouble.parse(Strings.exact(old));
        LongDouble increment = LongDouble.parse(argv[2]);
        if (value == null || increment == null) {
            c.reply().error(Errors.NOT_FLOAT);
            return;
        }
        LongDouble sum = value.plus(increment);
        if (!sum.isFinite()) {
            c.reply().error(Errors.INCR_NAN_OR_INF);
            return;
        }
        byte[] text = sum.toHumanBytes();
        c.db().setKeepTtl(argv[1], Strings.fromFloatText(text), c.server().nowMs());
        Notifications.notify(c, NotifyKeyspaceEvents.STRING, "incrbyfloat", argv[1]);
        Propagate.as(c, Propagate.SET, argv[1], text, Propagate.KEEPTTL);
        c.reply().bulk(text);
    }

    // ---------------------------------------------------------------- editing and ranges

    /**
     * APPEND: a missing key is set to the value as is; an existing string grows into its spare
     * capacity, or into a fresh array with greedy capacity ({@link Strings#appendOrReply}), so
     * appending in small pieces costs amortised O(piece) rather than a copy of the whole value.
     */
    static void append(Client c, byte[][] argv) {
        Object old = lookupStringForWriteOrReply(c, argv[1]);
        if (old == Values.WRONG_TYPE) {
            return;
        }
        byte[] tail = argv[2];
        if (old == null) {
            c.db().setKey(argv[1], Strings.stored(c, tail), c.server().nowMs());
            Notifications.notify(c, NotifyKeyspaceEvents.STRING, "append", argv[1]);
            c.reply().integer(tail.length);
            return;
        }
        if ((long) Strings.length(old) + tail.length > maxStringLength(c)) {
            c.reply().error(Errors.STRING_TOO_LONG);
            return;
        }
        RawString joined = Strings.appendOrReply(c, old, tail);
        if (joined == null) {
            return;
        }
        c.db().setKeepTtl(argv[1], joined, c.server().nowMs());
        Notifications.notify(c, NotifyKeyspaceEvents.STRING, "append", argv[1]);
        c.reply().integer(joined.length());
    }

    static void strlen(Client c, byte[][] argv) {
        Object v = lookupStringOrReply(c, argv[1]);
        if (v != Values.WRONG_TYPE) {
            c.reply().integer(Strings.length(v));
        }
    }

    /** GETRANGE and SUBSTR: an empty string, never nil, for a missing key or an empty range. */
    static void getrange(Client c, byte[][] argv) {
        if (!Arguments.isLongOrReply(c, argv[2]) || !Arguments.isLongOrReply(c, argv[3])) {
            return;
        }
        long start = Arguments.parseLong(argv[2]);
        long end = Arguments.parseLong(argv[3]);
        Object v = lookupStringOrReply(c, argv[1]);
        if (v == Values.WRONG_TYPE) {
            return;
        }
        int length = Strings.length(v);
        long from = rangeStart(start, length);
        long to = rangeEnd(end, length);
        if (negativeAndReversed(start, end) || from > to) {
            c.reply().bulk(EMPTY);
        } else {
            c.reply().bulkRef(Strings.array(v), (int) from, (int) (to - from + 1));
        }
    }

    /**
     * SETRANGE: pads with zero bytes up to the offset; an empty value changes nothing. Writing at
     * or past the end grows the string as APPEND does; changing bytes makes a fresh copy.
     */
    static void setrange(Client c, byte[][] argv) {
        if (!Arguments.isLongOrReply(c, argv[2])) {
            return;
        }
        long offset = Arguments.parseLong(argv[2]);
        if (offset < 0) {
            c.reply().error(Errors.OFFSET_OUT_OF_RANGE);
            return;
        }
        Object old = lookupStringForWriteOrReply(c, argv[1]);
        if (old == Values.WRONG_TYPE) {
            return;
        }
        byte[] patch = argv[3];
        if (patch.length == 0) {
            c.reply().integer(Strings.length(old));
            return;
        }
        if (offset > maxStringLength(c) - patch.length) {
            c.reply().error(Errors.STRING_TOO_LONG);
            return;
        }
        RawString updated = Strings.setRangeOrReply(c, old, (int) offset, patch);
        if (updated == null) {
            return;
        }
        c.db().setKeepTtl(argv[1], updated, c.server().nowMs());
        Notifications.notify(c, NotifyKeyspaceEvents.STRING, "setrange", argv[1]);
        c.reply().integer(updated.length());
    }

    // ---------------------------------------------------------------- LCS

    /**
     * LCS key1 key2 [LEN] [IDX] [MINMATCHLEN n] [WITHMATCHLEN]: the subsequence, its length, or
     * (IDX) a map of the match ranges and the length. Missing keys are empty strings.
     */
    static void lcs(Client c, byte[][] argv) {
        Object first = lcsOperand(c, argv[1]);
        Object second = lcsOperand(c, argv[2]);
        if (!Strings.isString(first) || !Strings.isString(second)) {
            c.reply().error(Errors.LCS_NOT_STRINGS);
            return;
        }
        byte[] a = Strings.exact(first);
        byte[] b = Strings.exact(second);
        boolean len = false;
        boolean idx = false;
        boolean withMatchLen = false;
        long minMatchLen = 0;
        for (int i = 3; i < argv.length; i++) {
            if (Arguments.is(argv[i], "len")) {
                len = true;
            } else if (Arguments.is(argv[i], "idx")) {
                idx = true;
            } else if (Arguments.is(argv[i], "withmatchlen")) {
                withMatchLen = true;
            } else if (Arguments.is(argv[i], "minmatchlen") && i + 1 < argv.length) {
                if (!Arguments.isLongOrReply(c, argv[++i])) {
                    return;
                }
                minMatchLen = Math.max(Arguments.parseLong(argv[i]), 0);
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        if (len && idx) {
            c.reply().error(Errors.LCS_LEN_AND_IDX);
            return;
        }
        if ((a.length + 1L) * (b.length + 1L) * Integer.BYTES > c.server().config().protoMaxBulkLen()) {
            c.reply().error(Errors.LCS_TOO_MUCH_MEMORY);
            return;
        }
        if (len) {
            c.reply().integer(Lcs.length(a, b));
        } else if (idx) {
            replyLcsRanges(c, Lcs.compute(a, b), minMatchLen, withMatchLen);
        } else {
            c.reply().bulk(Lcs.compute(a, b).sequence());
        }
    }

    /** An LCS operand: the stored value, the empty string for a missing key. Counts a hit or miss. */
    private static Object lcsOperand(Client c, byte[] key) {
        Object v = c.db().lookupRead(key, c.server().nowMs());
        c.server().stats().lookup(v != null);
        Notifications.keyMissIf(v == null, c, key);
        return v == null ? EMPTY : v;
    }

    /** {@code {matches: [[[a0, a1], [b0, b1], (len)], ...], len: n}}, a map in RESP3. */
    private static void replyLcsRanges(Client c, Lcs lcs, long minMatchLen, boolean withMatchLen) {
        int shown = 0;
        for (int r = 0; r < lcs.rangeCount(); r++) {
            shown += lcs.rangeLength(r) >= minMatchLen ? 1 : 0;
        }
        c.reply().mapHeader(2).bulk(MATCHES).arrayHeader(shown);
        for (int r = 0; r < lcs.rangeCount(); r++) {
            if (lcs.rangeLength(r) < minMatchLen) {
                continue;
            }
            c.reply().arrayHeader(withMatchLen ? 3 : 2)
                    .arrayHeader(2).integer(lcs.aStart(r)).integer(lcs.aEnd(r))
                    .arrayHeader(2).integer(lcs.bStart(r)).integer(lcs.bEnd(r));
            if (withMatchLen) {
                c.reply().integer(lcs.rangeLength(r));
            }
        }
        c.reply().bulk(LEN).integer(lcs.sequence().length);
    }
}
