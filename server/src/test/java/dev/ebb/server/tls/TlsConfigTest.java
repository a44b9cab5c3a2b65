package dev.ebb.server.tls;

import static dev.ebb.server.tls.TlsTestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import java.net.ConnectException;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/** The tls-* directives: key formats, protocols, client authentication modes, CONFIG SET reloads and refusals. */
class TlsConfigTest {

    private static EbbServer start(String extra) throws Exception {
        return EbbServer.start(ServerConfig.fromText("port " + TlsTestFiles.freePort() + "\n"
                + "tls-port " + TlsTestFiles.freePort() + "\n"
                + "tls-cert-file \"" + path("server.crt") + "\"\n"
                + "tls-ca-cert-file \"" + path("ca.crt") + "\"\n" + extra));
    }

    private static Jedis tls(EbbServer server, String certName, String... protocols) throws Exception {
        return new Jedis(new HostAndPort("127.0.0.1", server.tlsPort()), DefaultJedisClientConfig.builder()
                .ssl(true).sslSocketFactory(TlsTestFiles.socketFactory("ca.crt", certName, protocols)).build());
    }

    @Test
    void encryptedKeyWithPasswordAndPkcs1KeyShouldBothLoad() throws Exception {
        for (String keyLines : List.of(
                "tls-key-file \"" + path("server-encrypted.key") + "\"\ntls-key-file-pass ebbpass\n",
                "tls-key-file \"" + path("server-pkcs1.key") + "\"\n")) {
            try (EbbServer server = start(keyLines); Jedis jedis = tls(server, "client")) {
                assertEquals("PONG", jedis.ping());
            }
        }
    }

    @Test
    void startShouldFailWithRedisTextWhenCertificateIsMissing() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> EbbServer.start(
                ServerConfig.fromText("port 0\ntls-port " + TlsTestFiles.freePort() + "\n")));

        assertEquals("Failed to configure TLS. Check logs for more info.", e.getMessage());
    }

    @Test
    void startShouldFailWhenClientAuthenticationHasNoCa() {
        assertThrows(IllegalStateException.class, () -> EbbServer.start(ServerConfig.fromText(
                "port 0\ntls-port " + TlsTestFiles.freePort() + "\n"
                        + "tls-cert-file \"" + path("server.crt") + "\"\n"
                        + "tls-key-file \"" + path("server.key") + "\"\n")));
    }

    @Test
    void portZeroBesideTlsPortShouldListenOnTlsOnly() throws Exception {
        int tlsPort = TlsTestFiles.freePort();
        try (EbbServer server = EbbServer.start(ServerConfig.fromText("port 0\ntls-port " + tlsPort + "\n"
                + "tls-cert-file \"" + path("server.crt") + "\"\ntls-key-file \"" + path("server.key") + "\"\n"
                + "tls-auth-clients no\n"))) {
            assertEquals(0, server.port());
            assertEquals(tlsPort, server.tlsPort());
            try (Jedis jedis = tls(server, null)) {
                assertEquals("PONG", jedis.ping());
            }
        }
    }

    @Test
    void optionalClientAuthenticationShouldAcceptNoCertificateButRefuseAnUntrustedOne() throws Exception {
        try (EbbServer server = start("tls-key-file \"" + path("server.key") + "\"\ntls-auth-clients optional\n")) {
            try (Jedis anonymous = tls(server, null); Jedis known = tls(server, "client")) {
                assertEquals("PONG", anonymous.ping());
                assertEquals("PONG", known.ping());
            }
            assertThrows(JedisConnectionException.class, () -> {
                try (Jedis stranger = tls(server, "stranger")) {
                    stranger.ping();
                }
            });
        }
    }

    @Test
    void tlsProtocolsShouldRestrictTheHandshake() throws Exception {
        try (EbbServer server = start("tls-key-file \"" + path("server.key") + "\"\ntls-protocols \"TLSv1.3\"\n")) {
            try (Jedis modern = tls(server, "client", "TLSv1.3")) {
                assertEquals("PONG", modern.ping());
            }
            assertThrows(JedisConnectionException.class, () -> {
                try (Jedis old = tls(server, "client", "TLSv1.2")) {
                    old.ping();
                }
            });
        }
    }

    @Test
    void configSetOfABadFileShouldBeRefusedAndKeepTheWorkingContext() throws Exception {
        try (EbbServer server = start("tls-key-file \"" + path("server.key") + "\"\n");
                Jedis admin = new Jedis("127.0.0.1", server.port())) {
            JedisDataException e = assertThrows(JedisDataException.class,
                    () -> admin.configSet("tls-cert-file", "/nonexistent/server.crt"));

            assertEquals("ERR CONFIG SET failed (possibly related to argument 'tls-cert-file') - Unable to update "
                    + "TLS configuration. Check server logs.", e.getMessage());
            assertEquals(Map.of("tls-cert-file", path("server.crt")), admin.configGet("tls-cert-file"));
            try (Jedis jedis = tls(server, "client")) {
                assertEquals("PONG", jedis.ping());
            }
        }
    }

    @Test
    void configSetShouldReloadTheContextForNewConnections() throws Exception {
        try (EbbServer server = start("tls-key-file \"" + path("server.key") + "\"\n");
                Jedis admin = new Jedis("127.0.0.1", server.port())) {
            assertEquals("OK", admin.configSet(Map.of("tls-key-file", path("server-encrypted.key"),
                    "tls-key-file-pass", "ebbpass", "tls-auth-clients", "no")));

            try (Jedis anonymous = tls(server, null)) {
                assertEquals("PONG", anonymous.ping());
            }
            JedisDataException e = assertThrows(JedisDataException.class,
                    () -> admin.configSet("tls-protocols", "TLSv9"));
            assertTrue(e.getMessage().endsWith("Unable to update TLS configuration. Check server logs."),
                    e.getMessage());
        }
    }

    @Test
    void configGetShouldShowRedisDefaults() throws Exception {
        try (EbbServer server = EbbServer.start(ServerConfig.fromText("port 0\n"));
                Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            Map<String, String> all = jedis.configGet("tls-*");

            assertEquals("0", all.get("tls-port"));
            assertEquals("yes", all.get("tls-auth-clients"));
            assertEquals("no", all.get("tls-prefer-server-ciphers"));
            assertEquals("yes", all.get("tls-session-caching"));
            assertEquals("20480", all.get("tls-session-cache-size"));
            assertEquals("300", all.get("tls-session-cache-timeout"));
            assertEquals("", all.get("tls-protocols"));
            assertEquals(0, server.tlsPort());
        }
    }

    @Test
    void plainServerShouldRefuseTlsHandshakes() throws Exception {
        try (EbbServer server = EbbServer.start(ServerConfig.fromText("port 0\n"))) {
            SSLSocket socket = (SSLSocket) TlsTestFiles.socketFactory("ca.crt", null)
                    .createSocket(new Socket("127.0.0.1", server.port()), "127.0.0.1", server.port(), true);
            assertThrows(java.io.IOException.class, socket::startHandshake);
            socket.close();
        } catch (ConnectException e) {
            throw new AssertionError("plain port not listening", e);
        }
    }
}
