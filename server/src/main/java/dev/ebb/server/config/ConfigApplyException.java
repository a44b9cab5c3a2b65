package dev.ebb.server.config;

/**
 * Thrown by a {@link ConfigListener} that cannot put a new value into effect (for example a port that cannot be
 * bound). The whole CONFIG SET is then rolled back and the client gets
 * {@code ERR CONFIG SET failed (possibly related to argument '<name>') - <reason>}.
 */
public final class ConfigApplyException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param reason shown to the client after the dash, e.g. {@code Unable to listen on this port} */
    public ConfigApplyException(String reason) {
        super(reason);
    }
}
