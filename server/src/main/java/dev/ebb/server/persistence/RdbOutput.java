package dev.ebb.server.persistence;

import dev.ebb.storage.rdb.RdbOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A snapshot written as the RDB file (SAVE, BGSAVE, the save points): {@code temp-<pid>.rdb} in
 * {@code dir}, renamed over {@code dbfilename} when complete ({@link RdbFiles}), with Redis's log lines.
 * Used by one thread at a time: the loop for SAVE, the writer thread for BGSAVE.
 */
final class RdbOutput implements SnapshotHandOver.Output {
    private static final Logger LOG = LoggerFactory.getLogger(Persistence.class);

    private final Path target;
    private final RdbOptions options;
    private final Map<String, byte[]> aux;
    private final int version;
    private final List<byte[]> functions;
    private final long[] sizes;
    private final long[] expires;
    private final long nowMs;
    private RdbFiles.Target file;
    private EntryWriter entries;

    /** {@code sizes} and {@code expires}: each database's key counts at the instant, for RESIZEDB. */
    RdbOutput(Path target, RdbOptions options, Map<String, byte[]> aux, int version, List<byte[]> functions,
            long[] sizes, long[] expires, long nowMs) {
        this.target = target;
        this.options = options;
        this.aux = aux;
        this.version = version;
        this.functions = functions;
        this.sizes = sizes;
        this.expires = expires;
        this.nowMs = nowMs;
    }

    @Override
    public void open() throws IOException {
        Path temp = RdbFiles.tempFile(target.getParent());
        try {
            file = new RdbFiles.Target(temp, options, nowMs);
        } catch (IOException e) {
            LOG.warn("Failed opening the temp RDB file {} (in server root dir {}) for saving: {}",
                    temp.getFileName(), target.getParent(), RdbFiles.reason(e));
            throw e;
        }
        try {
            file.writer.header(aux, version);
            RdbFiles.writeFunctions(file.writer, functions);
        } catch (IOException e) {
            failed(e);
            throw e;
        }
        entries = new EntryWriter(file.writer, sizes, expires);
    }

    @Override
    public void key(SnapshotHandOver.Key k) throws IOException {
        entries.write(k.db(), k.key(), k.value(), k.expireAtMs(), k.idleSeconds(), k.freq());
    }

    @Override
    public void finish() throws IOException {
        file.commit(target);
        LOG.info("DB saved on disk");
    }

    @Override
    public void failed(IOException e) {
        LOG.warn(e instanceof RdbFiles.MoveFailed ? e.getMessage() : "Write error saving DB on disk: " + e.getMessage());
        discard();
    }

    @Override
    public void discard() {
        if (file != null) {
            file.discard();
        }
    }
}
