package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisAccessControlException;

/** AUTH, HELLO AUTH, RESET and the NO_AUTH commands on a server with {@code requirepass}. */
class ConnectionAuthCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("requirepass", "s3cret");

    private static final String NOAUTH = "-NOAUTH Authentication required.\r\n";
    private static final String WRONGPASS = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

    private static final ClientResources LETTUCE = DefaultClientResources.builder()
            .ioThreadPoolSize(1).computationThreadPoolSize(1).build();

    @AfterAll
    static void stopLettuce() {
        LETTUCE.shutdown(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void commandsBeforeAuthShouldGetNoauthButHandshakeCommandsShouldRun() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals(NOAUTH, s.call("PING"));
            assertEquals(NOAUTH, s.call("GET", "k"));
            assertEquals(NOAUTH, s.call("CLIENT", "ID"));
            assertEquals("-NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO"
                    + " <proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP"
                    + " protocol version at the same time\r\n", s.call("HELLO", "3"));
            assertEquals("+RESET\r\n", s.call("RESET"));
            assertEquals("+OK\r\n", s.call("QUIT"));
            assertTrue(s.closedByServer());
        }
    }

    @Test
    void authShouldAcceptOnlyThePasswordOfTheDefaultUser() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals(WRONGPASS, s.call("AUTH", "wrong"));
            assertEquals(WRONGPASS, s.call("AUTH", "default", "wrong"));
            assertEquals(WRONGPASS, s.call("AUTH", "bob", "s3cret"));
            assertEquals(WRONGPASS, s.call("AUTH", "DEFAULT", "s3cret"));
            assertEquals(NOAUTH, s.call("PING"));

            assertEquals("+OK\r\n", s.call("AUTH", "s3cret"));
            assertEquals("+PONG\r\n", s.call("PING"));
            assertEquals("+OK\r\n", s.call("AUTH", "default", "s3cret"));
        }
    }

    @Test
    void aFailedAuthShouldNotLogOutAnAuthenticatedConnection() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("AUTH", "s3cret");

            assertEquals(WRONGPASS, s.call("AUTH", "nope"));

            assertEquals("+PONG\r\n", s.call("PING"));
        }
    }

    @Test
    void helloAuthShouldAuthenticateAndThenApplySetname() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals(WRONGPASS, s.call("HELLO", "3", "SETNAME", "early", "AUTH", "default", "bad"));
            assertEquals(NOAUTH, s.call("CLIENT", "GETNAME"));

            String reply = s.call("HELLO", "3", "SETNAME", "named", "AUTH", "default", "s3cret");

            assertTrue(reply.startsWith("%7\r\n"), reply);
            assertEquals("$5\r\nnamed\r\n", s.call("CLIENT", "GETNAME"));
        }
    }

    @Test
    void resetShouldLogTheConnectionOutAgain() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("AUTH", "s3cret");

            assertEquals("+RESET\r\n", s.call("RESET"));

            assertEquals(NOAUTH, s.call("PING"));
        }
    }

    @Test
    void jedisShouldAuthenticateWithThePassword() {
        DefaultJedisClientConfig config = DefaultJedisClientConfig.builder().password("s3cret").build();
        try (Jedis j = new Jedis(ebb.host(), ebb.port(), config)) {
            assertEquals("PONG", j.ping());
        }
        JedisAccessControlException e = assertThrows(JedisAccessControlException.class,
                () -> new Jedis(ebb.host(), ebb.port(), DefaultJedisClientConfig.builder().password("x").build()));
        assertEquals("WRONGPASS invalid username-password pair or user is disabled.", e.getMessage());
    }

    @Test
    void lettuceShouldAuthenticateInItsResp3Handshake() {
        RedisURI uri = RedisURI.builder().withHost(ebb.host()).withPort(ebb.port()).withPassword("s3cret".toCharArray())
                .build();
        RedisClient client = RedisClient.create(LETTUCE, uri);
        client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP3).build());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            assertEquals("PONG", connection.sync().ping());
            assertTrue(connection.sync().clientInfo().contains(" resp=3 "));
        } finally {
            client.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }
}
