package dev.ebb.server;

import dev.ebb.server.command.CommandSpec;
import dev.ebb.storage.Database;
import io.netty.channel.epoll.EpollSocketChannel;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Clients blocked on keys (BLPOP, BRPOP, BLMOVE, BLMPOP; later BZPOPMIN and friends), Redis's
 * blocking machinery in one generic piece.
 *
 * <p><b>Idea.</b> A blocking command that finds nothing to serve calls {@link #block}: the client
 * joins the tail of a FIFO per (database, key) for each of its keys, with a {@link Retry} that
 * re-runs the command's serving step, a {@link TimeoutReply}, and a deadline. Any write path that
 * may have made a key servable calls {@link #signalKeyAsReady}; that only records the key. After
 * the command that raised the signal has completed, {@link Server#call} runs
 * {@link #handleReadyKeys()}: for each ready key, the waiters are retried in FIFO order (the
 * longest waiting first) until one declines (the key cannot serve more). A served client is
 * removed from every queue, its reply is flushed, and the commands it sent while blocked run.
 * Serving may push to another key (BLMOVE), which makes that key ready in turn; the loop runs
 * until no key is ready. This is Redis's handleClientsBlockedOnKeys with 7.2's re-execution.
 *
 * <p>While blocked a client's further input is held ({@link #holdIfBlocked}) and replayed in order
 * once it is unblocked, as Redis leaves it in the query buffer. A client that disconnects is
 * forgotten ({@link #forget}) with no reply and no trace; one whose connection is gone before the
 * loop has heard of it is skipped when its turn comes ({@link #peerGone}), so no element is handed
 * to a dead client. A reset that arrives after the element was written is lost with it, as in
 * Redis. Deadlines (server clock, so a manual clock drives them in tests) are kept sorted;
 * {@link #expireTimeouts} runs from the cron and from a one-shot timer set for the earliest deadline.
 *
 * <p><b>Costs.</b> {@link #signalKeyAsReady} is O(1) and allocation-free when nobody is blocked
 * (the common case); otherwise one hash look-up. {@link #block} is O(keys + log blocked);
 * unblocking is O(keys * waiters on those keys) for the queue removal; a timeout sweep is
 * O(expired * log blocked).
 *
 * <p><b>Threading.</b> Command loop thread only, like the rest of {@link Server}.
 */
public final class BlockingKeys {
    /** Linux's TCP_ESTABLISHED, as {@code tcp_info.tcpi_state} reports it. */
    private static final int TCP_ESTABLISHED = 1;

    /**
     * Re-runs a blocked command's serving step for its client (the client's database is selected).
     * Returns true if it replied (served, or an error such as WRONGTYPE): the client is then
     * unblocked. Returns false, without replying, if there is still nothing to serve.
     */
    @FunctionalInterface
    public interface Retry {
        boolean retry(Client c);
    }

    /** Writes the reply of a blocked command whose timeout passed (a null array for the list pops). */
    @FunctionalInterface
    public interface TimeoutReply {
        void reply(Client c);
    }

    /** One blocked client: its keys, what to do when one is ready or time runs out, input held meanwhile. */
    private static final class Waiter {
        final Client client;
        final List<WaitKey> keys;
        final long deadlineMs;
        final long sequence;
        final Retry retry;
        final TimeoutReply onTimeout;
        /** The kind of value that can serve this client (a list for BLPOP, a sorted set for BZPOPMIN). */
        final Class<?> valueType;
        final List<Object> heldInput = new ArrayList<>();
        /** The blocked command and its arguments, for the slow log when it is served. */
        final CommandSpec spec;
        final byte[][] argv;
        /**
         * XREADGROUP: retried even when its key is deleted or changes type (Redis's
         * unblock_on_nokey), so it answers NOGROUP or WRONGTYPE.
         */
        boolean unblockOnNoKey;
        /**
         * Stream readers: one that declines does not stop the others being retried (each waits
         * for entries after its own ID, or reads for its own group).
         */
        boolean retryEach;

        Waiter(Client client, List<WaitKey> keys, long deadlineMs, long sequence, Retry retry,
                TimeoutReply onTimeout, Class<?> valueType) {
            this.client = client;
            this.valueType = valueType;
            this.spec = client.lastCommand();
            this.argv = client.lastArgv();
            this.keys = keys;
            this.deadlineMs = deadlineMs;
            this.sequence = sequence;
            this.retry = retry;
            this.onTimeout = onTimeout;
        }
    }

    /** A key in a database; bytes compared by content. */
    private record WaitKey(int db, ByteBuffer key) {
    }

    private final Server server;
    private final Map<WaitKey, ArrayDeque<Waiter>> queues = new HashMap<>();
    private final Map<Client, Waiter> blocked = new HashMap<>();
    private final TreeSet<Waiter> deadlines = new TreeSet<>(
            Comparator.comparingLong((Waiter w) -> w.deadlineMs).thenComparingLong(w -> w.sequence));
    private final LinkedHashSet<WaitKey> ready = new LinkedHashSet<>();
    /** Clients answered by CLIENT UNBLOCK whose held input runs after the current command. */
    private final ArrayDeque<Waiter> unblocked = new ArrayDeque<>();
    private final Runnable timerTask = this::timerFired;
    private CommandLoop loop;
    private long nextSequence;
    private long timerDeadlineMs = Long.MAX_VALUE;
    private boolean handling;
    /** Blocked clients that must hear of their key's deletion (XREADGROUP). */
    private int noKeyWaiters;

    BlockingKeys(Server server) {
        this.server = server;
    }

    /** Connects the loop that flushes replies, replays held input and runs deadline timers. */
    void attach(CommandLoop commandLoop) {
        this.loop = commandLoop;
    }

    /**
     * Blocks {@code c} on {@code keys} of its current database (duplicates are ignored) until a
     * {@link Retry} succeeds, the deadline passes ({@code deadlineMs} in server-clock ms, 0 for
     * never), or the client disconnects. Only a ready key that holds a {@code valueType} value
     * gets the client retried, as Redis checks the blocked type: a key that became a string in
     * the meantime leaves it blocked. The caller has not replied.
     *
     * @throws IllegalStateException if the client is already blocked
     */
    public void block(Client c, byte[][] keys, long deadlineMs, Class<?> valueType, Retry retry,
            TimeoutReply onTimeout) {
        block(c, keys, deadlineMs, valueType, retry, onTimeout, false, false);
    }

    /**
     * As {@link #block(Client, byte[][], long, Class, Retry, TimeoutReply)} for the stream reads:
     * with {@code retryEach} a waiter that declines does not end the turn of the key (XREAD and
     * XREADGROUP waiters each wait for something of their own); with {@code unblockOnNoKey} the
     * client is retried when its key is deleted or changes type ({@link #signalKeyDeleted}), as
     * Redis unblocks XREADGROUP so that it answers NOGROUP or WRONGTYPE.
     */
    public void block(Client c, byte[][] keys, long deadlineMs, Class<?> valueType, Retry retry,
            TimeoutReply onTimeout, boolean retryEach, boolean unblockOnNoKey) {
        if (blocked.containsKey(c)) {
            throw new IllegalStateException("client is already blocked: id=" + c.id());
        }
        int db = c.db().id();
        LinkedHashSet<WaitKey> unique = new LinkedHashSet<>();
        for (byte[] key : keys) {
            unique.add(new WaitKey(db, ByteBuffer.wrap(key)));
        }
        Waiter w = new Waiter(c, List.copyOf(unique), deadlineMs, nextSequence++, retry, onTimeout, valueType);
        w.retryEach = retryEach;
        w.unblockOnNoKey = unblockOnNoKey;
        if (unblockOnNoKey) {
            noKeyWaiters++;
        }
        for (WaitKey k : w.keys) {
            queues.computeIfAbsent(k, ignored -> new ArrayDeque<>()).addLast(w);
        }
        blocked.put(c, w);
        if (deadlineMs != 0) {
            deadlines.add(w);
            armTimer(deadlineMs);
        }
    }

    /**
     * Records that {@code key} may now serve blocked clients (a push created or grew a list …).
     * Cheap when nobody waits on it; the clients are served after the current command.
     */
    public void signalKeyAsReady(Database db, byte[] key) {
        if (queues.isEmpty()) {
            return;
        }
        WaitKey k = new WaitKey(db.id(), ByteBuffer.wrap(key));
        if (queues.containsKey(k)) {
            ready.add(k);
        }
    }

    /**
     * A key was written, deleted or expired ({@link dev.ebb.storage.KeyspaceListener}): if a client
     * that must hear of a deletion (XREADGROUP) waits on it, the key is made ready. O(1) when none does.
     */
    public void signalKeyDeleted(Database db, byte[] key) {
        if (noKeyWaiters > 0) {
            signalKeyAsReady(db, key);
        }
    }

    /** {@code db} is about to be flushed: every key an XREADGROUP waits on in it is made ready. */
    public void signalDatabaseFlushed(Database db) {
        if (noKeyWaiters > 0) {
            signalDatabasesSwapped(db.id(), db.id());
        }
    }

    /** INFO clients {@code total_blocking_keys_on_nokey}: keys some XREADGROUP client waits on. */
    public int blockingKeysOnNoKey() {
        if (noKeyWaiters == 0) {
            return 0;
        }
        int n = 0;
        for (ArrayDeque<Waiter> queue : queues.values()) {
            for (Waiter w : queue) {
                if (w.unblockOnNoKey) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    /**
     * SWAPDB exchanged the contents of databases {@code a} and {@code b}: every key a client waits
     * on in either may hold something new, so each is checked after the command (Redis's
     * scanDatabaseForReadyKeys). O(keys waited on).
     */
    public void signalDatabasesSwapped(int a, int b) {
        for (WaitKey k : queues.keySet()) {
            if (k.db() == a || k.db() == b) {
                ready.add(k);
            }
        }
    }

    /** Whether {@code c} is blocked. */
    public boolean isBlocked(Client c) {
        return !blocked.isEmpty() && blocked.containsKey(c);
    }

    /** INFO clients {@code blocked_clients}. */
    public int blockedClients() {
        return blocked.size();
    }

    /** INFO clients {@code clients_in_timeout_table}: blocked clients with a deadline. */
    public int clientsWithTimeout() {
        return deadlines.size();
    }

    /** INFO clients {@code total_blocking_keys}: keys at least one client is blocked on. */
    public int blockingKeys() {
        return queues.size();
    }

    /** Holds {@code msg} for later if {@code c} is blocked; returns whether it did. */
    boolean holdIfBlocked(Client c, Object msg) {
        Waiter w = blocked.get(c);
        if (w == null) {
            return false;
        }
        w.heldInput.add(msg);
        return true;
    }

    /** Drops a disconnected client from every queue, without replying. */
    void forget(Client c) {
        Waiter w = blocked.get(c);
        if (w != null) {
            remove(w);
        }
    }

    /**
     * Serves the clients blocked on keys made ready since the last call, FIFO per key; runs until
     * no key is ready. Re-entrant calls (from commands replayed here) return at once; the outer
     * call picks up what they made ready.
     */
    void handleReadyKeys() {
        if (handling || (ready.isEmpty() && unblocked.isEmpty())) {
            return;
        }
        handling = true;
        try {
            while (!unblocked.isEmpty()) {
                resume(unblocked.poll());
            }
            while (!ready.isEmpty()) {
                Iterator<WaitKey> it = ready.iterator();
                WaitKey key = it.next();
                it.remove();
                serveKey(key);
            }
        } finally {
            handling = false;
        }
    }

    private void serveKey(WaitKey key) {
        ArrayDeque<Waiter> queue = queues.get(key);
        if (queue == null) {
            return;
        }
        // The waiters present now, in order: a client served here that blocks again on the same key
        // joins the tail and waits for the next signal, as in Redis.
        Waiter[] turns = queue.toArray(new Waiter[0]);
        for (Waiter w : turns) {
            if (blocked.get(w.client) != w) {
                continue;
            }
            if (peerGone(w.client)) {
                // Its close has not reached the loop yet (forget() will find nothing): never serve it.
                remove(w);
                continue;
            }
            if (!w.unblockOnNoKey && !w.valueType.isInstance(valueAt(key))) {
                // As Redis's handleClientsBlockedOnKey: the key is gone or of another type now (a
                // transaction pushed, deleted and SET it); this client stays blocked.
                continue;
            }
            server.markErrors();
            long start = System.nanoTime();
            // A served client is an execution unit of its own: it propagates as the non-blocking
            // form its serving step rewrote it to (BLPOP as LPOP …).
            server.propagation().enter();
            boolean served;
            try {
                served = retry(w);
            } finally {
                server.propagation().exit(w.client, w.spec, w.argv);
            }
            if (!served) {
                if (w.retryEach) {
                    continue;
                }
                return;
            }
            logServed(w, System.nanoTime() - start);
            remove(w);
            resume(w);
        }
    }

    /** The value at {@code key} now (expired keys count as missing), without touching it. */
    private Object valueAt(WaitKey key) {
        ByteBuffer k = key.key();
        byte[] bytes = k.hasArray() && k.arrayOffset() == 0 && k.array().length == k.remaining()
                ? k.array() : toBytes(k);
        return server.db(key.db()).lookupReadNoTouch(bytes, server.nowMs());
    }

    private static byte[] toBytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /**
     * Whether a blocked client's connection is known to be gone before its close has reached the
     * loop, so that no element is handed to it and lost. Two cases: the IO thread already closed the
     * channel (after a reset it reads, Netty closes at once but fires channelInactive as a later
     * task, so a push read in the same epoll batch would otherwise serve the dead client); or, with
     * the native transport, the kernel has the peer's reset or FIN that no IO thread has read yet
     * (another IO thread's push got ahead of it): the TCP state is then no longer ESTABLISHED. The
     * second check costs one getsockopt, paid only when a blocked client is about to be served.
     */
    private static boolean peerGone(Client c) {
        io.netty.channel.Channel ch = c.channel();
        if (!ch.isActive()) {
            return true;
        }
        if (ch instanceof EpollSocketChannel) {
            try {
                return ((EpollSocketChannel) ch).tcpInfo().state() != TCP_ESTABLISHED;
            } catch (RuntimeException e) {
                return !ch.isActive();
            }
        }
        return false;
    }

    /**
     * The slow log, the latency monitor and INFO commandstats see a blocking command once, when it
     * is served or times out, with the time of that final execution (the wait is not counted), as
     * Redis logs a command when it unblocks.
     */
    private void logServed(Waiter w, long nanos) {
        if (w.spec != null) {
            server.attributeErrors(w.spec);
            server.commandExecuted(w.client, w.spec, w.argv, nanos);
        }
    }

    /** Answers every blocked client whose deadline is at or before {@code nowMs}. */
    void expireTimeouts(long nowMs) {
        while (!deadlines.isEmpty() && deadlines.first().deadlineMs <= nowMs) {
            Waiter w = deadlines.first();
            remove(w);
            server.markErrors();
            long start = System.nanoTime();
            finalReply(w, null);
            logServed(w, System.nanoTime() - start);
            resume(w);
        }
        if (!deadlines.isEmpty()) {
            armTimer(deadlines.first().deadlineMs);
        }
    }

    /**
     * CLIENT UNBLOCK: answers blocked {@code c} now, with its timeout reply or with {@code error},
     * and queues it to resume (its held input runs) once the current command is done, as Redis
     * unblocks it. Returns false, doing nothing, if {@code c} is not blocked.
     */
    public boolean unblock(Client c, String error) {
        Waiter w = blocked.get(c);
        if (w == null) {
            return false;
        }
        remove(w);
        server.markErrors();
        long start = System.nanoTime();
        finalReply(w, error);
        logServed(w, System.nanoTime() - start);
        unblocked.add(w);
        return true;
    }

    /**
     * Answers every client blocked on keys with {@code error} (Redis's disconnectAllBlockedClients,
     * when this node starts following a primary); they resume, running their held input, right after
     * the current loop task.
     */
    public void unblockAll(String error) {
        if (blocked.isEmpty()) {
            return;
        }
        for (Client c : new ArrayList<>(blocked.keySet())) {
            unblock(c, error);
        }
        if (loop != null) {
            loop.executor().execute(this::handleReadyKeys);
        }
    }

    /** Re-runs {@code w}'s serving step; what it replies is dropped if the client's replies are off. */
    private boolean retry(Waiter w) {
        Client c = w.client;
        if (!c.replyMuted()) {
            return w.retry.retry(c);
        }
        c.muteStart();
        boolean served = w.retry.retry(c);
        c.muteEnd();
        return served;
    }

    /** Writes {@code w}'s timeout reply, or {@code error} if not null; dropped if the client's replies are off. */
    private void finalReply(Waiter w, String error) {
        Client c = w.client;
        boolean muted = c.replyMuted();
        if (muted) {
            c.muteStart();
        }
        if (error == null) {
            w.onTimeout.reply(c);
        } else {
            c.reply().error(error);
        }
        if (muted) {
            c.muteEnd();
        }
    }

    private void remove(Waiter w) {
        if (blocked.remove(w.client) != null && w.unblockOnNoKey) {
            noKeyWaiters--;
        }
        deadlines.remove(w);
        for (WaitKey k : w.keys) {
            ArrayDeque<Waiter> queue = queues.get(k);
            if (queue != null) {
                queue.remove(w);
                if (queue.isEmpty()) {
                    queues.remove(k);
                    ready.remove(k);
                }
            }
        }
    }

    /** After unblocking: flush the reply, then run the input held meanwhile (which may block again). */
    private void resume(Waiter w) {
        if (loop == null) {
            return;
        }
        Client c = w.client;
        c.commandDone();
        for (int i = 0; i < w.heldInput.size(); i++) {
            Object msg = w.heldInput.get(i);
            if (!holdIfBlocked(c, msg)) {
                loop.handle(c, msg);
            }
        }
        loop.flush(c);
    }

    /** Sets a one-shot timer for {@code deadlineMs} unless one at or before it is pending. */
    private void armTimer(long deadlineMs) {
        if (loop == null || deadlineMs >= timerDeadlineMs) {
            return;
        }
        timerDeadlineMs = deadlineMs;
        long delayMs = Math.max(0, deadlineMs - server.nowMs());
        loop.executor().schedule(timerTask, delayMs, TimeUnit.MILLISECONDS);
    }

    private void timerFired() {
        timerDeadlineMs = Long.MAX_VALUE;
        expireTimeouts(server.tick());
    }
}
