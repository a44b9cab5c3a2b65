package dev.ebb.server.acl;

import dev.ebb.resp.RespWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedList;

/**
 * ACL LOG: the most recent denials (commands, keys, channels, failed AUTH), newest first, at most
 * {@code acllog-max-len}. A denial like one of the ten newest entries (same reason, context, object
 * and user, at most 60 seconds after that entry was last updated) counts into it and moves it to
 * the front instead of adding an entry, as Redis does. Loop thread only.
 */
public final class AclLog {
    private static final long GROUPING_MS = 60_000;
    private static final int SCAN = 10;
    private static final String[] REASONS = {"", "command", "key", "auth", "channel"};

    /** Where the denied command ran, as ACL LOG's {@code context}. */
    public enum Context {
        TOPLEVEL, MULTI, LUA;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static final class Entry {
        long count = 1;
        final int reason;
        final Context context;
        final String object;
        final String username;
        String clientInfo;
        final long entryId;
        final long created;
        long updated;

        Entry(int reason, Context context, String object, String username, String clientInfo, long entryId, long now) {
            this.reason = reason;
            this.context = context;
            this.object = object;
            this.username = username;
            this.clientInfo = clientInfo;
            this.entryId = entryId;
            this.created = now;
            this.updated = now;
        }
    }

    private final LinkedList<Entry> entries = new LinkedList<>();
    private long nextId;
    /** Denials by reason, for INFO's {@code acl_access_denied_*}; never reset by ACL LOG RESET. */
    private final long[] denied = new long[REASONS.length];

    /** Records a denial ({@link Acl#DENIED_CMD} …) at {@code nowMs}; {@code maxLen} trims the log. */
    public void add(int reason, Context context, String object, String username, String clientInfo, long nowMs,
            long maxLen) {
        denied[reason]++;
        Iterator<Entry> it = entries.iterator();
        for (int scanned = 0; scanned < SCAN && it.hasNext(); scanned++) {
            Entry e = it.next();
            if (e.reason == reason && e.context == context && nowMs - e.updated <= GROUPING_MS
                    && e.object.equals(object) && e.username.equals(username)) {
                it.remove();
                e.count++;
                e.clientInfo = clientInfo;
                e.updated = nowMs;
                entries.addFirst(e);
                return;
            }
        }
        entries.addFirst(new Entry(reason, context, object, username, clientInfo, nextId++, nowMs));
        trim(maxLen);
    }

    /** Drops the oldest entries beyond {@code maxLen}. */
    public void trim(long maxLen) {
        while (entries.size() > maxLen) {
            entries.removeLast();
        }
    }

    /** How many denials of this reason ({@link Acl#DENIED_AUTH} …) there have been (INFO stats). */
    public long denied(int reason) {
        return denied[reason];
    }

    public void reset() {
        entries.clear();
    }

    public int size() {
        return entries.size();
    }

    /** ACL LOG [count]: the newest {@code count} entries, each a map of Redis's ten fields. */
    public void write(RespWriter w, long count, long nowMs) {
        int n = (int) Math.min(count, entries.size());
        w.arrayHeader(n);
        for (Entry e : new ArrayList<>(entries.subList(0, n))) {
            w.mapHeader(10);
            w.bulk("count").integer(e.count);
            w.bulk("reason").bulk(REASONS[e.reason]);
            w.bulk("context").bulk(e.context.label());
            w.bulk("object").bulk(Acl.bytes(e.object));
            w.bulk("username").bulk(Acl.bytes(e.username));
            w.bulk("age-seconds").doubleValue((nowMs - e.updated) / 1000.0);
            w.bulk("client-info").bulk(Acl.bytes(e.clientInfo));
            w.bulk("entry-id").integer(e.entryId);
            w.bulk("timestamp-created").integer(e.created);
            w.bulk("timestamp-last-updated").integer(e.updated);
        }
    }
}
