package dev.ebb.server.pubsub;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.server.util.Glob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server's pub/sub registry and message delivery: channel -> subscribers, pattern ->
 * subscribers, shard channel -> subscribers, plus each client's own {@link Subscriptions}.
 *
 * <p>Delivery writes the message straight into each subscriber's reply buffer and asks the server
 * to flush that client after the current batch ({@link Server#wroteTo}), which also applies the
 * client's output-buffer limit at once: a subscriber over its hard limit is closed and receives
 * nothing more. Costs: PUBLISH is O(subscribers of the channel + number of distinct patterns), as
 * in Redis (every pattern is matched against the channel); SUBSCRIBE and UNSUBSCRIBE are O(1) per
 * name. A message for the client whose command is running (a RESP3 client publishing to itself, or
 * a keyspace notification caused by its own command) is held back and appended after that
 * command's reply, so a push never lands in the middle of a reply.
 *
 * <p>Command loop thread only; not thread-safe.
 */
public final class PubSub {
    static final byte[] MESSAGE = ascii("message");
    static final byte[] PMESSAGE = ascii("pmessage");
    static final byte[] SMESSAGE = ascii("smessage");
    private static final byte[] MESSAGE_BULK = bulkOf(MESSAGE);
    private static final byte[] PMESSAGE_BULK = bulkOf(PMESSAGE);
    private static final byte[] SMESSAGE_BULK = bulkOf(SMESSAGE);

    private final Server server;
    private final Map<ChannelName, Set<Client>> channels = new HashMap<>();
    private final Map<ChannelName, PatternSubscribers> patterns = new LinkedHashMap<>();
    private final Map<ChannelName, Set<Client>> shardChannels = new HashMap<>();
    private final ChannelName probe = new ChannelName(new byte[0]);

    public PubSub(Server server) {
        this.server = server;
    }

    /** The clients subscribed to one pattern, with the pattern compiled once. */
    private static final class PatternSubscribers {
        final byte[] pattern;
        final Glob glob;
        final Set<Client> clients = new LinkedHashSet<>();

        PatternSubscribers(byte[] pattern) {
            this.pattern = pattern;
            this.glob = Glob.compile(pattern, false);
        }
    }

    // ------------------------------------------------------------------ subscribing

    /** SUBSCRIBE one channel and confirm it: {@code [subscribe, channel, count]}. */
    public void subscribe(Client c, byte[] channel) {
        ChannelName name = new ChannelName(channel);
        if (c.subscriptions().channels.add(name)) {
            channels.computeIfAbsent(name, k -> new LinkedHashSet<>()).add(c);
        }
        confirm(c, "subscribe", channel, c.subscriptions().count());
    }

    /** UNSUBSCRIBE one channel; confirmed even if the client was not subscribed to it, as Redis does. */
    public void unsubscribe(Client c, byte[] channel, boolean confirm) {
        ChannelName name = new ChannelName(channel);
        if (c.subscriptions().channels.remove(name)) {
            removeFrom(channels, name, c);
        }
        if (confirm) {
            confirm(c, "unsubscribe", channel, c.subscriptions().count());
        }
    }

    public void psubscribe(Client c, byte[] pattern) {
        ChannelName name = new ChannelName(pattern);
        if (c.subscriptions().patterns.add(name)) {
            patterns.computeIfAbsent(name, k -> new PatternSubscribers(pattern)).clients.add(c);
        }
        confirm(c, "psubscribe", pattern, c.subscriptions().count());
    }

    public void punsubscribe(Client c, byte[] pattern, boolean confirm) {
        ChannelName name = new ChannelName(pattern);
        if (c.subscriptions().patterns.remove(name)) {
            PatternSubscribers subscribers = patterns.get(name);
            subscribers.clients.remove(c);
            if (subscribers.clients.isEmpty()) {
                patterns.remove(name);
            }
        }
        if (confirm) {
            confirm(c, "punsubscribe", pattern, c.subscriptions().count());
        }
    }

    public void ssubscribe(Client c, byte[] channel) {
        ChannelName name = new ChannelName(channel);
        if (c.subscriptions().shardChannels.add(name)) {
            shardChannels.computeIfAbsent(name, k -> new LinkedHashSet<>()).add(c);
        }
        confirm(c, "ssubscribe", channel, c.subscriptions().shardChannelCount());
    }

    public void sunsubscribe(Client c, byte[] channel, boolean confirm) {
        ChannelName name = new ChannelName(channel);
        if (c.subscriptions().shardChannels.remove(name)) {
            removeFrom(shardChannels, name, c);
        }
        if (confirm) {
            confirm(c, "sunsubscribe", channel, c.subscriptions().shardChannelCount());
        }
    }

    /** UNSUBSCRIBE without arguments: every channel, or {@code [unsubscribe, nil, 0]} when there is none. */
    public void unsubscribeAllChannels(Client c, boolean confirm) {
        List<ChannelName> names = new ArrayList<>(c.subscriptions().channels);
        for (ChannelName name : names) {
            unsubscribe(c, name.bytes(), confirm);
        }
        if (confirm && names.isEmpty()) {
            confirm(c, "unsubscribe", null, c.subscriptions().count());
        }
    }

    public void punsubscribeAll(Client c, boolean confirm) {
        List<ChannelName> names = new ArrayList<>(c.subscriptions().patterns);
        for (ChannelName name : names) {
            punsubscribe(c, name.bytes(), confirm);
        }
        if (confirm && names.isEmpty()) {
            confirm(c, "punsubscribe", null, c.subscriptions().count());
        }
    }

    public void sunsubscribeAll(Client c, boolean confirm) {
        List<ChannelName> names = new ArrayList<>(c.subscriptions().shardChannels);
        for (ChannelName name : names) {
            sunsubscribe(c, name.bytes(), confirm);
        }
        if (confirm && names.isEmpty()) {
            confirm(c, "sunsubscribe", null, c.subscriptions().shardChannelCount());
        }
    }

    /** Drops every subscription of {@code c} without replying (RESET, disconnect). */
    public void forget(Client c) {
        if (c.subscriptions().active()) {
            unsubscribeAllChannels(c, false);
            punsubscribeAll(c, false);
            sunsubscribeAll(c, false);
        }
        c.subscriptions().deferred = null;
    }

    private static void removeFrom(Map<ChannelName, Set<Client>> map, ChannelName name, Client c) {
        Set<Client> subscribers = map.get(name);
        subscribers.remove(c);
        if (subscribers.isEmpty()) {
            map.remove(name);
        }
    }

    private static void confirm(Client c, String kind, byte[] name, int count) {
        c.beforePush();
        c.reply().pushHeader(3).bulk(kind).bulk(name).integer(count);
        c.afterPush();
    }

    // ------------------------------------------------------------------ publishing

    /**
     * PUBLISH: delivers {@code message} to the subscribers of {@code channel} and of every
     * matching pattern; returns how many received it (a client subscribed through two patterns
     * counts twice, as in Redis). A subscriber already being closed, whose disconnection the loop
     * has not processed yet, receives nothing and is not counted (Redis counts it until it frees
     * the client at the end of its event-loop turn). {@code message} must never change afterwards
     * (a command's argument, a key): a large one is sent to every subscriber by reference.
     */
    public int publish(byte[] channel, byte[] message) {
        int receivers = 0;
        Set<Client> subscribers = channels.get(probe.probe(channel));
        if (subscribers != null) {
            for (Client sub : subscribers) {
                if (deliver(sub, MESSAGE, null, channel, message)) {
                    receivers++;
                }
            }
        }
        if (!patterns.isEmpty()) {
            for (PatternSubscribers p : patterns.values()) {
                if (p.glob.matches(channel)) {
                    for (Client sub : p.clients) {
                        if (deliver(sub, PMESSAGE, p.pattern, channel, message)) {
                            receivers++;
                        }
                    }
                }
            }
        }
        return receivers;
    }

    /** SPUBLISH: delivers to the subscribers of one shard channel. */
    public int spublish(byte[] channel, byte[] message) {
        Set<Client> subscribers = shardChannels.get(probe.probe(channel));
        int receivers = 0;
        if (subscribers != null) {
            for (Client sub : subscribers) {
                if (deliver(sub, SMESSAGE, null, channel, message)) {
                    receivers++;
                }
            }
        }
        return receivers;
    }

    /** True when no one listens on any channel or pattern: notifications can skip building names. */
    public boolean idle() {
        return channels.isEmpty() && patterns.isEmpty();
    }

    /** Writes or holds back one message; false if {@code sub} is being closed and gets nothing. */
    private boolean deliver(Client sub, byte[] kind, byte[] pattern, byte[] channel, byte[] message) {
        if (sub.closing()) {
            return false;
        }
        if (sub == server.currentClient()) {
            sub.subscriptions().defer(new byte[][] {kind, pattern, channel, message});
            return true;
        }
        write(sub, kind, pattern, channel, message);
        server.wroteTo(sub);
        return true;
    }

    private static void write(Client sub, byte[] kind, byte[] pattern, byte[] channel, byte[] message) {
        sub.beforePush();
        RespWriter w = sub.reply();
        if (pattern != null) {
            w.pushHeader(4).raw(PMESSAGE_BULK).bulk(pattern);
        } else {
            w.pushHeader(3).raw(kind == SMESSAGE ? SMESSAGE_BULK : MESSAGE_BULK);
        }
        w.bulk(channel).bulkRef(message);
        sub.afterPush();
    }

    /** Appends the messages held back while {@code c}'s own command ran, after its reply. */
    public void afterCommand(Client c) {
        List<byte[][]> held = c.subscriptions().deferred;
        if (held == null) {
            return;
        }
        c.subscriptions().deferred = null;
        for (byte[][] m : held) {
            write(c, m[0], m[1], m[2], m[3]);
        }
    }

    // ------------------------------------------------------------------ PUBSUB introspection

    /** Active channels (at least one subscriber), optionally only those matching {@code pattern}. */
    public List<byte[]> channels(byte[] pattern, boolean shard) {
        Glob glob = pattern == null ? null : Glob.compile(pattern, false);
        List<byte[]> out = new ArrayList<>();
        for (ChannelName name : (shard ? shardChannels : channels).keySet()) {
            if (glob == null || glob.matches(name.bytes())) {
                out.add(name.bytes());
            }
        }
        return out;
    }

    public int numsub(byte[] channel, boolean shard) {
        Set<Client> subscribers = (shard ? shardChannels : channels).get(probe.probe(channel));
        return subscribers == null ? 0 : subscribers.size();
    }

    /** Distinct patterns subscribed by anyone (PUBSUB NUMPAT, INFO pubsub_patterns). */
    public int numpat() {
        return patterns.size();
    }

    public int channelCount() {
        return channels.size();
    }

    public int shardChannelCount() {
        return shardChannels.size();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] bulkOf(byte[] word) {
        return ascii("$" + word.length + "\r\n" + new String(word, StandardCharsets.US_ASCII) + "\r\n");
    }
}
