package dev.ebb.server.persistence;

/** The append-only file cannot be read, written or set up; the message is Redis's log text for the case. */
public final class AofException extends Exception {
    private static final long serialVersionUID = 1L;

    public AofException(String message) {
        super(message);
    }
}
