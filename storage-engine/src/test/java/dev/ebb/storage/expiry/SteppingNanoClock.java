package dev.ebb.storage.expiry;

import dev.ebb.storage.NanoClock;

/** A test clock: each reading returns the current time, then advances it by {@code stepNanos}. */
final class SteppingNanoClock implements NanoClock {
    private final long stepNanos;
    private long now;

    SteppingNanoClock(long stepNanos) {
        this.stepNanos = stepNanos;
    }

    @Override
    public long nanoTime() {
        long t = now;
        now += stepNanos;
        return t;
    }
}
