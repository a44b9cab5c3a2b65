package dev.ebb.server.command;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.server.util.Glob;
import dev.ebb.storage.Database;
import dev.ebb.storage.MemoryEstimated;

/**
 * Helpers shared by the aggregate families (hashes, sets, lists; sorted sets for the end of a
 * write): typed look-ups that answer WRONGTYPE themselves, the end of every in-place change
 * ({@link #changed}: memory, WATCH signal, keyspace event, deletion when empty), and the
 * cursor/MATCH/COUNT parsing of HSCAN and SSCAN.
 */
final class Aggregates {
    /** As SCAN: COUNT bounds the dict scan steps taken, at most COUNT * 10 of them. */
    static final long SCAN_MAX_STEPS_PER_COUNT = 10;

    private Aggregates() {
    }

    /**
     * The value at {@code key} for a read, counted in keyspace hits/misses: the value, null if
     * missing, or {@link Values#WRONG_TYPE} after replying WRONGTYPE when it is not a {@code type}.
     */
    static Object lookupReadOrReply(Client c, byte[] key, Class<?> type) {
        Object v = c.db().lookupRead(key, c.server().nowMs());
        c.server().stats().lookup(v != null);
        return checkType(c, v, type);
    }

    /** As {@link #lookupReadOrReply} for a command about to write the key (no hit/miss counted). */
    static Object lookupWriteOrReply(Client c, byte[] key, Class<?> type) {
        return checkType(c, c.db().lookupWrite(key, c.server().nowMs()), type);
    }

    private static Object checkType(Client c, Object v, Class<?> type) {
        if (v != null && !type.isInstance(v)) {
            c.reply().error(Errors.WRONGTYPE);
            return Values.WRONG_TYPE;
        }
        return v;
    }

    /**
     * Ends an in-place change of a stored aggregate, the one choke point of every aggregate write
     * that changed something: reports the change of its memory estimate to the database
     * ({@code before} is {@code memoryBytes()} read before the change), signals the key as
     * modified (WATCH), publishes the keyspace event {@code event} of class {@code type}, and, if
     * the change left the aggregate empty, deletes the key and publishes "del", as Redis does.
     * Call it only when the command changed the value (or where Redis signals regardless, as HSET).
     */
    static void changed(Client c, byte[] key, MemoryEstimated value, long before, boolean empty, int type,
            String event) {
        Database db = c.db();
        db.adjustMemory(value.memoryBytes() - before);
        Notifications.notify(c, type, event, key);
        if (empty) {
            db.delete(key);
            Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", key);
        } else {
            db.signalModifiedKey(key);
        }
    }

    /**
     * Stores an aggregate this command created at the missing {@code key} (the database signals
     * the new key itself) and publishes the keyspace event {@code event} of class {@code type}.
     */
    static void created(Client c, byte[] key, Object value, int type, String event) {
        c.db().add(key, value, c.server().nowMs());
        Notifications.notify(c, type, event, key);
    }

    /**
     * Whether argv[2] is a valid cursor, replying {@code ERR invalid cursor} if not. Redis checks
     * the cursor before the key, and the options only once the key exists.
     */
    static boolean cursorValidOrReply(Client c, byte[] arg) {
        try {
            Arguments.parseCursor(arg);
            return true;
        } catch (NumberFormatException e) {
            c.reply().error(Errors.INVALID_CURSOR);
            return false;
        }
    }

    /** The empty reply of HSCAN/SSCAN on a missing key: cursor 0, no elements. */
    static void replyEmptyScan(Client c) {
        c.reply().arrayHeader(2);
        c.reply().bulk("0");
        c.reply().arrayHeader(0);
    }

    /** The cursor (argv[2]) and options of HSCAN/SSCAN; null after replying an error. */
    static ScanOptions scanOptionsOrReply(Client c, byte[][] argv) {
        long cursor;
        try {
            cursor = Arguments.parseCursor(argv[2]);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.INVALID_CURSOR);
            return null;
        }
        long count = 10;
        byte[] pattern = null;
        for (int i = 3; i < argv.length; i += 2) {
            boolean hasValue = i + 1 < argv.length;
            if (hasValue && Arguments.is(argv[i], "count")) {
                try {
                    count = Arguments.parseLong(argv[i + 1]);
                } catch (NumberFormatException e) {
                    c.reply().error(Errors.NOT_INTEGER);
                    return null;
                }
                if (count < 1) {
                    c.reply().error(Errors.SYNTAX);
                    return null;
                }
            } else if (hasValue && Arguments.is(argv[i], "match")) {
                pattern = argv[i + 1];
            } else {
                c.reply().error(Errors.SYNTAX);
                return null;
            }
        }
        Glob glob = pattern == null || (pattern.length == 1 && pattern[0] == '*') ? null : Glob.compile(pattern, false);
        return new ScanOptions(cursor, count, glob);
    }

    /** Cursor, COUNT and MATCH of one HSCAN/SSCAN call. */
    record ScanOptions(long cursor, long count, Glob glob) {
        boolean matches(byte[] element) {
            return glob == null || glob.matches(element);
        }

        long maxSteps() {
            return count > Long.MAX_VALUE / SCAN_MAX_STEPS_PER_COUNT ? Long.MAX_VALUE : count * SCAN_MAX_STEPS_PER_COUNT;
        }
    }
}
