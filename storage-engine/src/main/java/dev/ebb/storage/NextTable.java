package dev.ebb.storage;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The slot arrays of the table an {@link OpenTable} will resize to, allocated ahead of time on a background
 * thread so that the write which starts the resize does not stall the command loop.
 *
 * <p>Why: Java zeroes every array it allocates, and the first touch of fresh heap pages faults them in, so
 * allocating the next table of a 10-million-key dict (2^24 slots: 192 MB of rows and metas) costs the
 * allocating thread several milliseconds even on an idle machine, where everything else a resize does is
 * spread over later writes a few slots at a time. (Redis gets its new table from {@code calloc}, whose
 * pages the kernel zeroes lazily; a JVM has no such thing.) So when a table of at least
 * {@link #AHEAD_MIN_CAPACITY} slots comes near a resize, it asks for the arrays here; the allocation runs on
 * one shared daemon thread, and when the resize starts it takes them if they are ready. A grow whose arrays
 * are still being allocated is put off while the table can take more keys ({@link TableSizing#fillLimit}); if
 * they are not ready by then (or were made for another capacity, as when a shrink's target moved), the
 * resize allocates inline as before: the result is the same table either way, only the stall differs.
 *
 * <p>Costs and limits: between the request and the resize the ready arrays are held, which is the memory
 * the resize would need anyway a little later, but a table that stays just under its grow threshold keeps
 * them indefinitely (at most the size of the next table; {@link OpenTable#memoryBytes()} counts them). The
 * allocation still costs CPU and memory bandwidth, on the other thread, and on a collector like G1 a large
 * allocation can start a collection, whose pause stops every thread: that is the collector's cost, not
 * removed here. Tables under {@link #AHEAD_MIN_CAPACITY} slots allocate inline (under about 50 us).
 *
 * <p>Thread-safety: an instance belongs to its table's thread; only the allocation itself runs on the
 * background thread, and its result is handed over through the future (which orders the zeroing before the
 * table's first use of the arrays).
 */
final class NextTable {

    /** Smallest capacity, in slots, of a next table allocated ahead; smaller ones are cheap to allocate inline. */
    static final int AHEAD_MIN_CAPACITY = 1 << 15;

    /** The arrays of a table: its rows and the subclass's primitive columns. */
    static final class Prepared {
        final Object[] rows;
        final Object columns;

        Prepared(final Object[] rows, final Object columns) {
            this.rows = rows;
            this.columns = columns;
        }
    }

    /**
     * The one background thread, shared by all tables. Started when the first table is created, so that
     * the thread's start does not fall on the write that first asks.
     */
    private static final ThreadPoolExecutor ALLOCATOR = new ThreadPoolExecutor(1, 1, 0, TimeUnit.NANOSECONDS,
        new LinkedBlockingQueue<>(), task -> {
            final Thread thread = new Thread(task, "ebb-table-allocator");
            thread.setDaemon(true);
            return thread;
        });

    static {
        ALLOCATOR.prestartAllCoreThreads();
        // One tiny request, so that loading and linking the request path's classes (about a millisecond)
        // happens here, when the first table is created, rather than in the write that first asks.
        final NextTable warmUp = new NextTable();
        warmUp.request(1, 0, int[]::new);
        warmUp.drop();
    }

    private int capacity;
    private FutureTask<Prepared> pending;

    /**
     * Runs {@code task} on the allocation thread after the requests already queued. Tests use it to hold
     * the thread, so that they decide when a request finishes.
     *
     * @param task what to run; every request made after it waits for it
     */
    static void runOnAllocatorThread(final Runnable task) {
        ALLOCATOR.execute(task);
    }

    /**
     * Starts allocating the arrays of a table of {@code capacity} slots in the background, unless they are
     * already asked for. Replaces a request for another capacity. O(1) on the calling thread.
     *
     * @param capacity the next table's slots
     * @param rowShift log2 of the references per slot
     * @param columns  allocates the subclass's zeroed primitive columns for a capacity; must touch no state
     */
    void request(final int capacity, final int rowShift, final IntFunction<Object> columns) {
        if (pending != null && this.capacity == capacity) {
            return;
        }
        this.capacity = capacity;
        pending = new FutureTask<>(new Allocation(capacity, rowShift, columns));
        ALLOCATOR.execute(pending);
    }

    /**
     * Whether arrays for a table of {@code capacity} slots were asked for and are still being allocated. O(1).
     *
     * @param capacity the capacity the caller is about to grow to
     * @return true if a request for that capacity is pending and not finished
     */
    boolean isAllocating(final int capacity) {
        return pending != null && this.capacity == capacity && !pending.isDone();
    }

    /**
     * Takes the arrays for a resize to {@code capacity}, if they were asked for and are ready, and forgets the
     * request in any case. O(1), never waits.
     *
     * @param capacity the capacity the resize needs
     * @return the zeroed arrays, or {@code null} if the caller must allocate them itself
     */
    Prepared take(final int capacity) {
        final int requested = this.capacity;
        final FutureTask<Prepared> request = pending;
        drop();
        return requested == capacity ? readyResult(request) : null;
    }

    /** Forgets any request; arrays still being allocated are left to the garbage collector. O(1). */
    void drop() {
        pending = null;
        capacity = 0;
    }

    /**
     * The capacity of the ready arrays held, for memory accounting.
     *
     * @return their capacity in slots, or 0 if none are ready
     */
    int readyCapacity() {
        return readyResult(pending) != null ? capacity : 0;
    }

    /** The arrays of a finished allocation, or {@code null} if there is none, it is running, or it failed. */
    private static Prepared readyResult(final FutureTask<Prepared> request) {
        if (request == null || !request.isDone()) {
            return null;
        }
        try {
            return request.get();
        } catch (final ExecutionException failed) {
            // A failed allocation (out of memory) is retried inline by the resize, which reports a real shortage.
            return null;
        } catch (final InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Allocates one table's arrays; runs on the background thread. */
    private static final class Allocation implements Callable<Prepared> {
        private final int capacity;
        private final int rowShift;
        private final IntFunction<Object> columns;

        Allocation(final int capacity, final int rowShift, final IntFunction<Object> columns) {
            this.capacity = capacity;
            this.rowShift = rowShift;
            this.columns = columns;
        }

        @Override
        public Prepared call() {
            return new Prepared(new Object[capacity << rowShift], columns.apply(capacity));
        }
    }
}
