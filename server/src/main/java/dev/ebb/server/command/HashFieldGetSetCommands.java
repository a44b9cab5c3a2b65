package dev.ebb.server.command;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.storage.types.HashValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis 8.0's hash commands that read or write fields together with their time to live: HGETEX,
 * HSETEX and HGETDEL, implemented from Redis's documentation (the reference server, 7.4.1, does
 * not have them). They share {@link HashFieldExpiryCommands}' look-up (lazy field expiry), expiry
 * checks and end of change.
 *
 * <p>Option parsing is Redis 8's: the options come before {@code FIELDS}, each kind at most once
 * ("Only one of …" otherwise), an unknown word is a syntax error, and {@code numfields} must be a
 * positive integer matching the fields (or field-value pairs) that follow, else the arity error.
 */
public final class HashFieldGetSetCommands {
    private static final int NONE = 0;
    private static final int EX = 1;
    private static final int PX = 2;
    private static final int EXAT = 3;
    private static final int PXAT = 4;
    private static final int PERSIST = 5;
    private static final int KEEPTTL = 6;

    private HashFieldGetSetCommands() {
    }

    /** Parsed options of HGETEX or HSETEX; {@code fieldsAt} is the index of the FIELDS word. */
    private record Options(int expiry, long value, int condition, int fieldsAt, int count) {
    }

    /**
     * Parses {@code [conditions] [expiry] FIELDS numfields …} from argv[2]; {@code perField} is 1
     * for HGETEX (fields) and 2 for HSETEX (field-value pairs).
     *
     * @return the options, or null after replying an error
     */
    private static Options optionsOrReply(Client c, byte[][] argv, boolean setex, String command) {
        int expiry = NONE;
        long value = 0;
        int condition = NONE;
        int i = 2;
        while (i < argv.length && !Arguments.is(argv[i], "fields")) {
            byte[] a = argv[i];
            int kind = Arguments.is(a, "ex") ? EX : Arguments.is(a, "px") ? PX : Arguments.is(a, "exat") ? EXAT
                    : Arguments.is(a, "pxat") ? PXAT : !setex && Arguments.is(a, "persist") ? PERSIST
                    : setex && Arguments.is(a, "keepttl") ? KEEPTTL : NONE;
            if (kind != NONE) {
                if (expiry != NONE) {
                    c.reply().error(setex ? Errors.HSETEX_ONE_EXPIRY : Errors.HGETEX_ONE_EXPIRY);
                    return null;
                }
                expiry = kind;
                if (kind != PERSIST && kind != KEEPTTL) {
                    if (i + 1 >= argv.length) {
                        c.reply().error(Errors.SYNTAX);
                        return null;
                    }
                    if (!Arguments.isLongOrReply(c, argv[i + 1])) {
                        return null;
                    }
                    value = Arguments.parseLong(argv[i + 1]);
                    i++;
                }
            } else if (setex && (Arguments.is(a, "fnx") || Arguments.is(a, "fxx"))) {
                if (condition != NONE) {
                    c.reply().error(Errors.HSETEX_ONE_CONDITION);
                    return null;
                }
                condition = Arguments.is(a, "fnx") ? 1 : 2;
            } else {
                c.reply().error(Errors.SYNTAX);
                return null;
            }
            i++;
        }
        if (i + 1 >= argv.length) {
            c.reply().error(i >= argv.length ? Errors.SYNTAX : Errors.wrongArity(command));
            return null;
        }
        long count = Arguments.isLong(argv[i + 1]) ? Arguments.parseLong(argv[i + 1]) : 0;
        if (count < 1 || count > Integer.MAX_VALUE) {
            c.reply().error(Errors.HFE_INVALID_FIELD_COUNT);
            return null;
        }
        if (count * (setex ? 2 : 1) != argv.length - i - 2) {
            c.reply().error(Errors.wrongArity(command));
            return null;
        }
        return new Options(expiry, value, condition, i, (int) count);
    }

    /** The options' expiry as absolute unix ms, or -1 after replying an error (only for EX/PX/EXAT/PXAT). */
    private static long whenOrReply(Client c, Options o, String command) {
        long now = c.server().nowMs();
        byte[] arg = StringCommands.decimalBytes(o.value());
        return switch (o.expiry()) {
            case EX -> HashFieldExpiryCommands.expireAtOrReply(c, arg, now, true, command);
            case PX -> HashFieldExpiryCommands.expireAtOrReply(c, arg, now, false, command);
            case EXAT -> HashFieldExpiryCommands.expireAtOrReply(c, arg, 0, true, command);
            default -> HashFieldExpiryCommands.expireAtOrReply(c, arg, 0, false, command);
        };
    }

