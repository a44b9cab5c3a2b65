package dev.ebb.server.persistence;

import dev.ebb.server.Server;
import dev.ebb.server.cluster.HashSlots;
import dev.ebb.server.config.SavePoint;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.persistence.EntryWriter.AccessInfo;
import dev.ebb.server.script.FunctionException;
import dev.ebb.server.script.FunctionLibrary;
import dev.ebb.server.script.Functions;
import dev.ebb.storage.Database;
import dev.ebb.storage.KeyspaceListener;
import dev.ebb.storage.expiry.ExpiryStrategyKind;
import dev.ebb.storage.rdb.RdbLimits;
import dev.ebb.storage.rdb.RdbReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RDB persistence, Redis's rdb.c and the save half of serverCron: SAVE, BGSAVE (now or scheduled),
 * the save points, the change counter they read ({@code rdb_changes_since_last_save}), the
 * {@code stop-writes-on-bgsave-error} refusal, loading {@code dir/dbfilename} at start-up while
 * commands are answered {@code -LOADING}, DEBUG RELOAD, and the INFO persistence figures.
 *
 * <p>SAVE and BGSAVE write an {@link RdbOutput} from a {@link SnapshotHandOver}: SAVE walks the snapshot
 * to its end on the loop and writes as it goes (the loop is blocked, as in Redis); BGSAVE walks it in
 * slices and writes on its own thread. One snapshot runs at a time, so BGSAVE and the AOF rewrite
 * exclude each other as Redis's one child at a time does. Loading at start-up reads the file on its own
 * thread into fresh databases that no one else sees, then swaps them in on the loop in O(databases).
 *
 * <p><b>Changes.</b> {@link #dirty()} counts key modifications as the keyspace reports them (one per
 * key written, deleted or expired, per flushed key, per SWAPDB), where Redis counts per command (HSET
 * of three new fields counts 3 in Redis, 1 here). Save points compare against it as Redis does.
 *
 * <p>Loop thread only, except where a method says otherwise.
 */
public final class Persistence {
    private static final Logger LOG = LoggerFactory.getLogger(Persistence.class);

    /** Redis's CONFIG_BGSAVE_RETRY_DELAY: seconds before a save point retries after a failed BGSAVE. */
    static final long BGSAVE_RETRY_DELAY_SECONDS = 5;

    private final Server server;
    private ScheduledExecutorService loop;

    private long dirty;
    private long dirtyBeforeBgsave;
    private long lastSaveSeconds;
    private long lastBgsaveTrySeconds;
    private boolean lastBgsaveOk = true;
    private long lastBgsaveSeconds = -1;
    private long saves;
    private long lastCowBytes;
    private boolean bgsaveScheduled;
    private SnapshotHandOver bgsave;
    /** Whether the running save writes to the replicas' sockets (diskless) rather than to a file. */
    private boolean bgsaveToStream;
    /** {@code dump.rdb} was last written for a disk-based full sync ({@code rdb-del-sync-files}). */
    private boolean rdbGeneratedByReplication;
    /** Told how the running save ended when replication started it (Redis's replicationHandleBgsaveEnd). */
    private java.util.function.Consumer<IOException> replicationDone;
    private long bgsaveStartMs;

    private volatile boolean loading;
    private long loadingStartSeconds;
    private long loadingTotalBytes;
    private final AtomicLong loadedBytes = new AtomicLong();
    private long lastLoadKeysLoaded;
    private long lastLoadKeysExpired;
    private String loadedReplId;
    private long loadedReplOffset = -1;
    private int loadedReplStreamDb;

    public Persistence(Server server, long startMs) {
        this.server = server;
        this.lastSaveSeconds = startMs / 1000;
    }

    /**
     * Runs {@code task} on the loop from a background thread; dropped if the server has stopped
     * meanwhile (nothing is left to report to).
     */
    void onLoop(Runnable task) {
        try {
            loop.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            LOG.debug("Server stopped before a persistence result arrived");
        }
    }

    /** The loop's executor, for snapshot slices and the hand-back from background threads. */
    public void useLoop(ScheduledExecutorService executor) {
        this.loop = executor;
    }

    ScheduledExecutorService loop() {
        return loop;
    }

    // ---------------------------------------------------------------- changes

