package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.ServerStats;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.server.util.Glob;
import dev.ebb.storage.Database;
import dev.ebb.storage.Dict;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Generic key commands (Redis's "generic" group plus DBSIZE and FLUSHDB/FLUSHALL): deletion,
 * existence, type, renaming, copying and moving between databases, time to live, iteration
 * (KEYS, SCAN, RANDOMKEY) and WAIT. OBJECT lives in {@link ObjectCommands}, MEMORY in {@link MemoryCommands}.
 *
 * <p>Every lookup goes through the {@link Database}, which applies lazy expiry. Read lookups count
 * INFO's keyspace hits and misses exactly where Redis counts them (EXISTS, TYPE, TOUCH, TTL and
 * friends, COPY's source, SCAN's TYPE filter); write lookups (DEL, RENAME, MOVE, EXPIRE …) do not.
 */
public final class KeyCommands {
    private static final int EXPIRE_NX = 1;
    private static final int EXPIRE_XX = 1 << 1;
    private static final int EXPIRE_GT = 1 << 2;
    private static final int EXPIRE_LT = 1 << 3;

    /** SCAN's COUNT when none is given. */
    private static final long SCAN_DEFAULT_COUNT = 10;
    /** SCAN walks at most COUNT times this many buckets, so a sparse table cannot stall the loop. */
    private static final long SCAN_MAX_BUCKETS_PER_COUNT = 10;

