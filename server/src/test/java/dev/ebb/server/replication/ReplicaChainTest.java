package dev.ebb.server.replication;

import static dev.ebb.server.replication.ReplicationData.await;
import static dev.ebb.server.replication.ReplicationData.info;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * A replica of a replica that syncs while the top primary's stream has another database selected:
 * the middle node's snapshot records that database ({@code repl-stream-db}), and the sub-replica
 * applies the proxied stream, which carries no new SELECT, in it (Redis's rdbPopulateSaveInfo).
 */
class ReplicaChainTest {
    @TempDir
    Path dir;

    private EbbServer start(String name, boolean diskless) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        return EbbServer.start(ServerConfig.fromText("port 0\nbind 127.0.0.1\nsave \"\"\ndir " + d
                + "\nrepl-diskless-sync " + (diskless ? "yes" : "no") + "\nrepl-diskless-sync-delay 0\n"));
    }

    @Test
    void aSubReplicaShouldApplyTheProxiedStreamInTheDatabaseItHadSelected() throws Exception {
        try (EbbServer a = start("a", false); EbbServer b = start("b", true); EbbServer c = start("c", false);
                Jedis ja = new Jedis("127.0.0.1", a.port()); Jedis jb = new Jedis("127.0.0.1", b.port());
                Jedis jc = new Jedis("127.0.0.1", c.port())) {
            jb.replicaof("127.0.0.1", a.port());
            await("b to sync from a", 60, () -> "up".equals(info(jb, "master_link_status")));
            ja.select(3);
            ja.set("k1", "v1");
            await("b to apply k1", 60, () -> info(ja, "master_repl_offset").equals(info(jb, "master_repl_offset")));

            jc.replicaof("127.0.0.1", b.port());
            await("c to sync from b", 60, () -> "up".equals(info(jc, "master_link_status")));
            ja.set("k2", "v2");
            await("c to apply k2", 60, () -> info(ja, "master_repl_offset").equals(info(jc, "master_repl_offset")));

            jc.select(3);
            assertEquals("v1", jc.get("k1"));
            assertEquals("v2", jc.get("k2"));
            jc.select(0);
            assertNull(jc.get("k2"), "the proxied SET went to database 3, not 0");
        }
    }
}