    /** Writes since the last successful save ({@code rdb_changes_since_last_save}). */
    public long dirty() {
        return dirty;
    }

    /** The dataset was replaced by what the disk holds (DEBUG LOADAOF): nothing is left to save. */
    void resetDirty() {
        dirty = 0;
    }

    /** Wraps {@code next} so that every key modification, flush and swap also counts as a change. */
    public KeyspaceListener countingChanges(KeyspaceListener next) {
        return new KeyspaceListener() {
            @Override
            public void keyModified(Database db, byte[] key) {
                dirty++;
                next.keyModified(db, key);
            }

            @Override
            public void beforeFlush(Database db) {
                dirty += db.size();
                next.beforeFlush(db);
            }

            @Override
            public void beforeSwap(Database db, Database other) {
                dirty++;
                next.beforeSwap(db, other);
            }
        };
    }

    // ---------------------------------------------------------------- SAVE

    /** Whether a BGSAVE is running ({@code rdb_bgsave_in_progress}). */
    public boolean bgsaveInProgress() {
        return bgsave != null;
    }

    /**
     * SAVE: writes the RDB file now, on the loop. Logs as Redis's rdbSave. A running AOF rewrite keeps
     * going, as Redis's child does; its walk is finished first, because the databases carry one snapshot
     * at a time.
     *
     * @return true if the file was written
     */
    public boolean save() {
        saves++;
        long nowMs = server.nowMs();
        server.aof().finishRewriteWalk();
        try {
            SnapshotHandOver.writeNow(databases(), rdbOutput(nowMs), accessInfo(), server.config().lfuDecayTime(),
                    nowMs);
        } catch (IOException e) {
            return false;
        }
        dirty = 0;
        lastSaveSeconds = nowMs / 1000;
        lastBgsaveOk = true;
        return true;
    }

    /** The RDB file as of {@code nowMs}, for SAVE and BGSAVE. */
    private RdbOutput rdbOutput(long nowMs) {
        Database[] dbs = databases();
        return new RdbOutput(rdbPath(), RdbFiles.options(server), RdbFiles.auxFields(nowMs, server.usedMemory(), false, server),
                RdbFiles.version(dbs), functionCodes(), sizes(dbs), expiresSizes(dbs), nowMs);
    }

    private static long[] sizes(Database[] dbs) {
        long[] sizes = new long[dbs.length];
        for (int i = 0; i < dbs.length; i++) {
            sizes[i] = dbs[i].size();
        }
        return sizes;
    }

    private static long[] expiresSizes(Database[] dbs) {
        long[] expires = new long[dbs.length];
        for (int i = 0; i < dbs.length; i++) {
            expires[i] = dbs[i].expiresSize();
        }
        return expires;
    }

    AccessInfo accessInfo() {
        return EntryWriter.accessInfo(server.config().maxmemoryPolicy());
    }

    /** The code of every function library, for FUNCTION2 records (loop thread). */
    List<byte[]> functionCodes() {
        List<byte[]> codes = new ArrayList<>();
        for (FunctionLibrary library : server.scripting().functions().libraries()) {
            codes.add(library.code());
        }
        return codes;
    }

    /** {@code dir/dbfilename}. */
    public Path rdbPath() {
        return server.config().dir().resolve(server.config().dbFilename());
    }

    // ---------------------------------------------------------------- BGSAVE

    /**
     * Starts a BGSAVE now (the caller checked that no BGSAVE nor AOF rewrite runs). Logs as Redis.
     *
     * @return true if it started; false if it could not (logged)
     */
    public boolean startBgsave() {
        long nowMs = server.nowMs();
        lastBgsaveTrySeconds = nowMs / 1000;
        dirtyBeforeBgsave = dirty;
        ServerConfig config = server.config();
        SnapshotHandOver[] started = new SnapshotHandOver[1];
        started[0] = new SnapshotHandOver(this, databases(), rdbOutput(nowMs), accessInfo(), config.lfuDecayTime(),
                nowMs, config.rdbKeySaveDelay(), failure -> backgroundSaveDone(started[0], failure));
        bgsave = started[0];
        bgsaveStartMs = nowMs;
        bgsaveScheduled = false;
        saves++;
        LOG.info("Background saving started by pid {}", ProcessHandle.current().pid());
        bgsave.start("ebb-bgsave", config.bgsaveCpulist());
        return true;
    }