    private KeyCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        List<CommandSpec.Builder> specs = new ArrayList<>(List.of(
                spec("del", -2, WRITE, 1, -1, 1, KeyCommands::del)
                        .doc(CommandGroup.GENERIC, "1.0.0", "Deletes one or more keys.", "key [key ...]"),
                spec("unlink", -2, WRITE | FAST, 1, -1, 1, KeyCommands::unlink)
                        .doc(CommandGroup.GENERIC, "4.0.0", "Asynchronously deletes one or more keys.",
                                "key [key ...]"),
                spec("exists", -2, READONLY | FAST, 1, -1, 1, KeyCommands::exists)
                        .doc(CommandGroup.GENERIC, "1.0.0", "Determines whether one or more keys exist.",
                                "key [key ...]"),
                spec("type", 2, READONLY | FAST, 1, 1, 1, KeyCommands::type)
                        .doc(CommandGroup.GENERIC, "1.0.0", "Determines the type of value stored at a key.", "key"),
                spec("rename", 3, WRITE, 1, 2, 1, KeyCommands::rename)
                        .doc(CommandGroup.GENERIC, "1.0.0", "Renames a key and overwrites the destination.",
                                "key newkey"),
                spec("renamenx", 3, WRITE | FAST, 1, 2, 1, KeyCommands::renamenx)
                        .doc(CommandGroup.GENERIC, "1.0.0",
                                "Renames a key only when the target key name doesn't exist.", "key newkey"),
                spec("copy", -3, WRITE | DENYOOM, 1, 2, 1, KeyCommands::copy)
                        .doc(CommandGroup.GENERIC, "6.2.0", "Copies the value of a key to a new key.",
                                "source destination [DB destination-db] [REPLACE]"),
                spec("move", 3, WRITE | FAST, 1, 1, 1, KeyCommands::move)
                        .doc(CommandGroup.GENERIC, "1.0.0", "Moves a key to another database.", "key db"),
                spec("touch", -2, READONLY | FAST, 1, -1, 1, KeyCommands::touch)
                        .doc(CommandGroup.GENERIC, "3.2.1", "Returns the number of existing keys out of those"
                                + " specified after updating the time they were last accessed.", "key [key ...]"),
                spec("expire", -3, WRITE | FAST, 1, 1, 1, KeyCommands::expire)
                        .doc(CommandGroup.GENERIC, "1.0.0", "Sets the expiration time of a key in seconds.",
                                "key seconds [NX | XX | GT | LT]"),
                spec("pexpire", -3, WRITE | FAST, 1, 1, 1, KeyCommands::pexpire)
                        .doc(CommandGroup.GENERIC, "2.6.0", "Sets the expiration time of a key in milliseconds.",
                                "key milliseconds [NX | XX | GT | LT]"),
                spec("expireat", -3, WRITE | FAST, 1, 1, 1, KeyCommands::expireat)
                        .doc(CommandGroup.GENERIC, "1.2.0", "Sets the expiration time of a key to a Unix timestamp.",
                                "key unix-time-seconds [NX | XX | GT | LT]"),
                spec("pexpireat", -3, WRITE | FAST, 1, 1, 1, KeyCommands::pexpireat)
                        .doc(CommandGroup.GENERIC, "2.6.0",
                                "Sets the expiration time of a key to a Unix milliseconds timestamp.",
                                "key unix-time-milliseconds [NX | XX | GT | LT]"),
                spec("ttl", 2, READONLY | FAST, 1, 1, 1, KeyCommands::ttl)
                        .doc(CommandGroup.GENERIC, "1.0.0", "Returns the expiration time in seconds of a key.", "key"),
                spec("pttl", 2, READONLY | FAST, 1, 1, 1, KeyCommands::pttl)
                        .doc(CommandGroup.GENERIC, "2.6.0", "Returns the expiration time in milliseconds of a key.",
                                "key"),
                spec("expiretime", 2, READONLY | FAST, 1, 1, 1, KeyCommands::expiretime)
                        .doc(CommandGroup.GENERIC, "7.0.0", "Returns the expiration time of a key as a Unix timestamp.",
                                "key"),
                spec("pexpiretime", 2, READONLY | FAST, 1, 1, 1, KeyCommands::pexpiretime)
                        .doc(CommandGroup.GENERIC, "7.0.0",
                                "Returns the expiration time of a key as a Unix milliseconds timestamp.", "key"),
                spec("persist", 2, WRITE | FAST, 1, 1, 1, KeyCommands::persist)
                        .doc(CommandGroup.GENERIC, "2.2.0", "Removes the expiration time of a key.", "key"),
                spec("keys", 2, READONLY, 0, 0, 0, KeyCommands::keys)
                        .doc(CommandGroup.GENERIC, "1.0.0", "Returns all key names that match a pattern.", "pattern"),
                spec("scan", -2, READONLY, 0, 0, 0, KeyCommands::scan)
                        .doc(CommandGroup.GENERIC, "2.8.0", "Iterates over the key names in the database.",
                                "cursor [MATCH pattern] [COUNT count] [TYPE type]"),
                spec("randomkey", 1, READONLY, 0, 0, 0, KeyCommands::randomkey)
                        .doc(CommandGroup.GENERIC, "1.0.0", "Returns a random key name from the database.", ""),
                spec("dbsize", 1, READONLY | FAST, 0, 0, 0, KeyCommands::dbsize)
                        .doc(CommandGroup.SERVER, "1.0.0", "Returns the number of keys in the database.", ""),
                spec("flushdb", -1, WRITE, 0, 0, 0, KeyCommands::flushdb)
                        .doc(CommandGroup.SERVER, "1.0.0", "Remove all keys from the current database.",
                                "[ASYNC | SYNC]"),
                spec("flushall", -1, WRITE, 0, 0, 0, KeyCommands::flushall)
                        .doc(CommandGroup.SERVER, "1.0.0", "Removes all keys from all databases.", "[ASYNC | SYNC]"),
                spec("swapdb", 3, WRITE | FAST, 0, 0, 0, KeyCommands::swapdb)
                        .doc(CommandGroup.SERVER, "4.0.0", "Swaps two Redis databases.", "index1 index2")));
        specs.addAll(ObjectCommands.specs());
        specs.addAll(MemoryCommands.specs());
        return specs;
    }

    // ---------------------------------------------------------------- deletion and existence

    static void del(Client c, byte[][] argv) {
        deleteKeys(c, argv, c.server().config().lazyfreeLazyUserDel());
    }

    /**
     * Same semantics as DEL. Redis frees a large value on a background thread here; on the JVM
     * removing the value's last reference from the dict is O(1) and the garbage collector reclaims
     * it off the command path, so UNLINK returns at once whatever the value's size, and so does DEL.
     * Both count in {@code lazyfreed_objects} what Redis would have freed lazily ({@link LazyFree}).
     */
    static void unlink(Client c, byte[][] argv) {
        deleteKeys(c, argv, true);
    }

    /**
     * DEL/UNLINK: an already expired key counts as expired, not as deleted, as in Redis.
     * {@code lazy}: whether Redis would free the values in the background.
     */
    private static void deleteKeys(Client c, byte[][] argv, boolean lazy) {
        Database db = c.db();
        long now = c.server().nowMs();
        long deleted = 0;
        for (int i = 1; i < argv.length; i++) {
            db.expireIfNeeded(argv[i], now);
            Object value = db.delete(argv[i]);
            if (value != null) {
                if (lazy) {
                    LazyFree.deleted(c, value);
                }
                Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", argv[i]);
                deleted++;
            }
        }
        c.reply().integer(deleted);
    }

    /** EXISTS: a key named twice counts twice. */
    static void exists(Client c, byte[][] argv) {
        Database db = c.db();
        long now = c.server().nowMs();
        ServerStats stats = c.server().stats();
        long count = 0;
        for (int i = 1; i < argv.length; i++) {
            boolean found = db.exists(argv[i], now);
            stats.lookup(found);
            if (found) {
                count++;
            }
        }
        c.reply().integer(count);
    }

    static void type(Client c, byte[][] argv) {
        Object value = lookupReadNoTouch(c, argv[1]);
        c.reply().simple(Types.typeName(value));
    }

    /** TOUCH: a read lookup of each key (updating its access time); counts the keys that exist. */
    static void touch(Client c, byte[][] argv) {
        Database db = c.db();
        long now = c.server().nowMs();
        ServerStats stats = c.server().stats();
        long count = 0;
        for (int i = 1; i < argv.length; i++) {
            boolean found = db.lookupRead(argv[i], now) != null;
            stats.lookup(found);
            if (found) {
                count++;
            }
        }
        c.reply().integer(count);
    }

    /** A read lookup that leaves the access time alone, counted in keyspace hits/misses. */
    static Object lookupReadNoTouch(Client c, byte[] key) {
        Object value = c.db().lookupReadNoTouch(key, c.server().nowMs());
        c.server().stats().lookup(value != null);
        Notifications.keyMissIf(value == null, c, key);
        return value;
    }

    // ---------------------------------------------------------------- rename, copy, move

    static void rename(Client c, byte[][] argv) {
        renameGeneric(c, argv[1], argv[2], false);
    }

    static void renamenx(Client c, byte[][] argv) {
        renameGeneric(c, argv[1], argv[2], true);
    }

    /**
     * RENAME and RENAMENX: the value and its time to live move to {@code to}; an existing
     * {@code to} is replaced (RENAME) or left alone with reply 0 (RENAMENX). Renaming a key onto
     * itself is a no-op that still fails for a missing key.
     */
    private static void renameGeneric(Client c, byte[] from, byte[] to, boolean nx) {
        Database db = c.db();
        long now = c.server().nowMs();
        Object value = db.lookupWrite(from, now);
        if (value == null) {
            c.reply().error(Errors.NO_SUCH_KEY);
            return;
        }
        if (Arrays.equals(from, to)) {
            if (nx) {
                c.reply().integer(0);
            } else {
                c.reply().ok();
            }
            return;
        }
        long expireAt = db.getExpire(from);
        if (db.lookupWrite(to, now) != null) {
            if (nx) {
                c.reply().integer(0);
                return;
            }
            db.delete(to);
        }
        db.add(to, value, now);
        c.server().blockingKeys().signalKeyAsReady(db, to);
        if (expireAt != Database.NO_EXPIRE) {
            db.setExpire(to, expireAt);
        }
        db.delete(from);
        Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "rename_from", from);
        Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "rename_to", to);
        if (nx) {
            c.reply().integer(1);
        } else {
            c.reply().ok();
        }
    }

    /** COPY source destination [DB destination-db] [REPLACE]: a deep copy that keeps the TTL. */
    static void copy(Client c, byte[][] argv) {
        Database src = c.db();
        Database dst = src;
        boolean replace = false;
        for (int i = 3; i < argv.length; i++) {
            if (Arguments.is(argv[i], "replace")) {
                replace = true;
            } else if (Arguments.is(argv[i], "db") && i + 1 < argv.length) {
                dst = databaseOrReply(c, argv[++i]);
                if (dst == null) {
                    return;
                }
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        if (src != dst && c.server().clusterEnabled()) {
            c.reply().error(Errors.COPY_DB_IN_CLUSTER);
            return;
        }
        byte[] key = argv[1];
        byte[] newKey = argv[2];
        if (src == dst && Arrays.equals(key, newKey)) {
            c.reply().error(Errors.SAME_OBJECT);
            return;
        }
        long now = c.server().nowMs();
        Object value = src.lookupRead(key, now);
        c.server().stats().lookup(value != null);
        Notifications.keyMissIf(value == null, c, key);
        if (value == null) {
            c.reply().integer(0);
            return;
        }
        long expireAt = src.getExpire(key);
        if (dst.lookupWrite(newKey, now) != null) {
            if (!replace) {
                c.reply().integer(0);
                return;
            }
            dst.delete(newKey);
        }
        dst.add(newKey, Types.copy(value), now);
        c.server().blockingKeys().signalKeyAsReady(dst, newKey);
        if (expireAt != Database.NO_EXPIRE) {
            dst.setExpire(newKey, expireAt);
        }
        Notifications.notify(c.server(), NotifyKeyspaceEvents.GENERIC, "copy_to", newKey, dst.id());
        c.reply().integer(1);
    }

    /** MOVE key db: moves the value and its TTL unless the key exists in the target database. */
    static void move(Client c, byte[][] argv) {
        if (c.server().clusterEnabled()) {
            c.reply().error(Errors.MOVE_IN_CLUSTER);
            return;
        }
        Database src = c.db();
        Database dst = databaseOrReply(c, argv[2]);
        if (dst == null) {
            return;
        }
        if (src == dst) {
            c.reply().error(Errors.SAME_OBJECT);
            return;
        }
        byte[] key = argv[1];
        long now = c.server().nowMs();
        Object value = src.lookupWrite(key, now);
        if (value == null) {
            c.reply().integer(0);
            return;
        }
        long expireAt = src.getExpire(key);
        if (dst.lookupWrite(key, now) != null) {
            c.reply().integer(0);
            return;
        }
        dst.add(key, value, now);
        c.server().blockingKeys().signalKeyAsReady(dst, key);
        if (expireAt != Database.NO_EXPIRE) {
            dst.setExpire(key, expireAt);
        }
        src.delete(key);
        Notifications.notify(c.server(), NotifyKeyspaceEvents.GENERIC, "move_from", key, src.id());
        Notifications.notify(c.server(), NotifyKeyspaceEvents.GENERIC, "move_to", key, dst.id());
        c.reply().integer(1);
    }

    /**
     * The database an index argument names, or null after replying Redis's error: not an integer,
     * outside the int range, or not an existing database.
     */
    private static Database databaseOrReply(Client c, byte[] arg) {
        long index = Arguments.intOrReply(c, arg);
        if (index == Arguments.INVALID) {
            return null;
        }
        if (index < 0 || index >= c.server().databases()) {
            c.reply().error(Errors.DB_INDEX_OUT_OF_RANGE);
            return null;
        }
        return c.server().db((int) index);
    }

    // ---------------------------------------------------------------- time to live

    static void expire(Client c, byte[][] argv) {
        expireGeneric(c, argv, c.server().nowMs(), true, "expire");
    }

    static void pexpire(Client c, byte[][] argv) {
        expireGeneric(c, argv, c.server().nowMs(), false, "pexpire");
    }

    static void expireat(Client c, byte[][] argv) {
        expireGeneric(c, argv, 0, true, "expireat");
    }

    static void pexpireat(Client c, byte[][] argv) {
        expireGeneric(c, argv, 0, false, "pexpireat");
    }

    /**
     * The one routine behind EXPIRE, PEXPIRE, EXPIREAT and PEXPIREAT: {@code argv[2]} in seconds or
     * ms is added to {@code basetimeMs} (now for the relative forms, 0 for the absolute ones).
     * Options are checked before the number, as in Redis. NX: only without a TTL; XX: only with
     * one; GT/LT: only if the new time is later/earlier, where no TTL counts as infinite. A time
     * not after now deletes the key and still replies 1.
     */
    private static void expireGeneric(Client c, byte[][] argv, long basetimeMs, boolean seconds, String name) {
        int flags = 0;
        for (int i = 3; i < argv.length; i++) {
            byte[] opt = argv[i];
            if (Arguments.is(opt, "nx")) {
                flags |= EXPIRE_NX;
            } else if (Arguments.is(opt, "xx")) {
                flags |= EXPIRE_XX;
            } else if (Arguments.is(opt, "gt")) {
                flags |= EXPIRE_GT;
            } else if (Arguments.is(opt, "lt")) {
                flags |= EXPIRE_LT;
            } else {
                c.reply().error(Errors.unsupportedOption(opt));
                return;
            }
        }
        if ((flags & EXPIRE_NX) != 0 && (flags & (EXPIRE_XX | EXPIRE_GT | EXPIRE_LT)) != 0) {
            c.reply().error(Errors.EXPIRE_NX_INCOMPATIBLE);
            return;
        }
        if ((flags & EXPIRE_GT) != 0 && (flags & EXPIRE_LT) != 0) {
            c.reply().error(Errors.EXPIRE_GT_LT_INCOMPATIBLE);
            return;
        }
        long when;
        try {
            when = Arguments.parseLong(argv[2]);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.NOT_INTEGER);
            return;
        }
        if (seconds) {
            if (when > Long.MAX_VALUE / 1000 || when < Long.MIN_VALUE / 1000) {
                c.reply().error(Errors.invalidExpireTime(name));
                return;
            }
            when *= 1000;
        }
        if (when > Long.MAX_VALUE - basetimeMs) {
            c.reply().error(Errors.invalidExpireTime(name));
            return;
        }
        when += basetimeMs;

        byte[] key = argv[1];
        Database db = c.db();
        long now = c.server().nowMs();
        if (db.lookupWrite(key, now) == null) {
            c.reply().integer(0);
            return;
        }
        if (flags != 0 && !expireConditionHolds(flags, db.getExpire(key), when)) {
            c.reply().integer(0);
            return;
        }
        if (when <= now) {
            db.delete(key);
            Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", key);
            Propagate.asExpiredDelete(c, key);
        } else {
            db.setExpire(key, when);
            Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "expire", key);
            Propagate.asPexpireat(c, key, when);
        }
        c.reply().integer(1);
    }

    /** NX/XX/GT/LT against the key's current expiry ({@link Database#NO_EXPIRE} = infinite). */
    private static boolean expireConditionHolds(int flags, long current, long when) {
        boolean volatileKey = current != Database.NO_EXPIRE;
        if ((flags & EXPIRE_NX) != 0 && volatileKey) {
            return false;
        }
        if ((flags & EXPIRE_XX) != 0 && !volatileKey) {
            return false;
        }
        if ((flags & EXPIRE_GT) != 0 && (!volatileKey || when <= current)) {
            return false;
        }
        return (flags & EXPIRE_LT) == 0 || !volatileKey || when < current;
    }

    static void ttl(Client c, byte[][] argv) {
        ttlGeneric(c, argv[1], false, false);
    }

    static void pttl(Client c, byte[][] argv) {
        ttlGeneric(c, argv[1], true, false);
    }

    static void expiretime(Client c, byte[][] argv) {
        ttlGeneric(c, argv[1], false, true);
    }

    static void pexpiretime(Client c, byte[][] argv) {
        ttlGeneric(c, argv[1], true, true);
    }

    /**
     * TTL, PTTL, EXPIRETIME, PEXPIRETIME: -2 for a missing key, -1 without a TTL, else the time
     * left (or the absolute time), in ms or rounded to the nearest second.
     */
    private static void ttlGeneric(Client c, byte[] key, boolean millis, boolean absolute) {
        if (lookupReadNoTouch(c, key) == null) {
            c.reply().integer(-2);
            return;
        }
        long expireAt = c.db().getExpire(key);
        if (expireAt == Database.NO_EXPIRE) {
            c.reply().integer(-1);
            return;
        }
        long t = Math.max(0, absolute ? expireAt : expireAt - c.server().nowMs());
        // Rounded to the nearest second without overflowing near Long.MAX_VALUE.
        c.reply().integer(millis ? t : t / 1000 + (t % 1000 + 500) / 1000);
    }

    static void persist(Client c, byte[][] argv) {
        Database db = c.db();
        if (db.lookupWrite(argv[1], c.server().nowMs()) == null) {
            c.reply().integer(0);
            return;
        }
        if (db.persist(argv[1])) {
            Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "persist", argv[1]);
            c.reply().integer(1);
        } else {
            c.reply().integer(0);
        }
    }

    // ---------------------------------------------------------------- iteration

    /**
     * KEYS pattern: every live key matching the glob, in table order.
     *
     * <p>It runs the database's SCAN cursor from 0 to 0 inside one command. Nothing else writes
     * meanwhile, so each key is met exactly once, unless the lazy expiry the scan applies deleted
     * keys and started a shrink of the table; then keys may be met twice, and only in that case the
     * result is de-duplicated. O(capacity + keys) time; the reply holds every matching key.
     * Expired keys met are deleted (Redis only skips them).
     */
    static void keys(Client c, byte[][] argv) {
        Database db = c.db();
        long now = c.server().nowMs();
        byte[] pattern = argv[1];
        Glob glob = pattern.length == 1 && pattern[0] == '*' ? null : Glob.compile(pattern, false);
        List<byte[]> found = new ArrayList<>();
        Dict.Visitor<Object> collect = (key, value) -> {
            if (glob == null || glob.matches(key)) {
                found.add(key);
            }
        };
        int sizeBefore = db.size();
        long cursor = 0;
        do {
            cursor = db.scan(cursor, now, collect);
        } while (cursor != 0);
        List<byte[]> reply = db.size() == sizeBefore ? found : withoutDuplicates(found);
        c.reply().arrayHeader(reply.size());
        for (byte[] key : reply) {
            c.reply().bulk(key);
        }
    }

    private static List<byte[]> withoutDuplicates(List<byte[]> keys) {
        Set<ByteBuffer> seen = new HashSet<>(keys.size() * 2);
        List<byte[]> unique = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            if (seen.add(ByteBuffer.wrap(key))) {
                unique.add(key);
            }
        }
        return unique;
    }

    /**
     * SCAN cursor [MATCH pattern] [COUNT count] [TYPE type].
     *
     * <p>As in Redis, COUNT bounds the work, not the reply: the database's scan step (one bucket)
     * is repeated until it has handed over at least COUNT keys, the cursor is back at 0, or
     * COUNT * 10 buckets were walked (so a sparse table cannot stall the loop); then MATCH and
     * TYPE filter what was collected, so a reply may be short or empty while the cursor is not 0.
     * Expired keys are deleted by the scan and never returned. The cursor is replied as a bulk
     * string. Every key present for the whole iteration is returned at least once; keys added or
     * removed meanwhile may or may not be.
     */
    static void scan(Client c, byte[][] argv) {
        long cursor;
        try {
            cursor = Arguments.parseCursor(argv[1]);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.INVALID_CURSOR);
            return;
        }
        long count = SCAN_DEFAULT_COUNT;
        byte[] pattern = null;
        byte[] type = null;
        for (int i = 2; i < argv.length; i += 2) {
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
            } else if (hasValue && Arguments.is(argv[i], "type")) {
                type = argv[i + 1];
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        Glob glob = pattern == null || (pattern.length == 1 && pattern[0] == '*') ? null : Glob.compile(pattern, false);
        ScanCollector collector = new ScanCollector(glob, type, c.server().stats());
        Database db = c.db();
        long now = c.server().nowMs();
        long bucketsLeft = count > Long.MAX_VALUE / SCAN_MAX_BUCKETS_PER_COUNT
                ? Long.MAX_VALUE : count * SCAN_MAX_BUCKETS_PER_COUNT;
        do {
            cursor = db.scan(cursor, now, collector);
        } while (cursor != 0 && bucketsLeft-- > 0 && collector.handedOver < count);
        c.reply().arrayHeader(2);
        c.reply().bulk(Long.toUnsignedString(cursor));
        c.reply().arrayHeader(collector.keys.size());
        for (byte[] key : collector.keys) {
            c.reply().bulk(key);
        }
    }

    /**
     * Receives one SCAN command's keys: counts every key the database hands over (COUNT bounds
     * that) and keeps those passing MATCH and TYPE. The TYPE check is a read lookup in Redis and
     * is counted as a keyspace hit here too.
     */
    private static final class ScanCollector implements Dict.Visitor<Object> {
        private final Glob glob;
        private final byte[] type;
        private final ServerStats stats;
        private final List<byte[]> keys = new ArrayList<>();
        private long handedOver;

        ScanCollector(Glob glob, byte[] type, ServerStats stats) {
            this.glob = glob;
            this.type = type;
            this.stats = stats;
        }

        @Override
        public void visit(byte[] key, Object value) {
            handedOver++;
            if (glob != null && !glob.matches(key)) {
                return;
            }
            if (type != null) {
                stats.lookup(true);
                if (!Types.hasTypeName(value, type)) {
                    return;
                }
            }
            keys.add(key);
        }
    }

    static void randomkey(Client c, byte[][] argv) {
        byte[] key = c.db().randomKey(c.server().nowMs());
        if (key == null) {
            c.reply().nullBulk();
        } else {
            c.reply().bulk(key);
        }
    }

    /** DBSIZE: keys in the database, including expired ones not yet removed (as Redis). */
    static void dbsize(Client c, byte[][] argv) {
        c.reply().integer(c.db().size());
    }

    // ---------------------------------------------------------------- flush and wait

    /**
     * FLUSHDB [ASYNC|SYNC]. Both modes are O(1) in Ebb: the database swaps in empty tables and the
     * old ones, with every key and value, become garbage that the JVM's collector reclaims off the
     * command path; so SYNC does not wait for memory to be freed and ASYNC has nothing left to
     * hand to a background thread. A lazy flush counts its keys in {@code lazyfreed_objects}, as
     * Redis's does ({@link LazyFree}).
     */
    static void flushdb(Client c, byte[][] argv) {
        if (!flushModeOrReply(c, argv)) {
            return;
        }
        LazyFree.flush(c, c.db(), LazyFree.lazyFlush(c, argv));
        c.reply().ok();
    }


    /**
     * FLUSHALL [ASYNC|SYNC]: every database, each in O(1) as for {@link #flushdb}. Then, as Redis's
     * flushAllDataAndResetRDB: a running BGSAVE is stopped (it would write the old data), and with
     * save points configured the now empty dataset is saved at once, so a restart does not bring the
     * flushed keys back from the last dump.
     */
    static void flushall(Client c, byte[][] argv) {
        if (!flushModeOrReply(c, argv)) {
            return;
        }
        boolean lazy = LazyFree.lazyFlush(c, argv);
        for (int i = 0; i < c.server().databases(); i++) {
            LazyFree.flush(c, c.server().db(i), lazy);
        }
        dev.ebb.server.persistence.Persistence persistence = c.server().persistence();
        persistence.killBgsave();
        if (!c.server().config().save().isEmpty()) {
            persistence.save();
        }
        c.reply().ok();
    }

    /**
     * SWAPDB index1 index2: the two databases exchange their contents in O(1); clients that had
     * selected either see the other's keys at once, and clients blocked on a key of either are
     * served if the key now holds what they wait for, as in Redis.
     */
    static void swapdb(Client c, byte[][] argv) {
        if (c.server().clusterEnabled()) {
            c.reply().error(Errors.SWAPDB_IN_CLUSTER);
            return;
        }
        long first = dbIndexOrReply(c, argv[1], "ERR invalid first DB index");
        if (first == Arguments.INVALID) {
            return;
        }
        long second = dbIndexOrReply(c, argv[2], "ERR invalid second DB index");
        if (second == Arguments.INVALID) {
            return;
        }
        int databases = c.server().databases();
        if (first < 0 || first >= databases || second < 0 || second >= databases) {
            c.reply().error(Errors.DB_INDEX_OUT_OF_RANGE);
            return;
        }
        if (first != second) {
            c.server().db((int) first).swapWith(c.server().db((int) second));
            c.server().blockingKeys().signalDatabasesSwapped((int) first, (int) second);
        }
        c.reply().ok();
    }

    /** A 32-bit database index, or {@link Arguments#INVALID} after replying {@code error}. */
    private static long dbIndexOrReply(Client c, byte[] arg, String error) {
        long v = Arguments.longOrReply(c, arg, error);
        if (v != Arguments.INVALID && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
            c.reply().error(error);
            return Arguments.INVALID;
        }
        return v;
    }

    /** Accepts no argument, ASYNC or SYNC; replies a syntax error to anything else. */
    private static boolean flushModeOrReply(Client c, byte[][] argv) {
        if (argv.length == 1) {
            return true;
        }
        if (argv.length == 2 && (Arguments.is(argv[1], "async") || Arguments.is(argv[1], "sync"))) {
            return true;
        }
        c.reply().error(Errors.SYNTAX);
        return false;
    }
}
