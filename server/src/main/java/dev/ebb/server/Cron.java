package dev.ebb.server;

import dev.ebb.storage.NanoClock;
import dev.ebb.storage.expiry.ActiveExpireCycle;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The server's periodic housekeeping, {@code hz} times a second on the command loop thread (Redis's
 * serverCron): instantaneous stats, idle-client timeouts, incremental rehashing, and the active
 * expire cycle. No step may hold the loop for longer than its budget.
 */
final class Cron {
    private final CommandLoop loop;
    private final Server server;
    private static final long REHASH_BUDGET_NANOS = 1_000_000;

    private static final long FAST_OFFER_INTERVAL_MICROS = 1000;

    private final Runnable continueExpiry = this::continueExpiry;
    private final Runnable continueRehash = this::continueRehash;
    private long rehashLeftNanos;
    private boolean rehashPending;
    private final Runnable offerFastCycles = this::offerFastCycles;
    private boolean fastOffersPending;
    /** The engine's expire-cycle time when the current slow cycle began, for its latency event. */
    private long slowCycleStartCpuNanos;
    /** A {@link #continueExpiry} task is scheduled: one chain of slow-cycle slices at a time. */
    private boolean expirySlicesPending;
    private ScheduledFuture<?> task;
    private int scheduledHz;

    Cron(CommandLoop loop) {
        this.loop = loop;
        this.server = loop.server();
    }

    /** Schedules the cron at the server's hz (dynamic-hz may raise it). Loop thread only. */
    void start() {
        schedule();
        server.config().onChange("hz", () -> loop.run(this::schedule));
        server.config().onChange("dynamic-hz", () -> loop.run(this::schedule));
    }

    private void schedule() {
        int hz = server.hz();
        if (task != null) {
            if (hz == scheduledHz) {
                return;
            }
            task.cancel(false);
        }
        scheduledHz = hz;
        long periodMicros = 1_000_000L / hz;
        task = loop.executor().scheduleAtFixedRate(this::tick, periodMicros, periodMicros, TimeUnit.MICROSECONDS);
    }

    void stop() {
        ScheduledFuture<?> t = task;
        if (t != null) {
            t.cancel(false);
        }
    }

    private void tick() {
        if (server.updateHz(server.clients().size())) {
            schedule();
        }
        long nowMs = server.tick();
        server.stats().sample(nowMs);
        closeIdleClients(nowMs);
        enforceOutputBufferLimits(nowMs);
        ClientEviction.enforce(server);
        server.memoryGuard().cron();
        server.blockingKeys().expireTimeouts(nowMs);
        server.migrateSockets().closeIdle(nowMs);
        server.aof().cron();
        server.persistence().cron(nowMs);
        server.replicationPrimary().cron(nowMs);
        rehashLeftNanos = REHASH_BUDGET_NANOS;
        if (!rehashPending) {
            continueRehash();
        }
        ActiveExpireCycle cycle = server.expireCycle();
        if (cycle.inProgress()) {
            // The last slow cycle's slices did not all run before this tick (a busy loop or machine):
            // beginSlow cuts it, so its time is recorded here or never.
            recordExpireCycle(cycle.expireCycleCpuNanos() - slowCycleStartCpuNanos);
        }
        cycle.beginSlow();
        slowCycleStartCpuNanos = cycle.expireCycleCpuNanos();
        if (!expirySlicesPending) {
            expirySlicesPending = true;
            // The first slice runs after the I/O that arrived meanwhile, not straight after the
            // housekeeping above: a command waits behind one of the two, never both. A cut cycle's
            // chain of slices goes on with the new cycle instead of a second chain beside it.
            loop.executor().schedule(continueExpiry, 0, TimeUnit.NANOSECONDS);
        }
    }

    /** Soft output-buffer limits are timed, so every client is checked once per tick. */
    private void enforceOutputBufferLimits(long nowMs) {
        List<Client> over = null;
        for (Client c : server.clients()) {
            if (c.outputBytes() > 0 || c.softLimitReachedMs != OutputBufferLimiter.NOT_OVER) {
                if (over == null) {
                    over = new ArrayList<>();
                }
                over.add(c);
            }
        }
        if (over != null) {
            for (Client c : over) {
                OutputBufferLimiter.enforce(server, c, nowMs);
            }
        }
    }