    /**
     * A BGSAVE for replication (Redis's startBgsaveForReplication), the caller having checked none
     * runs: to {@code dir/dbfilename} as any BGSAVE when {@code stream} is null, otherwise the RDB is
     * written to {@code stream} (diskless). {@code replAux} are the repl-stream-db, repl-id and
     * repl-offset AUX fields; {@code functionsOnly} leaves the databases out (REPLCONF
     * rdb-filter-only functions). The snapshot is taken now, at the current replication offset.
     * {@code done} hears the outcome on the loop (null on success).
     */
    public void startReplicationSave(Map<String, byte[]> replAux, java.io.OutputStream stream, boolean functionsOnly,
            java.util.function.Consumer<IOException> done) {
        long nowMs = server.nowMs();
        lastBgsaveTrySeconds = nowMs / 1000;
        dirtyBeforeBgsave = dirty;
        ServerConfig config = server.config();
        Map<String, byte[]> aux = RdbFiles.auxFields(nowMs, server.usedMemory(), false, server);
        byte[] aofBase = aux.remove("aof-base");
        aux.putAll(replAux);
        aux.put("aof-base", aofBase);
        // REPLCONF rdb-filter-only functions: the function libraries and no database.
        Database[] dbs = functionsOnly ? new Database[0] : databases();
        SnapshotHandOver.Output output = stream == null
                ? new RdbOutput(rdbPath(), RdbFiles.options(server), aux, RdbFiles.version(dbs), functionCodes(),
                        sizes(dbs), expiresSizes(dbs), nowMs)
                : new StreamRdbOutput(stream, RdbFiles.options(server), aux, RdbFiles.version(dbs), functionCodes(),
                        sizes(dbs), expiresSizes(dbs), nowMs);
        SnapshotHandOver[] started = new SnapshotHandOver[1];
        started[0] = new SnapshotHandOver(this, dbs, output, accessInfo(), config.lfuDecayTime(), nowMs,
                config.rdbKeySaveDelay(), failure -> backgroundSaveDone(started[0], failure));
        bgsave = started[0];
        bgsaveToStream = stream != null;
        rdbGeneratedByReplication |= stream == null;
        replicationDone = done;
        bgsaveStartMs = nowMs;
        saves++;
        LOG.info(stream == null ? "Background saving started by pid {}" : "Background RDB transfer started by pid {}",
                ProcessHandle.current().pid());
        bgsave.start(stream == null ? "ebb-bgsave" : "ebb-repl-transfer", config.bgsaveCpulist());
    }

    /** BGSAVE SCHEDULE (or BGSAVE inside MULTI) while another save runs: start it when nothing does. */
    public void scheduleBgsave() {
        bgsaveScheduled = true;
    }

    /** The save thread finished ({@code failure} null on success). Loop thread, via the loop's executor. */
    private void backgroundSaveDone(SnapshotHandOver done, IOException failure) {
        if (done != bgsave) {
            return;
        }
        bgsave = null;
        long nowMs = server.nowMs();
        lastBgsaveSeconds = (nowMs - bgsaveStartMs) / 1000;
        lastCowBytes = done.peakInFlightBytes();
        java.util.function.Consumer<IOException> replication = replicationDone;
        replicationDone = null;
        if (bgsaveToStream) {
            // Diskless replication wrote no file: the save status and the change counter stay.
            bgsaveToStream = false;
            LOG.info(failure == null ? "Background RDB transfer terminated with success"
                    : "Background transfer error");
            if (failure != null) {
                done.failed();
            }
            reportToReplication(replication, failure);
            return;
        }
        if (failure == null) {
            LOG.info("Background saving terminated with success");
            dirty -= dirtyBeforeBgsave;
            lastSaveSeconds = nowMs / 1000;
            lastBgsaveOk = true;
        } else {
            done.failed();
            LOG.warn("Background saving error");
            lastBgsaveOk = false;
        }
        reportToReplication(replication, failure);
    }

    private static void reportToReplication(java.util.function.Consumer<IOException> replication, IOException failure) {
        if (replication != null) {
            replication.accept(failure);
        }
    }

