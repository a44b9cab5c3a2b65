package dev.ebb.storage;

/**
 * A monotonic nanosecond clock, passed to time-boxed work loops (incremental rehash, active expiry) so that
 * tests can drive time by hand instead of sleeping.
 *
 * <p>Implementations used by the command loop are called from that single thread only.
 */
@FunctionalInterface
public interface NanoClock {

    /** The JVM's monotonic clock, {@link System#nanoTime()}. */
    NanoClock SYSTEM = System::nanoTime;

    /**
     * Reads the clock.
     *
     * @return a monotonic time in nanoseconds; only differences between two readings are meaningful
     */
    long nanoTime();
}
