package dev.ebb.server.persistence;

import dev.ebb.server.Server;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.script.FunctionException;
import dev.ebb.server.script.Functions;
import dev.ebb.storage.Database;
import dev.ebb.storage.rdb.RdbException;
import dev.ebb.storage.rdb.RdbLimits;
import dev.ebb.storage.rdb.RdbReader;
import dev.ebb.storage.rdb.RdbVisitor;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads the AOF base in RDB format ({@code aof-use-rdb-preamble yes}, Redis's default) back into the
 * databases at start-up ({@link AofBaseOutput} writes it). Keys whose time to live passed are kept when
 * loading, as Redis keeps them from an AOF preamble, and expire as usual afterwards; {@code key-load-delay}
 * slows each key down as in Redis's rdbLoad. Stateless.
 */
final class RdbBase {
    private RdbBase() {
    }

    /**
     * Loads the RDB at the start of {@code path} into {@code server}'s databases, a {@code pump} step after
     * each key.
     *
     * @return the bytes the RDB took: a Redis 6 AOF has commands after its RDB preamble
     */
    static long load(Server server, Path path, LoadingPump pump) throws IOException {
        ServerConfig config = server.config();
        RdbLimits limits = new RdbLimits(config.hashMaxListpackEntries(), config.hashMaxListpackValue(),
                config.setMaxIntsetEntries(), config.setMaxListpackEntries(), config.setMaxListpackValue(),
                config.zsetMaxListpackEntries(), config.zsetMaxListpackValue(), config.listMaxListpackSize(),
                config.listCompressDepth());
        long now = server.nowMs();
        int keyLoadDelay = config.keyLoadDelay();
        SplittableRandom random = new SplittableRandom();
        List<byte[]> functions = new ArrayList<>();
        long consumed;
        AtomicLong read = new AtomicLong();
        // Counted under the buffer: one addition per 64 KB read, not one per byte the reader takes.
        try (InputStream in = new BufferedInputStream(new RdbLoad.CountingInput(Files.newInputStream(path), read),
                1 << 16)) {
            consumed = new RdbReader(limits, true).read(in, new RdbVisitor() {
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
                    if (keyLoadDelay != 0) {
                        RdbLoad.debugDelay(keyLoadDelay, random);
                    }
                    Database d = server.db(db);
                    d.add(key, value, now);
                    if (expireAtMs >= 0) {
                        d.setExpire(key, expireAtMs);
                    }
                    pump.step(read.get());
                }
            });
        }
        try {
            server.scripting().functions().restore(functions, Functions.RestorePolicy.APPEND);
        } catch (FunctionException e) {
            throw new RdbException("Failed loading library: " + e.getMessage());
        }
        return consumed;
    }
}
