package dev.ebb.server.config;

/**
 * A directive's arguments were rejected; the message is the reason exactly as Redis words it, e.g.
 * {@code argument must be between 1 and 10 inclusive}. Callers add the context (file line or CONFIG SET prefix).
 */
final class InvalidValueException extends Exception {
    InvalidValueException(String reason) {
        super(reason, null, false, false);
    }

    String reason() {
        return getMessage();
    }
}
