package dev.ebb.server.replication;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * A replica that does not read its snapshot keeps the primary's stream waiting in its link; that
 * stream counts against {@code client-output-buffer-limit replica}, so the primary drops the
 * replica instead of buffering without bound, as Redis does.
 */
class PrimaryOutputLimitTest {
    @TempDir
    Path dir;
    private EbbServer ebb;

    @BeforeEach
    void start() throws Exception {
        ebb = EbbServer.start(ServerConfig.fromText("port 0\nbind 127.0.0.1\nsave \"\"\ndir " + dir
                + "\nrepl-diskless-sync no\nrdbcompression no\nclient-output-buffer-limit replica 16mb 0 0\n"));
    }

    @AfterEach
    void stop() {
        ebb.close();
    }

    @Test
    void aStalledSyncingReplicaShouldBeDroppedOnceTheBufferedStreamPassesTheHardLimit() throws Exception {
        byte[] value = new byte[100_000];
        new Random(7).nextBytes(value);
        try (Jedis j = new Jedis("127.0.0.1", ebb.port()); Socket replica = new Socket("127.0.0.1", ebb.port())) {
            for (int i = 0; i < 400; i++) {
                j.set(("big:" + i).getBytes(StandardCharsets.US_ASCII), value);
            }
            OutputStream out = replica.getOutputStream();
            // A replica that asks for a full sync (40 MB of snapshot) and then reads nothing.
            out.write("*3\r\n$5\r\nPSYNC\r\n$1\r\n?\r\n$2\r\n-1\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            awaitInfo(j, "replication", "connected_slaves:1");

            // The snapshot's own bytes waiting in the socket stay below 16 MB (the channel's 4 MB high-water
            // mark plus a piece); the 40 MB of stream buffered behind the snapshot are what pass the limit.
            byte[] big = new byte[1_000_000];
            new Random(8).nextBytes(big);
            for (int i = 0; i < 40; i++) {
                j.set(("after:" + i).getBytes(StandardCharsets.US_ASCII), big);
            }

            awaitInfo(j, "replication", "connected_slaves:0");
            assertTrue(j.info("stats").contains("client_output_buffer_limit_disconnections:1"),
                    "the replica was dropped by its output-buffer limit");
        }
    }

    private static void awaitInfo(Jedis j, String section, String line) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!j.info(section).contains(line + "\r\n")) {
            assertTrue(System.nanoTime() < deadline, "INFO " + section + " never showed " + line);
            Thread.sleep(50);
        }
    }
}
