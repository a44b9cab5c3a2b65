package dev.ebb.bench.expiry;

import dev.ebb.storage.NanoClock;
import java.util.function.IntToLongFunction;

/**
 * The simulation's {@link NanoClock}: virtual time that advances with the simulated wall clock
 * and, inside an active-expire call, by a fixed cost per unit of work instead of by measurement,
 * so that the cycle's budget decisions, and with them every count the simulation reports, follow
 * from the seed alone.
 *
 * <p>The model: the cycle reads its clock after every sampling loop (the simulation sets
 * {@code timeCheckInterval} to 1), and each such reading charges the loop that preceded it:
 * {@code examineNanos} per key it examined plus {@code deleteNanos} per key it deleted. Deletions
 * are exact (the simulation reports each one through {@link #deleted()}); the number examined is
 * not visible from outside the engine, so a strategy-specific {@code loopKeys} function estimates
 * it from the deletions: for {@code sampling} and {@code bucket-cursor} a full loop
 * ({@code keysPerLoop}, or fewer if the database holds fewer volatile keys), for {@code exact}
 * the deleted keys plus the live key at the top of the heap that ends the loop. The first
 * reading of a call is its reference point and charges nothing (the simulator announces each call
 * with {@link #beginCall()}). A cycle that ends because its work is done reads the clock once
 * more with no loop in between; the simulator calls {@link #refundLastCharge()} then, which takes
 * that charge out of {@link #chargedNanos()} (the clock itself never goes back). Not modelled:
 * the {@code exact} heap's O(log n) per pop, and the empty buckets and re-hashing a
 * {@code bucket-cursor} loop walks through; the real time measured alongside shows them.
 *
 * <p>Not thread-safe; the simulation is single-threaded.
 */
final class ModelledCpuClock implements NanoClock {
    private final long examineNanos;
    private final long deleteNanos;
    private final IntToLongFunction loopKeys;
    private long nanos;
    private long chargedNanos;
    private long lastCharge;
    private long deletions;
    private long chargedDeletions;
    private boolean referenceRead;

    /**
     * @param loopKeys estimated keys examined by a loop, given the keys it deleted
     */
    ModelledCpuClock(long examineNanos, long deleteNanos, IntToLongFunction loopKeys) {
        if (examineNanos <= 0 || deleteNanos < 0) {
            throw new IllegalArgumentException("costs must be positive: examineNanos=" + examineNanos
                    + ", deleteNanos=" + deleteNanos);
        }
        this.examineNanos = examineNanos;
        this.deleteNanos = deleteNanos;
        this.loopKeys = loopKeys;
    }

    /** Moves the clock to the simulated wall time {@code wallNanos}, unless work already took it past. */
    void advanceTo(long wallNanos) {
        if (wallNanos > nanos) {
            nanos = wallNanos;
        }
    }

    /** The next call into the cycle starts: its first reading is free, earlier deletions were not its work. */
    void beginCall() {
        referenceRead = true;
        chargedDeletions = deletions;
        lastCharge = 0;
    }

    /** A key was deleted (by the cycle, if a call is in progress). */
    void deleted() {
        deletions++;
    }

    /** Takes the last reading's charge out of {@link #chargedNanos()}: it stood for no loop. */
    void refundLastCharge() {
        chargedNanos -= lastCharge;
        lastCharge = 0;
    }

    /** The current modelled time: the simulated wall time plus the work charged beyond it. */
    long now() {
        return nanos;
    }

    /** Modelled work charged so far, refunds deducted. */
    long chargedNanos() {
        return chargedNanos;
    }

    @Override
    public long nanoTime() {
        if (referenceRead) {
            referenceRead = false;
            return nanos;
        }
        int deleted = (int) (deletions - chargedDeletions);
        lastCharge = loopKeys.applyAsLong(deleted) * examineNanos + deleted * deleteNanos;
        chargedDeletions = deletions;
        nanos += lastCharge;
        chargedNanos += lastCharge;
        return nanos;
    }
}
