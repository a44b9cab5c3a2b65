package dev.ebb.server.persistence;

import dev.ebb.server.Server;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.script.FunctionException;
import dev.ebb.server.script.FunctionLibrary;
import dev.ebb.server.script.Functions;
import dev.ebb.storage.Database;
import dev.ebb.storage.rdb.RdbException;
import dev.ebb.storage.rdb.RdbLimits;
import dev.ebb.storage.rdb.RdbOptions;
import dev.ebb.storage.rdb.RdbReader;
import dev.ebb.storage.rdb.RdbVisitor;
import dev.ebb.storage.rdb.RdbWriter;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The AOF base in RDB format ({@code aof-use-rdb-preamble yes}, Redis's default): written as Redis's
 * rewriteAppendOnlyFile writes it (AUX redis-ver, redis-bits, ctime, used-mem, aof-base 1; no
 * replication fields), read back into the databases at start-up. Keys whose time to live passed
 * are kept when loading, as Redis keeps them from an AOF preamble, and expire as usual afterwards.
 * Writing walks the databases, so it runs on the command loop thread. Stateless.
 */
final class RdbBase {
    private RdbBase() {
    }

    /** Writes every database of {@code server}, keys already expired at {@code nowMs} left out; returns the key count. */
    static long write(Server server, long nowMs, OutputStream out) throws IOException {
        RdbWriter writer = new RdbWriter(out, RdbOptions.DEFAULTS, nowMs);
        Database[] dbs = new Database[server.databases()];
        for (int i = 0; i < dbs.length; i++) {
            dbs[i] = server.db(i);
        }
        Map<String, byte[]> aux = new LinkedHashMap<>();
        aux.put("redis-ver", ascii(Server.REDIS_VERSION));
        aux.put("redis-bits", ascii("64"));
        aux.put("ctime", ascii(Long.toString(nowMs / 1000)));
        aux.put("used-mem", ascii(Long.toString(server.usedMemory())));
        aux.put("aof-base", ascii("1"));
        writer.header(aux, RdbFiles.version(dbs));
        for (FunctionLibrary library : server.scripting().functions().libraries()) {
            writer.function(library.code());
        }
        long[] keys = new long[1];
        try {
            for (int i = 0; i < server.databases(); i++) {
                Database db = server.db(i);
                if (db.size() == 0) {
                    continue;
                }
                writer.selectDb(i, db.size(), db.expiresSize());
                db.forEachKey((key, value) -> {
                    long expireAt = db.getExpire(key);
                    if (expireAt != Database.NO_EXPIRE && expireAt < nowMs) {
                        return;
                    }
                    try {
                        writer.entry(key, value, expireAt == Database.NO_EXPIRE ? -1 : expireAt, -1, -1);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    keys[0]++;
                });
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        writer.finish();
        return keys[0];
    }

    /** Loads the RDB file {@code path} into {@code server}'s databases. */
    static void load(Server server, Path path) throws IOException {
        ServerConfig config = server.config();
        RdbLimits limits = new RdbLimits(config.hashMaxListpackEntries(), config.hashMaxListpackValue(),
                config.setMaxIntsetEntries(), config.setMaxListpackEntries(), config.setMaxListpackValue(),
                config.zsetMaxListpackEntries(), config.zsetMaxListpackValue(), config.listMaxListpackSize(),
                config.listCompressDepth());
        long now = server.nowMs();
        List<byte[]> functions = new ArrayList<>();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(path), 1 << 16)) {
            new RdbReader(limits, true).read(in, new RdbVisitor() {
                @Override
                public void function(byte[] code) {
                    functions.add(code);
                }

                @Override
                public void entry(int db, byte[] key, Object value, long expireAtMs, long lruIdleSeconds,
                        int lfuFreq) throws IOException {
                    if (db >= server.databases()) {
                        throw new RdbException("FATAL: Data file was created with a Redis server configured to"
                                + " handle more than " + server.databases() + " databases. Exiting");
                    }
                    Database d = server.db(db);
                    d.add(key, value, now);
                    if (expireAtMs >= 0) {
                        d.setExpire(key, expireAtMs);
                    }
                }
            });
        }
        try {
            server.scripting().functions().restore(functions, Functions.RestorePolicy.APPEND);
        } catch (FunctionException e) {
            throw new RdbException("Failed loading library: " + e.getMessage());
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