    private static boolean hasTime(Options o) {
        return o.expiry() >= EX && o.expiry() <= PXAT;
    }

    /**
     * HGETEX key [EX|PX|EXAT|PXAT|PERSIST] FIELDS numfields field …: the values (nil for a missing
     * field), then the existing fields get the new expiry, lose theirs (PERSIST), or are deleted
     * when the time is already past.
     */
    static void hgetex(Client c, byte[][] argv) {
        Options o = optionsOrReply(c, argv, false, "hgetex");
        if (o == null) {
            return;
        }
        long when = hasTime(o) ? whenOrReply(c, o, "hgetex") : -1;
        if (hasTime(o) && when < 0) {
            return;
        }
        Object found = HashFieldExpiryCommands.hashOrReply(c, argv[1], true);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        long now = c.server().nowMs();
        int first = o.fieldsAt() + 2;
        c.reply().arrayHeader(o.count());
        for (int i = first; i < argv.length; i++) {
            c.reply().bulk(found == null ? null : ((HashValue) found).get(argv[i], now));
        }
        if (found == null || o.expiry() == NONE) {
            return;
        }
        HashValue h = (HashValue) found;
        long before = h.memoryBytes();
        int changed = 0;
        List<byte[]> fields = new ArrayList<>();
        for (int i = first; i < argv.length; i++) {
            if (h.get(argv[i], now) == null) {
                continue;
            }
            if (o.expiry() == PERSIST) {
                if (h.persistField(argv[i])) {
                    changed++;
                    fields.add(argv[i]);
                }
            } else if (when <= now) {
                h.remove(argv[i]);
                changed++;
                fields.add(argv[i]);
            } else {
                h.setFieldExpiry(argv[i], when);
                changed++;
                fields.add(argv[i]);
            }
        }
        propagateHgetex(c, argv[1], o, when, now, fields);
        if (changed > 0) {
            String event = o.expiry() == PERSIST ? "hpersist" : when <= now ? "hdel" : "hexpire";
            HashFieldExpiryCommands.finish(c, argv[1], h, before, event);
        }
    }

    /**
     * HGETEX's writes as Redis 8 propagates them: HPERSIST, HDEL (time already past) or HPEXPIREAT
     * with the absolute time, naming the fields that changed; nothing when none did.
     */
    private static void propagateHgetex(Client c, byte[] key, Options o, long when, long now, List<byte[]> fields) {
        if (!Propagate.active(c)) {
            return;
        }
        if (fields.isEmpty()) {
            c.server().propagation().prevent();
        } else if (o.expiry() == PERSIST) {
            Propagate.as(c, withFields(Propagate.HPERSIST, key, null, fields));
        } else if (when <= now) {
            Propagate.as(c, Propagate.hdel(key, fields));
        } else {
            Propagate.as(c, withFields(Propagate.HPEXPIREAT, key, Propagate.number(when), fields));
        }
    }

    /** {@code command key [when] FIELDS n field...}. */
    private static byte[][] withFields(byte[] command, byte[] key, byte[] when, List<byte[]> fields) {
        List<byte[]> out = new ArrayList<>(fields.size() + 5);
        out.add(command);
        out.add(key);
        if (when != null) {
            out.add(when);
        }
        out.add(Propagate.FIELDS);
        out.add(Propagate.number(fields.size()));
        out.addAll(fields);
        return out.toArray(new byte[0][]);
    }

    /**
     * HSETEX with a relative or absolute time propagates as {@code HSETEX key PXAT ms FIELDS …}
     * (the condition already held), one whose time was past as HDEL of its fields.
     */
    private static void propagateHsetex(Client c, byte[][] argv, Options o, long when, boolean past) {
        if (!Propagate.active(c) || !hasTime(o)) {
            return;
        }
        int first = o.fieldsAt() + 2;
        if (past) {
            List<byte[]> fields = new ArrayList<>(o.count());
            for (int i = first; i < argv.length; i += 2) {
                fields.add(argv[i]);
            }
            Propagate.as(c, Propagate.hdel(argv[1], fields));
            return;
        }
        byte[][] out = new byte[6 + argv.length - first][];
        out[0] = argv[0];
        out[1] = argv[1];
        out[2] = Propagate.PXAT;
        out[3] = Propagate.number(when);
        out[4] = Propagate.FIELDS;
        out[5] = Propagate.number(o.count());
        System.arraycopy(argv, first, out, 6, argv.length - first);
        Propagate.as(c, out);
    }

