package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.Database;
import dev.ebb.storage.rdb.DumpPayload;
import dev.ebb.storage.rdb.RdbException;
import dev.ebb.storage.rdb.RdbLimits;
import java.util.List;

/**
 * DUMP and RESTORE: a value as Redis's DUMP payload (RDB type and encoding, RDB version 11, CRC-64;
 * {@link DumpPayload}) and back, byte-compatible with Redis 7.2 both ways. MIGRATE, which sends
 * such payloads to another server, is {@link MigrateCommand}.
 *
 * <p>RESTORE follows Redis's restoreCommand step by step: options (REPLACE, ABSTTL, IDLETIME and
 * FREQ, the last two exclusive), BUSYKEY unless REPLACE, the TTL, the payload's version and
 * checksum, then the value itself ("Bad data format"); a TTL already in the past only deletes a
 * replaced key. The loaded value gets the encoding this server's thresholds give its content.
 * DUMP compresses strings with LZF as {@code rdbcompression yes} (Redis's default) does.
 *
 * <p>Costs: O(size of the value) for both; both run on the command loop like any command.
 */
final class DumpCommands {
    private DumpCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("dump", 2, READONLY, 1, 1, 1, DumpCommands::dump)
                        .doc(CommandGroup.GENERIC, "2.6.0",
                                "Returns a serialized representation of the value stored at a key.", "key")
                        .complexity("O(1) to access the key and additional O(N*M) to serialize it, where N is the"
                                + " number of Redis objects composing the value and M their average size. For small"
                                + " string values the time complexity is thus O(1)+O(1*M) where M is small, so"
                                + " simply O(1)."),
                spec("restore-asking", -4, WRITE | DENYOOM, 1, 1, 1, DumpCommands::restore)
                        .doc(CommandGroup.SERVER, "3.0.0", "An internal command for migrating keys in a cluster.",
                                "key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]")
                        .complexity("O(1) to create the new key and additional O(N*M) to reconstruct the serialized"
                                + " value, where N is the number of Redis objects composing the value and M their"
                                + " average size."),
                spec("restore", -4, WRITE | DENYOOM, 1, 1, 1, DumpCommands::restore)
                        .doc(CommandGroup.GENERIC, "2.6.0",
                                "Creates a key from the serialized representation of a value.",
                                "key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]")
                        .complexity("O(1) to create the new key and additional O(N*M) to reconstruct the serialized"
                                + " value, where N is the number of Redis objects composing the value and M their"
                                + " average size. For small string values the time complexity is thus O(1)+O(1*M)"
                                + " where M is small, so simply O(1). However for sorted set values the complexity"
                                + " is O(N*M*log(N)) because inserting values into sorted sets is O(log(N))."));
    }

    static void dump(Client c, byte[][] argv) {
        long now = c.server().nowMs();
        Object value = c.db().lookupRead(argv[1], now);
        c.server().stats().lookup(value != null);
        Notifications.keyMissIf(value == null, c, argv[1]);
        if (value == null) {
            c.reply().nullBulk();
            return;
        }
        c.reply().bulk(payload(c, value));
    }

    /** The DUMP payload of a stored value (also MIGRATE's RESTORE argument), LZF as rdbcompression says. */
    static byte[] payload(Client c, Object value) {
        return DumpPayload.create(value, c.server().config().rdbCompression(), c.server().nowMs());
    }

    /** RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]. */
    static void restore(Client c, byte[][] argv) {
        boolean replace = false;
        boolean absTtl = false;
        long idle = -1;
        long freq = -1;
        for (int j = 4; j < argv.length; j++) {
            boolean more = j + 1 < argv.length;
            if (Arguments.is(argv[j], "replace")) {
                replace = true;
            } else if (Arguments.is(argv[j], "absttl")) {
                absTtl = true;
            } else if (Arguments.is(argv[j], "idletime") && more && freq == -1) {
                idle = Arguments.longOrReply(c, argv[++j]);
                if (idle == Arguments.INVALID) {
                    return;
                }
                if (idle < 0) {
                    c.reply().error(Errors.RESTORE_IDLETIME_NEGATIVE);
                    return;
                }
            } else if (Arguments.is(argv[j], "freq") && more && idle == -1) {
                freq = Arguments.longOrReply(c, argv[++j]);
                if (freq == Arguments.INVALID) {
                    return;
                }
                if (freq < 0 || freq > 255) {
                    c.reply().error(Errors.RESTORE_FREQ_RANGE);
                    return;
                }
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        Database db = c.db();
        byte[] key = argv[1];
        long now = c.server().nowMs();
        if (!replace && db.lookupWrite(key, now) != null) {
            c.reply().error(Errors.BUSYKEY);
            return;
        }
        long ttl = Arguments.longOrReply(c, argv[2]);
        if (ttl == Arguments.INVALID) {
            return;
        }
        if (ttl < 0) {
            c.reply().error(Errors.RESTORE_TTL_NEGATIVE);
            return;
        }
        byte[] payload = argv[3];
        if (!DumpPayload.verify(payload)) {
            c.reply().error(Errors.DUMP_PAYLOAD_WRONG);
            return;
        }
        Object value;
        try {
            value = DumpPayload.parse(payload, limits(c.server().config()), c.server().nowMs());
        } catch (RdbException e) {
            c.reply().error(Errors.BAD_DATA_FORMAT);
            return;
        }
        boolean deleted = replace && db.lookupWrite(key, now) != null && db.delete(key) != null;
        if (ttl > 0 && !absTtl) {
            ttl += now;
        }
        if (ttl > 0 && ttl <= now) {
            if (deleted) {
                Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "del", key);
            }
            c.reply().ok();
            return;
        }
        db.add(key, value, now);
        c.server().blockingKeys().signalKeyAsReady(db, key);
        if (ttl > 0) {
            db.setExpire(key, ttl);
        }
        db.setAccessInfo(key, idle, (int) freq, now);
        Notifications.notify(c, NotifyKeyspaceEvents.GENERIC, "restore", key);
        c.reply().ok();
    }

    /** The encoding thresholds loaded values get, from the live configuration. */
    static RdbLimits limits(ServerConfig config) {
        return new RdbLimits(config.hashMaxListpackEntries(), config.hashMaxListpackValue(),
                config.setMaxIntsetEntries(), config.setMaxListpackEntries(), config.setMaxListpackValue(),
                config.zsetMaxListpackEntries(), config.zsetMaxListpackValue(), config.listMaxListpackSize(),
                config.listCompressDepth());
    }
}