    /** Stops a running BGSAVE and deletes its temporary file (SHUTDOWN, FLUSHALL, DEBUG RELOAD). */
    public void killBgsave() {
        SnapshotHandOver running = bgsave;
        if (running != null) {
            // As a child killed with SIGUSR1 in Redis: the last status is left as it was.
            bgsave = null;
            running.kill();
            java.util.function.Consumer<IOException> replication = replicationDone;
            replicationDone = null;
            bgsaveToStream = false;
            reportToReplication(replication, new IOException("background save killed"));
        }
    }

    /**
     * The save part of serverCron: a scheduled BGSAVE, then the first save point reached (more than
     * its seconds since the last save and at least its changes), retried no sooner than
     * {@link #BGSAVE_RETRY_DELAY_SECONDS} after a failed one.
     */
    public void cron(long nowMs) {
        if (bgsave != null || loading || server.aof().rewriteInProgress()) {
            return;
        }
        long now = nowMs / 1000;
        boolean mayRetry = now - lastBgsaveTrySeconds > BGSAVE_RETRY_DELAY_SECONDS || lastBgsaveOk;
        if (bgsaveScheduled && mayRetry) {
            startBgsave();
            return;
        }
        for (SavePoint point : server.config().save()) {
            if (dirty >= point.changes() && now - lastSaveSeconds > point.seconds() && mayRetry) {
                LOG.info("{} changes in {} seconds. Saving...", point.changes(), point.seconds());
                startBgsave();
                return;
            }
        }
    }

    /**
     * Redis's writeCommandsDeniedByDiskError for RDB: writes are refused (MISCONF) while the last
     * background save failed, save points are configured and {@code stop-writes-on-bgsave-error} is on.
     */
    public boolean deniesWrites() {
        return !lastBgsaveOk && server.config().stopWritesOnBgsaveError() && !server.config().save().isEmpty();
    }

    // ---------------------------------------------------------------- loading

    /** Whether the dataset is being loaded ({@code -LOADING} for commands without the loading flag). */
    public boolean loading() {
        return loading;
    }

    /**
     * A load starts (the RDB file at start-up or from a primary, or the append-only file on the loop): commands
     * get {@code -LOADING} and INFO reports the progress until the load ends.
     */
    void beginLoading(long totalBytes) {
        loadingStartSeconds = server.nowMs() / 1000;
        loadingTotalBytes = totalBytes;
        loadedBytes.set(0);
        loading = true;
    }

    /** Bytes of the loading files read so far (INFO's {@code loading_loaded_bytes}). */
    void loadingProgress(long bytes) {
        loadedBytes.set(bytes);
    }

    /** The append-only file has loaded, or failed to. */
    void endLoading() {
        loading = false;
    }

    /**
     * Starts loading {@code dir/dbfilename} on its own thread if the file exists; the databases are
     * swapped in on the loop when the whole file has been read. {@code onFatal} runs on the loop if the
     * file cannot be loaded, after Redis's log lines: the server must not serve without its data.
     */
    public void loadAtStartup(Runnable onFatal) {
        Path path = rdbPath();
        if (!Files.exists(path)) {
            return;
        }
        long nowMs = server.nowMs();
        long size;
        try {
            size = Files.size(path);
        } catch (IOException e) {
            size = 0;
        }
        beginLoading(size);
        Thread t = new Thread(() -> {
            long startNanos = System.nanoTime();
            try {
                Database[] fresh = freshDatabases();
                RdbLoad result = read(path, fresh, nowMs);
                double seconds = (System.nanoTime() - startNanos) / 1e9;
                onLoop(() -> {
                    try {
                        install(fresh, result);
                    } catch (FunctionException e) {
                        logLoadFailure(path, new IOException("Failed loading library: " + e.getMessage(), e));
                        onFatal.run();
                        return;
                    }
                    loading = false;
                    LOG.info("DB loaded from disk: {} seconds", String.format("%.3f", seconds));
                });
            } catch (IOException | RuntimeException e) {
                onLoop(() -> {
                    logLoadFailure(path, e);
                    onFatal.run();
                });
            }
        }, "ebb-rdb-load");
        t.setDaemon(true);
        t.start();
    }

