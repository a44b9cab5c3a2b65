package dev.ebb.storage.stream;

/**
 * An entry delivered to a consumer and not yet acknowledged (Redis's streamNACK): its last
 * delivery time, its delivery count and the consumer that owns it. The same object is in the
 * group's PEL and in its consumer's PEL.
 */
public final class PendingEntry {
    public final StreamId id;
    public long deliveryTime;
    public long deliveryCount;
    public StreamConsumer consumer;

    public PendingEntry(StreamId id, long deliveryTime, long deliveryCount, StreamConsumer consumer) {
        this.id = id;
        this.deliveryTime = deliveryTime;
        this.deliveryCount = deliveryCount;
        this.consumer = consumer;
    }
}
