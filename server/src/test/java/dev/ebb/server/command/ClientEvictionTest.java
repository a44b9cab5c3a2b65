package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * {@code maxmemory-clients}: a client whose unfinished request takes the clients past the limit is
 * closed and counted in INFO {@code evicted_clients}; a client with CLIENT NO-EVICT ON holding as
 * much is neither evicted nor counted, and finishes its command afterwards.
 */
class ClientEvictionTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static final int BULK = 1_500_000;

    @Test
    void clientOverTheLimitShouldBeEvictedButNotANoEvictOne() throws Exception {
        try (Jedis admin = new Jedis(ebb.host(), ebb.port(), 30_000); RespTestSocket protectedClient = new RespTestSocket(ebb);
                RespTestSocket victim = new RespTestSocket(ebb)) {
            admin.configSet("maxmemory-clients", "512kb");
            try {
                assertEquals("+OK\r\n", protectedClient.call("client", "no-evict", "on"));
                protectedClient.sendRaw(unfinishedSet("kept"));
                try {
                    victim.sendRaw(unfinishedSet("lost"));
                } catch (java.net.SocketException evictedWhileSending) {
                    // The server may close the victim before all of its 1.5 MB is written: the expected outcome.
                }

                assertTrue(victim.closedByServerWithin(10_000), "victim still connected");

                protectedClient.sendRaw("\r\n");
                assertEquals("+OK\r\n", protectedClient.reply());
                assertTrue(admin.info("stats").contains("evicted_clients:1\r\n"));
                assertEquals(BULK, admin.strlen("kept"));
            } finally {
                admin.configSet("maxmemory-clients", "0");
            }
        }
    }

    /** A SET of a {@code BULK}-byte value, all but the CRLF that ends it. */
    private static String unfinishedSet(String key) {
        return "*3\r\n$3\r\nSET\r\n$" + key.length() + "\r\n" + key + "\r\n$" + BULK + "\r\n" + "x".repeat(BULK);
    }
}
