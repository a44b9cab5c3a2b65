package dev.ebb.server.persistence;

import dev.ebb.server.Client;
import dev.ebb.server.Propagation;
import dev.ebb.server.ReplayClient;
import dev.ebb.server.Server;
import dev.ebb.server.config.AppendFsync;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.util.ThreadPlacement;
import dev.ebb.storage.Database;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
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
 * <p><b>Rewriting</b> (BGREWRITEAOF, auto-aof-rewrite-*, CONFIG SET appendonly yes), Redis 7's flow
 * without the fork. At the start, on the loop between two commands: the buffer is written out, a new
 * incremental file is opened and added to the manifest (writes from now on go there: they come after
 * the snapshot), and a point-in-time snapshot is taken. A {@link SnapshotHandOver} then walks it in
 * slices on the loop and writes the new base on its own thread ({@link AofBaseOutput}: RDB preamble
 * with {@code aof-use-rdb-preamble yes}, else commands) while the loop keeps serving. On completion,
 * on the loop: the temporary base is renamed, the manifest becomes the new base plus the incremental
 * file opened at the start, and the older files are deleted as history. A failed rewrite leaves every
 * file as it was (the incremental file opened for it stays in the manifest, as in Redis); the automatic
 * rewrite retries, backing off once three rewrites in a row failed ({@link RewriteLimit}). BGSAVE and
 * the rewrite exclude each other as Redis's one child at a time: the databases carry one snapshot.
 * While appendonly is being switched on ({@code WAIT_REWRITE}), writes during the rewrite go to a
 * temporary incremental file that becomes the first incremental file when the base is in place. The
 * base created at start-up on an empty dataset is written on the loop, as Redis writes it before
 * serving.
 *
 * <p>Loop thread only, except the fsync thread, which only calls {@code force} on the channel, and
 * the rewrite's writer thread, which only writes its temporary file.
 */
public final class AppendOnlyFile implements Propagation.Sink {
    private static final Logger LOG = LoggerFactory.getLogger(AppendOnlyFile.class);
    private static final byte[] CRLF = {'\r', '\n'};

    private enum State { OFF, WAIT_REWRITE, ON }

    private final Server server;
    private final ServerConfig config;
    private final Path dir;
    private final String fileName;
    private AofManifest manifest;
    private State state = State.OFF;
    /** The incremental file written to: with ON, and with WAIT_REWRITE while a rewrite runs (the temporary one). */
    private FileChannel incr;
    private byte[] buf = new byte[64 * 1024];
    private int bufLen;
    private int selectedDb = -1;
    private long lastTimestampSec = -1;
    private final byte[] numberBuf = new byte[24];

    private long currentSize;
    private long incrSize;
    private long rewriteBaseSize;
    private volatile long writtenBytes;
    private volatile long fsyncedBytes;
    private volatile FileChannel fsyncTarget;
    private ScheduledExecutorService fsyncThread;
    private boolean lastWriteOk = true;
    private long loadedCommands;

    private AofRewrite rewrite;
    private boolean rewriteScheduled;
    private boolean lastRewriteOk = true;
    private long rewrites;
    private long consecutiveRewriteFailures;
    private long lastRewriteTimeSec = -1;
    private long lastCowBytes;
    private final RewriteLimit limit = new RewriteLimit();
    private final AofLoading loading;

    public AppendOnlyFile(Server server) {
        this.server = server;
        this.config = server.config();
        this.dir = config.dir().resolve(config.appenddirname());
        this.fileName = config.appendfilename();
        this.loading = new AofLoading(server, dir, fileName);
    }

    /** Whether appendonly is on (the AOF is being written, or its first base is). */
    public boolean enabled() {
        return state != State.OFF;
    }

    // ---------------------------------------------------------------- start-up