    /**
     * A replica's full sync: the primary's RDB, received into {@code received}, becomes {@code dir/dbfilename} (as
     * Redis renames its transfer file) and loads on its own thread into fresh databases, keeping keys whose time has
     * passed (the primary will delete them); meanwhile commands get {@code -LOADING}. On the loop, the databases and
     * functions are swapped in and {@code onLoaded} runs; if the file cannot be read nothing changes and
     * {@code onFailed} gets the reason.
     */
    public void loadSyncPayload(Path received, Runnable onLoaded, java.util.function.Consumer<String> onFailed) {
        Path path = rdbPath();
        long nowMs = server.nowMs();
        long size;
        try {
            Files.move(received, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            size = Files.size(path);
        } catch (IOException e) {
            onFailed.accept("Failed trying to rename the temp DB into " + path.getFileName()
                    + " in MASTER <-> REPLICA synchronization: " + RdbFiles.reason(e));
            return;
        }
        killBgsave();
        beginLoading(size);
        LOG.info("MASTER <-> REPLICA sync: Loading DB in memory");
        Thread t = new Thread(() -> {
            try {
                Database[] fresh = freshDatabases();
                RdbLoad result = read(path, fresh, nowMs, true);
                onLoop(() -> {
                    loading = false;
                    try {
                        install(fresh, result);
                    } catch (FunctionException e) {
                        onFailed.accept("Failed loading library: " + e.getMessage());
                        return;
                    }
                    if (server.config().rdbDelSyncFiles() && allPersistenceDisabled()) {
                        LOG.info("Removing the RDB file obtained from the master. This replica has persistence disabled");
                        deleteQuietly(path);
                    }
                    onLoaded.run();
                });
            } catch (IOException | RuntimeException e) {
                onLoop(() -> {
                    loading = false;
                    onFailed.accept("Failed trying to load the MASTER synchronization DB from disk: " + e.getMessage());
                });
            }
        }, "ebb-sync-load");
        t.setDaemon(true);
        t.start();
    }

    /** Whether neither save points nor the AOF would keep {@code dump.rdb} (Redis's allPersistenceDisabled). */
    private boolean allPersistenceDisabled() {
        return server.config().save().isEmpty() && !server.config().appendonly();
    }

    /**
     * {@code rdb-del-sync-files}, a primary's side (Redis's removeRDBUsedToSyncReplicas, from the replication
     * cron and when a sync ends): deletes {@code dump.rdb} when only a disk-based full sync wrote it, no
     * persistence would keep it, and no replica waits for it ({@code feeding}).
     */
    public void removeRdbUsedToSyncReplicas(boolean feeding) {
        if (!server.config().rdbDelSyncFiles()) {
            rdbGeneratedByReplication = false;
            return;
        }
        if (!rdbGeneratedByReplication || feeding || !allPersistenceDisabled() || !Files.exists(rdbPath())) {
            return;
        }
        rdbGeneratedByReplication = false;
        LOG.info("Removing the RDB file used to feed replicas in a persistence-less instance");
        deleteQuietly(rdbPath());
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.warn("Could not delete {}: {}", path, e.getMessage());
        }
    }

    /** The {@code repl-id} of the file loaded at start-up, or null: a replica restarted from it may PSYNC. */
    public String loadedReplId() {
        return loadedReplId;
    }

    /** The {@code repl-offset} of the file loaded at start-up (with {@link #loadedReplId}). */
    public long loadedReplOffset() {
        return loadedReplOffset;
    }

    /** The {@code repl-stream-db} of the file loaded at start-up. */
    public int loadedReplStreamDb() {
        return loadedReplStreamDb;
    }

    private void logLoadFailure(Path path, Exception e) {
        if (e instanceof NoSuchFileException || !(e instanceof dev.ebb.storage.rdb.RdbException)) {
            LOG.warn("Fatal error loading the DB: {}. Exiting.", e instanceof IOException io ? RdbFiles.reason(io)
                    : e.toString());
            return;
        }
        LOG.warn(e.getMessage());
        LOG.warn("Fatal error loading the DB, check server logs. Exiting.");
    }

