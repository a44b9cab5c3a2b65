package dev.ebb.server.persistence;

import dev.ebb.server.Client;
import dev.ebb.server.ReplayClient;
import dev.ebb.server.Server;
import dev.ebb.storage.Database;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loading the append-only file into the databases on the command loop, at start-up and for DEBUG LOADAOF
 * (Redis's loadAppendOnlyFiles with the loading state around it): while the files replay, the other clients
 * are served through a {@link LoadingPump} and answered {@code -LOADING}, INFO reports the progress, and no key
 * expires.
 * Loop thread only.
 */
final class AofLoading {
    private static final Logger LOG = LoggerFactory.getLogger(AofLoading.class);
    static final String DEBUG_LOAD_ERROR = "ERR Error trying to load the AOF files, check server logs.";

    private final Server server;
    private final Path dir;
    private final String fileName;
    private long commands;

    AofLoading(Server server, Path dir, String fileName) {
        this.server = server;
        this.dir = dir;
        this.fileName = fileName;
    }

    /** Commands replayed by the last load. */
    long commands() {
        return commands;
    }

    /**
     * Replays the files {@code manifest} names.
     *
     * @param caller the client whose command asked for the load, not served meanwhile; null at start-up
     * @throws LoadingPump.Interrupted if a SHUTDOWN answered meanwhile ended the load
     */
    AofLoader.Result load(AofManifest manifest, Client caller) throws AofException {
        LoadingPump pump = new LoadingPump(server, caller);
        AofLoader loader = new AofLoader(dir, fileName, new ReplayClient(server), server.config().aofLoadTruncated(),
                path -> RdbBase.load(server, path, pump), pump);
        if (manifest == null || manifest.isEmpty()) {
            return loader.loadAll(manifest);
        }
        server.persistence().beginLoading(loader.totalBytes(manifest));
        // Nothing expires while loading (Redis's keyIsExpired when server.loading): a command of the file ran
        // on the key as it was then, and must run on it again, not on a key lazy expiry has just deleted.
        Database.ExpiryMode mode = server.db(0).expiryMode();
        server.expiryMode(Database.ExpiryMode.KEEP);
        try {
            return loader.loadAll(manifest);
        } finally {
            server.expiryMode(mode);
            commands = loader.commands();
            server.persistence().endLoading();
        }
    }

    /**
     * DEBUG LOADAOF, as Redis 7.2's: the databases are emptied, then the files of {@code manifest} (read
     * again from disk by the caller) replay. A load that fails, or finds no file, or a truncated tail, is
     * answered with Redis's error and leaves the databases as far as it got, as in Redis.
     *
     * @return null, or the error to reply
     */
    String debugLoad(AofManifest manifest, Client caller) {
        for (int i = 0; i < server.databases(); i++) {
            server.db(i).flush();
        }
        AofLoader.Result result;
        try {
            result = load(manifest, caller);
        } catch (AofException e) {
            LOG.warn("{}", e.getMessage());
            return DEBUG_LOAD_ERROR;
        } catch (LoadingPump.Interrupted e) {
            return DEBUG_LOAD_ERROR;
        }
        if (result != AofLoader.Result.OK && result != AofLoader.Result.EMPTY) {
            return DEBUG_LOAD_ERROR;
        }
        server.persistence().resetDirty();
        LOG.info("Append Only File loaded by DEBUG LOADAOF");
        return null;
    }
}
