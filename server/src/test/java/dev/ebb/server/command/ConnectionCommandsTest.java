package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.Server;
import dev.ebb.server.embedded.EbbExtension;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.SafeEncoder;

/**
 * PING, ECHO, QUIT, SELECT, HELLO, AUTH and RESET on a server without a password, through Jedis
 * (RESP2), Lettuce (RESP3 via HELLO 3) and raw sockets. Every error text was checked against a real
 * redis-server.
 */
class ConnectionCommandsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static final ClientResources LETTUCE = DefaultClientResources.builder()
            .ioThreadPoolSize(1).computationThreadPoolSize(1).build();

    @AfterAll
    static void stopLettuce() {
        LETTUCE.shutdown(0, 1, TimeUnit.SECONDS);
    }

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static Object raw(Jedis j, String... args) {
        ProtocolCommand command = () -> SafeEncoder.encode(args[0]);
        return j.sendCommand(command, Arrays.copyOfRange(args, 1, args.length));
    }

    private static String error(Jedis j, String... args) {
        return assertThrows(JedisDataException.class, () -> raw(j, args)).getMessage();
    }

    /** The RESP2 HELLO reply for {@code id} and {@code proto}: a flat array of 14. */
    private static String helloResp2(long id, int proto) {
        return "*14\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$" + Server.REDIS_VERSION.length() + "\r\n"
                + Server.REDIS_VERSION + "\r\n$5\r\nproto\r\n:" + proto + "\r\n$2\r\nid\r\n:" + id
                + "\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n";
    }

    private static long clientId(RespTestSocket s) throws IOException {
        String reply = s.call("CLIENT", "ID");
        return Long.parseLong(reply.substring(1, reply.length() - 2));
    }

    @Test
    void pingShouldReplyPongOrItsMessage() throws IOException {
        try (Jedis j = connect(); RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("PONG", j.ping());
            assertEquals("hello", j.ping("hello"));
            assertEquals("ERR wrong number of arguments for 'ping' command", error(j, "PING", "a", "b"));

            assertEquals("+PONG\r\n", s.call("PING"));
            assertEquals("$2\r\nhi\r\n", s.call("PING", "hi"));
        }
    }

    @Test
    void echoShouldReplyItsArgument() {
        try (Jedis j = connect()) {
            assertEquals("", j.echo(""));
            assertEquals("bytes\r\nwith crlf", j.echo("bytes\r\nwith crlf"));
            assertEquals("ERR wrong number of arguments for 'echo' command", error(j, "ECHO"));
            assertEquals("ERR wrong number of arguments for 'echo' command", error(j, "ECHO", "a", "b"));
        }
    }

    @Test
    void selectShouldSwitchDatabaseOrRejectBadIndexes() {
        try (Jedis j = connect(); Jedis other = connect()) {
            j.select(3);
            j.set("k", "in3");

            assertNull(other.get("k"));
            other.select(3);
            assertEquals("in3", other.get("k"));
            assertEquals("ERR DB index is out of range", error(j, "SELECT", "16"));
            assertEquals("ERR DB index is out of range", error(j, "SELECT", "-1"));
            assertEquals("ERR value is not an integer or out of range", error(j, "SELECT", "one"));
        }
    }

    @Test
    void quitShouldReplyOkThenClose() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            assertEquals("+OK\r\n", s.call("QUIT"));
            assertTrue(s.closedByServer());
        }
    }

    @Test
    void helloWithoutVersionShouldKeepTheProtocolAndDescribeTheServer() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            long id = clientId(s);

            assertEquals(helloResp2(id, 2), s.call("HELLO"));
            assertEquals(helloResp2(id, 2), s.call("HELLO", "2"));
        }
    }

    @Test
    void hello3ShouldSwitchTheConnectionToResp3() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            long id = clientId(s);

            String reply = s.call("HELLO", "3");

            assertEquals("%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$5\r\n7.2.4\r\n$5\r\nproto\r\n:3\r\n"
                    + "$2\r\nid\r\n:" + id + "\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n"
                    + "$7\r\nmodules\r\n*0\r\n", reply);
            assertEquals("_\r\n", s.call("CLIENT", "GETNAME"));
            assertEquals("*14\r\n", s.call("HELLO", "2").substring(0, 5));
            assertEquals("$-1\r\n", s.call("CLIENT", "GETNAME"));
        }
    }

    @Test
    void helloShouldRejectBadVersionsAndOptionsWithRedisTexts() {
        try (Jedis j = connect()) {
            assertEquals("NOPROTO unsupported protocol version", error(j, "HELLO", "1"));
            assertEquals("NOPROTO unsupported protocol version", error(j, "HELLO", "4"));
            assertEquals("NOPROTO unsupported protocol version", error(j, "HELLO", "-1"));
            assertEquals("ERR Protocol version is not an integer or out of range", error(j, "HELLO", "abc"));
            assertEquals("ERR Protocol version is not an integer or out of range", error(j, "HELLO", "2.5"));
            assertEquals("ERR Protocol version is not an integer or out of range",
                    error(j, "HELLO", "99999999999999999999"));
            assertEquals("ERR Syntax error in HELLO option 'foo'", error(j, "HELLO", "3", "foo"));
            assertEquals("ERR Syntax error in HELLO option 'AUTH'", error(j, "HELLO", "2", "AUTH", "default"));
            assertEquals("ERR Syntax error in HELLO option 'setname'", error(j, "HELLO", "3", "setname"));
            assertEquals("ERR Client names cannot contain spaces, newlines or special characters.",
                    error(j, "HELLO", "3", "SETNAME", "a b"));
            assertEquals("WRONGPASS invalid username-password pair or user is disabled.",
                    error(j, "HELLO", "3", "AUTH", "bob", "pw"));
        }
    }

    @Test
    void aFailedHelloShouldChangeNothing() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            String reply = s.call("HELLO", "3", "SETNAME", "named", "AUTH", "bob", "pw");

            assertEquals("-WRONGPASS invalid username-password pair or user is disabled.\r\n", reply);
            assertEquals("$-1\r\n", s.call("CLIENT", "GETNAME"));
        }
    }

    @Test
    void helloShouldSetTheNameAndAcceptTheDefaultUserWithAnyPassword() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            long id = clientId(s);

            assertEquals(helloResp2(id, 2), s.call("HELLO", "2", "AUTH", "default", "anything", "SETNAME", "conn-1"));
            assertEquals("$6\r\nconn-1\r\n", s.call("CLIENT", "GETNAME"));
        }
    }

    @Test
    void authWithoutAConfiguredPasswordShouldExplainOrAcceptTheDefaultUser() {
        try (Jedis j = connect()) {
            assertEquals("ERR AUTH <password> called without any password configured for the default user. "
                    + "Are you sure your configuration is correct?", error(j, "AUTH", "pw"));
            assertEquals("OK", SafeEncoder.encode((byte[]) raw(j, "AUTH", "default", "whatever")));
            assertEquals("WRONGPASS invalid username-password pair or user is disabled.",
                    error(j, "AUTH", "bob", "pw"));
            assertEquals("ERR syntax error", error(j, "AUTH", "a", "b", "c"));
            assertEquals("ERR wrong number of arguments for 'auth' command", error(j, "AUTH"));
        }
    }

    @Test
    void resetShouldRestoreTheConnectionDefaults() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("SELECT", "5");
            s.call("HELLO", "3", "SETNAME", "before");
            s.call("CLIENT", "NO-EVICT", "on");
            s.call("CLIENT", "NO-TOUCH", "on");

            assertEquals("+RESET\r\n", s.call("RESET"));

            String info = s.call("CLIENT", "INFO");
            assertTrue(info.startsWith("$"), "RESP2 again: " + info);
            assertTrue(info.contains(" name= "), info);
            assertTrue(info.contains(" db=0 "), info);
            assertTrue(info.contains(" flags=N "), info);
            assertTrue(info.contains(" resp=2 "), info);
            assertEquals("ERR wrong number of arguments for 'reset' command",
                    s.call("RESET", "now").substring(1).trim());
        }
    }

    @Test
    void lettuceShouldHandshakeWithResp3AndRunConnectionCommands() {
        RedisClient client = RedisClient.create(LETTUCE, RedisURI.create(ebb.host(), ebb.port()));
        client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP3).build());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();

            assertEquals("PONG", redis.ping());
            assertEquals("hi", redis.echo("hi"));
            assertEquals("OK", redis.clientSetname("lettuce-conn"));
            assertEquals("lettuce-conn", redis.clientGetname());
            String info = redis.clientInfo();
            assertTrue(info.contains(" resp=3 "), info);
            assertTrue(info.contains(" name=lettuce-conn "), info);
            assertEquals("OK", redis.select(2));
            assertTrue(redis.clientInfo().contains(" db=2 "));
        } finally {
            client.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }
}
