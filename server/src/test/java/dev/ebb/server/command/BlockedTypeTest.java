package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;

/**
 * A client blocked on a key is served only when the key holds the type it waits for, as Redis's
 * handleClientsBlockedOnKey checks: a transaction that pushes, deletes and then SETs the key leaves
 * a BLPOP or BZPOPMIN blocked (Redis 7.2.4 does), instead of waking it with WRONGTYPE; SWAPDB
 * serves a client blocked on a key the swap brought in.
 */
class BlockedTypeTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    @Test
    void blpopShouldStayBlockedWhenATransactionLeavesAStringBehind() throws Exception {
        try (RespTestSocket blocked = new RespTestSocket(ebb); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            blocked.send("BLPOP", "list", "0");
            awaitBlocked(other, 1);

            Transaction t = other.multi();
            t.lpush("list", "a");
            t.del("list");
            t.set("list", "foo");
            t.exec();

            assertEquals(1, blockedClients(other), "still blocked after the key became a string");
            other.del("list");
            other.rpush("list", "x");
            assertEquals("*2\r\n$4\r\nlist\r\n$1\r\nx\r\n", blocked.reply());
        }
    }

    @Test
    void bzpopminShouldStayBlockedWhenATransactionLeavesAStringBehind() throws Exception {
        try (RespTestSocket blocked = new RespTestSocket(ebb); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            blocked.send("BZPOPMIN", "zs", "0");
            awaitBlocked(other, 1);

            Transaction t = other.multi();
            t.zadd("zs", 1, "a");
            t.del("zs");
            t.set("zs", "foo");
            t.exec();

            assertEquals(1, blockedClients(other), "still blocked after the key became a string");
            other.del("zs");
            other.zadd("zs", 2, "b");
            assertEquals("*3\r\n$2\r\nzs\r\n$1\r\nb\r\n$1\r\n2\r\n", blocked.reply());
        }
    }

    @Test
    void blpopShouldStayBlockedWhileTheKeyIsASortedSet() throws Exception {
        try (RespTestSocket blocked = new RespTestSocket(ebb); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            blocked.send("BLPOP", "k", "0");
            awaitBlocked(other, 1);

            Transaction t = other.multi();
            t.rpush("k", "a");
            t.del("k");
            t.zadd("k", 1, "m");
            t.exec();

            assertEquals(1, blockedClients(other));
            assertEquals(List.of("m"), other.zrange("k", 0, -1));
            other.del("k");
            other.rpush("k", "y");
            assertEquals("*2\r\n$1\r\nk\r\n$1\r\ny\r\n", blocked.reply());
        }
    }

    @Test
    void swapdbShouldServeAClientBlockedOnAKeyThatNowExists() throws Exception {
        try (RespTestSocket blocked = new RespTestSocket(ebb); Jedis other = new Jedis(ebb.host(), ebb.port())) {
            blocked.send("BLPOP", "swapped", "0");
            awaitBlocked(other, 1);
            other.select(9);
            other.rpush("swapped", "from-9");
            other.set("plain", "v");

            other.swapDB(0, 9);

            assertEquals("*2\r\n$7\r\nswapped\r\n$6\r\nfrom-9\r\n", blocked.reply());
            assertEquals(0, blockedClients(other));
            other.select(0);
            other.del("plain");
        }
    }

    private static void awaitBlocked(Jedis j, int n) throws InterruptedException {
        for (int i = 0; i < 500 && blockedClients(j) != n; i++) {
            Thread.sleep(10);
        }
        assertEquals(n, blockedClients(j));
    }

    private static long blockedClients(Jedis j) {
        for (String line : j.info("clients").split("\r\n")) {
            if (line.startsWith("blocked_clients:")) {
                return Long.parseLong(line.substring("blocked_clients:".length()));
            }
        }
        throw new AssertionError("no blocked_clients in INFO clients");
    }
}
