package dev.ebb.server;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.command.CommandKeys;
import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.storage.Dict;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Server-assisted client-side caching (CLIENT TRACKING), Redis's tracking.c behaviour.
 *
 * <p><b>Default mode.</b> A tracking client's reads are remembered in one table shared by every
 * database, as Redis keys it: key name to the ids of the clients that read it. The first change
 * to the key ({@link #keyModified}, called from the one place every write, expiry, eviction,
 * script and transaction signals a modified key) sends each of them one invalidation and drops
 * the key from the table, so a client hears about a key once per read. Entries of clients that
 * stopped tracking or disconnected are dropped lazily, when the key is next invalidated, as in
 * Redis. {@code tracking-table-max-keys} bounds the table: past it, keys picked at random are
 * invalidated (an invalidation without a write) before the next command, with an effort that
 * grows while the table stays over.
 *
 * <p><b>BCAST.</b> A broadcasting client registers prefixes (the empty prefix without PREFIX).
 * A modified key is added to the pending set of every matching prefix; the pending sets are sent
 * once per event-loop turn ({@link #broadcastPending}), one message per prefix listing its keys
 * in byte order, as Redis does in beforeSleep. NOLOOP leaves out the keys the client changed.
 *
 * <p><b>Delivery.</b> RESP3 clients get a {@code >2 invalidate [keys]} push; with REDIRECT the
 * message goes to the target client: a push when it speaks RESP3, a {@code message} on
 * {@code __redis__:invalidate} when it is a RESP2 subscriber, nothing otherwise. A redirect
 * target that is gone flags the client ({@code broken_redirect}) and RESP3 clients get a
 * {@code tracking-redir-broken} push instead. FLUSHDB and FLUSHALL send every tracking client
 * one null invalidation (in the tracking client's protocol, even when redirected, as Redis) and
 * empty the table. Messages for the client whose command is running are held until its reply is
 * written, so a push never interleaves with a reply.
 *
 * <p><b>Costs.</b> With no tracking client and an empty table a write costs one branch
 * ({@link #inUse}). A tracked read costs one table probe per key; an invalidation one probe plus
 * the readers; a broadcast write O(prefixes) for the prefix match. Memory: one table entry per
 * tracked key (its key copy and a small id array, 8 bytes per reader): about 5 MB for 100,000
 * keys as measured (README). Command loop thread only.
 */
public final class ClientTracking {
    private static final byte[] INVALIDATE = "invalidate".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REDIR_BROKEN = "tracking-redir-broken".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MESSAGE = "message".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHANNEL = "__redis__:invalidate".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL2 = "$-1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL3 = "_\r\n".getBytes(StandardCharsets.US_ASCII);
    /** A pending invalidation of everything (a flush), in {@link #pendingForCaller}. */
    private static final byte[] FLUSH = new byte[0];
    private static final int LIMIT_EFFORT = 100;

    private final Server server;
    private final long seed;
    private Dict<Readers> table;
    private long items;
    private int clients;
    private final TreeMap<byte[], Prefix> prefixes = new TreeMap<>(Arrays::compareUnsigned);
    private int prefixesWithKeys;
    private final List<byte[]> pendingForCaller = new ArrayList<>();
    /** The arguments of the command that last sent the flush invalidation: FLUSHALL sends one, not one per database. */
    private Object flushStamp;
    private int overLimitRuns;

    ClientTracking(Server server, long seed) {
        this.server = server;
        this.seed = seed;
        this.table = new Dict<>(seed);
    }

    /** The ids of the clients that read one key since its last invalidation. */
    private static final class Readers {
        long[] ids = new long[2];
        int size;

        boolean add(long id) {
            for (int i = 0; i < size; i++) {
                if (ids[i] == id) {
                    return false;
                }
            }
            if (size == ids.length) {
                ids = Arrays.copyOf(ids, size * 2);
            }
            ids[size++] = id;
            return true;
        }
    }

    /** One BCAST prefix: its clients, and the keys changed under it since the last broadcast (with who changed them). */
    private static final class Prefix {
        final List<Client> clients = new ArrayList<>(2);
        final TreeMap<byte[], Client> pending = new TreeMap<>(Arrays::compareUnsigned);
    }

    /** False while there is nothing to invalidate: the write path's only cost then. */
    boolean inUse() {
        return table.size() != 0 || !prefixes.isEmpty();
    }

    /** INFO {@code tracking_clients}. */
    public int clients() {
        return clients;
    }

    /** INFO {@code tracking_total_keys}: keys in the table. */
    public long totalKeys() {
        return table.size();
    }

    /** INFO {@code tracking_total_items}: (key, client) pairs in the table. */
    public long totalItems() {
        return items;
    }

    /** INFO {@code tracking_total_prefixes}: distinct BCAST prefixes. */
    public long totalPrefixes() {
        return prefixes.size();
    }

    // ------------------------------------------------------------------ CLIENT TRACKING ON / OFF

    /**
     * Turns tracking on for {@code c} (or changes its options): {@code optionFlags} among BCAST,
     * OPTIN, OPTOUT, NOLOOP; {@code redirect} 0 for none. The caller has checked the options.
     */
    public void enable(Client c, long redirect, int optionFlags, List<byte[]> prefixList) {
        if (!c.hasFlag(Client.FLAG_TRACKING)) {
            clients++;
        }
        c.setFlag(Client.FLAG_TRACKING_BROKEN_REDIR | Client.FLAG_TRACKING_BCAST | Client.FLAG_TRACKING_OPTIN
                | Client.FLAG_TRACKING_OPTOUT | Client.FLAG_TRACKING_NOLOOP, false);
        c.setFlag(Client.FLAG_TRACKING, true);
        c.trackingRedirect(redirect);
        if ((optionFlags & Client.FLAG_TRACKING_BCAST) != 0) {
            c.setFlag(Client.FLAG_TRACKING_BCAST, true);
            if (prefixList.isEmpty()) {
                addPrefix(c, new byte[0]);
            }
            for (byte[] prefix : prefixList) {
                addPrefix(c, prefix);
            }
        }
        c.setFlag(optionFlags & (Client.FLAG_TRACKING_OPTIN | Client.FLAG_TRACKING_OPTOUT
                | Client.FLAG_TRACKING_NOLOOP), true);
    }

    private void addPrefix(Client c, byte[] prefix) {
        java.util.SortedSet<byte[]> own = c.trackingPrefixes();
        if (own == null) {
            TreeSet<byte[]> created = new TreeSet<>(Arrays::compareUnsigned);
            c.trackingPrefixes(created);
            own = created;
        }
        if (!own.add(prefix)) {
            return;
        }
        prefixes.computeIfAbsent(prefix, p -> new Prefix()).clients.add(c);
    }

    /** CLIENT TRACKING OFF, RESET and disconnection: forgets the client's prefixes and flags. */
    public void disable(Client c) {
        java.util.SortedSet<byte[]> own = c.trackingPrefixes();
        if (own != null) {
            for (byte[] prefix : own) {
                Prefix p = prefixes.get(prefix);
                p.clients.remove(c);
                if (p.clients.isEmpty()) {
                    if (!p.pending.isEmpty()) {
                        prefixesWithKeys--;
                    }
                    prefixes.remove(prefix);
                }
            }
            c.trackingPrefixes(null);
        }
        if (c.hasFlag(Client.FLAG_TRACKING)) {
            clients--;
            c.setFlag(Client.TRACKING_FLAGS, false);
        }
    }

    // ------------------------------------------------------------------ remembering reads

    /**
     * After {@code spec} ran for {@code owner}'s command (directly, in EXEC or in a script): a
     * read-only command's keys are remembered for a default-mode tracking client, unless OPTIN
     * without CLIENT CACHING YES or OPTOUT after CLIENT CACHING NO. The read-only script commands
     * are skipped (the commands the script runs count instead).
     */
    void afterExecute(Client owner, CommandSpec spec, byte[][] argv) {
        if (owner == null || !spec.has(CommandFlags.READONLY)
                || (owner.flags() & (Client.FLAG_TRACKING | Client.FLAG_TRACKING_BCAST)) != Client.FLAG_TRACKING) {
            return;
        }
        boolean caching = owner.hasFlag(Client.FLAG_TRACKING_CACHING);
        if ((owner.hasFlag(Client.FLAG_TRACKING_OPTIN) && !caching)
                || (owner.hasFlag(Client.FLAG_TRACKING_OPTOUT) && caching)) {
            return;
        }
        String name = spec.fullName();
        if (name.equals("eval_ro") || name.equals("evalsha_ro") || name.equals("fcall_ro")) {
            return;
        }
        int[] movable = spec.movableKeys(argv);
        if (movable != null) {
            for (int index : movable) {
                remember(owner, argv[index]);
            }
            return;
        }
        int[] numkeys = CommandKeys.numkeys(spec);
        if (numkeys != null) {
            rememberCounted(owner, argv, numkeys[0]);
            return;
        }
        if (spec.firstKey() <= 0) {
            return;
        }
        int last = spec.lastKey() < 0 ? argv.length + spec.lastKey() : Math.min(spec.lastKey(), argv.length - 1);
        for (int i = spec.firstKey(); i <= last; i += spec.keyStep()) {
            remember(owner, argv[i]);
        }
    }

    private void rememberCounted(Client owner, byte[][] argv, int numkeysIndex) {
        long n;
        try {
            n = Long.parseLong(new String(argv[numkeysIndex], StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return;
        }
        for (int i = numkeysIndex + 1; i < argv.length && i <= numkeysIndex + n; i++) {
            remember(owner, argv[i]);
        }
    }

    private void remember(Client owner, byte[] key) {
        Readers readers = table.get(key);
        if (readers == null) {
            readers = new Readers();
            table.put(key.clone(), readers);
        }
        if (readers.add(owner.id())) {
            items++;
        }
    }

    // ------------------------------------------------------------------ invalidation

    /** {@code key} changed (any database): invalidates its readers and queues it for matching BCAST prefixes. */
    void keyModified(byte[] key) {
        if (!prefixes.isEmpty()) {
            queueForBroadcast(key);
        }
        if (table.size() != 0) {
            invalidate(key);
        }
    }

    private void invalidate(byte[] key) {
        Readers readers = table.remove(key);
        if (readers == null) {
            return;
        }
        items -= readers.size;
        Client caller = server.caller();
        for (int i = 0; i < readers.size; i++) {
            Client target = server.client(readers.ids[i]);
            if (target == null || target.closed()
                    || (target.flags() & (Client.FLAG_TRACKING | Client.FLAG_TRACKING_BCAST)) != Client.FLAG_TRACKING) {
                continue;
            }
            if (target == caller) {
                if (!target.hasFlag(Client.FLAG_TRACKING_NOLOOP)) {
                    pendingForCaller.add(key.clone());
                }
                continue;
            }
            send(target, key, null, 0);
        }
    }

    private void queueForBroadcast(byte[] key) {
        Client caller = server.caller();
        byte[] copy = null;
        for (Map.Entry<byte[], Prefix> e : prefixes.entrySet()) {
            byte[] prefix = e.getKey();
            if (prefix.length > key.length || !Arrays.equals(prefix, 0, prefix.length, key, 0, prefix.length)) {
                continue;
            }
            if (copy == null) {
                copy = key.clone();
            }
            Prefix p = e.getValue();
            if (p.pending.isEmpty()) {
                prefixesWithKeys++;
            }
            p.pending.put(copy, caller);
        }
    }

    /**
     * A database is being flushed: every tracking client gets one null invalidation per flushing
     * command (FLUSHALL flushes every database but invalidates once), and the table is emptied.
     */
    void flushed() {
        Client running = server.currentClient();
        Object stamp = running == null ? null : running.lastArgv();
        if (stamp != null && stamp == flushStamp) {
            return;
        }
        flushStamp = stamp;
        if (clients > 0) {
            Client caller = server.caller();
            for (Client c : server.clients()) {
                if (!c.hasFlag(Client.FLAG_TRACKING) || c.closed()) {
                    continue;
                }
                if (c == caller) {
                    pendingForCaller.add(FLUSH);
                } else {
                    send(c, null, null, 0);
                }
            }
        }
        if (table.size() != 0) {
            table = new Dict<>(seed);
            items = 0;
        }
    }

    /** After the caller's outermost command: the invalidations held back for it, one message each. */
    void afterCommand(Client caller) {
        if (pendingForCaller.isEmpty()) {
            return;
        }
        if (!caller.closed()) {
            for (byte[] key : pendingForCaller) {
                send(caller, key == FLUSH ? null : key, null, 0);
            }
        }
        pendingForCaller.clear();
    }

    /** Sends the keys changed under each BCAST prefix since the last call; once per event-loop turn. */
    void broadcastPending() {
        if (prefixesWithKeys == 0) {
            return;
        }
        byte[][] keys = null;
        for (Prefix p : prefixes.values()) {
            if (p.pending.isEmpty()) {
                continue;
            }
            if (keys == null || keys.length < p.pending.size()) {
                keys = new byte[p.pending.size()][];
            }
            for (int i = 0, n = p.clients.size(); i < n; i++) {
                Client c = p.clients.get(i);
                if (c.closed()) {
                    continue;
                }
                int count = 0;
                boolean noloop = c.hasFlag(Client.FLAG_TRACKING_NOLOOP);
                for (Map.Entry<byte[], Client> e : p.pending.entrySet()) {
                    if (!noloop || e.getValue() != c) {
                        keys[count++] = e.getKey();
                    }
                }
                if (count > 0) {
                    send(c, null, keys, count);
                }
            }
            p.pending.clear();
        }
        prefixesWithKeys = 0;
    }

    /**
     * Before each command while tracking clients exist: past {@code tracking-table-max-keys}
     * (0 is no limit), invalidates random keys until under it, at most 100 times the number of
     * consecutive calls that found the table over, as Redis's trackingLimitUsedSlots.
     */
    void enforceLimit() {
        long max = server.config().trackingTableMaxKeys();
        if (max == 0 || table.size() <= max) {
            overLimitRuns = 0;
            return;
        }
        int effort = LIMIT_EFFORT * (overLimitRuns + 1);
        while (effort-- > 0 && table.size() != 0) {
            invalidate(table.randomKey());
            if (table.size() <= max) {
                overLimitRuns = 0;
                return;
            }
        }
        overLimitRuns++;
    }

    /**
     * Writes one invalidation for tracking client {@code c}: of {@code key}, of {@code count} of
     * {@code keys}, or of everything (both null), to {@code c} or its redirect target.
     */
    private void send(Client c, byte[] key, byte[][] keys, int count) {
        Client to = c;
        boolean redirected = false;
        long redirect = c.trackingRedirect();
        if (redirect != 0) {
            Client target = server.client(redirect);
            if (target == null || target.closed()) {
                c.setFlag(Client.FLAG_TRACKING_BROKEN_REDIR, true);
                if (c.protocol() > 2) {
                    c.beforePush();
                    c.reply().pushHeader(2).bulk(REDIR_BROKEN).integer(redirect);
                    c.afterPush();
                    server.wroteTo(c);
                }
                return;
            }
            to = target;
            redirected = true;
        }
        boolean push = to.protocol() > 2;
        if (!push && !(redirected && to.subscriptions().active())) {
            // RESP2 without a subscribed redirect target: RESP2 has no way to tell it.
            return;
        }
        RespWriter w = to.reply();
        to.beforePush();
        if (push) {
            w.pushHeader(2).bulk(INVALIDATE);
        } else {
            w.arrayHeader(3).bulk(MESSAGE).bulk(CHANNEL);
        }
        if (key != null) {
            w.arrayHeader(1).bulk(key);
        } else if (keys != null) {
            w.arrayHeader(count);
            for (int i = 0; i < count; i++) {
                w.bulk(keys[i]);
            }
        } else {
            w.raw(c.protocol() > 2 ? NULL3 : NULL2);
        }
        to.afterPush();
        server.wroteTo(to);
    }
}
