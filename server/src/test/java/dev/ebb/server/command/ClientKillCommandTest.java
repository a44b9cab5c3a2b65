package dev.ebb.server.command;

import static dev.ebb.server.command.ClientCommandsTest.error;
import static dev.ebb.server.command.ClientCommandsTest.isClosed;
import static dev.ebb.server.command.ClientCommandsTest.parse;
import static dev.ebb.server.command.ClientCommandsTest.raw;
import static dev.ebb.server.command.ClientCommandsTest.waitForClients;
import static dev.ebb.server.command.ClientCommandsTest.waitUntilGone;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.SafeEncoder;

/** CLIENT KILL in its old ({@code ip:port}) and filter forms; error texts as redis-server sends them. */
class ClientKillCommandTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static long killed(Jedis j, String... filters) {
        String[] args = new String[filters.length + 2];
        args[0] = "CLIENT";
        args[1] = "KILL";
        System.arraycopy(filters, 0, args, 2, filters.length);
        return (Long) raw(j, args);
    }

    @Test
    void oldFormShouldKillTheClientAtThatAddress() {
        try (Jedis victim = connect(); Jedis killer = connect()) {
            String addr = parse(victim.clientInfo()).get("addr");
            long id = victim.clientId();

            assertEquals("OK", SafeEncoder.encode((byte[]) raw(killer, "CLIENT", "KILL", addr)));

            assertTrue(isClosed(victim));
            waitUntilGone(killer, id);
            assertEquals("ERR No such client", error(killer, "CLIENT", "KILL", addr));
            assertEquals("ERR No such client", error(killer, "CLIENT", "KILL", "1.2.3.4:5"));
        }
    }

    @Test
    void oldFormShouldLetAClientKillItselfAfterTheReply() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("CLIENT", "KILL", s.localAddress()));
            assertTrue(s.closedByServer());
        }
    }

    @Test
    void idFilterShouldKillThatClientAndCountIt() {
        try (Jedis victim = connect(); Jedis killer = connect()) {
            long id = victim.clientId();

            assertEquals(1, killed(killer, "ID", String.valueOf(id)));

            assertTrue(isClosed(victim));
            waitUntilGone(killer, id);
            assertEquals(0, killed(killer, "ID", String.valueOf(id)));
        }
    }

    @Test
    void filtersShouldSpareTheCallerUnlessSkipmeIsNo() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String id = s.call("CLIENT", "ID").substring(1).trim();

            assertEquals(":0\r\n", s.call("CLIENT", "KILL", "ID", id));
            assertEquals(":0\r\n", s.call("CLIENT", "KILL", "ID", id, "SKIPME", "yes"));
            assertEquals(":1\r\n", s.call("CLIENT", "KILL", "ID", id, "SKIPME", "no"));
            assertTrue(s.closedByServer());
        }
    }

    @Test
    void filtersShouldCombineWithAnd() {
        try (Jedis victim = connect(); Jedis bystander = connect(); Jedis killer = connect()) {
            String victimAddr = parse(victim.clientInfo()).get("addr");
            String laddr = parse(victim.clientInfo()).get("laddr");
            long bystanderId = bystander.clientId();

            assertEquals(0, killed(killer, "ADDR", victimAddr, "ID", String.valueOf(bystanderId)));
            assertEquals(1, killed(killer, "ADDR", victimAddr, "LADDR", laddr, "TYPE", "normal", "USER", "default"));

            assertTrue(isClosed(victim));
            assertFalse(isClosed(bystander));
        }
    }

    @Test
    void typeFilterShouldMatchOnlyNormalClients() {
        try (Jedis other = connect(); Jedis killer = connect()) {
            other.ping();

            assertEquals(0, killed(killer, "TYPE", "pubsub"));
            assertEquals(0, killed(killer, "TYPE", "master"));
            assertEquals(0, killed(killer, "TYPE", "replica"));
            assertEquals(0, killed(killer, "TYPE", "slave"));
            assertFalse(isClosed(other));
        }
    }

    @Test
    void maxageShouldKillOnlyConnectionsAtLeastThatOld() {
        try (Jedis old = connect(); Jedis killer = connect()) {
            old.ping();
            waitForClients(killer, 2);
            ebb.advanceClock(30_000);
            killer.ping();
            try (Jedis young = connect()) {
                young.ping();

                assertEquals(1, killed(killer, "MAXAGE", "20"));

                assertTrue(isClosed(old));
                assertFalse(isClosed(young));
            }
        }
    }

    @Test
    void badFiltersShouldGetRedisErrors() {
        try (Jedis j = connect()) {
            assertEquals("ERR client-id should be greater than 0", error(j, "CLIENT", "KILL", "ID", "abc"));
            assertEquals("ERR client-id should be greater than 0", error(j, "CLIENT", "KILL", "ID", "0"));
            assertEquals("ERR client-id should be greater than 0", error(j, "CLIENT", "KILL", "ID", "-3"));
            assertEquals("ERR Unknown client type 'foo'", error(j, "CLIENT", "KILL", "TYPE", "foo"));
            assertEquals("ERR No such user 'bob'", error(j, "CLIENT", "KILL", "USER", "bob"));
            assertEquals("ERR syntax error", error(j, "CLIENT", "KILL", "SKIPME", "maybe"));
            assertEquals("ERR syntax error", error(j, "CLIENT", "KILL", "foo", "bar"));
            assertEquals("ERR syntax error", error(j, "CLIENT", "KILL", "ID", "1", "TYPE"));
            assertEquals("ERR value is not an integer or out of range", error(j, "CLIENT", "KILL", "MAXAGE", "old"));
            assertEquals("ERR wrong number of arguments for 'client|kill' command", error(j, "CLIENT", "KILL"));
            assertEquals("PONG", j.ping());
        }
    }
}
