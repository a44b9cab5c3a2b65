package dev.ebb.server.persistence;

import dev.ebb.server.Propagation;
import dev.ebb.server.ReplayClient;
import dev.ebb.server.Server;
import dev.ebb.server.config.AppendFsync;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.storage.Database;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append-only file, Redis 7's multi-part layout: in {@code dir/appenddirname}, a base file
 * (the dataset at the last rewrite), incremental files with every write since, and the
 * {@link AofManifest} that lists them.
 *
 * <p><b>Writing.</b> A {@link Propagation.Sink}: each operation leaving the loop is encoded as
 * RESP into an in-memory buffer (with SELECT when the database changes, and a {@code #TS:}
 * annotation each new second under {@code aof-timestamp-enabled}). {@link #beforeReplies} writes
 * the buffer to the incremental file before the loop sends the replies of the batch that produced
 * it, as Redis's beforeSleep does: with {@code appendfsync always} it also fsyncs there, so no
 * reply is sent before its write is on disk; with {@code everysec} a background thread fsyncs once
 * a second (at most about a second of acknowledged writes is lost in a crash of the machine; a
 * crash of the process loses nothing written); with {@code no} the kernel decides.
 *
 * <p><b>Rewriting</b> (BGREWRITEAOF, auto-aof-rewrite-*, enabling appendonly at run time): a new
 * base is written from the current dataset (in RDB format, {@link RdbBase}, with
 * {@code aof-use-rdb-preamble yes}, else as commands, {@link AofRewriter}), a new incremental file
 * is opened, the manifest is replaced atomically and the old files deleted. Ebb deliberately
 * differs from Redis here, for now: Redis forks and the child writes the base while the parent
 * keeps serving; Ebb writes the base on the loop thread, so the loop is stopped for the rewrite
 * (figures in the README). The forkless snapshot (storage-engine's {@code snapshot} package) is
 * the way to lift that.
 *
 * <p>Loop thread only, except the fsync thread, which only calls {@code force} on the channel.
 */
public final class AppendOnlyFile implements Propagation.Sink {
    private static final Logger LOG = LoggerFactory.getLogger(AppendOnlyFile.class);
    private static final byte[] CRLF = {'\r', '\n'};

    private enum State { OFF, ON }

    private final Server server;
    private final ServerConfig config;
    private final Path dir;
    private final String fileName;
    private AofManifest manifest;
    private State state = State.OFF;
    private FileChannel incr;
    private byte[] buf = new byte[64 * 1024];
    private int bufLen;
    private int selectedDb = -1;
    private long lastTimestampSec = -1;
    private final byte[] numberBuf = new byte[24];

    private long currentSize;
    private long rewriteBaseSize;
    private volatile long writtenBytes;
    private volatile long fsyncedBytes;
    private volatile FileChannel fsyncTarget;
    private ScheduledExecutorService fsyncThread;
    private boolean lastWriteOk = true;
    private boolean lastRewriteOk = true;
    private long rewrites;
    private long consecutiveRewriteFailures;
    private long lastRewriteTimeSec = -1;
    private long loadedCommands;
    private boolean rewriteScheduled;

    public AppendOnlyFile(Server server) {
        this.server = server;
        this.config = server.config();
        this.dir = config.dir().resolve(config.appenddirname());
        this.fileName = config.appendfilename();
    }

    /** Whether appendonly is on (the AOF is being written). */
    public boolean enabled() {
        return state == State.ON;
    }

    // ---------------------------------------------------------------- start-up

    /**
     * Redis's start-up sequence: reads the manifest if there is one; with appendonly yes loads the
     * files it names, then creates a base if there is none yet, opens the last incremental file
     * (or a new one) for appending and persists the manifest.
     *
     * @throws AofException with Redis's text if a file cannot be read or created; the server must not start
     */
    public void startUp() throws AofException {
        manifest = AofManifest.load(dir, fileName);
        if (!config.appendonly()) {
            return;
        }
        long start = System.nanoTime();
        AofLoader loader = new AofLoader(dir, new ReplayClient(server), config.aofLoadTruncated(),
                path -> RdbBase.load(server, path));
        AofLoader.Result result = loader.loadAll(manifest);
        loadedCommands = loader.commands();
        if (result != AofLoader.Result.NOT_EXIST) {
            LOG.info("DB loaded from append only file: {} seconds",
                    String.format("%.3f", (System.nanoTime() - start) / 1e9));
        }
        if (manifest != null) {
            rewriteBaseSize = manifest.base() == null ? 0 : size(manifest.base().name());
        }
        openOnStart();
    }

    private void openOnStart() throws AofException {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new AofException("Can't open or create append-only dir " + dir + ": " + e.getMessage());
        }
        if (manifest == null) {
            manifest = new AofManifest(fileName);
        }
        if (manifest.isEmpty()) {
            try {
                String baseName = writeBase(manifest);
                LOG.info("Creating AOF base file {} on server start", baseName);
            } catch (IOException e) {
                throw new AofException("Can't create the AOF base file: " + e.getMessage());
            }
        }
        boolean existing = !manifest.incrs().isEmpty();
        String incrName = manifest.lastIncr();
        try {
            incr = FileChannel.open(dir.resolve(incrName), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
            manifest.persist(dir);
        } catch (IOException e) {
            throw new AofException("Can't open the append-only file " + incrName + ": " + e.getMessage());
        }
        LOG.info("{} AOF incr file {} on server start", existing ? "Opening" : "Creating", incrName);
        currentSize = totalSize();
        if (rewriteBaseSize == 0 && manifest.base() != null) {
            rewriteBaseSize = size(manifest.base().name());
        }
        switchOn();
    }

    private void switchOn() {
        state = State.ON;
        selectedDb = -1;
        writtenBytes = 0;
        fsyncedBytes = 0;
        fsyncTarget = incr;
        server.propagation().addSink(this);
        startFsyncThread();
    }

    // ---------------------------------------------------------------- writing

    @Override
    public void propagate(int db, byte[][] argv) {
        if (config.aofTimestampEnabled()) {
            long sec = server.nowMs() / 1000;
            if (sec > lastTimestampSec) {
                lastTimestampSec = sec;
                append(("#TS:" + sec + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            }
        }
        if (db != -1 && db != selectedDb) {
            String id = Integer.toString(db);
            appendCommand(new byte[][] {"SELECT".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                    id.getBytes(java.nio.charset.StandardCharsets.US_ASCII)});
            selectedDb = db;
        }
        appendCommand(argv);
    }

    private void appendCommand(byte[][] argv) {
        appendHeader('*', argv.length);
        for (byte[] arg : argv) {
            appendHeader('$', arg.length);
            append(arg);
            append(CRLF);
        }
    }

    private void appendHeader(char type, long n) {
        ensure(24);
        buf[bufLen++] = (byte) type;
        int i = numberBuf.length;
        if (n == 0) {
            numberBuf[--i] = '0';
        }
        while (n > 0) {
            numberBuf[--i] = (byte) ('0' + n % 10);
            n /= 10;
        }
        System.arraycopy(numberBuf, i, buf, bufLen, numberBuf.length - i);
        bufLen += numberBuf.length - i;
        buf[bufLen++] = '\r';
        buf[bufLen++] = '\n';
    }

    private void append(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, bufLen, b.length);
        bufLen += b.length;
    }

    private void ensure(int more) {
        if (bufLen + more > buf.length) {
            buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, bufLen + more));
        }
    }

    /** Whether replies must wait for a write and fsync ({@code appendfsync always} with writes buffered). */
    public boolean syncBeforeReplies() {
        return bufLen > 0 && state == State.ON && config.appendfsync() == AppendFsync.ALWAYS;
    }

    /**
     * Redis's flushAppendOnlyFile, called before the loop sends the replies of a batch (and from
     * the cron): writes the buffer to the incremental file, and with {@code appendfsync always}
     * fsyncs it before returning. A failed write keeps the buffer to retry and is reported in INFO
     * ({@code aof_last_write_status:err}).
     */
    public void beforeReplies() {
        if (bufLen == 0 || state != State.ON) {
            return;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(buf, 0, bufLen);
            while (b.hasRemaining()) {
                incr.write(b);
            }
            currentSize += bufLen;
            writtenBytes += bufLen;
            bufLen = 0;
            if (config.appendfsync() == AppendFsync.ALWAYS) {
                incr.force(false);
                fsyncedBytes = writtenBytes;
            }
            if (!lastWriteOk) {
                LOG.warn("AOF write error looks solved, Redis can write again.");
                lastWriteOk = true;
            }
        } catch (IOException e) {
            if (lastWriteOk) {
                LOG.warn("Error writing to the AOF file: {}", e.getMessage());
            }
            lastWriteOk = false;
        }
        if (buf.length > 4 * 1024 * 1024 && bufLen == 0) {
            buf = new byte[64 * 1024];
        }
    }

    private void startFsyncThread() {
        if (fsyncThread != null) {
            return;
        }
        fsyncThread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ebb-aof-fsync");
            t.setDaemon(true);
            return t;
        });
        fsyncThread.scheduleWithFixedDelay(this::backgroundFsync, 1, 1, TimeUnit.SECONDS);
    }

    /** The everysec fsync, off the loop: forces the current incremental file if anything was written since the last. */
    private void backgroundFsync() {
        FileChannel target = fsyncTarget;
        long written = writtenBytes;
        if (target == null || written == fsyncedBytes || config.appendfsync() != AppendFsync.EVERYSEC) {
            return;
        }
        try {
            target.force(false);
            fsyncedBytes = written;
        } catch (IOException e) {
            LOG.warn("Fail to fsync the AOF file: {}", e.getMessage());
        }
    }

    /** Cron work: writes what expiries buffered, and starts an automatic rewrite when the file has grown enough. */
    public void cron() {
        beforeReplies();
        if (rewriteScheduled) {
            rewriteScheduled = false;
            rewrite();
            return;
        }
        if (state != State.ON) {
            return;
        }
        long percentage = config.autoAofRewritePercentage();
        if (percentage > 0 && currentSize > config.autoAofRewriteMinSize()) {
            long base = rewriteBaseSize > 0 ? rewriteBaseSize : 1;
            long growth = currentSize * 100 / base - 100;
            if (growth >= percentage) {
                LOG.info("Starting automatic rewriting of AOF on {}% growth", growth);
                rewrite();
            }
        }
    }

    // ---------------------------------------------------------------- rewriting

    /**
     * BGREWRITEAOF: see the class comment. Returns true on success; on failure the files stay as
     * they were (the current incremental file keeps being appended to) and INFO says so.
     */
    public boolean rewrite() {
        long start = System.nanoTime();
        beforeReplies();
        AofManifest next = (manifest == null ? new AofManifest(fileName) : manifest).copy();
        FileChannel newIncr = null;
        try {
            Files.createDirectories(dir);
            writeBase(next);
            String incrName = next.newIncr();
            newIncr = FileChannel.open(dir.resolve(incrName), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            LOG.info("Creating AOF incr file {} on background rewrite", incrName);
            next.markRewrittenIncrsAsHistory();
            next.persist(dir);
        } catch (IOException e) {
            LOG.warn("Background AOF rewrite terminated with error: {}", e.getMessage());
            closeQuietly(newIncr);
            lastRewriteOk = false;
            consecutiveRewriteFailures++;
            return false;
        }
        manifest = next;
        if (state == State.ON) {
            FileChannel old = incr;
            incr = newIncr;
            fsyncTarget = newIncr;
            writtenBytes = 0;
            fsyncedBytes = 0;
            forceAndClose(old);
            selectedDb = -1;
        } else {
            closeQuietly(newIncr);
        }
        deleteHistory();
        rewriteBaseSize = size(manifest.base().name());
        currentSize = rewriteBaseSize;
        rewrites++;
        consecutiveRewriteFailures = 0;
        lastRewriteOk = true;
        lastRewriteTimeSec = (System.nanoTime() - start) / 1_000_000_000L;
        LOG.info("Background AOF rewrite finished successfully");
        return true;
    }

    /** Runs a rewrite at the next cron tick (BGREWRITEAOF inside MULTI). */
    public void scheduleRewrite() {
        rewriteScheduled = true;
    }

    /** Writes the dataset as the next base of {@code m} (temp file, fsync, rename) and returns its name. */
    private String writeBase(AofManifest m) throws IOException {
        Path temp = dir.resolve("temp-rewriteaof-bg-" + ProcessHandle.current().pid() + ".aof");
        boolean rdb = config.aofUseRdbPreamble();
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 20);
            if (rdb) {
                RdbBase.write(server, server.nowMs(), out);
            } else {
                Database[] dbs = new Database[server.databases()];
                for (int i = 0; i < dbs.length; i++) {
                    dbs[i] = server.db(i);
                }
                long timestamp = config.aofTimestampEnabled() ? server.nowMs() / 1000 : -1;
                AofRewriter.write(dbs, server.nowMs(), timestamp, out);
            }
            out.flush();
            ch.force(true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        String baseName = m.newBase(rdb);
        Files.move(temp, dir.resolve(baseName), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        LOG.info("Successfully renamed the temporary AOF base file {} into {}", temp.getFileName(), baseName);
        return baseName;
    }

    /** Redis's aofDelHistoryFiles: deletes the history files and drops them from the manifest. */
    private void deleteHistory() {
        if (manifest.history().isEmpty()) {
            return;
        }
        for (AofManifest.Entry e : manifest.history()) {
            LOG.info("Removing the history file {} in the background", e.name());
            try {
                Files.deleteIfExists(dir.resolve(e.name()));
            } catch (IOException ex) {
                LOG.warn("Could not delete the history file {}: {}", e.name(), ex.getMessage());
            }
        }
        manifest.clearHistory();
        try {
            manifest.persist(dir);
        } catch (IOException ex) {
            LOG.warn("Could not persist the AOF manifest: {}", ex.getMessage());
        }
    }

    // ---------------------------------------------------------------- on and off at run time

    /**
     * CONFIG SET appendonly yes (Redis's startAppendOnly): a rewrite creates a base of the current
     * dataset and a fresh incremental file, then writes are appended.
     *
     * @throws AofException if the rewrite fails; appendonly stays off
     */
    public void start() throws AofException {
        if (state == State.ON) {
            return;
        }
        if (manifest == null) {
            manifest = AofManifest.load(dir, fileName);
        }
        if (!rewrite()) {
            throw new AofException("Redis needs to enable the AOF but can't trigger a background AOF rewrite "
                    + "operation. Check the above logs for more info about the error.");
        }
        try {
            incr = FileChannel.open(dir.resolve(manifest.lastIncr()), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new AofException("Can't open the append-only file " + manifest.lastIncr() + ": " + e.getMessage());
        }
        switchOn();
    }

    /** CONFIG SET appendonly no, and shutdown (Redis's stopAppendOnly): writes and fsyncs what is buffered, then closes. */
    public void stop() {
        if (state != State.ON) {
            return;
        }
        beforeReplies();
        server.propagation().removeSink(this);
        state = State.OFF;
        fsyncTarget = null;
        forceAndClose(incr);
        incr = null;
        bufLen = 0;
        if (fsyncThread != null) {
            fsyncThread.shutdown();
            fsyncThread = null;
        }
    }

    // ---------------------------------------------------------------- INFO

    /** INFO persistence's aof_* fields, in Redis's order: the always-present ones. */
    public void infoFields(BiConsumer<String, Object> field) {
        field.accept("aof_enabled", state == State.ON ? 1 : 0);
        field.accept("aof_rewrite_in_progress", 0);
        field.accept("aof_rewrite_scheduled", rewriteScheduled ? 1 : 0);
        field.accept("aof_last_rewrite_time_sec", lastRewriteTimeSec);
        field.accept("aof_current_rewrite_time_sec", -1);
        field.accept("aof_last_bgrewrite_status", lastRewriteOk ? "ok" : "err");
        field.accept("aof_rewrites", rewrites);
        field.accept("aof_rewrites_consecutive_failures", consecutiveRewriteFailures);
        field.accept("aof_last_write_status", lastWriteOk ? "ok" : "err");
        field.accept("aof_last_cow_size", 0);
    }

    /** The fields Redis adds while appendonly is on. */
    public void enabledInfoFields(BiConsumer<String, Object> field) {
        if (state != State.ON) {
            return;
        }
        field.accept("aof_current_size", currentSize + bufLen);
        field.accept("aof_base_size", rewriteBaseSize);
        field.accept("aof_pending_rewrite", 0);
        field.accept("aof_buffer_length", bufLen);
        field.accept("aof_pending_bio_fsync", 0);
        field.accept("aof_delayed_fsync", 0);
    }

    /** Commands replayed from the files at start-up. */
    public long loadedCommands() {
        return loadedCommands;
    }

    // ---------------------------------------------------------------- helpers

    private long totalSize() {
        long total = 0;
        if (manifest.base() != null) {
            total += size(manifest.base().name());
        }
        for (AofManifest.Entry e : manifest.incrs()) {
            total += size(e.name());
        }
        return total;
    }

    private long size(String name) {
        try {
            return Files.size(dir.resolve(name));
        } catch (IOException e) {
            return 0;
        }
    }

    private static void forceAndClose(FileChannel ch) {
        if (ch == null) {
            return;
        }
        try {
            ch.force(false);
        } catch (IOException e) {
            LOG.warn("Fail to fsync the AOF file: {}", e.getMessage());
        }
        closeQuietly(ch);
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch == null) {
            return;
        }
        try {
            ch.close();
        } catch (IOException e) {
            LOG.debug("close failed: {}", e.toString());
        }
    }
}