    /**
     * HSETEX key [FNX|FXX] [EX|PX|EXAT|PXAT|KEEPTTL] FIELDS numfields field value …: 1 after
     * setting every pair (with the expiry, keeping each field's TTL, or without TTL as HSET), 0
     * when FNX finds a field or FXX misses one. A time already past leaves the fields deleted.
     */
    static void hsetex(Client c, byte[][] argv) {
        Options o = optionsOrReply(c, argv, true, "hsetex");
        if (o == null) {
            return;
        }
        long when = hasTime(o) ? whenOrReply(c, o, "hsetex") : HashValue.NO_TTL;
        if (hasTime(o) && when < 0) {
            return;
        }
        Object found = HashFieldExpiryCommands.hashOrReply(c, argv[1], true);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        long now = c.server().nowMs();
        int first = o.fieldsAt() + 2;
        if (o.condition() != NONE) {
            boolean wantPresent = o.condition() == 2;
            for (int i = first; i < argv.length; i += 2) {
                boolean present = found != null && ((HashValue) found).get(argv[i], now) != null;
                if (present != wantPresent) {
                    c.reply().integer(0);
                    return;
                }
            }
        }
        HashValue h = found == null ? new HashValue() : (HashValue) found;
        long before = h.memoryBytes();
        ServerConfig config = c.server().config();
        h.convertForNewFields(o.count(), config.hashMaxListpackEntries());
        boolean past = hasTime(o) && when <= now;
        for (int i = first; i < argv.length; i += 2) {
            if (past) {
                h.remove(argv[i]);
            } else if (o.expiry() == KEEPTTL) {
                h.putKeepTtl(argv[i], argv[i + 1], config.hashMaxListpackEntries(), config.hashMaxListpackValue());
            } else {
                h.putWithExpiry(argv[i], argv[i + 1], when, config.hashMaxListpackEntries(),
                        config.hashMaxListpackValue());
            }
        }
        c.reply().integer(1);
        propagateHsetex(c, argv, o, when, past);
        if (found == null) {
            if (h.size() > 0) {
                Aggregates.created(c, argv[1], h, NotifyKeyspaceEvents.HASH, "hset");
                if (hasTime(o)) {
                    HashFieldExpiryCommands.notifyHash(c, "hexpire", argv[1]);
                }
            }
            return;
        }
        if (past) {
            HashFieldExpiryCommands.finish(c, argv[1], h, before, "hdel");
            return;
        }
        if (hasTime(o)) {
            HashFieldExpiryCommands.notifyHash(c, "hset", argv[1]);
        }
        HashFieldExpiryCommands.finish(c, argv[1], h, before, hasTime(o) ? "hexpire" : "hset");
    }

    /** HGETDEL key FIELDS numfields field …: the values (nil for a missing field), then the fields are deleted. */
    static void hgetdel(Client c, byte[][] argv) {
        Object found = HashFieldExpiryCommands.hashOrReply(c, argv[1], true);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        int count = HashFieldExpiryCommands.fieldsCountOrReply(c, argv, 2, Errors.HFE_FIELDS_NOT_POSITIVE);
        if (count < 0) {
            return;
        }
        c.reply().arrayHeader(count);
        if (found == null) {
            for (int i = 0; i < count; i++) {
                c.reply().nullBulk();
            }
            return;
        }
        HashValue h = (HashValue) found;
        long before = h.memoryBytes();
        long now = c.server().nowMs();
        int deleted = 0;
        for (int i = 4; i < argv.length; i++) {
            byte[] value = h.size() == 0 ? null : h.get(argv[i], now);
            c.reply().bulk(value);
            if (value != null && h.remove(argv[i])) {
                deleted++;
            }
        }
        if (deleted > 0) {
            HashFieldExpiryCommands.finish(c, argv[1], h, before, "hdel");
        }
    }
}
