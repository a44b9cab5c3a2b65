package dev.ebb.storage;

/**
 * The hash slot of a key, 0 to {@link SlotIndex#SLOTS} - 1, for a {@link Database} that keeps a
 * {@link SlotIndex}. The server passes Redis Cluster's CRC16 mapping with hash tags; tests may pass
 * any function into the range. Must be pure: the same key always maps to the same slot.
 */
@FunctionalInterface
public interface SlotFunction {
    int slotOf(byte[] key);
}
