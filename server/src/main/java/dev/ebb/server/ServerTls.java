package dev.ebb.server;

import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.config.TlsAuthClients;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslServerSessionContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSessionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS for client connections: the {@code tls-*} directives turned into a Netty {@link SslContext}, and one
 * {@link SslHandler} per accepted connection at the head of its pipeline. This is the only TLS code in Ebb; everything
 * behind the handler sees plain RESP.
 *
 * <p>The provider is BoringSSL ({@code netty-tcnative-boringssl-static}) when its native library loads on this
 * platform, the JDK's otherwise. Cipher names: with BoringSSL both OpenSSL names ({@code ECDHE-RSA-AES128-GCM-SHA256},
 * as redis.conf uses) and Java's are accepted; with the JDK provider only Java's (IANA) names. BoringSSL's TLSv1.3
 * suites are fixed, so {@code tls-ciphersuites} only narrows them on the JDK provider.
 *
 * <p>As in Redis, the files are read again whenever a {@code tls-*} directive changes: a CONFIG SET that names a
 * missing or bad file is refused and the previous context stays; connections already open keep their session. The
 * context is published through a volatile field: {@link #reload} runs on the command loop, {@link #newHandler} on
 * the IO threads.
 */
final class ServerTls {
    private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);
    private static final List<String> KNOWN_PROTOCOLS = List.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3");

    private volatile Configured current;

    private record Configured(SslContext context, boolean preferServerCiphers) {
    }

    private ServerTls(Configured configured) {
        this.current = configured;
    }

    /**
     * Builds the context from {@code config}.
     *
     * @throws TlsConfigException with the reason Redis would log, e.g. a missing certificate or CA
     */
    static ServerTls create(ServerConfig config) throws TlsConfigException {
        ServerTls tls = new ServerTls(build(config));
        LOG.info("TLS configured: provider={}", provider() == SslProvider.OPENSSL
                ? "OpenSSL (" + OpenSsl.versionString() + ")" : "JDK");
        return tls;
    }

    /** Re-reads the files and directives; on failure the previous context stays in force. */
    void reload(ServerConfig config) throws TlsConfigException {
        current = build(config);
    }

    /** A handler for one new server-side connection. */
    SslHandler newHandler(ByteBufAllocator alloc) {
        Configured c = current;
        SslHandler handler = c.context().newHandler(alloc);
        if (c.preferServerCiphers()) {
            SSLEngine engine = handler.engine();
            SSLParameters params = engine.getSSLParameters();
            params.setUseCipherSuitesOrder(true);
            engine.setSSLParameters(params);
        }
        return handler;
    }

    static SslProvider provider() {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    private static Configured build(ServerConfig config) throws TlsConfigException {
        if (config.tlsCertFile().isEmpty() || config.tlsKeyFile().isEmpty()) {
            throw new TlsConfigException("tls-cert-file and tls-key-file must be set to use TLS");
        }
        TlsAuthClients auth = config.tlsAuthClients();
        List<X509Certificate> cas = trustedCertificates(config);
        if (auth != TlsAuthClients.NO && cas.isEmpty()) {
            throw new TlsConfigException("Either tls-ca-cert-file or tls-ca-cert-dir must be specified when "
                    + "tls-cluster, tls-replication or tls-auth-clients are enabled!");
        }
        try {
            String pass = config.tlsKeyFilePass().isEmpty() ? null : config.tlsKeyFilePass();
            SslContextBuilder builder = SslContextBuilder
                    .forServer(Path.of(config.tlsCertFile()).toFile(), Path.of(config.tlsKeyFile()).toFile(), pass)
                    .sslProvider(provider())
                    .protocols(protocols(config.tlsProtocols()))
                    .clientAuth(switch (auth) {
                        case NO -> ClientAuth.NONE;
                        case YES -> ClientAuth.REQUIRE;
                        case OPTIONAL -> ClientAuth.OPTIONAL;
                    });
            if (!cas.isEmpty()) {
                builder.trustManager(cas.toArray(new X509Certificate[0]));
            }
            List<String> ciphers = ciphers(config.tlsCiphers(), config.tlsCiphersuites());
            if (!ciphers.isEmpty()) {
                builder.ciphers(ciphers);
            }
            SslContext context = builder.build();
            configureSessions(context.sessionContext(), config);
            return new Configured(context, config.tlsPreferServerCiphers());
        } catch (IOException | IllegalArgumentException e) {
            throw new TlsConfigException("Failed to load the TLS certificate or key: " + rootMessage(e), e);
        }
    }

    private static void configureSessions(SSLSessionContext sessions, ServerConfig config) {
        if (sessions instanceof OpenSslServerSessionContext openSsl) {
            openSsl.setSessionCacheEnabled(config.tlsSessionCaching());
        }
        if (config.tlsSessionCaching()) {
            sessions.setSessionCacheSize(config.tlsSessionCacheSize());
            sessions.setSessionTimeout(config.tlsSessionCacheTimeout());
        } else if (!(sessions instanceof OpenSslServerSessionContext)) {
            // The JDK's server cache cannot be switched off (size 0 means unbounded): keep it to one
            // session that lives one second, which is as near to off as it goes.
            sessions.setSessionCacheSize(1);
            sessions.setSessionTimeout(1);
        }
    }

    /** Redis's tls-protocols: space-separated, case-insensitive; empty for TLSv1.2 and TLSv1.3. */
    static String[] protocols(String spec) throws TlsConfigException {
        String trimmed = spec.trim();
        if (trimmed.isEmpty()) {
            return new String[] {"TLSv1.2", "TLSv1.3"};
        }
        Set<String> chosen = new LinkedHashSet<>();
        for (String word : trimmed.split("\\s+")) {
            String known = null;
            for (String p : KNOWN_PROTOCOLS) {
                if (p.equalsIgnoreCase(word)) {
                    known = p;
                }
            }
            if (known == null) {
                throw new TlsConfigException("Invalid tls-protocols specified. Use a combination of 'TLSv1', "
                        + "'TLSv1.1', 'TLSv1.2' and 'TLSv1.3'.");
            }
            chosen.add(known);
        }
        return chosen.toArray(new String[0]);
    }

    private static List<String> ciphers(String tls12, String tls13) {
        List<String> all = new ArrayList<>();
        for (String list : new String[] {tls12, tls13}) {
            for (String name : list.split(":")) {
                if (!name.isBlank()) {
                    all.add(name.trim());
                }
            }
        }
        return all;
    }

    /** The CA certificates of tls-ca-cert-file, then of every regular file in tls-ca-cert-dir. */
    private static List<X509Certificate> trustedCertificates(ServerConfig config) throws TlsConfigException {
        List<X509Certificate> all = new ArrayList<>();
        if (!config.tlsCaCertFile().isEmpty()) {
            all.addAll(readCertificates(Path.of(config.tlsCaCertFile())));
        }
        if (!config.tlsCaCertDir().isEmpty()) {
            Path dir = Path.of(config.tlsCaCertDir());
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
                List<Path> sorted = new ArrayList<>();
                files.forEach(sorted::add);
                sorted.sort(null);
                for (Path file : sorted) {
                    if (Files.isRegularFile(file)) {
                        all.addAll(readCertificates(file));
                    }
                }
            } catch (IOException e) {
                throw new TlsConfigException("Failed to configure CA certificate(s) directory: " + dir, e);
            }
        }
        return all;
    }

    private static List<X509Certificate> readCertificates(Path file) throws TlsConfigException {
        try (InputStream in = Files.newInputStream(file)) {
            List<X509Certificate> certs = new ArrayList<>();
            for (var cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                certs.add((X509Certificate) cert);
            }
            return certs;
        } catch (IOException | CertificateException e) {
            throw new TlsConfigException("Failed to configure CA certificate(s) file/directory: " + file + ": "
                    + rootMessage(e), e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t.getMessage() + ")";
    }

    /** The directives whose change rebuilds the context. */
    static List<String> directives() {
        return List.of("tls-cert-file", "tls-key-file", "tls-key-file-pass", "tls-ca-cert-file", "tls-ca-cert-dir",
                "tls-auth-clients", "tls-protocols", "tls-ciphers", "tls-ciphersuites", "tls-prefer-server-ciphers",
                "tls-session-caching", "tls-session-cache-size", "tls-session-cache-timeout");
    }

    /** A TLS configuration that cannot be put into effect; the message is what the log says. */
    static final class TlsConfigException extends Exception {
        TlsConfigException(String message) {
            super(message);
        }

        TlsConfigException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
