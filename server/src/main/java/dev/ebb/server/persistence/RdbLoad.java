package dev.ebb.server.persistence;

import dev.ebb.storage.Database;
import dev.ebb.storage.rdb.RdbException;
import dev.ebb.storage.rdb.RdbVisitor;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects an RDB file's keys into fresh databases, as Redis's rdbLoad on a primary: keys whose
 * expiry has passed are counted and dropped, a database number past {@code databases} and a key met
 * twice refuse the file, and the AUX fields are logged as Redis logs them. The caller swaps the
 * databases in only when the whole file was read, so a failure never leaves half a file loaded.
 *
 * <p>Used by the one thread that reads the file.
 */
final class RdbLoad implements RdbVisitor {
    private static final Logger LOG = LoggerFactory.getLogger(Persistence.class);
    /** The fewest file bytes a key takes: its type, its key's length and its value's length. */
    private static final int MIN_KEY_BYTES = 3;

    private final Database[] target;
    private final long nowMs;
    private final int keyLoadDelayMicros;
    private final long fileBytes;
    private final java.util.SplittableRandom random = new java.util.SplittableRandom();
    private long loaded;
    private long expired;
    private final java.util.List<byte[]> functions = new java.util.ArrayList<>();
    private boolean keepExpired;
    private boolean replaceDuplicates;
    private String replId;
    private long replOffset = -1;
    private int replStreamDb;
    private int currentDb;

    /** {@code fileBytes}: the file's size, which bounds what a RESIZEDB hint may make it allocate. */
    RdbLoad(Database[] target, long nowMs, int keyLoadDelayMicros, long fileBytes) {
        this.target = target;
        this.nowMs = nowMs;
        this.keyLoadDelayMicros = keyLoadDelayMicros;
        this.fileBytes = fileBytes;
    }

    /** Keeps keys whose time has passed, as Redis's rdbLoad does on a replica (its primary deletes them). */
    RdbLoad keepExpired() {
        keepExpired = true;
        return this;
    }

    /** A key of the file that the target holds already replaces it (DEBUG RELOAD NOFLUSH MERGE), instead of failing the load. */
    RdbLoad replaceDuplicates() {
        replaceDuplicates = true;
        return this;
    }

    /** The {@code repl-id} AUX field, or null if the file has none. */
    String replId() {
        return replId;
    }

    /** The {@code repl-offset} AUX field, or -1. */
    long replOffset() {
        return replOffset;
    }

    /** The {@code repl-stream-db} AUX field, or 0. */
    int replStreamDb() {
        return replStreamDb;
    }

    long loaded() {
        return loaded;
    }

    /** The function libraries' code (FUNCTION2 records), in file order. */
    java.util.List<byte[]> functions() {
        return functions;
    }

    @Override
    public void function(byte[] code) {
        functions.add(code);
    }

    long expired() {
        return expired;
    }

    @Override
    public void aux(byte[] key, byte[] value) {
        String name = new String(key, StandardCharsets.ISO_8859_1);
        String text = new String(value, StandardCharsets.ISO_8859_1);
        switch (name) {
            case "redis-ver" -> LOG.info("Loading RDB produced by version {}", text);
            case "ctime" -> {
                long age = nowMs / 1000 - parse(text);
                LOG.info("RDB age {} seconds", Math.max(age, 0));
            }
            case "used-mem" -> LOG.info("RDB memory usage when created {} Mb",
                    String.format("%.2f", parse(text) / 1024.0 / 1024.0));
            case "repl-id" -> replId = text.length() == 40 ? text : null;
            case "repl-offset" -> replOffset = parse(text);
            case "repl-stream-db" -> replStreamDb = (int) parse(text);
            default -> {
            }
        }
    }

    @Override
    public void selectDb(int db) throws RdbException {
        checkDb(db);
        currentDb = db;
    }

    /**
     * Sizes the database's tables for the keys to come, as Redis expands its dicts: no resize runs while
     * they arrive. A key takes at least {@link #MIN_KEY_BYTES} of the file, so a larger hint is corrupt
     * data and is cut to what the file can hold.
     */
    @Override
    public void resizeDb(long size, long expires) {
        long most = fileBytes / MIN_KEY_BYTES;
        target[currentDb].presize((int) Math.min(Math.min(size, most), Integer.MAX_VALUE),
                (int) Math.min(Math.min(expires, most), Integer.MAX_VALUE));
    }

    @Override
    public void entry(int db, byte[] key, Object value, long expireAtMs, long lruIdleSeconds, int lfuFreq)
            throws IOException {
        checkDb(db);
        if (keyLoadDelayMicros != 0) {
            delay();
        }
        if (expireAtMs != -1 && expireAtMs < nowMs && !keepExpired) {
            expired++;
            return;
        }
        Database d = target[db];
        if (replaceDuplicates && d.hasEntry(key)) {
            d.delete(key);
        }
        if (!d.tryAdd(key, value, nowMs)) {
            String printable = new String(key, StandardCharsets.ISO_8859_1);
            LOG.warn("RDB has duplicated key '{}' in DB {}", printable, db);
            throw new RdbException("Duplicated key found in RDB file");
        }
        if (expireAtMs != -1) {
            d.setExpire(key, expireAtMs);
        }
        if (lruIdleSeconds >= 0 || lfuFreq >= 0) {
            d.setAccessInfo(key, lruIdleSeconds, lfuFreq, nowMs);
        }
        loaded++;
    }

    private void delay() throws IOException {
        debugDelay(keyLoadDelayMicros, random);
    }

    /**
     * Redis's debugDelay for {@code key-load-delay}: a pause of that many microseconds, or, negative, of 1 us once
     * every -n calls.
     */
    static void debugDelay(int keyLoadDelayMicros, java.util.SplittableRandom random) throws IOException {
        long micros = keyLoadDelayMicros > 0 ? keyLoadDelayMicros
                : random.nextInt(-(long) keyLoadDelayMicros > Integer.MAX_VALUE ? Integer.MAX_VALUE
                        : -keyLoadDelayMicros) == 0 ? 1 : 0;
        if (micros > 0) {
            try {
                java.util.concurrent.TimeUnit.MICROSECONDS.sleep(micros);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("loading interrupted");
            }
        }
    }

    private void checkDb(int db) throws RdbException {
        if (db >= target.length) {
            throw new RdbException("FATAL: Data file was created with a Redis server configured to handle more than "
                    + target.length + " databases. Exiting\n");
        }
    }

    private static long parse(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Counts the bytes read, for INFO's loading progress; the count may be read from any thread. */
    static final class CountingInput extends FilterInputStream {
        private final AtomicLong count;

        CountingInput(InputStream in, AtomicLong count) {
            super(in);
            this.count = count;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count.incrementAndGet();
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count.addAndGet(n);
            }
            return n;
        }
    }
}
