package dev.ebb.storage;

/**
 * A database's cluster-mode bookkeeping: its keys by hash slot in a {@link SlotIndex} once
 * {@link Database#indexSlots} was called, else nothing. The database reports every key it inserts or removes
 * (the three places that do: {@code store}, {@link Database#add} and {@code removeEntry}), every flush and
 * every swap; every command, expiry, eviction, RESTORE and loading goes through them. Without an index each
 * report costs one null check. Belongs to one database, on the command loop thread.
 */
final class ClusterSlots {
    /** The keys by hash slot in cluster mode, else null. */
    private SlotIndex index;

    /** The keys by hash slot, or null unless {@link #start} was called. */
    SlotIndex index() {
        return index;
    }

    /**
     * Starts keeping the keys by hash slot: indexes the keys of {@code dict} now, O(keys), and from then on
     * every key reported.
     *
     * @throws IllegalStateException if an index is kept already
     */
    void start(SlotFunction slotFunction, Dict<Object> dict, int databaseId) {
        if (index != null) {
            throw new IllegalStateException("database " + databaseId + " already keeps a slot index");
        }
        SlotIndex fresh = new SlotIndex(slotFunction);
        dict.forEach((key, value) -> fresh.add(key));
        index = fresh;
    }

    /** A key was inserted. */
    void added(byte[] storedKey) {
        if (index != null) {
            index.add(storedKey);
        }
    }

    /** A key is being removed. */
    void removed(byte[] storedKey) {
        if (index != null) {
            index.remove(storedKey);
        }
    }

    /** Every key was removed (FLUSHDB). */
    void cleared() {
        if (index != null) {
            index.clear();
        }
    }

    /** Heap bytes of the index, 0 without one. O(1). */
    long memoryBytes() {
        return index == null ? 0 : index.memoryBytes();
    }

    /**
     * The databases' keys were swapped (SWAPDB): {@code dict} and {@code otherDict} are this database's and
     * {@code other}'s after the swap. An index stays with its database (cluster mode is the server's, not the
     * keys'): when both keep one they travel with the keys, O(1); when only one does, it is rebuilt over that
     * database's new keys, O(keys).
     */
    void swapWith(ClusterSlots other, Dict<Object> dict, Dict<Object> otherDict, int databaseId,
                  int otherDatabaseId) {
        SlotIndex mine = index;
        SlotIndex theirs = other.index;
        if ((mine == null) == (theirs == null)) {
            index = theirs;
            other.index = mine;
            return;
        }
        index = null;
        other.index = null;
        if (mine != null) {
            start(mine.slotFunction(), dict, databaseId);
        } else {
            other.start(theirs.slotFunction(), otherDict, otherDatabaseId);
        }
    }
}
