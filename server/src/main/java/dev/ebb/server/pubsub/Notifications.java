package dev.ebb.server.pubsub;

import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import java.nio.charset.StandardCharsets;

/**
 * Keyspace notifications ({@code notify-keyspace-events}): after a command changes a key it calls
 * one line, for example
 *
 * <pre>{@code Notifications.notify(c, NotifyKeyspaceEvents.HASH, "hset", key);}</pre>
 *
 * and, when the event's class and K and/or E are enabled, {@code __keyspace@<db>__:<key>} receives
 * the event name and {@code __keyevent@<db>__:<event>} receives the key, as Redis publishes them.
 * Event names are Redis's ("set", "del", "expire", "rename_from", "hset", "lpush" …).
 *
 * <p>Cost: when the class is disabled (the default) one config read and a bit test, no allocation;
 * when enabled but nobody subscribes to anything, the same plus one map check; otherwise building
 * the channel names and a PUBLISH each. Command loop thread only.
 */
public final class Notifications {
    private static final byte[] KEYSPACE_PREFIX = "__keyspace@".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEYEVENT_PREFIX = "__keyevent@".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SUFFIX = "__:".getBytes(StandardCharsets.US_ASCII);

    private Notifications() {
    }

    /**
     * The "keymiss" event (class m) of a read lookup that found nothing, in the client's current
     * database; Ebb calls it where it counts keyspace_misses, as Redis does in one place.
     */
    public static void keyMissIf(boolean missed, Client c, byte[] key) {
        if (missed) {
            notify(c, NotifyKeyspaceEvents.KEY_MISS, "keymiss", key);
        }
    }

    /** Notifies an event on {@code key} in the client's current database. */
    public static void notify(Client c, int type, String event, byte[] key) {
        notify(c.server(), type, event, key, c.db().id());
    }

    /**
     * Notifies an event of class {@code type} (a {@link NotifyKeyspaceEvents} bit: GENERIC,
     * STRING, LIST, SET, HASH, ZSET, EXPIRED, EVICTED, STREAM, KEY_MISS, NEW) on {@code key} in
     * database {@code db}. Safe to call from storage listeners and the cron (expired, evicted).
     */
    public static void notify(Server server, int type, String event, byte[] key, int db) {
        int flags = server.config().notifyKeyspaceEvents();
        if ((flags & type) == 0 || (flags & (NotifyKeyspaceEvents.KEYSPACE | NotifyKeyspaceEvents.KEYEVENT)) == 0) {
            return;
        }
        PubSub pubsub = server.pubsub();
        if (pubsub.idle()) {
            return;
        }
        byte[] eventBytes = event.getBytes(StandardCharsets.US_ASCII);
        byte[] dbBytes = Integer.toString(db).getBytes(StandardCharsets.US_ASCII);
        if ((flags & NotifyKeyspaceEvents.KEYSPACE) != 0) {
            pubsub.publish(channel(KEYSPACE_PREFIX, dbBytes, key), eventBytes);
        }
        if ((flags & NotifyKeyspaceEvents.KEYEVENT) != 0) {
            pubsub.publish(channel(KEYEVENT_PREFIX, dbBytes, eventBytes), key);
        }
    }

    private static byte[] channel(byte[] prefix, byte[] db, byte[] tail) {
        byte[] out = new byte[prefix.length + db.length + SUFFIX.length + tail.length];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        System.arraycopy(db, 0, out, prefix.length, db.length);
        System.arraycopy(SUFFIX, 0, out, prefix.length + db.length, SUFFIX.length);
        System.arraycopy(tail, 0, out, prefix.length + db.length + SUFFIX.length, tail.length);
        return out;
    }
}
