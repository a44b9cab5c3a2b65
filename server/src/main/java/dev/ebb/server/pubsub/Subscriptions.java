package dev.ebb.server.pubsub;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One client's side of pub/sub: the channels, patterns and shard channels it is subscribed to (in
 * subscription order, which is the order UNSUBSCRIBE without arguments answers in), and the
 * messages held back while the client's own command runs (see {@link PubSub}).
 *
 * <p>Owned by the command loop thread; not thread-safe.
 */
public final class Subscriptions {
    final Set<ChannelName> channels = new LinkedHashSet<>();
    final Set<ChannelName> patterns = new LinkedHashSet<>();
    final Set<ChannelName> shardChannels = new LinkedHashSet<>();
    /** Messages for this client produced while its own command runs: kind, pattern, channel, message. */
    List<byte[][]> deferred;

    public int channelCount() {
        return channels.size();
    }

    public int patternCount() {
        return patterns.size();
    }

    public int shardChannelCount() {
        return shardChannels.size();
    }

    /** The channels and shard channels subscribed to, as bytes (ACL checks after a user changes). */
    public List<byte[]> channelNames() {
        List<byte[]> names = new ArrayList<>(channels.size() + shardChannels.size());
        channels.forEach(c -> names.add(c.bytes()));
        shardChannels.forEach(c -> names.add(c.bytes()));
        return names;
    }

    /** The patterns subscribed to, as bytes. */
    public List<byte[]> patternNames() {
        List<byte[]> names = new ArrayList<>(patterns.size());
        patterns.forEach(p -> names.add(p.bytes()));
        return names;
    }

    /** True when subscribed to anything: the client is then in Redis's pub/sub mode (flag P, class pubsub). */
    public boolean active() {
        return !channels.isEmpty() || !patterns.isEmpty() || !shardChannels.isEmpty();
    }

    /** What SUBSCRIBE/PSUBSCRIBE confirmations count: channels plus patterns. */
    int count() {
        return channels.size() + patterns.size();
    }

    void defer(byte[][] message) {
        if (deferred == null) {
            deferred = new ArrayList<>(4);
        }
        deferred.add(message);
    }
}
