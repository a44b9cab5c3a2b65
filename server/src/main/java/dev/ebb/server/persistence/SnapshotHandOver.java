package dev.ebb.server.persistence;

import dev.ebb.server.persistence.EntryWriter.AccessInfo;
import dev.ebb.server.util.ThreadPlacement;
import dev.ebb.storage.Database;
import dev.ebb.storage.Values;
import dev.ebb.storage.snapshot.Snapshot;
import dev.ebb.storage.stream.StreamValue;
import dev.ebb.storage.types.HashValue;
import dev.ebb.storage.types.ListValue;
import dev.ebb.storage.types.SetValue;
import dev.ebb.storage.zset.SortedSet;
import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The one snapshot walk behind every point-in-time file Ebb writes: BGSAVE and the save points, the AOF
 * rewrite's base (RDB preamble or commands), and, on the loop itself, SAVE and the first AOF base. Redis
 * forks for the background ones; see the {@code snapshot} package comment for what Ebb does instead and
 * what it costs. What the keys become is an {@link Output}'s business; this class only walks and hands
 * over.
 *
 * <p><b>Hand-over.</b> The loop turns each key of a {@link Snapshot} into an immutable pre-image: strings
 * as they are (their bytes are never written once stored), collections as a copy in the same encoding,
 * with the LRU idle time or LFU counter as of the instant. Pre-images go to the writer thread in column
 * {@link Batch}es over an unbounded queue, and the writer hands each batch back emptied for the loop to
 * fill again: a string key allocates nothing on its way, so a BGSAVE under load adds next to no garbage
 * (a record per key made the collector run every few seconds of a 10M-key save). The walk pauses while
 * more than {@link #MAX_IN_FLIGHT_BYTES} of them wait, so a slow disk holds the walk back, not memory.
 * Keys the loop's own writes hand over cannot wait and are queued regardless (at most what those writes
 * touch). The bytes waiting are Ebb's counterpart of fork's copy-on-write ({@code current_cow_size},
 * {@code rdb_last_cow_size}, {@code aof_last_cow_size}).
 *
 * <p><b>Slices.</b> Each slice walks for about {@link #SLICE_NANOS} and then lets I/O and commands run (a
 * zero-delay task, as the expire cycle does), so a command waits behind at most one slice.
 *
 * <p><b>Writer thread.</b> Puts itself behind the loop ({@link WriterPriority}: SCHED_IDLE, watched for
 * starvation), opens the output, writes each key (pausing {@code rdb-key-save-delay} per key, Redis's
 * test knob), finishes it, and reports the result to the loop; the output logs its own failures as
 * Redis's child does. It yields the CPU every {@link #YIELD_EVERY_KEYS} keys: a low priority alone does
 * not get the loop its CPU back in time (see the constant). Loop thread for everything but
 * {@link #run}, which is the writer thread's.
 */
final class SnapshotHandOver implements Runnable {
    static final long MAX_IN_FLIGHT_BYTES = 8L << 20;
    static final long SLICE_NANOS = 300_000;
    /** How long the writer thread parks when it finds nothing to write. */
    static final long WRITER_IDLE_NANOS = 200_000;
    private static final int SLICE_POSITIONS = 256;
    private static final int BATCH_KEYS = 512;
    /**
     * The writer calls {@link Thread#yield} after this many keys (about 20-60 us of encoding). A kernel
     * that preempts lazily (Linux 6.13+ under {@code preempt=none} or {@code voluntary}, as this machine's
     * 6.18) does not interrupt a thread running in user space when another wakes on its CPU, not even a
     * {@code SCHED_IDLE} one: the woken thread waits for the running one's next system call or for the
     * next scheduler tick (4 ms at 250 Hz). The writer encodes about 1,000 small keys between two 64 KB
     * writes, so the loop and its clients waited up to 4-8 ms behind it ({@code perf sched timehist}).
     * Yielding every 64 keys took GET p99 during a 10M-key BGSAVE under 50 clients from 2.1 to 1.1 ms
     * (medians of six alternating runs); the system call costs the writer a few per cent.
     */
    static final int YIELD_EVERY_KEYS = 64;
    private static final Object END = new Object();

    /**
     * Where the keys of a snapshot go: a file written by one thread at a time (the writer thread, or the
     * loop for {@link #writeNow}).
     */
    interface Output {
        /** Creates the temporary file and writes what comes before the keys; logs its own failure and cleans up. */
        void open() throws IOException;

        /** One key as of the instant. */
        void key(Key key) throws IOException;

        /** Writes what comes after the keys, makes the file durable and puts it in place. */
        void finish() throws IOException;

        /** {@link #key} or {@link #finish} failed: logs it as Redis does and deletes the temporary file. */
        void failed(IOException e);

        /** Deletes the temporary file of a stopped write, silently. Never throws. */
        void discard();
    }

    /**
     * One key's pre-image, as of the snapshot's instant. The writer thread reads a batch through one
     * instance that it points at each key in turn, so an output must not keep it past {@link Output#key}.
     */
    static final class Key {
        private int db;
        private byte[] key;
        private Object value;
        private long expireAtMs;
        private long idleSeconds;
        private int freq;

        Key set(int db, byte[] key, Object value, long expireAtMs, long idleSeconds, int freq) {
            this.db = db;
            this.key = key;
            this.value = value;
            this.expireAtMs = expireAtMs;
            this.idleSeconds = idleSeconds;
            this.freq = freq;
            return this;
        }

        int db() {
            return db;
        }

        byte[] key() {
            return key;
        }

        Object value() {
            return value;
        }

        long expireAtMs() {
            return expireAtMs;
        }

        long idleSeconds() {
            return idleSeconds;
        }

        int freq() {
            return freq;
        }
    }

    /**
     * Up to {@link #BATCH_KEYS} pre-images in columns, filled by the loop and written by the writer thread,
     * which hands it back emptied for reuse: a handed-over string allocates nothing.
     */
    private static final class Batch {
        final int[] dbs = new int[BATCH_KEYS];
        final byte[][] keys = new byte[BATCH_KEYS][];
        final Object[] values = new Object[BATCH_KEYS];
        final long[] expires = new long[BATCH_KEYS];
        final long[] idles = new long[BATCH_KEYS];
        final int[] freqs = new int[BATCH_KEYS];
        int size;
        /** The estimated bytes of the pre-images in the batch, counted in flight from its flush until written. */
        long bytes;

        boolean isFull() {
            return size == BATCH_KEYS;
        }

        void add(int db, byte[] key, Object value, long expireAtMs, long idleSeconds, int freq, long estimate) {
            int i = size++;
            dbs[i] = db;
            keys[i] = key;
            values[i] = value;
            expires[i] = expireAtMs;
            idles[i] = idleSeconds;
            freqs[i] = freq;
            bytes += estimate;
        }

        /** Drops the references, so that a batch waiting for reuse keeps no value alive. */
        void clear() {
            java.util.Arrays.fill(keys, 0, size, null);
            java.util.Arrays.fill(values, 0, size, null);
            size = 0;
            bytes = 0;
        }
    }

    private final ScheduledExecutorService loop;
    private final Persistence owner;
    private final Snapshot snapshot;
    private final Output output;
    private final AccessInfo access;
    private final int decayMinutes;
    private final long instantMs;
    private final int keyDelayMicros;
    private final Consumer<IOException> onDone;
    /**
     * Batches (and {@link #END}) for the writer thread. Not a blocking queue: the writer polls it and parks
     * for {@link #WRITER_IDLE_NANOS} when it is empty, so the loop never wakes it. With a blocking queue the
     * writer, faster than the walk, waited on an empty queue after every batch, and waking it (a futex
     * call per batch) took three quarters of the loop thread's samples during a BGSAVE under load.
     */
    private final Queue<Object> queue = new ConcurrentLinkedQueue<>();
    private final Queue<Batch> emptied = new ConcurrentLinkedQueue<>();
    private final AtomicLong inFlightBytes = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final Runnable slice = this::slice;
    private final java.util.SplittableRandom random = new java.util.SplittableRandom();
    private volatile boolean stopped;
    private volatile boolean writerDone;
    private boolean endQueued;
    private long peakInFlightBytes;
    private Batch batch = new Batch();
    private Thread thread;
    private String cpulist = "";

    /**
     * Takes the instant now (on the loop); {@link #start} starts the walk and the writer thread.
     * {@code onDone} runs on the loop when the writer thread has finished, with null on success.
     */
    SnapshotHandOver(Persistence owner, Database[] dbs, Output output, AccessInfo access, int decayMinutes,
            long instantMs, int keyDelayMicros, Consumer<IOException> onDone) {
        this.owner = owner;
        this.loop = owner.loop();
        this.output = output;
        this.access = access;
        this.decayMinutes = decayMinutes;
        this.instantMs = instantMs;
        this.keyDelayMicros = keyDelayMicros;
        this.onDone = onDone;
        this.snapshot = Snapshot.begin(dbs, this::handOver);
    }

    /**
     * Writes a snapshot of {@code dbs} to {@code output} on the calling thread (the loop, which it holds
     * until the end: SAVE, the first AOF base at start-up). No pre-image is copied, as nothing changes
     * meanwhile.
     */
    static void writeNow(Database[] dbs, Output output, AccessInfo access, int decayMinutes, long nowMs)
            throws IOException {
        output.open();
        IOException[] failure = new IOException[1];
        Key view = new Key();
        Snapshot snapshot = Snapshot.begin(dbs, (db, key, value, expireAt, meta) -> {
            if (failure[0] != null) {
                return;
            }
            try {
                output.key(view.set(db, key, value, expireAt, EntryWriter.idleSeconds(access, meta, nowMs),
                        EntryWriter.frequency(access, meta, nowMs, decayMinutes)));
            } catch (IOException e) {
                failure[0] = e;
            }
        });
        try {
            while (!snapshot.isComplete() && failure[0] == null) {
                snapshot.advance(1 << 16);
            }
        } finally {
            snapshot.abandon();
        }
        try {
            if (failure[0] != null) {
                throw failure[0];
            }
            output.finish();
        } catch (IOException e) {
            output.failed(e);
            throw e;
        }
    }

    /** Starts the writer thread (named {@code threadName}, on the CPUs of {@code cpulist} if not empty) and the first slice. */
    void start(String threadName, String cpulist) {
        this.cpulist = cpulist;
        thread = new Thread(this, threadName);
        thread.setDaemon(true);
        thread.start();
        loop.execute(slice);
    }

    long keysTotal() {
        return snapshot.keysAtStart();
    }

    long keysWritten() {
        return written.get();
    }

    long inFlightBytes() {
        return inFlightBytes.get();
    }

    long peakInFlightBytes() {
        return Math.max(peakInFlightBytes, inFlightBytes.get());
    }

    /**
     * Finishes the walk now, holding the loop (SAVE while a rewrite runs: the databases carry one
     * snapshot at a time). Waits for the writer thread whenever {@link #MAX_IN_FLIGHT_BYTES} are queued,
     * so memory stays bounded. The writer thread goes on writing afterwards.
     */
    void finishWalk() {
        while (!stopped && !snapshot.isComplete()) {
            if (inFlightBytes.get() >= MAX_IN_FLIGHT_BYTES) {
                flushBatch();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            } else {
                snapshot.advance(SLICE_POSITIONS);
            }
        }
        flushBatch();
        if (snapshot.isComplete()) {
            queueEnd();
        }
    }

    /** Stops the write (SHUTDOWN, FLUSHALL, DEBUG RELOAD, a newer rewrite): the temporary file is deleted, nothing is reported. */
    void kill() {
        stopped = true;
        snapshot.abandon();
        queue.add(END);
        Thread t = thread;
        if (t != null) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The writer thread failed: stop walking and give the snapshot up. Loop thread. */
    void failed() {
        stopped = true;
        snapshot.abandon();
    }

    private void handOver(int db, byte[] key, Object value, long expireAtMs, int meta) {
        Object image = preImage(value);
        long bytes = Values.keyBytes(key) + Values.memoryOf(image);
        batch.add(db, key, image, expireAtMs, EntryWriter.idleSeconds(access, meta, instantMs),
                EntryWriter.frequency(access, meta, instantMs, decayMinutes), bytes);
        if (batch.isFull()) {
            flushBatch();
        }
    }

    /** A value the writer thread may read while the loop goes on changing the stored one. */
    private static Object preImage(Object value) {
        if (value instanceof HashValue h) {
            return h.copy();
        }
        if (value instanceof SetValue s) {
            return s.copy();
        }
        if (value instanceof ListValue l) {
            return l.copy();
        }
        if (value instanceof SortedSet z) {
            return z.copy();
        }
        if (value instanceof StreamValue st) {
            return st.copy();
        }
        // byte[], RawString, UnsharedString: the stored bytes are never written again.
        return value;
    }

    private void flushBatch() {
        if (batch.size > 0) {
            // One update of the shared counter a batch, not a key: the writer thread updates it too.
            long now = inFlightBytes.addAndGet(batch.bytes);
            if (now > peakInFlightBytes) {
                peakInFlightBytes = now;
            }
            queue.add(batch);
            Batch reused = emptied.poll();
            batch = reused != null ? reused : new Batch();
        }
    }

    private void queueEnd() {
        if (!endQueued) {
            endQueued = true;
            // Detaches from the databases: a snapshot of empty databases is complete without a walk.
            snapshot.abandon();
            queue.add(END);
        }
    }

    private void slice() {
        if (stopped || endQueued) {
            return;
        }
        long start = System.nanoTime();
        while (!snapshot.isComplete() && inFlightBytes.get() < MAX_IN_FLIGHT_BYTES
                && System.nanoTime() - start < SLICE_NANOS) {
            snapshot.advance(SLICE_POSITIONS);
        }
        flushBatch();
        if (snapshot.isComplete()) {
            queueEnd();
        } else if (inFlightBytes.get() >= MAX_IN_FLIGHT_BYTES) {
            loop.schedule(slice, 1, TimeUnit.MILLISECONDS);
        } else {
            // Not execute(): a zero-delay scheduled task runs after the I/O that arrived meanwhile.
            loop.schedule(slice, 0, TimeUnit.NANOSECONDS);
        }
    }

    /** The writer thread: opens the output, writes the queued pre-images, finishes it, reports to the loop. */
    @Override
    public void run() {
        try {
            write();
        } finally {
            writerDone = true;
        }
    }

    private void write() {
        ThreadPlacement.pinCurrentThread(cpulist, Thread.currentThread().getName());
        long tid = WriterPriority.lowerCurrentThread();
        if (tid >= 0) {
            WriterPriority.watch(tid, Thread.currentThread().getName(), new WriterPriority.Progress() {
                @Override
                public boolean keysWaiting() {
                    return !queue.isEmpty();
                }

                @Override
                public boolean finished() {
                    return writerDone;
                }
            });
        }
        IOException failure = null;
        try {
            output.open();
        } catch (IOException e) {
            stopped = true;
            owner.onLoop(() -> onDone.accept(e));
            return;
        }
        Key view = new Key();
        try {
            while (true) {
                Object item = queue.poll();
                if (item == null) {
                    LockSupport.parkNanos(WRITER_IDLE_NANOS);
                    continue;
                }
                if (item == END || stopped) {
                    break;
                }
                Batch b = (Batch) item;
                for (int i = 0; i < b.size && !stopped; i++) {
                    delay();
                    output.key(view.set(b.dbs[i], b.keys[i], b.values[i], b.expires[i], b.idles[i], b.freqs[i]));
                    if (written.incrementAndGet() % YIELD_EVERY_KEYS == 0) {
                        Thread.yield();
                    }
                }
                inFlightBytes.addAndGet(-b.bytes);
                b.clear();
                emptied.add(b);
            }
            if (stopped) {
                output.discard();
                return;
            }
            output.finish();
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new IOException(e.toString(), e);
        }
        if (failure != null) {
            stopped = true;
            output.failed(failure);
        }
        IOException result = failure;
        owner.onLoop(() -> onDone.accept(result));
    }

    /** Redis's debugDelay for {@code rdb-key-save-delay}: that many microseconds, or, negative, 1 us once every -n keys. */
    private void delay() {
        int n = keyDelayMicros;
        if (n == 0) {
            return;
        }
        long micros = n > 0 ? n : (random.nextInt(n == Integer.MIN_VALUE ? Integer.MAX_VALUE : -n) == 0 ? 1 : 0);
        if (micros > 0) {
            LockSupport.parkNanos(micros * 1000);
        }
    }
}
