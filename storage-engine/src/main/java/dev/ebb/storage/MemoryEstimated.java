package dev.ebb.storage;

/**
 * A value that reports an estimate of the heap bytes it holds, for {@code used_memory}, MEMORY
 * USAGE and maxmemory eviction. Aggregate types (hashes, sets, lists…) implement it.
 *
 * <p>Contract with {@link Database}: the database reads {@link #memoryBytes()} when the value is
 * stored and again when it is removed or replaced. A value mutated in place while stored must
 * report each change through {@link Database#adjustMemory(long)} so the two readings stay
 * consistent; otherwise {@link Database#usedMemory()} drifts by the unreported amount.
 */
public interface MemoryEstimated {
    /** Estimated bytes held by this value, including its own object headers. O(1). */
    long memoryBytes();
}
