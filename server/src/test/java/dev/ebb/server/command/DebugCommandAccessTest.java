package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerCli;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.config.StartupRequest;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/**
 * {@code enable-debug-command}: Redis 7's default "no" refuses DEBUG with its text, after the arity
 * check and before authentication; "local" serves loopback clients only; "yes" serves everyone.
 */
class DebugCommandAccessTest {
    private static final String NOT_ALLOWED = "-" + Errors.DEBUG_NOT_ALLOWED + "\r\n";

    private static EbbServer start(String extra) throws Exception {
        return EbbServer.start(ServerConfig.fromText("port 0\n" + extra));
    }

    @Test
    void debugShouldBeRefusedByDefaultWithRedisText() throws Exception {
        try (EbbServer server = start(""); RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {

            String reply = s.call("DEBUG", "SLEEP", "0");

            assertEquals(NOT_ALLOWED, reply);
            assertEquals("-ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", you"
                    + " can run it from a local connection, otherwise you need to set this option in the configuration"
                    + " file, and then restart the server.\r\n", reply);
            assertEquals("*2\r\n$20\r\nenable-debug-command\r\n$2\r\nno\r\n",
                    s.call("CONFIG", "GET", "enable-debug-command"));
            assertEquals("-ERR wrong number of arguments for 'debug' command\r\n", s.call("DEBUG"));
        }
    }

    @Test
    void refusedDebugShouldComeBeforeAuthenticationAndAbortTheTransaction() throws Exception {
        try (EbbServer server = start("requirepass pw\n");
                RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {

            assertEquals(NOT_ALLOWED, s.call("DEBUG", "SLEEP", "0"));

            assertEquals("+OK\r\n", s.call("AUTH", "pw"));
            assertEquals("+OK\r\n", s.call("MULTI"));
            assertEquals(NOT_ALLOWED, s.call("DEBUG", "SLEEP", "0"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", s.call("EXEC"));
        }
    }

    @Test
    void enableDebugCommandShouldBeImmutableAtRuntime() throws Exception {
        try (EbbServer server = start(""); RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {

            String reply = s.call("CONFIG", "SET", "enable-debug-command", "yes");

            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'enable-debug-command') - can't set"
                    + " immutable config\r\n", reply);
            assertEquals(NOT_ALLOWED, s.call("DEBUG", "SLEEP", "0"));
        }
    }

    @Test
    void yesShouldServeDebug() throws Exception {
        try (EbbServer server = start("enable-debug-command yes\n");
                RespTestSocket s = new RespTestSocket("127.0.0.1", server.port())) {

            assertEquals("+OK\r\n", s.call("DEBUG", "SLEEP", "0"));

            assertEquals("*2\r\n$20\r\nenable-debug-command\r\n$3\r\nyes\r\n",
                    s.call("CONFIG", "GET", "enable-debug-command"));
        }
    }

    @Test
    void localShouldServeLoopbackClientsOnly() throws Exception {
        InetAddress external = nonLoopbackAddress();
        assumeTrue(external != null, "this machine has no non-loopback IPv4 address");
        String host = external.getHostAddress();
        try (EbbServer server = start("enable-debug-command local\nprotected-mode no\nbind 127.0.0.1 " + host + "\n");
                RespTestSocket local = new RespTestSocket("127.0.0.1", server.port());
                RespTestSocket remote = new RespTestSocket(host, server.port())) {

            assertEquals("+OK\r\n", local.call("DEBUG", "SLEEP", "0"));
            assertEquals(NOT_ALLOWED, remote.call("DEBUG", "SLEEP", "0"));

            assertEquals("+PONG\r\n", remote.call("PING"));
        }
    }

    @Test
    void everyValueShouldBeAcceptedOnTheCommandLine() throws Exception {
        for (String value : new String[] {"no", "yes", "local"}) {
            StartupRequest request = ServerCli.parse(new String[] {"--port", "0", "--enable-debug-command", value});

            ServerConfig config = ((StartupRequest.StartServer) request).config();

            assertEquals(value, config.enableDebugCommand().configName());
        }
    }

    private static InetAddress nonLoopbackAddress() throws Exception {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                    return address;
                }
            }
        }
        return null;
    }
}
