package dev.ebb.storage.stream;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * A consumer group (Redis's streamCG): the last delivered ID, the logical entries-read counter
 * ({@link StreamValue#INVALID_ENTRIES_READ} when unknown), the pending entries list (PEL) by ID,
 * and the consumers by name (byte order). Command loop thread only.
 */
public final class ConsumerGroup {
    public final byte[] name;
    public StreamId lastId;
    public long entriesRead;
    public final TreeMap<StreamId, PendingEntry> pel = new TreeMap<>();
    public final TreeMap<byte[], StreamConsumer> consumers = new TreeMap<>(Arrays::compareUnsigned);

    ConsumerGroup(byte[] name, StreamId lastId, long entriesRead) {
        this.name = name;
        this.lastId = lastId;
        this.entriesRead = entriesRead;
    }

    public StreamConsumer consumer(byte[] consumerName) {
        return consumers.get(consumerName);
    }

    /** Creates a consumer; null if one of that name exists. */
    public StreamConsumer createConsumer(byte[] consumerName, long nowMs) {
        if (consumers.containsKey(consumerName)) {
            return null;
        }
        StreamConsumer c = new StreamConsumer(consumerName, nowMs, -1);
        consumers.put(consumerName, c);
        return c;
    }

    /** Deletes a consumer and its pending entries; returns how many were pending, -1 if absent. */
    public long deleteConsumer(byte[] consumerName) {
        StreamConsumer c = consumers.remove(consumerName);
        if (c == null) {
            return -1;
        }
        for (StreamId id : c.pel.keySet()) {
            pel.remove(id);
        }
        return c.pel.size();
    }

    /** Removes a pending entry from the group and its consumer; whether it was pending. */
    public boolean acknowledge(StreamId id) {
        PendingEntry p = pel.remove(id);
        if (p == null) {
            return false;
        }
        p.consumer.pel.remove(id);
        return true;
    }

    long memoryBytes() {
        return 96 + name.length + pel.size() * 120L + consumers.size() * 160L;
    }

    ConsumerGroup copy() {
        ConsumerGroup g = new ConsumerGroup(name, lastId, entriesRead);
        for (Map.Entry<byte[], StreamConsumer> e : consumers.entrySet()) {
            StreamConsumer old = e.getValue();
            StreamConsumer c = new StreamConsumer(old.name, old.seenTime, old.activeTime);
            g.consumers.put(e.getKey(), c);
        }
        for (PendingEntry p : pel.values()) {
            StreamConsumer c = g.consumers.get(p.consumer.name);
            PendingEntry q = new PendingEntry(p.id, p.deliveryTime, p.deliveryCount, c);
            g.pel.put(p.id, q);
            c.pel.put(p.id, q);
        }
        return g;
    }
}
