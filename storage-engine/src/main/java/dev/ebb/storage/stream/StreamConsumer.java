package dev.ebb.storage.stream;

import java.util.TreeMap;

/**
 * A consumer of a group: its name, when it was last seen (any read or claim attempt) and last
 * active (an entry actually delivered or claimed), and its pending entries by ID.
 */
public final class StreamConsumer {
    public final byte[] name;
    public long seenTime;
    public long activeTime;
    public final TreeMap<StreamId, PendingEntry> pel = new TreeMap<>();

    public StreamConsumer(byte[] name, long seenTime, long activeTime) {
        this.name = name;
        this.seenTime = seenTime;
        this.activeTime = activeTime;
    }
}
