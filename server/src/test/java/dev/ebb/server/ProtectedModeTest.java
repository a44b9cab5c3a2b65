package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.config.ServerConfig;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * protected-mode: the decision at the unit level, and end to end through a non-loopback address
 * of this machine when it has one (the test is skipped otherwise).
 */
class ProtectedModeTest {
    @Test
    void onlyLoopbackClientsShouldBeServedWithProtectedModeAndNoPassword() throws Exception {
        InetSocketAddress loopback4 = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 5000);
        InetSocketAddress loopbackOther = new InetSocketAddress(InetAddress.getByName("127.3.4.5"), 5000);
        InetSocketAddress loopback6 = new InetSocketAddress(InetAddress.getByName("::1"), 5000);
        InetSocketAddress remote = new InetSocketAddress(InetAddress.getByName("192.0.2.10"), 5000);

        assertFalse(ConnectionGate.protectedModeRefuses(true, false, loopback4));
        assertFalse(ConnectionGate.protectedModeRefuses(true, false, loopbackOther));
        assertFalse(ConnectionGate.protectedModeRefuses(true, false, loopback6));
        assertTrue(ConnectionGate.protectedModeRefuses(true, false, remote));
        assertFalse(ConnectionGate.protectedModeRefuses(true, true, remote));
        assertFalse(ConnectionGate.protectedModeRefuses(false, false, remote));
    }

    @Test
    void aNonLoopbackClientShouldGetRedisDeniedTextAndBeClosed() throws Exception {
        InetAddress external = nonLoopbackAddress();
        assumeTrue(external != null, "this machine has no non-loopback IPv4 address");
        String host = external.getHostAddress();
        try (EbbServer server = EbbServer.start(ServerConfig.fromText("port 0\nbind " + host + " 127.0.0.1\n"))) {
            try (Socket s = new Socket(host, server.port())) {
                s.setSoTimeout(5000);

                String reply = ConnectionLimitsTest.readAll(s.getInputStream());

                assertEquals(new String(ConnectionGate.DENIED, StandardCharsets.US_ASCII), reply);
                assertTrue(reply.startsWith("-DENIED Redis is running in protected mode because protected mode is"
                        + " enabled and no password is set for the default user."));
            }
            try (Jedis local = new Jedis("127.0.0.1", server.port())) {
                assertEquals("PONG", local.ping());
                local.configSet("requirepass", "pw");
            }
            try (Jedis external2 = new Jedis(host, server.port())) {
                assertEquals("OK", external2.auth("pw"));
                assertEquals("PONG", external2.ping());
            }
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