    /**
     * DEBUG RELOAD [MERGE] [NOFLUSH] [NOSAVE], on the loop: saves (unless {@code save} is false), then
     * replaces the dataset with the file's or, with {@code noflush}, adds the file's keys to it. A key the
     * dataset holds already replaces the stored one with {@code merge}; without it the reload is refused
     * and nothing changes (Redis panics on such a duplicate; Ebb reads the whole file into fresh databases
     * first, so a bad file or a duplicate never leaves the dataset half loaded).
     *
     * @return null on success, else the error to reply (Redis's: a bare {@code ERR} when the save fails)
     */
    public String debugReload(boolean save, boolean merge, boolean noflush) {
        if (save && !save()) {
            return "ERR";
        }
        killBgsave();
        try {
            Database[] fresh = freshDatabases();
            boolean keepExpired = !server.config().replicaof().isEmpty();
            RdbLoad result = read(rdbPath(), fresh, server.nowMs(), keepExpired, merge);
            if (!noflush) {
                install(fresh, result);
            } else if (!merge && reportDuplicate(fresh)) {
                return LOAD_ERROR;
            } else {
                server.scripting().functions().restore(result.functions(),
                        merge ? Functions.RestorePolicy.REPLACE : Functions.RestorePolicy.APPEND);
                RdbLoad added = read(rdbPath(), databases(), server.nowMs(), keepExpired, merge);
                lastLoadKeysLoaded = added.loaded();
                lastLoadKeysExpired = added.expired();
            }
        } catch (IOException | FunctionException e) {
            LOG.warn("Error trying to load the RDB dump: {}", e.getMessage());
            return LOAD_ERROR;
        }
        LOG.info("DB reloaded by DEBUG RELOAD");
        return null;
    }

    private static final String LOAD_ERROR = "ERR Error trying to load the RDB dump, check server logs.";

    /** Logs, as Redis does, the first key of {@code loaded} the live databases hold too; whether there is one. */
    private boolean reportDuplicate(Database[] loaded) {
        Database[] live = databases();
        for (int db = 0; db < loaded.length; db++) {
            byte[][] found = new byte[1][];
            Database target = live[db];
            loaded[db].forEachKey((key, value) -> {
                if (found[0] == null && target.hasEntry(key)) {
                    found[0] = key;
                }
            });
            if (found[0] != null) {
                LOG.warn("RDB has duplicated key '{}' in DB {}", new String(found[0], StandardCharsets.ISO_8859_1), db);
                return true;
            }
        }
        return false;
    }

    private RdbLoad read(Path path, Database[] fresh, long nowMs) throws IOException {
        return read(path, fresh, nowMs, !server.config().replicaof().isEmpty());
    }

    private RdbLoad read(Path path, Database[] fresh, long nowMs, boolean keepExpired) throws IOException {
        return read(path, fresh, nowMs, keepExpired, false);
    }

    private RdbLoad read(Path path, Database[] target, long nowMs, boolean keepExpired, boolean replaceDuplicates)
            throws IOException {
        RdbLoad visitor = new RdbLoad(target, nowMs, server.config().keyLoadDelay(), Files.size(path));
        if (keepExpired) {
            visitor.keepExpired();
        }
        if (replaceDuplicates) {
            visitor.replaceDuplicates();
        }
        RdbReader reader = new RdbReader(limits(server.config()), server.config().rdbChecksum(), nowMs);
        // Counted under the buffer: one atomic addition per 64 KB read, not one per byte the reader takes.
        try (InputStream in = new BufferedInputStream(new RdbLoad.CountingInput(Files.newInputStream(path),
                loadedBytes), 1 << 16)) {
            reader.read(in, visitor);
        }
        LOG.info("Done loading RDB, keys loaded: {}, keys expired: {}.", visitor.loaded(), visitor.expired());
        return visitor;
    }

    /** Swaps the loaded databases in: O(databases). The change counter starts again from 0. */
    private void install(Database[] fresh, RdbLoad result) {
        server.scripting().functions().restore(result.functions(), Functions.RestorePolicy.FLUSH);
        Database[] dbs = databases();
        for (int i = 0; i < dbs.length; i++) {
            dbs[i].flush();
            dbs[i].swapWith(fresh[i]);
        }
        dirty = 0;
        loadedReplId = result.replId();
        loadedReplOffset = result.replOffset();
        loadedReplStreamDb = result.replStreamDb();
        lastLoadKeysLoaded = result.loaded();
        lastLoadKeysExpired = result.expired();
    }

