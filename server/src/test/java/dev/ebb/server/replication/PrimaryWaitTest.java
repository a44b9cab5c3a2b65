package dev.ebb.server.replication;

import static dev.ebb.server.replication.ReplicationData.await;
import static dev.ebb.server.replication.ReplicationData.info;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.differential.ReferenceRedis;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * WAIT, min-replicas-to-write, INFO's slave line and ROLE with a real replica (redis-server 7.2.4);
 * skipped with the reason when the reference binary cannot run here.
 */
class PrimaryWaitTest {
    @TempDir
    Path dir;

    @Test
    void waitShouldCountTheReplicaThatAckedAndRoleAndInfoShouldShowIt() throws Exception {
        try (EbbServer ebb = EbbServer.start(ServerConfig.fromText("port 0\nbind 127.0.0.1\nsave \"\"\ndir " + dir
                + "\nrepl-diskless-sync-delay 0\n")); Jedis primary = new Jedis("127.0.0.1", ebb.port(), 60_000)) {
            ReferenceRedis replica = ReferenceRedis.startOrNull("--replicaof", "127.0.0.1",
                    Integer.toString(ebb.port()), "--replica-announce-ip", "10.1.2.3");
            Assumptions.assumeTrue(replica != null, () -> "skipped: " + ReferenceRedis.unavailableReason);
            try (replica; Jedis r = new Jedis("127.0.0.1", replica.port())) {
                awaitLinkUp(r, replica);

                primary.set("a", "1");
                long one = primary.waitReplicas(1, 0);
                primary.set("b", "2");
                long start = System.nanoTime();
                long two = primary.waitReplicas(2, 300);
                long waitedMs = (System.nanoTime() - start) / 1_000_000;

                assertEquals(1, one);
                assertEquals(1, two);
                assertTrue(waitedMs >= 250, "WAIT 2 300 returned after " + waitedMs + " ms");
                assertEquals("2", r.get("b"));
                String slave0 = info(primary, "slave0");
                assertTrue(slave0.matches("ip=10\\.1\\.2\\.3,port=" + replica.port()
                        + ",state=online,offset=\\d+,lag=\\d+"), slave0);
                List<Object> role = primary.role();
                assertEquals("master", role.get(0));
                @SuppressWarnings("unchecked")
                List<List<Object>> replicas = (List<List<Object>>) role.get(2);
                assertEquals(1, replicas.size());
                assertEquals("10.1.2.3", String.valueOf(replicas.get(0).get(0)));
                assertEquals(Integer.toString(replica.port()), String.valueOf(replicas.get(0).get(1)));
            }
        }
    }

    /** Waits for the replica's link, failing with the replica's log. */
    static void awaitLinkUp(Jedis r, ReferenceRedis replica) throws Exception {
        try {
            await("the replica's link to be up", 90, () -> "up".equals(info(r, "master_link_status")));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; replica log: "
                    + java.nio.file.Files.readString(replica.dir().resolve("redis.log")), e);
        }
    }

    @Test
    void minReplicasToWriteShouldRefuseWritesWithTooFewGoodReplicas() throws Exception {
        try (EbbServer ebb = EbbServer.start(ServerConfig.fromText("port 0\nbind 127.0.0.1\nsave \"\"\ndir " + dir
                + "\n")); Jedis primary = new Jedis("127.0.0.1", ebb.port())) {
            primary.configSet("min-replicas-to-write", "2");

            JedisDataException e = assertThrows(JedisDataException.class, () -> primary.set("k", "v"));
            assertEquals("NOREPLICAS Not enough good replicas to write.", e.getMessage());
            assertEquals(null, primary.get("k"));
            assertEquals("2", primary.configGet("min-slaves-to-write").get("min-slaves-to-write"));
            primary.configSet("min-slaves-to-write", "0");
            assertEquals("OK", primary.set("k", "v"));
            assertEquals(0, primary.waitReplicas(0, 0));
            assertEquals(0, primary.waitReplicas(1, 100));
        }
    }
}
