package dev.ebb.server.persistence;

import dev.ebb.server.Server;
import dev.ebb.storage.Database;
import dev.ebb.storage.rdb.RdbOptions;
import dev.ebb.storage.rdb.RdbWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The RDB file on disk, written as Redis writes it: into {@code temp-<pid>.rdb} in {@code dir},
 * flushed and fsynced, then renamed over {@code dbfilename} (atomic on POSIX) and the directory
 * fsynced, so a crash at any point leaves either the old file or the new one, never half of one.
 */
final class RdbFiles {
    private RdbFiles() {
    }

    /** The temporary file a save writes before the rename, as Redis names it ({@code temp-<pid>.rdb}). */
    static Path tempFile(Path dir) {
        return dir.resolve("temp-" + ProcessHandle.current().pid() + ".rdb");
    }

    /**
     * The AUX fields Redis 7.2 writes, in its order; {@code aofBase} for the RDB preamble of an AOF base
     * file (which, as Redis's, carries no replication fields). With {@code server} given, Redis's
     * {@code repl-stream-db}, {@code repl-id} and {@code repl-offset} when the server is in a replication
     * history (a replica, or a primary with a backlog), so that a replica restarted from this file can
     * continue with PSYNC.
     */
    static Map<String, byte[]> auxFields(long nowMs, long usedMemory, boolean aofBase, Server server) {
        Map<String, byte[]> aux = new LinkedHashMap<>();
        aux.put("redis-ver", ascii(Server.REDIS_VERSION));
        aux.put("redis-bits", ascii("64"));
        aux.put("ctime", ascii(Long.toString(nowMs / 1000)));
        aux.put("used-mem", ascii(Long.toString(usedMemory)));
        dev.ebb.server.replication.ReplicationState r = server == null ? null : server.replication();
        if (r != null && r.backlog() != null) {
            aux.put("repl-stream-db", ascii(Integer.toString(server.primaryLink().streamDb())));
            aux.put("repl-id", ascii(r.replid()));
            aux.put("repl-offset", ascii(Long.toString(r.offset())));
        }
        aux.put("aof-base", ascii(aofBase ? "1" : "0"));
        return aux;
    }

    /** The header version for {@code dbs}: 12 if a hash has field TTLs (Redis 7.4 loads it), else 11 (Redis 7.2 too). */
    static int version(Database[] dbs) {
        for (Database db : dbs) {
            if (db.volatileHashes().size() > 0) {
                return RdbWriter.versionFor(true);
            }
        }
        return RdbWriter.versionFor(false);
    }

    /** FUNCTION2 records, written after the AUX fields and before the databases as Redis does. */
    static void writeFunctions(RdbWriter writer, java.util.List<byte[]> codes) throws IOException {
        for (byte[] code : codes) {
            writer.function(code);
        }
    }

    static RdbOptions options(Server server) {
        return new RdbOptions(server.config().rdbCompression(), server.config().rdbChecksum());
    }

    /** An open temporary file: an RDB writer over it, and the channel to fsync. */
    static final class Target implements AutoCloseable {
        final Path temp;
        final FileChannel channel;
        final RdbWriter writer;

        /** {@code nowMs}: hash fields expired before it are not written. */
        Target(Path temp, RdbOptions options, long nowMs) throws IOException {
            this.temp = temp;
            this.channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            OutputStream out = Channels.newOutputStream(channel);
            this.writer = new RdbWriter(out, options, nowMs);
        }

        /** EOF and checksum, fsync, close, rename over {@code target}, fsync the directory. */
        void commit(Path target) throws IOException {
            writer.finish();
            channel.force(true);
            channel.close();
            try {
                try {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                throw new MoveFailed("Error moving temp DB file " + temp.getFileName() + " on the final destination "
                        + target.getFileName() + " (in server root dir " + target.toAbsolutePath().getParent()
                        + "): " + reason(e), e);
            }
            fsyncDirectory(target.toAbsolutePath().getParent());
        }

        /** Closes and deletes the temporary file (a failed or killed save). */
        void discard() {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Nothing more to do for a file that is being thrown away.
            }
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // As Redis's rdbRemoveTempFile: best effort.
            }
        }

        @Override
        public void close() {
            discard();
        }
    }

    /** The rename over the RDB file failed; the message is Redis's log line for it. */
    static final class MoveFailed extends IOException {
        private static final long serialVersionUID = 1L;

        MoveFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static void fsyncDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException ignored) {
            // Some file systems cannot open or fsync a directory; the rename itself has happened.
        }
    }

    /** An I/O failure as strerror would put it where Java can tell ("No such file or directory" ...). */
    static String reason(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof java.nio.file.DirectoryNotEmptyException || e instanceof java.nio.file.FileSystemException fs
                && fs.getReason() != null && fs.getReason().contains("directory")) {
            return "Is a directory";
        }
        String message = e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
