package dev.ebb.server.replication;

import static dev.ebb.server.replication.ReplicationData.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * {@code rdb-del-sync-files} as on redis-server 7.2.4 (checked by hand: a primary with no save point and
 * a disk-based sync, a replica with no persistence): the primary deletes the {@code dump.rdb} its full
 * sync wrote once the replica has it, the replica the file it received once loaded; with the directive
 * off, or with a save point, the files stay.
 */
class RdbDelSyncFilesTest {
    @TempDir
    Path dir;

    private EbbServer ebb(Path own, String extra) throws Exception {
        Files.createDirectories(own);
        return EbbServer.start(ServerConfig.fromText("port 0\nbind 127.0.0.1\nsave \"\"\ndir " + own + "\n" + extra
                + "\n"));
    }

    /** A full sync of one key; then waits until the primary deleted its file or, not expected to, for two cron seconds. */
    private void sync(String primaryConfig, String replicaConfig, boolean primaryDeletes) throws Exception {
        try (EbbServer p = ebb(dir.resolve("primary"), "repl-diskless-sync no\n" + primaryConfig);
                EbbServer r = ebb(dir.resolve("replica"), replicaConfig);
                Jedis jp = new Jedis("127.0.0.1", p.port(), 30_000); Jedis jr = new Jedis("127.0.0.1", r.port(), 30_000)) {
            jp.set("a", "1");
            jr.replicaof("127.0.0.1", p.port());
            FailoverTest.awaitUp(jr);
            assertEquals("1", jr.get("a"));
            if (primaryDeletes) {
                await("the primary's sync file deleted", 30, () -> !Files.exists(dir.resolve("primary/dump.rdb")));
            } else {
                // The primary's replication cron runs once a second: two of them would have deleted it.
                Thread.sleep(2_100);
            }
        }
    }

    @Test
    void bothSidesShouldDeleteTheSyncFilesWhenNothingPersists() throws Exception {
        sync("rdb-del-sync-files yes", "rdb-del-sync-files yes", true);

        assertTrue(!Files.exists(dir.resolve("primary/dump.rdb")), "primary's dump.rdb deleted");
        assertTrue(!Files.exists(dir.resolve("replica/dump.rdb")), "replica's dump.rdb deleted");
    }

    @Test
    void theFilesShouldStayWithTheDirectiveOffOrASavePoint() throws Exception {
        sync("rdb-del-sync-files no", "rdb-del-sync-files no", false);
        assertTrue(Files.exists(dir.resolve("primary/dump.rdb")), "primary's dump.rdb kept (directive off)");
        assertTrue(Files.exists(dir.resolve("replica/dump.rdb")), "replica's dump.rdb kept (directive off)");
        Files.delete(dir.resolve("primary/dump.rdb"));
        Files.delete(dir.resolve("replica/dump.rdb"));

        sync("rdb-del-sync-files yes\nsave 3600 1", "rdb-del-sync-files yes\nappendonly yes", false);
        assertTrue(Files.exists(dir.resolve("primary/dump.rdb")), "primary's dump.rdb kept (save point)");
        assertTrue(Files.exists(dir.resolve("replica/dump.rdb")), "replica's dump.rdb kept (AOF on)");
    }
}
