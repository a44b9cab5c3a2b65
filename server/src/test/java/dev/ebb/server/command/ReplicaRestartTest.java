package dev.ebb.server.command;

import static dev.ebb.server.command.EbbReplicaOfRedisTest.info;
import static dev.ebb.server.command.EbbReplicaOfRedisTest.stat;
import static dev.ebb.server.command.EbbReplicaOfRedisTest.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.differential.ReferenceRedis;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * A replica restarted with {@code replicaof} in its configuration and its own RDB on disk: it loads
 * the file, then continues with PSYNC from the replication id and offset the file records (AUX
 * {@code repl-id} / {@code repl-offset}), so the primary answers {@code +CONTINUE} with the writes it
 * missed, as a restarted Redis replica does.
 */
class ReplicaRestartTest {
    @TempDir
    Path dir;

    @Test
    void aRestartedReplicaShouldContinueFromTheOffsetItsRdbRecords() throws Exception {
        ReferenceRedis primary = ReferenceRedis.startOrNull("--repl-diskless-sync-delay", "0");
        assumeTrue(primary != null, () -> "reference redis-server 7.2.4 cannot run: " + ReferenceRedis.unavailableReason);
        String config = "port 0\ndir \"" + dir + "\"\nsave \"\"\nreplicaof 127.0.0.1 " + primary.port() + "\n";
        try (Jedis p = new Jedis("127.0.0.1", primary.port(), 30_000)) {
            for (int i = 0; i < 100; i++) {
                p.set("before:" + i, "v" + i);
            }
            EbbServer first = EbbServer.start(ServerConfig.fromText(config));
            try (Jedis r = new Jedis("127.0.0.1", first.port(), 30_000)) {
                waitFor(() -> info(r, "master_link_status").equals("up"), "link up");
                p.select(2);
                p.set("in-db-2", "x");
                waitFor(() -> info(p, "master_repl_offset").equals(info(r, "slave_repl_offset")), "caught up");
                assertEquals("OK", r.save());
            } finally {
                first.close();
            }
            p.set("missed-in-db-2", "y");
            p.select(0);
            p.set("missed", "z");
            long partial = stat(p, "sync_partial_ok");
            long full = stat(p, "sync_full");

            EbbServer second = EbbServer.start(ServerConfig.fromText(config));
            try (Jedis r = new Jedis("127.0.0.1", second.port(), 30_000)) {
                waitFor(() -> stat(p, "sync_partial_ok") == partial + 1, "partial resync after the restart");
                waitFor(() -> info(p, "master_repl_offset").equals(info(r, "slave_repl_offset")), "caught up");

                assertEquals(full, stat(p, "sync_full"));
                assertEquals("v99", r.get("before:99"));
                assertEquals("z", r.get("missed"));
                r.select(2);
                assertEquals("y", r.get("missed-in-db-2"));
            } finally {
                second.close();
            }
        } finally {
            primary.close();
        }
    }
}
