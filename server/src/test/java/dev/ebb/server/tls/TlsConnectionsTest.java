package dev.ebb.server.tls;

import static dev.ebb.server.tls.TlsTestFiles.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.ProtocolVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A server with a plain port and a TLS port side by side, {@code tls-auth-clients yes}: Jedis, Lettuce and
 * redis-cli over TLS with a client certificate; refusals for a missing or untrusted certificate and for a plain
 * client on the TLS port.
 */
class TlsConnectionsTest {
    private static EbbServer server;

    @BeforeAll
    static void start() throws Exception {
        server = EbbServer.start(ServerConfig.fromText("port " + TlsTestFiles.freePort() + "\n"
                + "tls-port " + TlsTestFiles.freePort() + "\n"
                + "tls-cert-file \"" + path("server.crt") + "\"\n"
                + "tls-key-file \"" + path("server.key") + "\"\n"
                + "tls-ca-cert-file \"" + path("ca.crt") + "\"\n"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Jedis tlsJedis(String certName) throws Exception {
        return new Jedis(new HostAndPort("127.0.0.1", server.tlsPort()), DefaultJedisClientConfig.builder()
                .ssl(true).sslSocketFactory(TlsTestFiles.socketFactory("ca.crt", certName)).build());
    }

    @Test
    void jedisWithClientCertificateShouldRunCommandsOverTls() throws Exception {
        try (Jedis jedis = tlsJedis("client")) {
            jedis.set("tls:key", "secret value");

            assertEquals("secret value", jedis.get("tls:key"));
        }
        try (Jedis plain = new Jedis("127.0.0.1", server.port())) {
            assertEquals("secret value", plain.get("tls:key"));
        }
    }

    @Test
    void lettuceWithSslOptionsShouldRunCommandsOverTlsInResp2AndResp3() {
        for (ProtocolVersion protocol : ProtocolVersion.values()) {
            RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1")
                    .withPort(server.tlsPort()).withSsl(true).build());
            client.setOptions(ClientOptions.builder().protocolVersion(protocol)
                    .sslOptions(SslOptions.builder().jdkSslProvider()
                            .trustManager(TlsTestFiles.file("ca.crt").toFile())
                            .keyManager(TlsTestFiles.file("client.crt").toFile(),
                                    TlsTestFiles.file("client.key").toFile(), null)
                            .build())
                    .build());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                connection.sync().set("lettuce:" + protocol, "v");

                assertEquals("v", connection.sync().get("lettuce:" + protocol));
            } finally {
                client.shutdown(0, 5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void clientWithoutCertificateShouldBeRefusedWhenTlsAuthClientsIsYes() {
        assertThrows(JedisConnectionException.class, () -> {
            try (Jedis jedis = tlsJedis(null)) {
                jedis.ping();
            }
        });
    }

    @Test
    void clientWithCertificateFromAnotherCaShouldBeRefused() {
        assertThrows(JedisConnectionException.class, () -> {
            try (Jedis jedis = tlsJedis("stranger")) {
                jedis.ping();
            }
        });
    }

    @Test
    void plainClientOnTheTlsPortShouldBeCutWithoutAReply() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.tlsPort())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));

            byte[] got = readToEnd(socket.getInputStream());

            assertEquals("", new String(got, StandardCharsets.ISO_8859_1));
        }
        try (Jedis plain = new Jedis("127.0.0.1", server.port())) {
            assertEquals("PONG", plain.ping());
        }
    }

    @Test
    void handshakeShouldNegotiateTls13ByDefault() throws Exception {
        try (SSLSocket socket = (SSLSocket) TlsTestFiles.socketFactory("ca.crt", "client")
                .createSocket("127.0.0.1", server.tlsPort())) {
            socket.startHandshake();

            assertEquals("TLSv1.3", socket.getSession().getProtocol());
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] reply = new byte[7];
            new java.io.DataInputStream(socket.getInputStream()).readFully(reply);
            assertEquals("+PONG\r\n", new String(reply, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void redisCliWithTlsOptionsShouldConnect() throws Exception {
        Assumptions.assumeTrue(redisCliHasTls(), "redis-cli with --tls is not installed (apt-get install redis-tools)");
        Process cli = new ProcessBuilder("redis-cli", "--tls", "--cacert", path("ca.crt"), "--cert", path("client.crt"),
                "--key", path("client.key"), "-h", "127.0.0.1", "-p", String.valueOf(server.tlsPort()),
                "set", "cli:key", "over-tls").redirectErrorStream(true).start();
        String out = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(cli.waitFor(60, TimeUnit.SECONDS));

        assertEquals("OK", out);
        try (Jedis plain = new Jedis("127.0.0.1", server.port())) {
            assertEquals("over-tls", plain.get("cli:key"));
        }
    }

    static boolean redisCliHasTls() {
        try {
            Process p = new ProcessBuilder("redis-cli", "--help").redirectErrorStream(true).start();
            String help = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(30, TimeUnit.SECONDS);
            return help.contains("--tls");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static byte[] readToEnd(InputStream in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[256];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                out.write(buf, 0, n);
            }
        } catch (IOException reset) {
            // a reset is as good as a close: nothing was answered
        }
        return out.toByteArray();
    }
}