    /**
     * Redis's start-up sequence: reads the manifest if there is one; with appendonly yes loads the
     * files it names, then creates a base if there is none yet, opens the last incremental file
     * (or a new one) for appending and persists the manifest. Runs on the loop once the server
     * listens: meanwhile the other clients are answered {@code -LOADING} ({@link LoadingPump}).
     *
     * @return false if a SHUTDOWN ended the load (the server is stopping)
     * @throws AofException with Redis's text if a file cannot be read or created; the server must not start
     */
    public boolean startUp() throws AofException {
        manifest = AofManifest.load(dir, fileName);
        if (!config.appendonly()) {
            return true;
        }
        manifest = AofManifest.upgradeOldStyleFile(config.dir(), dir, fileName, manifest);
        long start = System.nanoTime();
        AofLoader.Result result;
        try {
            result = loading.load(manifest, null);
            loadedCommands = loading.commands();
        } catch (LoadingPump.Interrupted e) {
            LOG.warn("Loading the append only file stopped by SHUTDOWN");
            return false;
        }
        if (result != AofLoader.Result.NOT_EXIST) {
            LOG.info("DB loaded from append only file: {} seconds",
                    String.format("%.3f", (System.nanoTime() - start) / 1e9));
        }
        openOnStart();
        return true;
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
                String baseName = writeFirstBase();
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
        rewriteBaseSize = manifest.base() == null ? 0 : size(manifest.base().name());
        currentSize = totalSize();
        state = State.ON;
        attach(incr);
    }

