package dev.ebb.server;

import dev.ebb.server.command.CommandSpec;
import dev.ebb.storage.Database;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One client's MULTI/EXEC and WATCH state (Redis's multiState plus the CLIENT_MULTI,
 * CLIENT_DIRTY_EXEC and CLIENT_DIRTY_CAS flags and the client's watched keys). Created on a
 * client's first MULTI or WATCH; clients that never use transactions carry no such object.
 *
 * <p>Lifecycle: {@link #begin} (MULTI) opens the queue; commands are {@link #queue}d, a command
 * refused at queue time {@link #flagQueueError flags} the transaction so EXEC aborts; any change to
 * a watched key {@link #touch touches} it so EXEC replies a null array; {@link #discard} (EXEC's
 * end, DISCARD, RESET, disconnect) returns everything to the initial state.
 *
 * <p>Costs: queueing is amortized O(1); WATCH is O(1) expected per key plus the number of clients
 * already watching that key (to skip a duplicate); UNWATCH is the same per watched key. Command
 * loop thread only.
 */
public final class Transaction {
    private static final int INITIAL_QUEUE = 8;

    private final KeyWatches watches;
    private final List<WatchedKey> watched = new ArrayList<>(4);
    private CommandSpec[] specs = new CommandSpec[INITIAL_QUEUE];
    private byte[][][] argvs = new byte[INITIAL_QUEUE][][];
    private int queued;
    private boolean open;
    private boolean queueFailed;
    private boolean touched;

    Transaction(KeyWatches watches) {
        this.watches = watches;
    }

    /** Between MULTI and the end of EXEC or DISCARD (queued commands run while this is still true). */
    public boolean open() {
        return open;
    }

    /** MULTI: starts queueing. */
    public void begin() {
        open = true;
    }

    /**
     * Adds a command that passed the queue-time checks. As in Redis, nothing is kept once EXEC is
     * bound to fail (a refused command or a touched watch), so a pipelined client that ignores
     * the replies cannot grow the queue of a dead transaction.
     */
    public void queue(CommandSpec spec, byte[][] argv) {
        if (queueFailed || touched) {
            return;
        }
        if (queued == specs.length) {
            specs = Arrays.copyOf(specs, queued * 2);
            argvs = Arrays.copyOf(argvs, queued * 2);
        }
        specs[queued] = spec;
        argvs[queued] = argv;
        queued++;
    }

    /** A command was refused while queueing: EXEC must abort with EXECABORT. */
    public void flagQueueError() {
        queueFailed = true;
    }

    public boolean queueFailed() {
        return queueFailed;
    }

    public int size() {
        return queued;
    }

    public CommandSpec spec(int index) {
        return specs[index];
    }

    public byte[][] argv(int index) {
        return argvs[index];
    }

    /** WATCH: watches {@code key} in {@code db}, once however often it is asked. */
    public void watch(Database db, byte[] key, long nowMs) {
        if (watches.isWatchedBy(this, db, key)) {
            return;
        }
        WatchedKey w = new WatchedKey(this, db, key, db.isExpired(key, nowMs));
        watched.add(w);
        watches.add(w);
    }

    /** UNWATCH: forgets every watched key. The touched flag is left to the caller. */
    public void unwatchAll() {
        for (int i = 0, n = watched.size(); i < n; i++) {
            watches.remove(watched.get(i));
        }
        watched.clear();
    }

    /** Number of keys this transaction watches. */
    public int watchedCount() {
        return watched.size();
    }

    /** A watched key changed (called by {@link KeyWatches}). */
    void touch() {
        touched = true;
    }

    /**
     * Whether EXEC must fail: a watched key was changed, or has expired since it was watched
     * (Redis's isWatchedKeyExpired: expiry counts as a change even before the key is deleted).
     */
    public boolean watchTouched(long nowMs) {
        if (touched) {
            return true;
        }
        for (int i = 0, n = watched.size(); i < n; i++) {
            WatchedKey w = watched.get(i);
            if (!w.expiredWhenWatched() && w.db().isExpired(w.key(), nowMs)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a watched key was changed (not counting expiry not yet noticed). */
    public boolean touched() {
        return touched;
    }

    /** UNWATCH also forgets that a watched key was touched. */
    public void clearTouched() {
        touched = false;
    }

    /** Redis's discardTransaction: drops the queue and the flags and unwatches every key. */
    public void discard() {
        Arrays.fill(specs, 0, queued, null);
        Arrays.fill(argvs, 0, queued, null);
        if (specs.length > INITIAL_QUEUE * 8) {
            specs = new CommandSpec[INITIAL_QUEUE];
            argvs = new byte[INITIAL_QUEUE][][];
        }
        queued = 0;
        open = false;
        queueFailed = false;
        touched = false;
        unwatchAll();
    }
}