    /**
     * Runs one slice (about 1 ms) of the slow expire cycle, then, if the cycle has budget and work
     * left, runs again after the I/O and commands that arrived meanwhile. So a command waits
     * at most one slice behind expiry work, where Redis makes it wait for the whole cycle.
     */
    private void continueExpiry() {
        expirySlicesPending = false;
        ActiveExpireCycle cycle = server.expireCycle();
        // CLIENT PAUSE holds active expiry (the cycle ends without work).
        server.tick();
        // A replica never expires keys itself: its primary sends the DELs (Redis runs no active cycle on a replica).
        boolean more = !server.pause().active() && !server.primaryLink().active() && cycle.runSlice(server.nowMs());
        if (!more) {
            recordExpireCycle(cycle.expireCycleCpuNanos() - slowCycleStartCpuNanos);
        }
        loop.flushPendingWrites();
        if (more) {
            // Not execute(): Netty's event loop drains tasks queued while it runs tasks before it
            // polls IO again, so the whole cycle would run back to back. A zero-delay scheduled
            // task is only picked up on the loop's next turn, after the pending IO.
            expirySlicesPending = true;
            loop.executor().schedule(continueExpiry, 0, TimeUnit.NANOSECONDS);
        } else {
            scheduleFastCycles();
        }
    }

    /**
     * Called after each client's batch of commands: if the engine wants Redis's fast expire cycle
     * (the last cycle ran out of time or many sampled keys were stale), offers it once the loop
     * has handled the rest of the I/O that is ready, as Redis does in beforeSleep; not inline, or
     * the other clients whose input arrived in the same poll would wait behind it.
     */
    void afterBatch() {
        if (!fastOffersPending && server.expireCycle().wantsFastCycle()) {
            fastOffersPending = true;
            loop.executor().schedule(offerFastCycles, 0, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Redis offers the fast cycle on every event-loop turn, so a backlog of expired keys keeps
     * being worked on between cron ticks even when no client is sending commands. Ebb's loop has no
     * before-sleep hook, so while the engine reports a backlog the cron keeps offering the fast
     * cycle every millisecond on its own (the cycle itself limits how often it runs).
     */
    private void offerFastCycles() {
        fastOffersPending = false;
        ActiveExpireCycle cycle = server.expireCycle();
        long before = cycle.expireCycleCpuNanos();
        server.tick();
        if (!server.pause().active() && !server.primaryLink().active()) {
            cycle.runFast(server.nowMs());
        }
        recordExpireCycle(cycle.expireCycleCpuNanos() - before);
        loop.flushPendingWrites();
        scheduleFastCycles();
    }

    /**
     * The latency monitor's {@code expire-cycle} event: Redis records each active expire cycle's
     * duration, slow or fast. Ebb's slow cycle runs in slices with I/O between them, so its
     * duration is the time its slices took (the engine's own cycle time, read from what it
     * reports), not the wall time from its first slice to its last.
     */
    private void recordExpireCycle(long nanos) {
        server.latencyMonitor().record("expire-cycle", Math.max(0, nanos) / 1_000_000, server.nowMs());
    }

    private void scheduleFastCycles() {
        ActiveExpireCycle cycle = server.expireCycle();
        if (!fastOffersPending && cycle.wantsFastCycle()) {
            fastOffersPending = true;
            // A backlog (the last fast cycle stopped on time): next slice right after pending IO.
            long delay = cycle.fastBacklog() ? 0 : FAST_OFFER_INTERVAL_MICROS;
            loop.executor().schedule(offerFastCycles, delay, TimeUnit.MICROSECONDS);
        }
    }

    /**
     * Incremental rehashing over the databases, as Redis's databasesCron: up to 1 ms per tick, spent
     * in steps of at most one {@code active-expire-slice-us} with the pending I/O served between
     * them, so a command never waits longer behind rehashing than behind an expiry slice.
     */
    private void continueRehash() {
        rehashPending = false;
        long start = System.nanoTime();
        long deadline = start + Math.min(rehashLeftNanos, server.config().activeExpireSliceMicros() * 1000L);
        boolean more = false;
        for (int i = 0; i < server.databases(); i++) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                more = true;
                break;
            }
            server.db(i).rehashFor(left, NanoClock.SYSTEM);
        }
        rehashLeftNanos -= System.nanoTime() - start;
        if (!more) {
            for (int i = 0; i < server.databases() && !more; i++) {
                more = server.db(i).isRehashing();
            }
        }
        if (more && rehashLeftNanos > 0) {
            rehashPending = true;
            loop.executor().schedule(continueRehash, 0, TimeUnit.NANOSECONDS);
        }
    }

    /** Closes clients idle for longer than {@code timeout} seconds (0 = never). */
    private void closeIdleClients(long nowMs) {
        long timeoutMs = server.config().timeout() * 1000L;
        if (timeoutMs <= 0) {
            return;
        }
        List<Client> idle = new ArrayList<>();
        for (Client c : server.clients()) {
            if (nowMs - c.lastInteractionMs() > timeoutMs && !c.exemptFromIdleTimeout()) {
                idle.add(c);
            }
        }
        for (Client c : idle) {
            c.kill();
        }
    }
}
