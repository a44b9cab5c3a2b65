package dev.ebb.server.config;

/**
 * A CONFIG subcommand failed; {@link #getMessage()} is the complete Redis error text including its code, e.g.
 * {@code ERR Unknown option or number of arguments for CONFIG SET - 'foo'}, ready to be sent as {@code -<message>}.
 */
public final class ConfigCommandException extends Exception {
    private static final long serialVersionUID = 1L;

    ConfigCommandException(String errorText) {
        super(errorText, null, false, false);
    }
}
