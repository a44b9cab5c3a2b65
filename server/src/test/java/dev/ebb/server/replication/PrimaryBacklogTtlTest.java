package dev.ebb.server.replication;

import static dev.ebb.server.replication.ReplicationData.await;
import static dev.ebb.server.replication.ReplicationData.info;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** The backlog is created with the first replica and freed {@code repl-backlog-ttl} seconds after the last one left (manual clock). */
class PrimaryBacklogTtlTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock().config("repl-backlog-ttl", "10")
            .config("repl-diskless-sync-delay", "0");

    @Test
    void backlogShouldBeFreedWithANewIdAfterTheTtlWithoutReplicas() throws Exception {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            try (Socket s = new Socket(ebb.host(), ebb.port())) {
                s.setSoTimeout(30_000);
                s.getOutputStream().write("*3\r\n$5\r\nPSYNC\r\n$1\r\n?\r\n$2\r\n-1\r\n".getBytes(StandardCharsets.US_ASCII));
                InputStream in = s.getInputStream();
                assertEquals('+', in.read());
                await("the replica to be attached", 30, () -> "1".equals(info(j, "connected_slaves")));
            }
            await("the replica to be gone", 30, () -> "0".equals(info(j, "connected_slaves")));
            String replid = info(j, "master_replid");

            ebb.advanceClock(5_000);
            Thread.sleep(300);
            assertEquals("1", info(j, "repl_backlog_active"));
            ebb.advanceClock(6_000);
            await("the backlog to be freed", 30, () -> "0".equals(info(j, "repl_backlog_active")));

            assertNotEquals(replid, info(j, "master_replid"));
        }
    }
}
