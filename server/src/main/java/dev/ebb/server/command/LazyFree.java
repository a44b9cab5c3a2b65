package dev.ebb.server.command;

import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.Database;
import dev.ebb.storage.EvictionListener;
import dev.ebb.storage.ExpiryListener;
import dev.ebb.storage.FieldExpiryListener;
import dev.ebb.storage.types.HashValue;
import dev.ebb.storage.types.ListValue;
import dev.ebb.storage.types.SetValue;
import dev.ebb.storage.zset.SortedSet;

/**
 * INFO's {@code lazyfreed_objects}: Ebb frees a value by dropping its last reference and the
 * JVM's collector reclaims it off the command path, so there is no lazy-free thread and
 * {@code lazyfree_pending_objects} is always 0. To keep the counter meaningful, Ebb counts what
 * Redis 7.2.4 (lazyfree.c) would have handed to its background thread:
 * <ul>
 *   <li>a deleted value whose free effort exceeds 64 ({@code LAZYFREE_THRESHOLD}), when freed
 *       lazily: always by UNLINK, by DEL under {@code lazyfree-lazy-user-del}. The effort is the
 *       element count of a hashtable set or hash and of a skiplist sorted set; for a quicklist, its
 *       node count, which Ebb's lists track as Redis's quicklist would split them
 *       ({@code ListValue#quicklistNodes}); 1 for everything else (one allocation in Redis).</li>
 *   <li>the same for a value removed because its key expired (lazily or by the active cycle)
 *       under {@code lazyfree-lazy-expire}, or evicted under {@code lazyfree-lazy-eviction}:
 *       {@link #expiryListener} and {@link #evictionListener}, which also send the keyspace
 *       notifications.</li>
 *   <li>FLUSHDB / FLUSHALL freed lazily (ASYNC, or no argument under
 *       {@code lazyfree-lazy-user-flush}): every key of each flushed database.</li>
 * </ul>
 * Not counted (yet): {@code lazyfree-lazy-server-del} (values overwritten or deleted implicitly,
 * RENAME's target …). Stateless; the count lives in {@link dev.ebb.server.ServerStats}; loop
 * thread only.
 */
public final class LazyFree {
    /** Redis's {@code LAZYFREE_THRESHOLD}: values costing more allocations than this are freed in the background. */
    static final long THRESHOLD = 64;

    private LazyFree() {
    }

    /** Redis's {@code lazyfreeGetFreeEffort} for Ebb's value classes. O(1). */
    static long freeEffort(Object value) {
        if (value instanceof SetValue set && set.encodingName().equals("hashtable")) {
            return set.size();
        } else if (value instanceof HashValue hash && !hash.isCompact()) {
            return hash.size();
        } else if (value instanceof SortedSet zset && zset.encoding().equals("skiplist")) {
            return zset.size();
        } else if (value instanceof ListValue list && list.encodingName().equals("quicklist")) {
            return list.quicklistNodes();
        }
        return 1;
    }

    /** Counts a value deleted by a lazy path if Redis would have freed it in the background. */
    static void deleted(Client c, Object value) {
        deleted(c.server(), value);
    }

    private static void deleted(Server server, Object value) {
        if (value != null && freeEffort(value) > THRESHOLD) {
            server.stats().lazyfreed(1);
        }
    }

    /** Empties {@code db}, counting its keys if Redis would free them in the background. */
    static void flush(Client c, Database db, boolean lazy) {
        if (lazy) {
            c.server().stats().lazyfreed(db.size());
        }
        db.flush();
    }

    /** Whether Redis frees a FLUSHDB/FLUSHALL's keys in the background: ASYNC, or no mode and lazyfree-lazy-user-flush. */
    static boolean lazyFlush(Client c, byte[][] argv) {
        if (argv.length == 2) {
            return Arguments.is(argv[1], "async");
        }
        return c.server().config().lazyfreeLazyUserFlush();
    }

    /** The databases' expiry listener: the "expired" notification, and the lazy-free count under lazyfree-lazy-expire. */
    public static ExpiryListener expiryListener(Server server) {
        return new ExpiryListener() {
            @Override
            public void expired(Database db, byte[] key) {
                Notifications.notify(server, NotifyKeyspaceEvents.EXPIRED, "expired", key, db.id());
            }

            @Override
            public void expired(Database db, byte[] key, Object value) {
                if (server.config().lazyfreeLazyExpire()) {
                    deleted(server, value);
                }
                expired(db, key);
            }
        };
    }

    /** The databases' hash field expiry listener: "hexpired", and "del" when the hash went with its last field. */
    public static FieldExpiryListener fieldExpiryListener(Server server) {
        return (db, key, fields, keyDeleted) -> {
            Notifications.notify(server, NotifyKeyspaceEvents.HASH, "hexpired", key, db.id());
            if (keyDeleted) {
                Notifications.notify(server, NotifyKeyspaceEvents.GENERIC, "del", key, db.id());
            }
        };
    }

    /** The evictor's listener: the "evicted" notification, and the lazy-free count under lazyfree-lazy-eviction. */
    public static EvictionListener evictionListener(Server server) {
        return new EvictionListener() {
            @Override
            public void evicted(Database db, byte[] key) {
                Notifications.notify(server, NotifyKeyspaceEvents.EVICTED, "evicted", key, db.id());
            }

            @Override
            public void evicted(Database db, byte[] key, Object value) {
                if (server.config().lazyfreeLazyEviction()) {
                    deleted(server, value);
                }
                evicted(db, key);
            }
        };
    }
}
