package dev.ebb.server.cluster;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * An in-memory cluster bus for state-machine tests: nodes are {@link ClusterState} + {@link Gossip}
 * pairs whose links are pairs of {@link BusLink}s; every message goes through {@link BusCodec}
 * (encoded, then decoded at the other end) and is delivered in order by {@link #pump}. Time is the
 * test's: {@link #run} advances it in cron ticks of 100 ms. A node can be killed (its links drop,
 * connections to it fail) and revived. Each node's replication is a {@link FakeReplication}.
 */
final class SimulatedBus {
    final List<Node> nodes = new ArrayList<>();
    private final Deque<Runnable> events = new ArrayDeque<>();
    private final Map<BusLink, Node> owner = new IdentityHashMap<>();
    long now = 1_700_000_000_000L;

    /** A node's replication as the state machine drives it: who it follows, its offset, promotions, pauses. */
    static final class FakeReplication implements ReplicationControl {
        String ip;
        int port;
        long offset;
        long dataAgeMs;
        int promotions;
        long pausedUntil;
        int unpauses;

        @Override
        public void replicate(String toIp, int toPort) {
            ip = toIp;
            port = toPort;
        }

        @Override
        public void promote() {
            ip = null;
            port = 0;
            promotions++;
        }

        @Override
        public boolean following() {
            return ip != null;
        }

        @Override
        public long offset() {
            return offset;
        }

        @Override
        public long dataAgeMs() {
            return dataAgeMs;
        }

        @Override
        public void pauseWrites(long untilMs) {
            pausedUntil = untilMs;
        }

        @Override
        public void unpauseWrites() {
            pausedUntil = 0;
            unpauses++;
        }
    }

    final class Node implements BusTransport {
        final ClusterState state;
        final Gossip gossip;
        final FakeReplication replication = new FakeReplication();
        boolean down;
        /** What every live link of this node reports as queued for sending (the simulated socket never fills). */
        long queuedBytes;

        Node(int index, long nodeTimeout) {
            state = new ClusterState(new SplittableRandom(index * 31L + 7), now);
            state.settings(nodeTimeout, true, false, true);
            state.myself().ip = "127.0.0.1";
            state.myself().port = 7000 + index;
            state.myself().cport = 17000 + index;
            gossip = new Gossip(state, this);
            gossip.replication(replication);
        }

        ClusterNode myself() {
            return state.myself();
        }

        /** This node's view of {@code other}. */
        ClusterNode view(Node other) {
            return state.lookup(other.myself().name());
        }

        @Override
        public BusLink connect(ClusterNode node, long at) {
            BusLink out = new BusLink(false, at);
            owner.put(out, this);
            Node target = null;
            for (Node n : nodes) {
                if (n.myself().cport == node.cport) {
                    target = n;
                }
            }
            Node to = target;
            events.add(() -> {
                if (to == null || to.down || down) {
                    gossip.linkClosed(out, now);
                    return;
                }
                BusLink in = new BusLink(true, now);
                owner.put(in, to);
                in.peerIp = "127.0.0.1";
                in.localIp = "127.0.0.1";
                out.peerIp = "127.0.0.1";
                out.localIp = "127.0.0.1";
                in.handle = out;
                out.handle = in;
                gossip.linkConnected(out, now);
            });
            return out;
        }

        @Override
        public void send(BusLink link, BusMessage message) {
            BusLink peer = (BusLink) link.handle;
            if (peer == null || down) {
                return;
            }
            Node to = owner.get(peer);
            byte[] bytes = BusCodec.encode(message);
            events.add(() -> {
                if (!to.down && peer.handle != null) {
                    to.gossip.process(peer, BusCodec.decode(bytes), now);
                }
            });
        }

        @Override
        public void close(BusLink link) {
            BusLink peer = (BusLink) link.handle;
            link.handle = null;
            if (peer != null) {
                peer.handle = null;
                Node to = owner.get(peer);
                events.add(() -> to.gossip.linkClosed(peer, now));
            }
        }

        @Override
        public long queuedBytes(BusLink link) {
            return link.handle == null ? 0 : queuedBytes;
        }

        /** The process dies: every link of it drops at both ends. */
        void kill() {
            down = true;
            for (Map.Entry<BusLink, Node> e : new ArrayList<>(owner.entrySet())) {
                if (e.getValue() == this && e.getKey().handle != null) {
                    close(e.getKey());
                    gossip.linkClosed(e.getKey(), now);
                }
            }
        }
    }

    Node add(long nodeTimeout) {
        Node n = new Node(nodes.size(), nodeTimeout);
        nodes.add(n);
        return n;
    }

    /** Delivers every pending event (and what they cause). */
    void pump() {
        int budget = 1_000_000;
        while (!events.isEmpty() && budget-- > 0) {
            events.poll().run();
        }
    }

    /** Advances time by {@code ms} in 100 ms cron ticks of every live node. */
    void run(long ms) {
        for (long t = 0; t < ms; t += 100) {
            now += 100;
            for (Node n : nodes) {
                if (!n.down) {
                    n.gossip.cron(now);
                }
            }
            pump();
        }
    }
}