    private Database[] freshDatabases() {
        ServerConfig config = server.config();
        ExpiryStrategyKind kind = ExpiryStrategyKind.fromConfigName(config.expiryStrategy().configName());
        SplittableRandom seeds = new SplittableRandom(System.nanoTime());
        Database[] fresh = new Database[server.databases()];
        for (int i = 0; i < fresh.length; i++) {
            fresh[i] = new Database(i, seeds.nextLong(), kind);
            // The file's IDLE / FREQ records become metas read the way the live databases read them.
            fresh[i].trackFrequency(server.db(i).tracksFrequency(), config.lfuLogFactor(), config.lfuDecayTime());
            if (i == 0 && server.clusterEnabled()) {
                // Swapped in with the keys: the live database's slot index must stay complete.
                fresh[i].indexSlots(HashSlots::slot);
            }
        }
        return fresh;
    }

    static RdbLimits limits(ServerConfig c) {
        return new RdbLimits(c.hashMaxListpackEntries(), c.hashMaxListpackValue(), c.setMaxIntsetEntries(),
                c.setMaxListpackEntries(), c.setMaxListpackValue(), c.zsetMaxListpackEntries(),
                c.zsetMaxListpackValue(), c.listMaxListpackSize(), c.listCompressDepth());
    }

    Database[] databases() {
        Database[] dbs = new Database[server.databases()];
        for (int i = 0; i < dbs.length; i++) {
            dbs[i] = server.db(i);
        }
        return dbs;
    }

    // ---------------------------------------------------------------- INFO persistence

    /** Appends Redis 7.2's RDB lines of INFO persistence, from {@code loading} to {@code rdb_last_load_keys_loaded}. */
    public void appendInfo(StringBuilder out, long nowMs) {
        SnapshotHandOver running = bgsave != null ? bgsave : server.aof().runningSnapshot();
        line(out, "loading", loading ? 1 : 0);
        line(out, "async_loading", 0);
        if (loading) {
            long loaded = loadedBytes.get();
            long elapsed = Math.max(nowMs / 1000 - loadingStartSeconds, 0);
            double perc = loadingTotalBytes == 0 ? 0 : (double) loaded / loadingTotalBytes * 100;
            long eta = elapsed == 0 || loaded == 0 ? 1 : (long) ((loadingTotalBytes - loaded) / ((double) loaded / elapsed));
            line(out, "loading_start_time", loadingStartSeconds);
            line(out, "loading_total_bytes", loadingTotalBytes);
            line(out, "loading_rdb_used_mem", 0);
            line(out, "loading_loaded_bytes", loaded);
            line(out, "loading_loaded_perc", String.format("%.2f", perc));
            line(out, "loading_eta_seconds", eta);
        }
        long total = running == null ? 0 : running.keysTotal();
        long processed = running == null ? 0 : running.keysWritten();
        line(out, "current_cow_peak", running == null ? 0 : running.peakInFlightBytes());
        line(out, "current_cow_size", running == null ? 0 : running.inFlightBytes());
        line(out, "current_cow_size_age", 0);
        line(out, "current_fork_perc", String.format("%.2f", total == 0 ? 0.0 : (double) processed / total * 100));
        line(out, "current_save_keys_processed", processed);
        line(out, "current_save_keys_total", total);
        line(out, "rdb_changes_since_last_save", dirty);
        line(out, "rdb_bgsave_in_progress", bgsave == null ? 0 : 1);
        line(out, "rdb_last_save_time", lastSaveSeconds);
        line(out, "rdb_last_bgsave_status", lastBgsaveOk ? "ok" : "err");
        line(out, "rdb_last_bgsave_time_sec", lastBgsaveSeconds);
        line(out, "rdb_current_bgsave_time_sec", bgsave == null ? -1 : (nowMs - bgsaveStartMs) / 1000);
        line(out, "rdb_saves", saves);
        line(out, "rdb_last_cow_size", lastCowBytes);
        line(out, "rdb_last_load_keys_expired", lastLoadKeysExpired);
        line(out, "rdb_last_load_keys_loaded", lastLoadKeysLoaded);
    }

    /** LASTSAVE: unix seconds of the last successful save (the start time before any). */
    public long lastSaveSeconds() {
        return lastSaveSeconds;
    }

    private static void line(StringBuilder out, String name, Object value) {
        out.append(name).append(':').append(value).append("\r\n");
    }
}
