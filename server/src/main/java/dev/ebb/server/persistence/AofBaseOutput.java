package dev.ebb.server.persistence;

import dev.ebb.storage.Database;
import dev.ebb.storage.rdb.RdbOptions;
import dev.ebb.storage.rdb.RdbWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A snapshot written as the next AOF base into a temporary file, as Redis's rewriteAppendOnlyFile
 * writes it: in RDB format with {@code aof-use-rdb-preamble yes} (AUX {@code aof-base 1}, function
 * libraries, then the keys through {@link EntryWriter}), else as commands ({@link AofRewriter}). Keys
 * whose time to live had passed at the instant are left out. The file is flushed and fsynced but not
 * renamed: the rewrite renames it on the loop when it installs the new manifest.
 *
 * <p>Used by one thread at a time: the writer thread of a rewrite, or the loop for the first base.
 */
final class AofBaseOutput implements SnapshotHandOver.Output {
    private static final Logger LOG = LoggerFactory.getLogger(AppendOnlyFile.class);

    /** What the RDB preamble needs besides the keys; null for the command form. */
    record Preamble(RdbOptions options, Map<String, byte[]> aux, int version, long[] sizes, long[] expires) {
    }

    private final Path temp;
    private final Preamble preamble;
    private final List<byte[]> functions;
    private final long instantMs;
    private final long timestampSec;
    private FileChannel channel;
    private OutputStream out;
    private RdbWriter rdb;
    private EntryWriter entries;
    private AofRewriter commands;

    /**
     * @param preamble the RDB form's header data, or null for the command form
     * @param timestampSec the command form's {@code #TS:} annotation, or -1 for none
     */
    AofBaseOutput(Path temp, Preamble preamble, List<byte[]> functions, long instantMs, long timestampSec) {
        this.temp = temp;
        this.preamble = preamble;
        this.functions = functions;
        this.instantMs = instantMs;
        this.timestampSec = timestampSec;
    }

    Path temp() {
        return temp;
    }

    /** Whether the base is in RDB format (named {@code .base.rdb}) rather than commands ({@code .base.aof}). */
    boolean rdb() {
        return preamble != null;
    }

    @Override
    public void open() throws IOException {
        try {
            channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            LOG.warn("Opening the temp file for AOF rewrite in rewriteAppendOnlyFile(): {}", RdbFiles.reason(e));
            throw e;
        }
        out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 20);
        try {
            if (preamble != null) {
                rdb = new RdbWriter(out, preamble.options(), instantMs);
                rdb.header(preamble.aux(), preamble.version());
                RdbFiles.writeFunctions(rdb, functions);
                entries = new EntryWriter(rdb, preamble.sizes(), preamble.expires());
            } else {
                commands = new AofRewriter(out);
                if (timestampSec >= 0) {
                    commands.timestamp(timestampSec);
                }
                commands.functions(functions);
            }
        } catch (IOException e) {
            failed(e);
            throw e;
        }
    }

    @Override
    public void key(SnapshotHandOver.Key k) throws IOException {
        long expireAt = k.expireAtMs();
        if (expireAt != Database.NO_EXPIRE && expireAt < instantMs) {
            return;
        }
        if (entries != null) {
            entries.write(k.db(), k.key(), k.value(), expireAt, k.idleSeconds(), k.freq());
        } else {
            commands.key(k.db(), k.key(), k.value(), expireAt);
        }
    }

    @Override
    public void finish() throws IOException {
        if (rdb != null) {
            rdb.finish();
        }
        out.flush();
        channel.force(true);
        channel.close();
    }

    @Override
    public void failed(IOException e) {
        LOG.warn("Write error writing append only file on disk: {}", RdbFiles.reason(e));
        discard();
    }

    @Override
    public void discard() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // The file is being thrown away.
            }
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException ignored) {
            // Best effort, as Redis's aofRemoveTempFile.
        }
    }
}
