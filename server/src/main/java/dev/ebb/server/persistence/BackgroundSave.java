package dev.ebb.server.persistence;

import dev.ebb.server.persistence.EntryWriter.AccessInfo;
import dev.ebb.storage.Database;
import dev.ebb.storage.Values;
import dev.ebb.storage.rdb.RdbOptions;
import dev.ebb.storage.snapshot.Snapshot;
import dev.ebb.storage.stream.StreamValue;
import dev.ebb.storage.types.HashValue;
import dev.ebb.storage.types.ListValue;
import dev.ebb.storage.types.SetValue;
import dev.ebb.storage.zset.SortedSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One BGSAVE: a {@link Snapshot} walked in slices on the command loop, and a save thread that encodes,
 * compresses, checksums and writes what the loop hands it. Redis forks here; see the package comment
 * for what Ebb does instead and what it costs.
 *
 * <p><b>Hand-over.</b> The loop turns each key of the snapshot into an immutable pre-image: strings as
 * they are (their bytes are never written once stored), collections as a copy in the same encoding.
 * Pre-images go to the save thread in batches over an unbounded queue; the walk pauses while more than
 * {@link #MAX_IN_FLIGHT_BYTES} of them wait, so a slow disk holds the walk back, not memory. Keys the
 * loop's own writes hand over cannot wait and are queued regardless (at most what those writes touch).
 *
 * <p><b>Slices.</b> Each slice walks for about {@link #SLICE_NANOS} and then lets I/O and commands run
 * (a zero-delay task, as the expire cycle does), so a command waits behind at most one slice.
 *
 * <p>Loop thread for everything but {@link #run}, which is the save thread's.
 */
final class BackgroundSave implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Persistence.class);

    static final long MAX_IN_FLIGHT_BYTES = 32L << 20;
    static final long SLICE_NANOS = 300_000;
    private static final int SLICE_POSITIONS = 256;
    private static final int BATCH_KEYS = 512;
    private static final Object END = new Object();

    private final Persistence owner;
    private final ScheduledExecutorService loop;
    private final Snapshot snapshot;
    private final Path target;
    /** Diskless replication: the RDB goes to this stream (the replicas' sockets) instead of {@link #target}. */
    private final java.io.OutputStream stream;
    /** Told on the loop when the save ends (null on success): a save started for replication. */
    private final java.util.function.Consumer<IOException> onDone;
    private final RdbOptions options;
    private final Map<String, byte[]> aux;
    private final int version;
    /** The function libraries' code when the save started (immutable arrays). */
    private final List<byte[]> functions;
    private final long[] sizes;
    private final long[] expires;
    private final AccessInfo access;
    private final int decayMinutes;
    private final long instantMs;
    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final AtomicLong inFlightBytes = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final Runnable slice = this::slice;
    private volatile boolean stopped;
    private long peakInFlightBytes;
    private List<Record> batch = new ArrayList<>(BATCH_KEYS);
    private Thread thread;

    /** One key's pre-image on its way to the save thread. */
    private record Record(int db, byte[] key, Object value, long expireAtMs, long idleSeconds, int freq, long bytes) {
    }

    BackgroundSave(Persistence owner, ScheduledExecutorService loop, Database[] dbs, Path target, RdbOptions options,
            Map<String, byte[]> aux, List<byte[]> functions, AccessInfo access, int decayMinutes, long instantMs) {
        this(owner, loop, dbs, target, null, null, options, aux, functions, access, decayMinutes, instantMs);
    }

    /**
     * A save for replication: to {@code target} (disk-based) or, with {@code stream} set, to the
     * stream (diskless); {@code onDone} hears the outcome on the loop.
     */
    BackgroundSave(Persistence owner, ScheduledExecutorService loop, Database[] dbs, Path target,
            java.io.OutputStream stream, java.util.function.Consumer<IOException> onDone, RdbOptions options,
            Map<String, byte[]> aux, List<byte[]> functions, AccessInfo access, int decayMinutes, long instantMs) {
        this.owner = owner;
        this.loop = loop;
        this.target = target;
        this.stream = stream;
        this.onDone = onDone;
        this.options = options;
        this.aux = aux;
        this.functions = functions;
        this.access = access;
        this.decayMinutes = decayMinutes;
        this.instantMs = instantMs;
        this.sizes = new long[dbs.length];
        this.expires = new long[dbs.length];
        for (int i = 0; i < dbs.length; i++) {
            sizes[i] = dbs[i].size();
            expires[i] = dbs[i].expiresSize();
        }
        this.version = RdbFiles.version(dbs);
        this.snapshot = Snapshot.begin(dbs, this::handOver);
    }

    /** Starts the save thread and the first slice. */
    void start() {
        thread = new Thread(this, "ebb-bgsave");
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

    /** Bytes of pre-images waiting for the save thread now: Ebb's counterpart of fork's copy-on-write. */
    long inFlightBytes() {
        return inFlightBytes.get();
    }

    long peakInFlightBytes() {
        return Math.max(peakInFlightBytes, inFlightBytes.get());
    }

    /** Stops the save (SHUTDOWN, FLUSHALL, DEBUG RELOAD): the temporary file is deleted, nothing is reported. */
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

    /** The save thread failed: stop walking and give the snapshot up. Loop thread. */
    void failed() {
        stopped = true;
        snapshot.abandon();
    }

    private void handOver(int db, byte[] key, Object value, long expireAtMs, int meta) {
        Object image = preImage(value);
        long bytes = Values.keyBytes(key) + Values.memoryOf(image);
        batch.add(new Record(db, key, image, expireAtMs, EntryWriter.idleSeconds(access, meta, instantMs),
                EntryWriter.frequency(access, meta, instantMs, decayMinutes), bytes));
        long now = inFlightBytes.addAndGet(bytes);
        if (now > peakInFlightBytes) {
            peakInFlightBytes = now;
        }
        if (batch.size() >= BATCH_KEYS) {
            flushBatch();
        }
    }

    /** A value the save thread may read while the loop goes on changing the stored one. */
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
        if (!batch.isEmpty()) {
            queue.add(batch);
            batch = new ArrayList<>(BATCH_KEYS);
        }
    }

    private void slice() {
        if (stopped) {
            return;
        }
        long start = System.nanoTime();
        while (!snapshot.isComplete() && inFlightBytes.get() < MAX_IN_FLIGHT_BYTES
                && System.nanoTime() - start < SLICE_NANOS) {
            snapshot.advance(SLICE_POSITIONS);
        }
        flushBatch();
        if (snapshot.isComplete()) {
            // Detaches from the databases: a snapshot of empty databases is complete without a walk.
            snapshot.abandon();
            queue.add(END);
        } else if (inFlightBytes.get() >= MAX_IN_FLIGHT_BYTES) {
            loop.schedule(slice, 1, TimeUnit.MILLISECONDS);
        } else {
            // Not execute(): a zero-delay scheduled task runs after the I/O that arrived meanwhile.
            loop.schedule(slice, 0, TimeUnit.NANOSECONDS);
        }
    }

    /** Whether the RDB goes to a stream (diskless replication) rather than to a file. */
    boolean toStream() {
        return stream != null;
    }

    /** Tells the replication that started this save how it ended (loop thread). */
    void reportDone(IOException failure) {
        if (onDone != null) {
            onDone.accept(failure);
        }
    }

    /** The save thread: writes the queued pre-images to the temporary file, then renames it. */
    @Override
    public void run() {
        if (stream != null) {
            runToStream();
            return;
        }
        Path temp = RdbFiles.tempFile(target.getParent());
        IOException failure = null;
        RdbFiles.Target opened;
        try {
            opened = new RdbFiles.Target(temp, options, instantMs);
        } catch (IOException e) {
            LOG.warn("Failed opening the temp RDB file {} (in server root dir {}) for saving: {}",
                    temp.getFileName(), target.getParent(), RdbFiles.reason(e));
            stopped = true;
            owner.onLoop(() -> owner.backgroundSaveDone(this, e));
            return;
        }
        try (RdbFiles.Target file = opened) {
            writeAll(file.writer);
            if (stopped) {
                return;
            }
            file.commit(target);
            LOG.info("DB saved on disk");
        } catch (RdbFiles.MoveFailed e) {
            failure = e;
            LOG.warn(e.getMessage());
        } catch (IOException e) {
            failure = e;
            LOG.warn("Write error saving DB on disk: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            failure = new IOException(e.toString(), e);
            LOG.warn("Write error saving DB on disk: {}", e.toString());
        }
        if (failure != null) {
            stopped = true;
        }
        IOException result = failure;
        owner.onLoop(() -> owner.backgroundSaveDone(this, result));
    }

    /** Header, functions and every queued pre-image until the walk ends or the save is stopped. */
    private void writeAll(dev.ebb.storage.rdb.RdbWriter writer) throws IOException, InterruptedException {
        writer.header(aux, version);
        RdbFiles.writeFunctions(writer, functions);
        EntryWriter entries = new EntryWriter(writer, sizes, expires);
        while (true) {
            Object item = queue.take();
            if (item == END || stopped) {
                break;
            }
            @SuppressWarnings("unchecked")
            List<Record> records = (List<Record>) item;
            for (Record r : records) {
                entries.write(r.db, r.key, r.value, r.expireAtMs, r.idleSeconds, r.freq);
                inFlightBytes.addAndGet(-r.bytes);
                written.incrementAndGet();
            }
        }
    }

    /** Diskless: the whole RDB, EOF and checksum included, into {@link #stream}, then flushed. */
    private void runToStream() {
        IOException failure = null;
        try {
            dev.ebb.storage.rdb.RdbWriter writer = new dev.ebb.storage.rdb.RdbWriter(stream, options, instantMs);
            writeAll(writer);
            if (stopped) {
                failure = new IOException("diskless save stopped");
            } else {
                writer.finish();
                stream.flush();
            }
        } catch (IOException e) {
            failure = e;
            LOG.warn("Diskless rdb transfer failed: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new IOException("interrupted", e);
        } catch (RuntimeException e) {
            failure = new IOException(e.toString(), e);
        }
        if (failure != null) {
            stopped = true;
        }
        IOException result = failure;
        owner.onLoop(() -> owner.backgroundSaveDone(this, result));
    }
}
