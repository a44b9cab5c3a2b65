package dev.ebb.server;

import dev.ebb.server.command.CommandSpec;
import dev.ebb.storage.Database;
import dev.ebb.storage.KeyspaceListener;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The single point where writes leave the command loop (Redis's {@code call()} /
 * {@code alsoPropagate} / {@code propagatePendingCommands}): the AOF, and later replicas and the
 * cluster, read this one stream; nothing else re-derives writes.
 *
 * <p><b>Idea.</b> Every change to the keyspace passes the databases' {@link KeyspaceListener},
 * which this class wraps to count changes ({@link #dirty()}, Redis's {@code server.dirty}). Each
 * command runs inside a frame ({@link #enter} / {@link #exit}); a command whose frame saw a
 * change of its own is propagated as it was called, or as what it asked for instead
 * ({@link #rewrite}: SET EX as SET PXAT, INCRBYFLOAT as SET KEEPTTL, BLPOP served as LPOP …).
 * Commands may also add separate operations ({@link #also}, SPOP's SREM batches) and keep their
 * own argv out ({@link #prevent}). Deletions by expiry or eviction are added as DEL (UNLINK under
 * lazyfree-lazy-expire / -eviction) and are not a change of the command that caused them.
 * EXEC and scripts never propagate themselves: the commands they ran do. The operations of one
 * execution unit (a command with everything it ran, a served blocked client, an expiry outside any
 * command) are handed to the sinks together when the unit ends, wrapped in MULTI/EXEC when there is
 * more than one, as Redis 7.2 does. FLUSHALL and FLUSHDB always propagate (Redis forces them), even
 * on empty databases, because a flush always reaches the listener.
 *
 * <p><b>SELECT.</b> Each operation carries its database id (-1 for MULTI and EXEC, which need no
 * database); a sink emits SELECT when the id differs from the last one it wrote, as Redis's
 * feedAppendOnlyFile does, so that each sink can restart its own stream (a new AOF file).
 *
 * <p><b>Cost.</b> Counting is one increment per change. With no sink attached, {@link #enter} and
 * {@link #exit} are one branch each and nothing is collected or allocated. Loop thread only.
 */
public final class Propagation {
    /** Where the stream goes: the AOF now, replicas later. */
    public interface Sink {
        /**
         * One operation: {@code argv} in database {@code db}, or with {@code db} -1 a MULTI or EXEC
         * that selects nothing. Called on the loop thread; the sink must not keep {@code argv}'s
         * arrays beyond the call unless it copies them (they are the clients' arguments).
         */
        void propagate(int db, byte[][] argv);
    }

    static final byte[] MULTI = bytes("MULTI");
    static final byte[] EXEC = bytes("EXEC");
    private static final byte[] DEL = bytes("DEL");
    private static final byte[] UNLINK = bytes("UNLINK");
    private static final byte[] HDEL = bytes("HDEL");
    private static final int MAX_DEPTH = 64;

    private final List<Sink> sinks = new ArrayList<>(2);
    private boolean active;
    private long dirty;
    /** Changes made by expiry and eviction, which are not the running command's. */
    private long sideChanges;
    private int depth;
    private final long[] dirtyMark = new long[MAX_DEPTH];
    private final long[] sideMark = new long[MAX_DEPTH];
    private final byte[][][] override = new byte[MAX_DEPTH][][];
    private final boolean[] prevented = new boolean[MAX_DEPTH];
    private int[] pendingDb = new int[16];
    private final ArrayList<byte[][]> pending = new ArrayList<>();

    /** Attaches a sink; from now on operations are collected. */
    public void addSink(Sink sink) {
        sinks.add(sink);
        active = true;
    }

    public void removeSink(Sink sink) {
        sinks.remove(sink);
        active = !sinks.isEmpty();
    }

    /** Whether the running command runs inside another (EXEC, a script). */
    public boolean nested() {
        return depth > 1;
    }

    /** Whether anything consumes the stream: commands build rewritten argv only then. */
    public boolean active() {
        return active;
    }

    /** Redis's {@code server.dirty}: changes to the keyspace since start (INFO, save points). */
    public long dirty() {
        return dirty;
    }

    /** Wraps {@code watches} so that every change reported to it is counted first. */
    KeyspaceListener counting(KeyspaceListener watches) {
        return new KeyspaceListener() {
            @Override
            public void keyModified(Database db, byte[] key) {
                dirty++;
                watches.keyModified(db, key);
            }

            @Override
            public void beforeFlush(Database db) {
                dirty++;
                watches.beforeFlush(db);
            }

            @Override
            public void beforeSwap(Database db, Database other) {
                dirty++;
                watches.beforeSwap(db, other);
            }
        };
    }

    /** Opens the frame of a command about to run (a client's, one EXEC or a script runs, a served blocked one). */
    void enter() {
        int d = depth++;
        if (d >= MAX_DEPTH) {
            return;
        }
        dirtyMark[d] = dirty;
        sideMark[d] = sideChanges;
        override[d] = null;
        prevented[d] = false;
    }

    /**
     * Closes the command's frame: adds what it propagates if it changed anything itself, and hands
     * the whole unit to the sinks if this was the outermost frame.
     */
    void exit(Client c, CommandSpec spec, byte[][] argv) {
        int d = --depth;
        if (!active || d >= MAX_DEPTH) {
            return;
        }
        long own = (dirty - dirtyMark[d]) - (sideChanges - sideMark[d]);
        if (own > 0 && !prevented[d] && !selfPropagating(spec)) {
            add(c.db().id(), override[d] != null ? override[d] : argv);
        }
        override[d] = null;
        if (d == 0) {
            flushUnit();
        }
    }

    private static boolean selfPropagating(CommandSpec spec) {
        if (spec == null) {
            return false;
        }
        String name = spec.fullName();
        return name.equals("exec") || name.startsWith("eval") || name.startsWith("fcall");
    }

    /**
     * A change WATCH does not see (Redis's bare {@code server.dirty++}: consumer groups, XACK, XSETID):
     * counted, so the running command propagates.
     */
    public void changed() {
        dirty++;
    }

    /** Propagates the running command as {@code argv} instead of as it was called (Redis's rewriteClientCommandVector). */
    public void rewrite(byte[]... argv) {
        int d = depth - 1;
        if (active && d >= 0 && d < MAX_DEPTH) {
            override[d] = argv;
        }
    }

    /** Keeps the running command's own argv out of the stream; what it adds with {@link #also} still goes. */
    public void prevent() {
        int d = depth - 1;
        if (active && d >= 0 && d < MAX_DEPTH) {
            prevented[d] = true;
        }
    }

    /**
     * Runs {@code task} with nothing collected, the running command's own argv kept out too: DEBUG LOADAOF
     * replaying the AOF into the databases it came from (Redis resets {@code server.dirty} for it).
     */
    public <T> T suspended(java.util.function.Supplier<T> task) {
        prevent();
        active = false;
        try {
            return task.get();
        } finally {
            active = !sinks.isEmpty();
        }
    }

    /** Adds an operation to the current unit (Redis's alsoPropagate); sent at once outside any command. */
    public void also(int db, byte[]... argv) {
        if (!active) {
            return;
        }
        add(db, argv);
        if (depth == 0) {
            flushUnit();
        }
    }

    /** A key removed by expiry ({@code unlink}: under lazyfree-lazy-expire) or eviction: propagated as DEL or UNLINK. */
    void deletedBySystem(Database db, byte[] key, boolean unlink) {
        sideChanges++;
        if (active) {
            also(db.id(), unlink ? UNLINK : DEL, key.clone());
        }
    }

    /**
     * Hash fields removed because their time to live passed (lazily or by the active cycle): one
     * HDEL of them, as Redis 7.4 propagates; the HDEL of the last field deletes the key on replay,
     * so no DEL follows. Not a change of the running command.
     */
    void fieldsExpiredBySystem(Database db, byte[] key, List<byte[]> fields) {
        sideChanges++;
        if (active) {
            byte[][] argv = new byte[2 + fields.size()][];
            argv[0] = HDEL;
            argv[1] = key.clone();
            for (int i = 0; i < fields.size(); i++) {
                argv[2 + i] = fields.get(i);
            }
            also(db.id(), argv);
        }
    }

    private void add(int db, byte[][] argv) {
        int n = pending.size();
        if (n == pendingDb.length) {
            pendingDb = java.util.Arrays.copyOf(pendingDb, n * 2);
        }
        pendingDb[n] = db;
        pending.add(argv);
    }

    private void flushUnit() {
        int n = pending.size();
        if (n == 0) {
            return;
        }
        boolean transaction = n > 1;
        if (transaction) {
            send(-1, new byte[][] {MULTI});
        }
        for (int i = 0; i < n; i++) {
            send(pendingDb[i], pending.get(i));
        }
        if (transaction) {
            send(-1, new byte[][] {EXEC});
        }
        pending.clear();
    }

    private void send(int db, byte[][] argv) {
        for (int i = 0, s = sinks.size(); i < s; i++) {
            sinks.get(i).propagate(db, argv);
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
