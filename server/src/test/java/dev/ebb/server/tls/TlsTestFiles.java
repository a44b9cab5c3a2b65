package dev.ebb.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;

/** The certificates of {@code src/test/resources/tls} (made by its gen-test-certs.sh) and JSSE factories over them. */
final class TlsTestFiles {
    private TlsTestFiles() {
    }

    static Path file(String name) {
        URL url = TlsTestFiles.class.getResource("/tls/" + name);
        if (url == null) {
            throw new IllegalStateException("missing test resource tls/" + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static String path(String name) {
        return file(name).toString();
    }

    /** A port nobody listens on right now (closed again before it is returned). */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A client socket factory trusting {@code ca}, presenting {@code certName}.crt/.key unless it is null. */
    static SSLSocketFactory socketFactory(String ca, String certName, String... protocols)
            throws IOException, GeneralSecurityException {
        return context(ca, certName, protocols).getSocketFactory();
    }

    static SSLContext context(String ca, String certName, String... protocols)
            throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", certificate(ca));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (certName != null) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("me", privateKey(certName + ".key"), "x".toCharArray(),
                    new Certificate[] {certificate(certName + ".crt")});
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, "x".toCharArray());
        }
        SSLContext context = SSLContext.getInstance(protocols.length == 1 ? protocols[0] : "TLS");
        KeyManager[] keyManagers = kmf == null ? null
                : new KeyManager[] {new AlwaysPresent((X509KeyManager) kmf.getKeyManagers()[0])};
        context.init(keyManagers, tmf.getTrustManagers(), new SecureRandom());
        return context;
    }

    /**
     * Presents the one certificate whatever CAs the server names: the JDK's own key manager would quietly send none
     * when the issuer is not on the server's list, and an untrusted certificate would never reach the server.
     */
    private static final class AlwaysPresent extends X509ExtendedKeyManager {
        private final X509KeyManager keys;

        AlwaysPresent(X509KeyManager keys) {
            this.keys = keys;
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return "me";
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return "me";
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {"me"};
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return keys.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return keys.getPrivateKey(alias);
        }
    }

    private static Certificate certificate(String name) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(file(name))) {
            return CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    private static PrivateKey privateKey(String name) throws IOException, GeneralSecurityException {
        String pem = Files.readString(file(name));
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }
}
