package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.VolatileHashes;
import dev.ebb.storage.types.HashValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Time to live per hash field, an Ebb extension with Redis's semantics: the Redis 7.4 commands
 * HEXPIRE, HPEXPIRE, HEXPIREAT, HPEXPIREAT, HTTL, HPTTL, HEXPIRETIME, HPEXPIRETIME, HPERSIST and
 * the Redis 8.0 commands HGETEX, HSETEX, HGETDEL. The storage is {@link HashValue}'s; the
 * database indexes hashes with volatile fields for the active expire cycle.
 *
 * <p>Shared routines: {@link #hashOrReply} (the hash, after lazily expiring its due fields: every
 * hash command looks up through it), {@link #fieldsCountOrReply} (the {@code FIELDS numfields}
 * block of the 7.4 commands), {@link #hexpireGeneric} and {@link #httlGeneric} (the four setters
 * and the four getters, as Redis's generic routines), {@link #finish} (memory, index, WATCH
 * signal, events, deletion of an emptied hash).
 *
 * <p>Per-field reply codes as Redis 7.4: -2 no such field, 0 condition (NX/XX/GT/LT) not met,
 * 1 expiry set, 2 field deleted because the time is already past; HPERSIST -1 no TTL, 1 removed.
 */
public final class HashFieldExpiryCommands {
    /** Redis's HFE_MAX_ABS_TIME_MSEC: the latest field expiry accepted, (2^48 - 1) / 4 ms. */
    static final long MAX_ABS_TIME_MS = 0xFFFF_FFFF_FFFFL >> 2;

    static final int SET_OK = 1;
    static final int SET_NO_CONDITION = 0;
    static final int SET_DELETED = 2;
    static final int NO_FIELD = -2;

    private static final int COND_NONE = 0;
    private static final int COND_NX = 1;
    private static final int COND_XX = 2;
    private static final int COND_GT = 3;
    private static final int COND_LT = 4;

