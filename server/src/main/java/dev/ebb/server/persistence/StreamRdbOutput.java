package dev.ebb.server.persistence;

import dev.ebb.storage.rdb.RdbOptions;
import dev.ebb.storage.rdb.RdbWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A snapshot written as an RDB to a stream instead of a file: diskless replication, where the stream
 * is the replicas' sockets (Redis's rdbSaveRioWithEOFMark; the EOF-mark framing is the stream's
 * business). Used by the writer thread only.
 */
final class StreamRdbOutput implements SnapshotHandOver.Output {
    private static final Logger LOG = LoggerFactory.getLogger(Persistence.class);

    private final OutputStream stream;
    private final RdbOptions options;
    private final Map<String, byte[]> aux;
    private final int version;
    private final List<byte[]> functions;
    private final long[] sizes;
    private final long[] expires;
    private final long nowMs;
    private RdbWriter writer;
    private EntryWriter entries;

    StreamRdbOutput(OutputStream stream, RdbOptions options, Map<String, byte[]> aux, int version,
            List<byte[]> functions, long[] sizes, long[] expires, long nowMs) {
        this.stream = stream;
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
        writer = new RdbWriter(stream, options, nowMs);
        writer.header(aux, version);
        RdbFiles.writeFunctions(writer, functions);
        entries = new EntryWriter(writer, sizes, expires);
    }

    @Override
    public void key(SnapshotHandOver.Key k) throws IOException {
        entries.write(k.db(), k.key(), k.value(), k.expireAtMs(), k.idleSeconds(), k.freq());
    }

    @Override
    public void finish() throws IOException {
        writer.finish();
        stream.flush();
    }

    @Override
    public void failed(IOException e) {
        LOG.warn("Diskless rdb transfer failed: {}", e.getMessage());
    }

    @Override
    public void discard() {
        // Nothing on disk; the replication link closes its sockets itself.
    }
}
