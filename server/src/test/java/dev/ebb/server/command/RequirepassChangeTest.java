package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CONFIG SET requirepass on connections that are already open, as Redis 7.2.4 treats them: a
 * connection is restricted only while a password is required and it has not authenticated.
 */
class RequirepassChangeTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("requirepass", "s3cret");

    private static final String NOAUTH = "-NOAUTH Authentication required.\r\n";

    @Test
    void removingRequirepassShouldFreeConnectionsThatHadNotAuthenticated() throws IOException {
        try (RespTestSocket a = new RespTestSocket(ebb); RespTestSocket b = new RespTestSocket(ebb)) {
            try {
                assertEquals(NOAUTH, a.call("PING"));
                assertEquals("+OK\r\n", b.call("AUTH", "s3cret"));
                assertEquals("+OK\r\n", b.call("CONFIG", "SET", "requirepass", ""));

                assertEquals("+PONG\r\n", a.call("PING"));
                // Larger than an unauthenticated connection's bulk limit (16 KB).
                String big = "x".repeat(20_000);
                assertEquals("+OK\r\n", a.call("SET", "big", big));
                assertEquals("$20000\r\n" + big + "\r\n", a.call("GET", "big"));
                // HELLO still wants the connection itself authenticated, as in Redis.
                assertEquals("-NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO"
                        + " <proto> AUTH <user> <pass> option can be used to authenticate the client and select the"
                        + " RESP protocol version at the same time\r\n", a.call("HELLO", "3"));

                // Setting it again restricts that connection again, and no other.
                try (RespTestSocket c = new RespTestSocket(ebb)) {
                    assertEquals("+OK\r\n", b.call("CONFIG", "SET", "requirepass", "other"));
                    assertEquals(NOAUTH, a.call("PING"));
                    assertEquals("+PONG\r\n", b.call("PING"));
                    assertEquals("+PONG\r\n", c.call("PING"));
                }
            } finally {
                b.call("CONFIG", "SET", "requirepass", "s3cret");
            }
        }
    }

    @Test
    void settingRequirepassShouldLeaveOpenConnectionsAuthenticated() throws IOException {
        try (RespTestSocket admin = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", admin.call("AUTH", "s3cret"));
            assertEquals("+OK\r\n", admin.call("CONFIG", "SET", "requirepass", ""));
            try (RespTestSocket open = new RespTestSocket(ebb)) {
                assertEquals("+PONG\r\n", open.call("PING"));
                assertEquals("+OK\r\n", admin.call("CONFIG", "SET", "requirepass", "s3cret"));
                String big = "y".repeat(20_000);
                assertEquals("+OK\r\n", open.call("SET", "big2", big));
                try (RespTestSocket late = new RespTestSocket(ebb)) {
                    assertEquals(NOAUTH, late.call("PING"));
                }
            } finally {
                admin.call("CONFIG", "SET", "requirepass", "s3cret");
            }
        }
    }
}