    /**
     * The base of a first start (an empty dataset: with appendonly yes nothing else was loaded), written
     * on the loop before the server serves, as Redis's aofOpenIfNeededOnServerStart does.
     */
    private String writeFirstBase() throws IOException {
        long now = server.nowMs();
        AofBaseOutput output = baseOutput(now);
        SnapshotHandOver.writeNow(server.persistence().databases(), output, server.persistence().accessInfo(),
                config.lfuDecayTime(), now);
        String baseName = manifest.newBase(output.rdb());
        Files.move(output.temp(), dir.resolve(baseName), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        return baseName;
    }

    /** Starts appending to {@code channel}: the sink is attached and the fsync thread runs. */
    private void attach(FileChannel channel) {
        selectedDb = -1;
        useForWrites(channel);
        server.propagation().addSink(this);
        startFsyncThread();
    }

    private void useForWrites(FileChannel channel) {
        incr = channel;
        fsyncTarget = channel;
        writtenBytes = 0;
        fsyncedBytes = 0;
        incrSize = 0;
    }

    // ---------------------------------------------------------------- writing

    @Override
    public void propagate(int db, byte[][] argv) {
        if (incr == null) {
            // WAIT_REWRITE with no rewrite running: the next rewrite's snapshot will hold this write.
            return;
        }
        if (config.aofTimestampEnabled()) {
            long sec = server.nowMs() / 1000;
            if (sec > lastTimestampSec) {
                lastTimestampSec = sec;
                append(("#TS:" + sec + "\r\n").getBytes(StandardCharsets.US_ASCII));
            }
        }
        if (db != -1 && db != selectedDb) {
            String id = Integer.toString(db);
            appendCommand(new byte[][] {"SELECT".getBytes(StandardCharsets.US_ASCII),
                    id.getBytes(StandardCharsets.US_ASCII)});
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

    /**
     * Redis's flushAppendOnlyFile, called before the loop sends the replies of a batch (and from
     * the cron): writes the buffer to the incremental file, and with {@code appendfsync always}
     * fsyncs it before returning. A failed write keeps the buffer to retry and is reported in INFO
     * ({@code aof_last_write_status:err}).
     */
    public void beforeReplies() {
        if (bufLen == 0 || incr == null) {
            return;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(buf, 0, bufLen);
            while (b.hasRemaining()) {
                incr.write(b);
            }
            currentSize += bufLen;
            incrSize += bufLen;
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
            Thread t = new Thread(() -> {
                ThreadPlacement.pinCurrentThread(config.bioCpulist(), "ebb-aof-fsync");
                r.run();
            }, "ebb-aof-fsync");
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

    /**
     * DEBUG LOADAOF: what the AOF buffer holds is written and fsynced (unless appendonly is off; then the
     * manifest is read again from disk), the history files are deleted, nothing is propagated (neither the
     * replayed commands nor DEBUG LOADAOF itself), and the databases replaced by what its files hold
     * ({@link AofLoading#debugLoad}).
     *
     * @return null, or the error to reply
     */
    public String debugLoad(Client caller) {
        if (state != State.OFF) {
            // The manifest in memory is the one on disk (persisted at every change), and a rewrite may hold it.
            beforeReplies();
            AofChannels.force(incr);
        } else {
            try {
                manifest = AofManifest.load(dir, fileName);
            } catch (AofException e) {
                LOG.warn("{}", e.getMessage());
                return AofLoading.DEBUG_LOAD_ERROR;
            }
        }
        if (manifest != null) {
            deleteHistory();
        }
        AofManifest files = manifest;
        return server.propagation().suspended(() -> loading.debugLoad(files, caller));
    }

    /**
     * Cron work, as Redis's serverCron: writes what expiries buffered; then, with no BGSAVE or rewrite
     * running, starts a scheduled rewrite, or an automatic one when the file has grown enough.
     */
    public void cron() {
        beforeReplies();
        if (rewrite != null || server.persistence().bgsaveInProgress()) {
            return;
        }
        long nowSec = server.nowMs() / 1000;
        if (rewriteScheduled && !limit.limited(consecutiveRewriteFailures, nowSec)) {
            startRewrite();
            return;
        }
        long percentage = config.autoAofRewritePercentage();
        if (state == State.ON && percentage > 0 && currentSize > config.autoAofRewriteMinSize()) {
            long base = rewriteBaseSize > 0 ? rewriteBaseSize : 1;
            long growth = currentSize * 100 / base - 100;
            if (growth >= percentage && !limit.limited(consecutiveRewriteFailures, nowSec)) {
                LOG.info("Starting automatic rewriting of AOF on {}% growth", growth);
                startRewrite();
            }
        }
    }

    // ---------------------------------------------------------------- rewriting

    /** Whether a rewrite is running ({@code aof_rewrite_in_progress}). */
    public boolean rewriteInProgress() {
        return rewrite != null;
    }

    /** The running rewrite's snapshot, for INFO's {@code current_*} fields; null if none. */
    SnapshotHandOver runningSnapshot() {
        return rewrite == null ? null : rewrite.job();
    }

    /**
     * Redis's rewriteAppendOnlyFileBackground: see the class comment. The caller checked that no BGSAVE
     * nor rewrite runs.
     *
     * @return true if the rewrite started; false if the directory or the new incremental file could not be
     *     created (logged, {@code aof_last_bgrewrite_status:err})
     */
    public boolean startRewrite() {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            LOG.warn("Can't open or create append-only dir {}: {}", dir, RdbFiles.reason(e));
            lastRewriteOk = false;
            return false;
        }
        if (manifest == null) {
            manifest = new AofManifest(fileName);
        }
        selectedDb = -1;
        beforeReplies();
        if (!openIncrForRewrite()) {
            lastRewriteOk = false;
            return false;
        }
        rewrites++;
        long now = server.nowMs();
        AofBaseOutput output = baseOutput(now);
        rewrite = new AofRewrite(output, now);
        Persistence p = server.persistence();
        AofRewrite started = rewrite;
        started.start(new SnapshotHandOver(p, p.databases(), output, p.accessInfo(), config.lfuDecayTime(), now,
                config.rdbKeySaveDelay(), failure -> rewriteDone(started, failure)), config.aofRewriteCpulist());
        rewriteScheduled = false;
        LOG.info("Background append only file rewriting started by pid {}", ProcessHandle.current().pid());
        return true;
    }

    /**
     * Redis's openNewIncrAofForAppend: with appendonly on, a new incremental file is created and persisted
     * in the manifest, and the old one is fsynced and closed in the background; while appendonly is being
     * switched on, a temporary one collects the writes; with appendonly off, nothing.
     */
    private boolean openIncrForRewrite() {
        if (state == State.OFF) {
            return true;
        }
        AofManifest next = state == State.ON ? manifest.copy() : null;
        String name = next != null ? next.newIncr() : tempIncrName();
        FileChannel ch = null;
        try {
            ch = FileChannel.open(dir.resolve(name), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            if (next != null) {
                next.persist(dir);
            }
        } catch (IOException e) {
            LOG.warn("Can't open the append-only file {}: {}", name, RdbFiles.reason(e));
            AofChannels.closeQuietly(ch);
            return false;
        }
        LOG.info("Creating AOF incr file {} on background rewrite", name);
        FileChannel old = incr;
        useForWrites(ch);
        if (old != null) {
            // As Redis's aof_background_fsync_and_close: everysec may fsync late, always already has.
            fsyncThread.execute(() -> AofChannels.forceAndClose(old));
        }
        if (next != null) {
            manifest = next;
        }
        return true;
    }

    /** Redis's backgroundRewriteDoneHandler, on the loop once the writer thread has finished. */
    private void rewriteDone(AofRewrite done, IOException failure) {
        if (done != rewrite) {
            return;
        }
        rewrite = null;
        long now = server.nowMs();
        lastRewriteTimeSec = (now - done.startMs()) / 1000;
        lastCowBytes = done.job().peakInFlightBytes();
        boolean installed = false;
        if (failure == null) {
            LOG.info("Background AOF rewrite terminated with success");
            installed = install(done.output());
        } else {
            done.job().failed();
            LOG.warn("Background AOF rewrite terminated with error");
            rewriteFailed();
        }
        deleteQuietly(done.output().temp());
        if (!installed && state == State.WAIT_REWRITE) {
            dropTempIncr();
            rewriteScheduled = true;
        }
    }

    /** Puts the new base in place and persists the manifest; false (logged, counted) if a step failed. */
    private boolean install(AofBaseOutput output) {
        AofManifest next = manifest.copy();
        String baseName = next.newBase(output.rdb());
        Path basePath = dir.resolve(baseName);
        try {
            Files.move(output.temp(), basePath, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            LOG.warn("Error trying to rename the temporary AOF base file {} into {}: {}", output.temp().getFileName(),
                    baseName, RdbFiles.reason(e));
            rewriteFailed();
            return false;
        }
        LOG.info("Successfully renamed the temporary AOF base file {} into {}", output.temp().getFileName(), baseName);
        String incrName = null;
        if (state == State.WAIT_REWRITE) {
            beforeReplies();
            incrName = next.newIncr();
            try {
                Files.move(dir.resolve(tempIncrName()), dir.resolve(incrName), StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                LOG.warn("Error trying to rename the temporary AOF incr file {} into {}: {}", tempIncrName(),
                        incrName, RdbFiles.reason(e));
                deleteQuietly(basePath);
                rewriteFailed();
                return false;
            }
            LOG.info("Successfully renamed the temporary AOF incr file {} into {}", tempIncrName(), incrName);
        }
        next.markRewrittenIncrsAsHistory(state != State.OFF);
        try {
            next.persist(dir);
        } catch (IOException e) {
            LOG.warn("Can't persist the AOF manifest: {}", RdbFiles.reason(e));
            deleteQuietly(basePath);
            if (incrName != null) {
                deleteQuietly(dir.resolve(incrName));
            }
            rewriteFailed();
            return false;
        }
        manifest = next;
        if (state != State.OFF) {
            currentSize = size(baseName) + incrSize;
            rewriteBaseSize = currentSize;
        }
        deleteHistory();
        lastRewriteOk = true;
        consecutiveRewriteFailures = 0;
        LOG.info("Background AOF rewrite finished successfully");
        if (state == State.WAIT_REWRITE) {
            state = State.ON;
        }
        return true;
    }

    private void rewriteFailed() {
        lastRewriteOk = false;
        consecutiveRewriteFailures++;
    }

    /**
     * Redis's killAppendOnlyChild: stops a running rewrite and deletes its temporary files; the status
     * is left as it was (SHUTDOWN, CONFIG SET appendonly no).
     */
    private void killRewrite() {
        AofRewrite running = rewrite;
        if (running == null) {
            return;
        }
        LOG.info("Killing running AOF rewrite child: {}", ProcessHandle.current().pid());
        rewrite = null;
        running.job().kill();
        deleteQuietly(running.output().temp());
        if (state == State.WAIT_REWRITE) {
            dropTempIncr();
        }
    }

    /** Forgets the writes collected while appendonly was being switched on, with their temporary file. */
    private void dropTempIncr() {
        bufLen = 0;
        FileChannel ch = incr;
        incr = null;
        fsyncTarget = null;
        AofChannels.closeQuietly(ch);
        deleteQuietly(dir.resolve(tempIncrName()));
    }

    /**
     * SAVE while a rewrite runs: the rewrite's walk is finished on the loop (which SAVE holds anyway), so
     * that SAVE can take its own snapshot. The rewrite's writer thread goes on.
     */
    void finishRewriteWalk() {
        if (rewrite != null) {
            rewrite.job().finishWalk();
        }
    }

    /** BGREWRITEAOF while a BGSAVE runs or inside MULTI: the cron starts it when nothing runs. */
    public void scheduleRewrite() {
        rewriteScheduled = true;
        consecutiveRewriteFailures = 0;
    }

    /** The next base's temporary file, in {@code dir} as Redis names it, and what it is written as. */
    private AofBaseOutput baseOutput(long nowMs) {
        Path temp = config.dir().resolve("temp-rewriteaof-bg-" + ProcessHandle.current().pid() + ".aof");
        Persistence p = server.persistence();
        List<byte[]> functions = p.functionCodes();
        if (!config.aofUseRdbPreamble()) {
            return new AofBaseOutput(temp, null, functions, nowMs, config.aofTimestampEnabled() ? nowMs / 1000 : -1);
        }
        Database[] dbs = p.databases();
        long[] sizes = new long[dbs.length];
        long[] expires = new long[dbs.length];
        for (int i = 0; i < dbs.length; i++) {
            sizes[i] = dbs[i].size();
            expires[i] = dbs[i].expiresSize();
        }
        AofBaseOutput.Preamble preamble = new AofBaseOutput.Preamble(RdbFiles.options(server),
                RdbFiles.auxFields(nowMs, server.usedMemory(), true, null), RdbFiles.version(dbs), sizes, expires);
        return new AofBaseOutput(temp, preamble, functions, nowMs, -1);
    }

    /** Redis's getTempIncrAofName: where writes go while appendonly is being switched on. */
    private String tempIncrName() {
        return "temp-" + fileName + ".incr";
    }

    /** Redis's aofDelHistoryFiles: deletes the history files and drops them from the manifest. */
    private void deleteHistory() {
        if (manifest.history().isEmpty()) {
            return;
        }
        for (AofManifest.Entry e : manifest.history()) {
            LOG.info("Removing the history file {} in the background", e.name());
            deleteQuietly(dir.resolve(e.name()));
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
     * CONFIG SET appendonly yes (Redis's startAppendOnly): writes are collected from now on, and a rewrite
     * creates a base of the current dataset (now, or when a running BGSAVE has finished); appendonly is
     * fully on when it completes.
     *
     * @throws AofException if the rewrite cannot start; appendonly stays off
     */
    public void start() throws AofException {
        if (state != State.OFF) {
            return;
        }
        if (manifest == null) {
            manifest = AofManifest.load(dir, fileName);
        }
        state = State.WAIT_REWRITE;
        attach(null);
        if (server.persistence().bgsaveInProgress()) {
            rewriteScheduled = true;
            LOG.info("AOF was enabled but there is already another background operation. An AOF background was"
                    + " scheduled to start when possible.");
            return;
        }
        if (server.propagation().nested()) {
            rewriteScheduled = true;
            LOG.info("AOF was enabled during a transaction. An AOF background was scheduled to start when possible.");
            return;
        }
        if (rewrite != null) {
            LOG.info("AOF was enabled but there is already an AOF rewriting in background. Stopping background AOF"
                    + " and starting a rewrite now.");
            killRewrite();
        }
        if (!startRewrite()) {
            detach();
            throw new AofException("Redis needs to enable the AOF but can't trigger a background AOF rewrite "
                    + "operation. Check the above logs for more info about the error.");
        }
    }

    /**
     * CONFIG SET appendonly no, and shutdown (Redis's stopAppendOnly): writes and fsyncs what is buffered,
     * closes, and stops a running rewrite.
     */
    public void stop() {
        if (state == State.OFF) {
            return;
        }
        beforeReplies();
        killRewrite();
        AofChannels.forceAndClose(incr);
        detach();
    }

    private void detach() {
        server.propagation().removeSink(this);
        state = State.OFF;
        incr = null;
        fsyncTarget = null;
        bufLen = 0;
        rewriteScheduled = false;
        if (fsyncThread != null) {
            fsyncThread.shutdown();
            fsyncThread = null;
        }
    }

    /**
     * The AOF part of Redis's prepareForShutdown: a running rewrite is stopped, unless it writes the first
     * base of an appendonly just switched on, which refuses the shutdown without FORCE.
     *
     * @return false if the shutdown must be refused (logged)
     */
    public boolean prepareShutdown(boolean force) {
        if (state == State.OFF || rewrite == null) {
            return true;
        }
        if (state == State.WAIT_REWRITE) {
            if (!force) {
                LOG.warn("Writing initial AOF, can't exit.");
                return false;
            }
            LOG.warn("Writing initial AOF. Exit anyway.");
        }
        LOG.warn("There is a child rewriting the AOF. Killing it!");
        killRewrite();
        return true;
    }

    // ---------------------------------------------------------------- INFO

    /** INFO persistence's aof_* fields, in Redis's order: the always-present ones. */
    public void infoFields(BiConsumer<String, Object> field) {
        field.accept("aof_enabled", state != State.OFF ? 1 : 0);
        field.accept("aof_rewrite_in_progress", rewrite != null ? 1 : 0);
        field.accept("aof_rewrite_scheduled", rewriteScheduled ? 1 : 0);
        field.accept("aof_last_rewrite_time_sec", lastRewriteTimeSec);
        field.accept("aof_current_rewrite_time_sec",
                rewrite == null ? -1 : (server.nowMs() - rewrite.startMs()) / 1000);
        field.accept("aof_last_bgrewrite_status", lastRewriteOk ? "ok" : "err");
        field.accept("aof_rewrites", rewrites);
        field.accept("aof_rewrites_consecutive_failures", consecutiveRewriteFailures);
        field.accept("aof_last_write_status", lastWriteOk ? "ok" : "err");
        field.accept("aof_last_cow_size", lastCowBytes);
    }

    /** The fields Redis adds while appendonly is on. */
    public void enabledInfoFields(BiConsumer<String, Object> field) {
        if (state == State.OFF) {
            return;
        }
        field.accept("aof_current_size", currentSize + bufLen);
        field.accept("aof_base_size", rewriteBaseSize);
        field.accept("aof_pending_rewrite", rewriteScheduled ? 1 : 0);
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

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.warn("Could not delete {}: {}", path.getFileName(), e.getMessage());
        }
    }
}