    private HashFieldExpiryCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        String setArgs = "key seconds [NX | XX | GT | LT] FIELDS numfields field [field ...]";
        String getArgs = "key FIELDS numfields field [field ...]";
        return List.of(
                spec("hexpire", -6, WRITE | DENYOOM | FAST, 1, 1, 1,
                        (c, argv) -> hexpireGeneric(c, argv, c.server().nowMs(), true, "hexpire"))
                        .doc(CommandGroup.HASH, "7.4.0", "Set expiry for hash field using relative time to expire"
                                + " (seconds)", setArgs),
                spec("hpexpire", -6, WRITE | DENYOOM | FAST, 1, 1, 1,
                        (c, argv) -> hexpireGeneric(c, argv, c.server().nowMs(), false, "hpexpire"))
                        .doc(CommandGroup.HASH, "7.4.0", "Set expiry for hash field using relative time to expire"
                                + " (milliseconds)", setArgs.replace("seconds", "milliseconds")),
                spec("hexpireat", -6, WRITE | DENYOOM | FAST, 1, 1, 1,
                        (c, argv) -> hexpireGeneric(c, argv, 0, true, "hexpireat"))
                        .doc(CommandGroup.HASH, "7.4.0", "Set expiry for hash field using an absolute Unix timestamp"
                                + " (seconds)", setArgs.replace("seconds", "unix-time-seconds")),
                spec("hpexpireat", -6, WRITE | DENYOOM | FAST, 1, 1, 1,
                        (c, argv) -> hexpireGeneric(c, argv, 0, false, "hpexpireat"))
                        .doc(CommandGroup.HASH, "7.4.0", "Set expiry for hash field using an absolute Unix timestamp"
                                + " (milliseconds)", setArgs.replace("seconds", "unix-time-milliseconds")),
                spec("httl", -5, READONLY | FAST, 1, 1, 1,
                        (c, argv) -> httlGeneric(c, argv, c.server().nowMs(), true))
                        .doc(CommandGroup.HASH, "7.4.0", "Returns the TTL in seconds of a hash field.", getArgs),
                spec("hpttl", -5, READONLY | FAST, 1, 1, 1,
                        (c, argv) -> httlGeneric(c, argv, c.server().nowMs(), false))
                        .doc(CommandGroup.HASH, "7.4.0", "Returns the TTL in milliseconds of a hash field.", getArgs),
                spec("hexpiretime", -5, READONLY | FAST, 1, 1, 1, (c, argv) -> httlGeneric(c, argv, 0, true))
                        .doc(CommandGroup.HASH, "7.4.0", "Returns the expiration time of a hash field as a Unix"
                                + " timestamp, in seconds.", getArgs),
                spec("hpexpiretime", -5, READONLY | FAST, 1, 1, 1, (c, argv) -> httlGeneric(c, argv, 0, false))
                        .doc(CommandGroup.HASH, "7.4.0", "Returns the expiration time of a hash field as a Unix"
                                + " timestamp, in msec.", getArgs),
                spec("hpersist", -5, WRITE | FAST, 1, 1, 1, HashFieldExpiryCommands::hpersist)
                        .doc(CommandGroup.HASH, "7.4.0", "Removes the expiration time for each specified field",
                                getArgs),
                spec("hgetex", -5, WRITE | FAST, 1, 1, 1, HashFieldGetSetCommands::hgetex)
                        .doc(CommandGroup.HASH, "8.0.0", "Get the value of one or more fields of a given hash key,"
                                + " and optionally set their expiration.",
                                "key [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT"
                                        + " unix-time-milliseconds | PERSIST] FIELDS numfields field [field ...]"),
                spec("hsetex", -6, WRITE | DENYOOM | FAST, 1, 1, 1, HashFieldGetSetCommands::hsetex)
                        .doc(CommandGroup.HASH, "8.0.0", "Set the value of one or more fields of a given hash key,"
                                + " and optionally set their expiration.",
                                "key [FNX | FXX] [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT"
                                        + " unix-time-milliseconds | KEEPTTL] FIELDS numfields field value"
                                        + " [field value ...]"),
                spec("hgetdel", -5, WRITE | FAST, 1, 1, 1, HashFieldGetSetCommands::hgetdel)
                        .doc(CommandGroup.HASH, "8.0.0", "Returns the value of a field and deletes it from the hash.",
                                getArgs));
    }

    /**
     * The hash at {@code key} for a hash command, with its due fields removed first (lazy field
     * expiry, at most {@link VolatileHashes#FIELDS_PER_STEP} of them: the read methods taking
     * {@code nowMs} skip any left): the hash, null if missing (or emptied by expiry),
     * {@link Values#WRONG_TYPE} after replying.
     */
    static Object hashOrReply(Client c, byte[] key, boolean write) {
        Object found = write ? Aggregates.lookupWriteOrReply(c, key, HashValue.class)
                : Aggregates.lookupReadOrReply(c, key, HashValue.class);
        long now = c.server().nowMs();
        if (found instanceof HashValue h && h.earliestExpiry() < now) {
            c.db().expireHashFields(key, now, VolatileHashes.FIELDS_PER_STEP);
            return h.size() == 0 ? null : h;
        }
        return found;
    }

    /**
     * Reads {@code FIELDS numfields} at {@code fieldsAt} and checks that exactly that many
     * arguments follow, with Redis 7.4's texts; {@code countError} is the text for a count that
     * is not a positive integer.
     *
     * @return the count, or -1 after replying an error
     */
    static int fieldsCountOrReply(Client c, byte[][] argv, int fieldsAt, String countError) {
        if (fieldsAt >= argv.length || !Arguments.is(argv[fieldsAt], "fields")) {
            c.reply().error(Errors.HFE_FIELDS_MISSING);
            return -1;
        }
        long count = fieldsAt + 1 < argv.length && Arguments.isLong(argv[fieldsAt + 1])
                ? Arguments.parseLong(argv[fieldsAt + 1]) : 0;
        if (count < 1) {
            c.reply().error(countError);
            return -1;
        }
        if (count != argv.length - fieldsAt - 2) {
            c.reply().error(Errors.HFE_NUMFIELDS_MISMATCH);
            return -1;
        }
        return (int) count;
    }

    /**
     * An expiry argument as absolute unix ms, Redis's checks: an integer, not negative, and no
     * later than {@link #MAX_ABS_TIME_MS} once {@code basetime} is added.
     *
     * @return the time, or -1 after replying an error
     */
    static long expireAtOrReply(Client c, byte[] arg, long basetime, boolean seconds, String command) {
        if (!Arguments.isLongOrReply(c, arg)) {
            return -1;
        }
        long expire = Arguments.parseLong(arg);
        if (expire < 0) {
            c.reply().error(Errors.HFE_NEGATIVE_TIME);
            return -1;
        }
        if (seconds) {
            if (expire > MAX_ABS_TIME_MS / 1000) {
                c.reply().error(Errors.invalidExpireTime(command));
                return -1;
            }
            expire *= 1000;
        }
        if (expire > MAX_ABS_TIME_MS - basetime) {
            c.reply().error(Errors.invalidExpireTime(command));
            return -1;
        }
        return expire + basetime;
    }

    /** HEXPIRE, HPEXPIRE, HEXPIREAT, HPEXPIREAT: {@code basetime} is now for the relative forms, 0 for the AT forms. */
    static void hexpireGeneric(Client c, byte[][] argv, long basetime, boolean seconds, String command) {
        Object found = hashOrReply(c, argv[1], true);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        long when = expireAtOrReply(c, argv[2], basetime, seconds, command);
        if (when < 0) {
            return;
        }
        int condition = condition(argv[3]);
        int fieldsAt = condition == COND_NONE ? 3 : 4;
        int count = fieldsCountOrReply(c, argv, fieldsAt, Errors.HFE_NUMFIELDS_NOT_POSITIVE);
        if (count < 0) {
            return;
        }
        c.reply().arrayHeader(count);
        if (found == null) {
            for (int i = 0; i < count; i++) {
                c.reply().integer(NO_FIELD);
            }
            return;
        }
        HashValue h = (HashValue) found;
        long before = h.memoryBytes();
        long now = c.server().nowMs();
        boolean propagate = Propagate.active(c);
        List<byte[]> updatedFields = propagate ? new ArrayList<>() : null;
        List<byte[]> deletedFields = propagate ? new ArrayList<>() : null;
        int updated = 0;
        int deleted = 0;
        for (int i = fieldsAt + 2; i < argv.length; i++) {
            int result = setFieldExpiry(h, argv[i], when, condition, now);
            if (result == SET_OK) {
                updated++;
                if (propagate) {
                    updatedFields.add(argv[i]);
                }
            } else if (result == SET_DELETED) {
                deleted++;
                if (propagate) {
                    deletedFields.add(argv[i]);
                }
            }
            c.reply().integer(result);
        }
        if (updated + deleted == 0) {
            return;
        }
        if (propagate) {
            propagateExpiry(c, argv[1], when, updatedFields, deletedFields);
        }
        c.db().volatileHashes().recordExpiredSubkeys(deleted);
        finish(c, argv[1], h, before, deleted > 0 ? "hdel" : "hexpire");
    }

    /**
     * As Redis 7.4: fields removed because the time was past go as one HDEL, the fields whose
     * expiry was set as {@code HPEXPIREAT key when FIELDS n field...} (absolute, without the
     * condition, which the listed fields met); nothing of the command itself if no field was set.
     */
    static void propagateExpiry(Client c, byte[] key, long when, List<byte[]> updated, List<byte[]> deleted) {
        if (!deleted.isEmpty()) {
            c.server().propagation().also(c.db().id(), Propagate.hdel(key, deleted));
        }
        if (updated.isEmpty()) {
            c.server().propagation().prevent();
            return;
        }
        byte[][] out = new byte[5 + updated.size()][];
        out[0] = Propagate.HPEXPIREAT;
        out[1] = key;
        out[2] = Propagate.number(when);
        out[3] = Propagate.FIELDS;
        out[4] = Propagate.number(updated.size());
        for (int i = 0; i < updated.size(); i++) {
            out[5 + i] = updated.get(i);
        }
        Propagate.as(c, out);
    }

    private static int condition(byte[] arg) {
        return Arguments.is(arg, "nx") ? COND_NX : Arguments.is(arg, "xx") ? COND_XX
                : Arguments.is(arg, "gt") ? COND_GT : Arguments.is(arg, "lt") ? COND_LT : COND_NONE;
    }

    /** Redis's hashTypeSetEx for one field: a field without TTL counts as an infinite one for GT and LT. */
    private static int setFieldExpiry(HashValue h, byte[] field, long when, int condition, long now) {
        long current = h.fieldExpiry(field);
        if (current == HashValue.NO_FIELD) {
            return NO_FIELD;
        }
        if (current == HashValue.NO_TTL) {
            if (condition == COND_XX || condition == COND_GT) {
                return SET_NO_CONDITION;
            }
        } else if (condition == COND_NX || (condition == COND_GT && current >= when)
                || (condition == COND_LT && current <= when)) {
            return SET_NO_CONDITION;
        }
        if (when <= now) {
            h.remove(field);
            return SET_DELETED;
        }
        h.setFieldExpiry(field, when);
        return SET_OK;
    }

    /** HTTL, HPTTL, HEXPIRETIME, HPEXPIRETIME: a field past its time that is still stored reads as absent. */
    static void httlGeneric(Client c, byte[][] argv, long basetime, boolean seconds) {
        Object found = hashOrReply(c, argv[1], false);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        int count = fieldsCountOrReply(c, argv, 2, Errors.HFE_FIELDS_NOT_POSITIVE);
        if (count < 0) {
            return;
        }
        c.reply().arrayHeader(count);
        long now = c.server().nowMs();
        for (int i = 4; i < argv.length; i++) {
            long when = found == null ? HashValue.NO_FIELD : ((HashValue) found).fieldExpiry(argv[i]);
            if (when == HashValue.NO_FIELD || when == HashValue.NO_TTL) {
                c.reply().integer(when);
            } else if (now > when) {
                c.reply().integer(NO_FIELD);
            } else {
                c.reply().integer(seconds ? (when + 999 - basetime) / 1000 : when - basetime);
            }
        }
    }

    static void hpersist(Client c, byte[][] argv) {
        Object found = hashOrReply(c, argv[1], true);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        int count = fieldsCountOrReply(c, argv, 2, Errors.HFE_FIELDS_NOT_POSITIVE);
        if (count < 0) {
            return;
        }
        c.reply().arrayHeader(count);
        if (found == null) {
            for (int i = 0; i < count; i++) {
                c.reply().integer(NO_FIELD);
            }
            return;
        }
        HashValue h = (HashValue) found;
        long before = h.memoryBytes();
        int changed = 0;
        for (int i = 4; i < argv.length; i++) {
            long when = h.fieldExpiry(argv[i]);
            if (when == HashValue.NO_FIELD || when == HashValue.NO_TTL) {
                c.reply().integer(when);
            } else {
                h.persistField(argv[i]);
                changed++;
                c.reply().integer(1);
            }
        }
        if (changed > 0) {
            finish(c, argv[1], h, before, "hpersist");
        }
    }

    /**
     * Ends a change of the existing hash {@code h}: memory, the index of volatile hashes, the
     * keyspace event {@code event}, and either the WATCH signal or, if the hash is now empty, its
     * deletion and the {@code del} event.
     */
    static void finish(Client c, byte[] key, HashValue h, long before, String event) {
        if (h.size() > 0) {
            c.db().hashFieldsChanged(key, h);
        }
        Aggregates.changed(c, key, h, before, h.size() == 0, NotifyKeyspaceEvents.HASH, event);
    }

    /** Publishes a hash keyspace event without any other bookkeeping (a command's secondary event). */
    static void notifyHash(Client c, String event, byte[] key) {
        Notifications.notify(c, NotifyKeyspaceEvents.HASH, event, key);
    }
}
