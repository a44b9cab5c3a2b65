package dev.ebb.server.config;

/**
 * One {@code save <seconds> <changes>} point: snapshot after {@code seconds} if at least {@code changes} writes
 * happened. Ebb has no persistence: save points are accepted, reported by CONFIG GET and rewritten, but nothing is
 * ever saved.
 */
public record SavePoint(long seconds, long changes) {
    public SavePoint {
        if (seconds < 1 || changes < 0) {
            throw new IllegalArgumentException("invalid save point: seconds=" + seconds + ", changes=" + changes);
        }
    }
}
