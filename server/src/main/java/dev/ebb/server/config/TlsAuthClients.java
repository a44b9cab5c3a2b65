package dev.ebb.server.config;

/** {@code tls-auth-clients}: whether a TLS client must present a certificate the CA vouches for. */
public enum TlsAuthClients implements ConfigEnum {
    /** No certificate is asked for. */
    NO("no"),
    /** A certificate is required; a client without one fails the handshake (Redis's default). */
    YES("yes"),
    /** A certificate is asked for and checked when given, but a client may connect without one. */
    OPTIONAL("optional");

    private final String configName;

    TlsAuthClients(String configName) {
        this.configName = configName;
    }

    @Override
    public String configName() {
        return configName;
    }
}
