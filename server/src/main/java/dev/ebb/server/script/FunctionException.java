package dev.ebb.server.script;

/**
 * A library that cannot be loaded or restored, with Redis's text (without the leading
 * {@code ERR }), which FUNCTION LOAD and FUNCTION RESTORE reply.
 */
public final class FunctionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FunctionException(String message) {
        super(message, null, false, false);
    }
}
