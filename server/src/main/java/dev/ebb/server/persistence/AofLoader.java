package dev.ebb.server.persistence;

import dev.ebb.server.ReplayClient;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays the files of an {@link AofManifest} (Redis's loadAppendOnlyFiles and
 * loadSingleAppendOnlyFile): the base, then each incremental file in order, command by command
 * through a {@link ReplayClient}. {@code #} lines are annotations and skipped. A MULTI left open
 * at the end of a file is reverted (as a truncated tail). A file that ends inside a command is
 * loaded up to its last whole command, and cut there, if it is the last file and
 * {@code aof-load-truncated} is yes; otherwise loading fails. Failures carry Redis's log text.
 * A base in RDB format (starting with {@code REDIS}) goes to the {@link RdbLoader} given.
 *
 * <p>Runs on the command loop thread; after each command the {@link LoadingPump} may serve the other
 * clients (with {@code -LOADING}).
 */
final class AofLoader {
    private static final Logger LOG = LoggerFactory.getLogger(AofLoader.class);
    /** Redis's AOF_ANNOTATION_LINE_MAX_LEN: the longest line fgets reads in one go. */
    private static final int LINE_MAX = 1024;

    /** Loads an RDB-format base file (or a Redis 6 AOF's RDB preamble) into the databases. */
    interface RdbLoader {
        /** @return the bytes the RDB took, up to and including its checksum: commands may follow */
        long load(Path file) throws IOException;
    }

    /** What came of loading. */
    enum Result { OK, TRUNCATED, EMPTY, NOT_EXIST }

    private final Path dir;
    /** {@code appendfilename}: a file of that name is a Redis 6 single-file AOF moved in by the upgrade. */
    private final String appendFileName;
    private final ReplayClient replay;
    private final boolean loadTruncated;
    private final RdbLoader rdbLoader;
    private final LoadingPump pump;
    private long commands;
    /** Bytes of the files already loaded, before the current one. */
    private long doneBytes;

    AofLoader(Path dir, String appendFileName, ReplayClient replay, boolean loadTruncated, RdbLoader rdbLoader,
            LoadingPump pump) {
        this.dir = dir;
        this.appendFileName = appendFileName;
        this.replay = replay;
        this.loadTruncated = loadTruncated;
        this.rdbLoader = rdbLoader;
        this.pump = pump;
    }

    /** The total size of the files {@code manifest} names (the size INFO reports as loading), 0 if none. */
    long totalBytes(AofManifest manifest) throws AofException {
        long total = 0;
        for (AofManifest.Entry e : files(manifest)) {
            try {
                total += Files.size(dir.resolve(e.name()));
            } catch (IOException ex) {
                throw new AofException("Unable to obtain the AOF file " + e.name() + " length. stat: "
                        + (ex instanceof NoSuchFileException ? "No such file or directory" : ex.getMessage()));
            }
        }
        return total;
    }

    private static List<AofManifest.Entry> files(AofManifest manifest) {
        List<AofManifest.Entry> files = new ArrayList<>();
        if (manifest.base() != null) {
            files.add(manifest.base());
        }
        files.addAll(manifest.incrs());
        return files;
    }

    /** Commands replayed so far. */
    long commands() {
        return commands;
    }

    /** Loads every file of {@code manifest}; NOT_EXIST if it names none, EMPTY if they hold nothing. */
    Result loadAll(AofManifest manifest) throws AofException {
        if (manifest == null || manifest.isEmpty()) {
            return Result.NOT_EXIST;
        }
        List<AofManifest.Entry> files = files(manifest);
        if (totalBytes(manifest) == 0) {
            return Result.EMPTY;
        }
        Result result = Result.OK;
        for (int i = 0; i < files.size(); i++) {
            AofManifest.Entry e = files.get(i);
            boolean last = i == files.size() - 1;
            long start = System.nanoTime();
            Result r = loadFile(e.name(), last);
            if (r == Result.OK || r == Result.TRUNCATED) {
                LOG.info("DB loaded from {} file {}: {} seconds", e.type() == AofManifest.BASE ? "base" : "incr",
                        e.name(), String.format("%.3f", (System.nanoTime() - start) / 1e9));
            }
            if (r == Result.TRUNCATED) {
                result = Result.TRUNCATED;
            }
            doneBytes += size(e.name());
        }
        return result;
    }

    private long size(String name) {
        try {
            return Files.size(dir.resolve(name));
        } catch (IOException e) {
            return 0;
        }
    }

    /** Redis's loadSingleAppendOnlyFile for {@code dir/name}. */
    Result loadFile(String name, boolean lastFile) throws AofException {
        Path path = dir.resolve(name);
        if (!Files.exists(path)) {
            LOG.warn("The append log file {} doesn't exist: No such file or directory", name);
            return Result.NOT_EXIST;
        }
        try (InputStream raw = Files.newInputStream(path)) {
            if (Files.size(path) == 0) {
                return Result.EMPTY;
            }
            Reader in = new Reader(new BufferedInputStream(raw, 1 << 16));
            if (startsWithRdb(path)) {
                // As Redis, commands after the RDB are replayed: a Redis 6 AOF is an RDB preamble and its tail.
                boolean oldStyle = name.equals(appendFileName);
                in.skip(loadRdbBase(path, name, oldStyle));
                if (oldStyle) {
                    LOG.info("Reading the remaining AOF tail...");
                }
            }
            return replay(in, path, name, lastFile);
        } catch (IOException e) {
            throw new AofException("Unrecoverable error reading the append only file " + name + ": " + e.getMessage());
        }
    }

    private static boolean startsWithRdb(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            byte[] sig = in.readNBytes(5);
            return sig.length == 5 && new String(sig, StandardCharsets.ISO_8859_1).equals("REDIS");
        }
    }

    /** @return the bytes the RDB took */
    private long loadRdbBase(Path path, String name, boolean oldStyle) throws AofException, IOException {
        LOG.info(oldStyle ? "Reading RDB preamble from AOF file..." : "Reading RDB base file on AOF loading...");
        if (rdbLoader == null) {
            throw new AofException("Error reading the RDB base file " + name
                    + ", AOF loading aborted: this build of Ebb cannot read RDB files");
        }
        try {
            return rdbLoader.load(path);
        } catch (IOException e) {
            throw new AofException((oldStyle ? "Error reading the RDB preamble of the AOF file " : "Error reading the "
                    + "RDB base file ") + name + ", AOF loading aborted: " + e.getMessage());
        }
    }

    private Result replay(Reader in, Path path, String name, boolean lastFile) throws IOException, AofException {
        // After an RDB part the file is valid up to where the commands start: a cut never reaches into it.
        long validUpTo = in.position();
        long validBeforeMulti = validUpTo;
        byte[] line = new byte[LINE_MAX];
        while (true) {
            int n = in.line(line);
            if (n < 0) {
                break;
            }
            if (line[0] == '#') {
                continue;
            }
            if (line[0] != '*') {
                throw formatError(name);
            }
            if (n == 1) {
                return unexpectedEof(path, name, lastFile, validUpTo);
            }
            long argc = atoi(line, 1, n);
            if (argc < 1) {
                throw formatError(name);
            }
            byte[][] argv = new byte[(int) Math.min(argc, 1 << 20)][];
            if (argv.length != argc) {
                throw formatError(name);
            }
            for (int j = 0; j < argc; j++) {
                int m = in.line(line);
                if (m < 0) {
                    return unexpectedEof(path, name, lastFile, validUpTo);
                }
                if (line[0] != '$') {
                    throw formatError(name);
                }
                long len = atoi(line, 1, m);
                if (len < 0 || len > Integer.MAX_VALUE - 8) {
                    throw formatError(name);
                }
                byte[] arg = in.exactly((int) len);
                if (arg == null || in.exactly(2) == null) {
                    return unexpectedEof(path, name, lastFile, validUpTo);
                }
                argv[j] = arg;
            }
            if (new String(argv[0], StandardCharsets.ISO_8859_1).equalsIgnoreCase("multi")) {
                validBeforeMulti = validUpTo;
            }
            if (!replay.run(argv)) {
                throw new AofException("Unknown command '" + new String(argv[0], StandardCharsets.UTF_8)
                        + "' reading the append only file " + name);
            }
            commands++;
            validUpTo = in.position();
            pump.step(doneBytes + validUpTo);
        }
        if (replay.inMulti()) {
            LOG.warn("Revert incomplete MULTI/EXEC transaction in AOF file {}", name);
            replay.run(new byte[][] {"DISCARD".getBytes(StandardCharsets.US_ASCII)});
            return unexpectedEof(path, name, lastFile, validBeforeMulti);
        }
        return Result.OK;
    }

    /** Redis's uxeof: cut the file at the last whole command if allowed, else fail. */
    private Result unexpectedEof(Path path, String name, boolean lastFile, long validUpTo) throws AofException {
        if (replay.inMulti()) {
            replay.run(new byte[][] {"DISCARD".getBytes(StandardCharsets.US_ASCII)});
        }
        if (loadTruncated && lastFile) {
            LOG.warn("!!! Warning: short read while loading the AOF file {}!!!", name);
            LOG.warn("!!! Truncating the AOF {} at offset {} !!!", name, validUpTo);
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
                ch.truncate(validUpTo);
                ch.force(true);
            } catch (IOException e) {
                LOG.warn("Error truncating the AOF file {}: {}", name, e.getMessage());
                throw new AofException(unexpectedEofText(name));
            }
            LOG.warn("AOF {} loaded anyway because aof-load-truncated is enabled", name);
            return Result.TRUNCATED;
        }
        if (loadTruncated) {
            throw new AofException("Fatal error: the truncated file is not the last file");
        }
        throw new AofException(unexpectedEofText(name));
    }

    static String unexpectedEofText(String name) {
        return "Unexpected end of file reading the append only file " + name + ". You can: "
                + "1) Make a backup of your AOF file, then use ./redis-check-aof --fix <filename.manifest>. "
                + "2) Alternatively you can set the 'aof-load-truncated' configuration option to yes and restart "
                + "the server.";
    }

    private static AofException formatError(String name) {
        return new AofException("Bad file format reading the append only file " + name
                + ": make a backup of your AOF file, then use ./redis-check-aof --fix <filename.manifest>");
    }

    /** C's atoi/strtol over {@code line[from, to)}: optional sign, digits, stops at the first other byte. */
    private static long atoi(byte[] line, int from, int to) {
        int i = from;
        boolean negative = false;
        if (i < to && (line[i] == '-' || line[i] == '+')) {
            negative = line[i++] == '-';
        }
        long n = 0;
        while (i < to && line[i] >= '0' && line[i] <= '9' && n < Long.MAX_VALUE / 10) {
            n = n * 10 + (line[i++] - '0');
        }
        return negative ? -n : n;
    }

    /** A byte stream that counts its position and reads lines as fgets does. */
    private static final class Reader {
        private final InputStream in;
        private long position;

        Reader(InputStream in) {
            this.in = in;
        }

        long position() {
            return position;
        }

        /**
         * Reads up to and including '\n', at most {@code buf.length - 1} bytes, as fgets: returns the
         * number of bytes read, or -1 at end of file with nothing read.
         */
        int line(byte[] buf) throws IOException {
            int n = 0;
            while (n < buf.length - 1) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                position++;
                buf[n++] = (byte) b;
                if (b == '\n') {
                    break;
                }
            }
            return n == 0 ? -1 : n;
        }

        /** Skips {@code n} bytes (the file has them). */
        void skip(long n) throws IOException {
            in.skipNBytes(n);
            position += n;
        }

        /** Exactly {@code len} bytes, or null if the file ends first. */
        byte[] exactly(int len) throws IOException {
            byte[] b = in.readNBytes(len);
            position += b.length;
            return b.length == len ? b : null;
        }
    }
}
