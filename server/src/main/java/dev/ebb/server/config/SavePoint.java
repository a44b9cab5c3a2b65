package dev.ebb.server.config;

/**
 * One {@code save <seconds> <changes>} point: a background save starts when more than {@code seconds} have passed
 * since the last save and at least {@code changes} writes happened meanwhile.
 */
public record SavePoint(long seconds, long changes) {
    public SavePoint {
        if (seconds < 1 || changes < 0) {
            throw new IllegalArgumentException("invalid save point: seconds=" + seconds + ", changes=" + changes);
        }
    }
}
