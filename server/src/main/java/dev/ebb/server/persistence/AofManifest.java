package dev.ebb.server.persistence;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Redis 7's AOF manifest ({@code <appendfilename>.manifest} in {@code appenddirname}): which
 * files make up the append-only file. One line per file, {@code file <name> seq <n> type <t>\n},
 * where the type is {@code b} (the base: a snapshot from the last rewrite, RDB or AOF format),
 * {@code i} (incremental files of commands since, replayed in order) or {@code h} (history,
 * replaced by a rewrite and about to be deleted). The base comes first, then history, then
 * incrementals. File names: {@code <appendfilename>.<seq>.base.rdb|aof},
 * {@code <appendfilename>.<seq>.incr.aof}. Names that need quoting are written as Redis's
 * sdscatrepr writes them and read as sdssplitargs reads them.
 *
 * <p>Mutable, loop thread only; {@link #copy()} before a change that may have to be rolled back,
 * as Redis duplicates its manifest.
 */
public final class AofManifest {
    private static final Logger LOG = LoggerFactory.getLogger(AofManifest.class);
    /** One line of the manifest. */
    public record Entry(String name, long seq, char type) {
    }

    static final char BASE = 'b';
    static final char INCR = 'i';
    static final char HISTORY = 'h';

    private final String fileName;
    private Entry base;
    private final List<Entry> history = new ArrayList<>();
    private final List<Entry> incrs = new ArrayList<>();
    private long baseSeq;
    private long incrSeq;

    public AofManifest(String appendFileName) {
        this.fileName = appendFileName;
    }

    /** {@code <appendfilename>.manifest}. */
    public static String manifestName(String appendFileName) {
        return appendFileName + ".manifest";
    }

    public Entry base() {
        return base;
    }

    public List<Entry> incrs() {
        return incrs;
    }

    public List<Entry> history() {
        return history;
    }

    /**
     * Redis 7's upgrade path (loadAppendOnlyFiles and aofUpgradePrepare), before an AOF is loaded: an
     * {@code appendfilename} in {@code dataDir} is a Redis 6 (or older) single-file AOF when {@code aofDir}
     * does not exist, its manifest names no file, or the manifest names only that file as its base and
     * {@code aofDir} lacks it (an upgrade interrupted after the manifest was written). The file moves into
     * {@code aofDir} as base number 1 of a new manifest, persisted first, and is then loaded like any base
     * (RDB preamble or commands).
     *
     * @param current the manifest read from {@code aofDir}, or null
     * @return the manifest to load: {@code current}, or the upgrade's
     * @throws AofException with Redis's text when the directory, the manifest or the move fails
     */
    static AofManifest upgradeOldStyleFile(Path dataDir, Path aofDir, String appendFileName, AofManifest current)
            throws AofException {
        Path old = dataDir.resolve(appendFileName);
        if (!Files.isRegularFile(old)) {
            return current;
        }
        boolean interrupted = current != null && current.incrs.isEmpty() && current.base != null
                && current.base.name().equals(appendFileName) && !Files.exists(aofDir.resolve(appendFileName));
        if (Files.isDirectory(aofDir) && current != null && !current.isEmpty() && !interrupted) {
            return current;
        }
        try {
            Files.createDirectories(aofDir);
        } catch (IOException e) {
            throw new AofException("Can't open or create append-only dir " + aofDir.getFileName() + ": "
                    + e.getMessage());
        }
        AofManifest upgraded = new AofManifest(appendFileName);
        upgraded.base = new Entry(appendFileName, 1, BASE);
        upgraded.baseSeq = 1;
        try {
            upgraded.persist(aofDir);
            Files.move(old, aofDir.resolve(appendFileName), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new AofException("Error trying to rename the existing AOF to the AOF directory: " + e.getMessage());
        }
        LOG.info("Successfully migrated an old-style AOF file ({}) into the AOF directory ({}).", appendFileName,
                aofDir.getFileName());
        return upgraded;
    }

    /** Whether the manifest names no base and no incremental file (a first start). */
    public boolean isEmpty() {
        return base == null && incrs.isEmpty();
    }

    public AofManifest copy() {
        AofManifest m = new AofManifest(fileName);
        m.base = base;
        m.history.addAll(history);
        m.incrs.addAll(incrs);
        m.baseSeq = baseSeq;
        m.incrSeq = incrSeq;
        return m;
    }

    /** Redis's getNewBaseFileNameAndMarkPreAsHistory: the next base's name; the current base becomes history. */
    String newBase(boolean rdb) {
        if (base != null) {
            history.add(new Entry(base.name(), base.seq(), HISTORY));
        }
        long seq = ++baseSeq;
        String name = fileName + "." + seq + ".base" + (rdb ? ".rdb" : ".aof");
        base = new Entry(name, seq, BASE);
        return name;
    }

    /** Redis's getNewIncrAofName: appends the next incremental file and returns its name. */
    String newIncr() {
        long seq = ++incrSeq;
        String name = fileName + "." + seq + ".incr.aof";
        incrs.add(new Entry(name, seq, INCR));
        return name;
    }

    /** The incremental file to append to: the last one, or a new one if there is none. */
    String lastIncr() {
        return incrs.isEmpty() ? newIncr() : incrs.get(incrs.size() - 1).name();
    }

    /**
     * Redis's markRewrittenIncrAofAsHistory, after a rewrite: every incremental file becomes history but,
     * with {@code keepLast} (appendonly on), the last one, opened when the rewrite started.
     */
    void markRewrittenIncrsAsHistory(boolean keepLast) {
        while (incrs.size() > (keepLast ? 1 : 0)) {
            Entry e = incrs.remove(0);
            history.add(new Entry(e.name(), e.seq(), HISTORY));
        }
    }

    /** Forgets the history files (after deleting them). */
    void clearHistory() {
        history.clear();
    }

    /** The manifest's text: base, history, incrementals, one line each. */
    public String format() {
        StringBuilder sb = new StringBuilder();
        if (base != null) {
            line(sb, base);
        }
        history.forEach(e -> line(sb, e));
        incrs.forEach(e -> line(sb, e));
        return sb.toString();
    }

    private static void line(StringBuilder sb, Entry e) {
        sb.append("file ").append(needsRepr(e.name()) ? repr(e.name()) : e.name())
                .append(" seq ").append(e.seq()).append(" type ").append(e.type()).append('\n');
    }

    /**
     * Parses a manifest as Redis's aofLoadManifestFromFile: comment lines skipped; every other line
     * has an even number (at least 6) of words, key-value pairs {@code file}, {@code seq} and
     * {@code type} in any order (unknown keys ignored); one base at most; incremental sequence
     * numbers increasing.
     *
     * @throws AofException with Redis's message for the first problem
     */
    public static AofManifest parse(String appendFileName, String text) throws AofException {
        AofManifest m = new AofManifest(appendFileName);
        long maxSeq = 0;
        int lineNum = 0;
        int start = 0;
        if (text.isEmpty()) {
            throw new AofException("Found an empty AOF manifest");
        }
        while (start < text.length()) {
            int nl = text.indexOf('\n', start);
            if (nl < 0) {
                nl = text.length();
            }
            String raw = text.substring(start, nl);
            start = nl + 1;
            lineNum++;
            if (raw.startsWith("#")) {
                continue;
            }
            String line = raw.strip();
            List<String> words = line.isEmpty() ? null : splitArgs(line);
            if (words == null || words.size() < 6 || words.size() % 2 != 0) {
                throw manifestError(lineNum, line, "Invalid AOF manifest file format");
            }
            String name = null;
            long seq = 0;
            char type = 0;
            for (int i = 0; i < words.size(); i += 2) {
                String key = words.get(i);
                String value = words.get(i + 1);
                if (key.equalsIgnoreCase("file")) {
                    name = value;
                    if (name.contains("/")) {
                        throw manifestError(lineNum, line, "File can't be a path, just a filename");
                    }
                } else if (key.equalsIgnoreCase("seq")) {
                    seq = atoll(value);
                } else if (key.equalsIgnoreCase("type")) {
                    type = value.isEmpty() ? 0 : value.charAt(0);
                }
            }
            if (name == null || seq == 0 || type == 0) {
                throw manifestError(lineNum, line, "Invalid AOF manifest file format");
            }
            Entry e = new Entry(name, seq, type);
            if (type == BASE) {
                if (m.base != null) {
                    throw manifestError(lineNum, line, "Found duplicate base file information");
                }
                m.base = e;
                m.baseSeq = seq;
            } else if (type == HISTORY) {
                m.history.add(e);
            } else if (type == INCR) {
                if (seq <= maxSeq) {
                    throw manifestError(lineNum, line, "Found a non-monotonic sequence number");
                }
                m.incrs.add(e);
                m.incrSeq = seq;
                maxSeq = seq;
            } else {
                throw manifestError(lineNum, line, "Unknown AOF file type");
            }
        }
        return m;
    }

    /** Reads {@code dir/<appendfilename>.manifest}; null if the directory or the manifest does not exist. */
    public static AofManifest load(Path dir, String appendFileName) throws AofException {
        Path file = dir.resolve(manifestName(appendFileName));
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return parse(appendFileName, Files.readString(file, StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            throw new AofException("Fatal error: can't open the AOF manifest file " + file + " for reading: "
                    + e.getMessage());
        }
    }

    /**
     * Redis's persistAofManifest: writes {@code temp-<appendfilename>.manifest}, fsyncs it, renames
     * it over the manifest and fsyncs the directory, so a crash leaves the old or the new one whole.
     */
    void persist(Path dir) throws IOException {
        Path temp = dir.resolve("temp-" + manifestName(fileName));
        byte[] bytes = format().getBytes(StandardCharsets.ISO_8859_1);
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(java.nio.ByteBuffer.wrap(bytes));
            ch.force(true);
        }
        Files.move(temp, dir.resolve(manifestName(fileName)), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        fsyncDirectory(dir);
    }

    static void fsyncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some file systems refuse to open a directory for fsync; the rename itself is atomic.
        }
    }

    private static AofException manifestError(int lineNum, String line, String reason) {
        return new AofException("FATAL AOF MANIFEST FILE ERROR: reading the manifest file, at line " + lineNum
                + " >>> '" + line + "': " + reason);
    }

    private static long atoll(String s) {
        int i = 0;
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            negative = s.charAt(i++) == '-';
        }
        long n = 0;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            n = n * 10 + (s.charAt(i++) - '0');
        }
        return negative ? -n : n;
    }

    /** Whether Redis's sdsneedsrepr would quote {@code s}: a space, quote, backslash or unprintable byte. */
    static boolean needsRepr(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '\\' || ch == '"' || ch == '\n' || ch == '\r' || ch == '\t' || ch == 7 || ch == '\b'
                    || ch < 32 || ch > 126 || ch == ' ') {
                return true;
            }
        }
        return false;
    }

    /** Redis's sdscatrepr: double-quoted, with C escapes and \xHH for other unprintable bytes. */
    static String repr(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '\\', '"' -> sb.append('\\').append(ch);
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case 7 -> sb.append("\\a");
                case '\b' -> sb.append("\\b");
                default -> {
                    if (ch >= 32 && ch <= 126) {
                        sb.append(ch);
                    } else {
                        sb.append(String.format("\\x%02x", (int) ch & 0xff));
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** Redis's sdssplitargs: words separated by blanks, "double" quotes with escapes, 'single' quotes; null if unbalanced. */
    static List<String> splitArgs(String line) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (true) {
            while (i < n && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i >= n) {
                return out;
            }
            StringBuilder cur = new StringBuilder();
            char quote = 0;
            while (true) {
                if (i >= n) {
                    if (quote != 0) {
                        return null;
                    }
                    break;
                }
                char ch = line.charAt(i);
                if (quote == '"') {
                    if (ch == '\\' && i + 3 < n && line.charAt(i + 1) == 'x' && isHex(line.charAt(i + 2))
                            && isHex(line.charAt(i + 3))) {
                        cur.append((char) Integer.parseInt(line.substring(i + 2, i + 4), 16));
                        i += 3;
                    } else if (ch == '\\' && i + 1 < n) {
                        char e = line.charAt(++i);
                        cur.append(switch (e) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'a' -> (char) 7;
                            default -> e;
                        });
                    } else if (ch == '"') {
                        if (i + 1 < n && !Character.isWhitespace(line.charAt(i + 1))) {
                            return null;
                        }
                        i++;
                        break;
                    } else {
                        cur.append(ch);
                    }
                } else if (quote == '\'') {
                    if (ch == '\\' && i + 1 < n && line.charAt(i + 1) == '\'') {
                        cur.append('\'');
                        i++;
                    } else if (ch == '\'') {
                        if (i + 1 < n && !Character.isWhitespace(line.charAt(i + 1))) {
                            return null;
                        }
                        i++;
                        break;
                    } else {
                        cur.append(ch);
                    }
                } else if (Character.isWhitespace(ch)) {
                    break;
                } else if (ch == '"' || ch == '\'') {
                    quote = ch;
                } else {
                    cur.append(ch);
                }
                i++;
            }
            out.add(cur.toString());
        }
    }

    private static boolean isHex(char c) {
        return Character.digit(c, 16) >= 0;
    }
}
