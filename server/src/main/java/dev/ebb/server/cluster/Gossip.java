package dev.ebb.server.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The cluster bus protocol as a state machine over {@link ClusterState}: what a received message
 * does (Redis's clusterProcessPacket), what each cron tick does (clusterCron: links, pings,
 * PFAIL), and the messages this node sends. Time is an argument; the network is a
 * {@link BusTransport}, so tests drive whole clusters with a manual clock and no sockets.
 *
 * <p><b>Joining.</b> CLUSTER MEET adds a node with a random id flagged handshake+meet; the cron
 * connects and sends MEET; the PONG that comes back renames the node to the sender's real id. The
 * receiver of a MEET adds the sender in handshake too and meets it back with PINGs. Nodes learnt
 * from gossip sections are added under their real ids and pinged.
 *
 * <p><b>Failure detection.</b> A node that has not answered a PING for {@code cluster-node-timeout}
 * ms (nor sent anything) is flagged PFAIL. Masters report PFAIL/FAIL nodes in their gossip; when
 * reports from a majority of the slot-owning masters (myself included) are younger than twice the
 * timeout, the node is flagged FAIL and a FAIL message is broadcast. FAIL is cleared when the node
 * answers again and owns no slots, or after twice the timeout for a master with slots (in Redis a
 * replica's failover would have taken them over by then).
 *
 * <p><b>Replicas.</b> A replica's header carries its primary's id, its primary's slots and config
 * epoch, and its own replication offset; receivers record the role switch (a primary that turns
 * replica loses its slots). {@link Replicas} keeps myself's replication pointed at my primary,
 * {@link Failover} runs elections, votes and manual failover; both are driven from here. When a
 * primary's slots all go to a node with a newer config epoch, the primary (and its replicas) follow
 * that node (Redis's clusterUpdateSlotsConfigWith). Command loop thread only.
 */
public final class Gossip {
    /** Called with channel, message and whether it is a shard channel, for PUBLISH/PUBLISHSHARD received. */
    public interface Publisher {
        void publish(byte[] channel, byte[] message, boolean shard);
    }

    private final ClusterState cs;
    private final BusTransport transport;
    private Publisher publisher = (channel, message, shard) -> { };
    private ReplicationControl replication = ReplicationControl.NONE;
    private final Failover failover;
    private final Replicas replicas;
    private long iteration;

    public Gossip(ClusterState cs, BusTransport transport) {
        this.cs = cs;
        this.transport = transport;
        this.failover = new Failover(this);
        this.replicas = new Replicas(this);
    }

    public void publisher(Publisher publisher) {
        this.publisher = publisher;
    }

    /** Connects the state machine to replication (and to the clients, for a manual failover's pause). */
    public void replication(ReplicationControl replication) {
        this.replication = replication;
    }

    public ReplicationControl replication() {
        return replication;
    }

    public Failover failover() {
        return failover;
    }

    public Replicas replicas() {
        return replicas;
    }

    public ClusterState state() {
        return cs;
    }

    public BusTransport transport() {
        return transport;
    }

    // ---- MEET ----

    /**
     * CLUSTER MEET: adds a handshake node for {@code ip:port@cport} unless one is already in handshake
     * there. The address must be a literal IPv4/IPv6 address (normalized) and the ports valid.
     *
     * @return false if the address is invalid
     */
    public boolean startHandshake(String ip, int port, int cport, long now) {
        String norm = IpAddresses.normalize(ip);
        if (norm == null || port <= 0 || port > 65535 || cport <= 0 || cport > 65535) {
            return false;
        }
        for (ClusterNode n : cs.nodes.values()) {
            if (n.has(ClusterNode.HANDSHAKE) && n.ip.equalsIgnoreCase(norm) && n.port == port && n.cport == cport) {
                return true;
            }
        }
        ClusterNode n = new ClusterNode(ClusterNode.randomName(cs.random), ClusterNode.HANDSHAKE | ClusterNode.MEET,
                now);
        n.ip = norm;
        n.port = port;
        n.cport = cport;
        cs.addNode(n);
        return true;
    }

    // ---- links ----

    /** An outbound link came up: send MEET to a node flagged meet, otherwise PING (keeping an older ping time). */
    public void linkConnected(BusLink link, long now) {
        link.connected = true;
        ClusterNode n = link.node;
        if (n == null) {
            transport.close(link);
            return;
        }
        long oldPingSent = n.pingSent;
        sendPing(link, n.has(ClusterNode.MEET) ? BusMessage.MEET : BusMessage.PING, now);
        if (oldPingSent != 0) {
            n.pingSent = oldPingSent;
        }
        n.flags &= ~ClusterNode.MEET;
    }

    /**
     * A link closed or failed to connect. A node whose connection failed before any ping counts as
     * pinged now, so that failure detection starts (Redis does this for a synchronous connect error).
     */
    public void linkClosed(BusLink link, long now) {
        ClusterNode n = link.node;
        if (n == null) {
            return;
        }
        if (n.link == link) {
            n.link = null;
            if (n.pingSent == 0 && !link.connected) {
                n.pingSent = now;
            }
        }
        if (n.inboundLink == link) {
            n.inboundLink = null;
        }
        link.node = null;
    }

    // ---- cron ----

    /** One tick of Redis's clusterCron (10 a second): handshake timeouts, links, pings, PFAIL, state. */
    public void cron(long now) {
        iteration++;
        long timeout = cs.nodeTimeout;
        long handshakeTimeout = Math.max(timeout, 1000);
        cs.pfailNodes = 0;
        for (ClusterNode n : new ArrayList<>(cs.nodes.values())) {
            if (n.isMyself()) {
                continue;
            }
            // An oversized send queue frees the link; the reconnect below opens a new one at once.
            cs.freeLinksOverLimit(n, transport);
            if (n.has(ClusterNode.NOADDR)) {
                continue;
            }
            if (n.has(ClusterNode.PFAIL)) {
                cs.pfailNodes++;
            }
            if (n.has(ClusterNode.HANDSHAKE) && now - n.ctime > handshakeTimeout) {
                cs.delNode(n, transport);
                continue;
            }
            if (n.link == null) {
                BusLink link = transport.connect(n, now);
                link.node = n;
                n.link = link;
            }
        }
        if (iteration % 10 == 0) {
            pingOldest(now);
        }
        boolean updateState = false;
        for (ClusterNode n : new ArrayList<>(cs.nodes.values())) {
            if (n.has(ClusterNode.MYSELF | ClusterNode.NOADDR | ClusterNode.HANDSHAKE)) {
                continue;
            }
            long pingDelay = now - n.pingSent;
            long dataDelay = now - n.dataReceived;
            BusLink link = n.link;
            if (link != null && link.connected && now - link.ctime > timeout && n.pingSent != 0
                    && pingDelay > timeout / 2 && dataDelay > timeout / 2) {
                // The link looks stuck: drop it, the next tick reconnects.
                cs.closeLinks(n, transport);
            }
            if (n.link != null && n.link.connected && n.pingSent == 0 && now - n.pongReceived > timeout / 2) {
                sendPing(n.link, BusMessage.PING, now);
                continue;
            }
            if (n.pingSent == 0) {
                continue;
            }
            long nodeDelay = Math.min(pingDelay, dataDelay);
            if (nodeDelay > timeout && !n.failing()) {
                n.flags |= ClusterNode.PFAIL;
                updateState = true;
                if (cs.myself.isMaster() && cs.size == 1) {
                    markFailingIfNeeded(n, now);
                }
            }
        }
        if (updateState || cs.state == ClusterState.FAIL) {
            cs.updateState(now);
        }
        ClusterNode mfReplica = failover.manualReplica();
        if (mfReplica != null && cs.myself.isMaster() && mfReplica.link != null) {
            // A replica's manual failover: ping it every tick with the PAUSED flag and my offset.
            sendPing(mfReplica.link, BusMessage.PING, now);
        }
        failover.cron(now);
        replicas.cron(now);
    }

    /** Every second: ping the one of five random nodes that answered longest ago. */
    private void pingOldest(long now) {
        List<ClusterNode> all = new ArrayList<>(cs.nodes.values());
        ClusterNode min = null;
        for (int i = 0; i < 5 && !all.isEmpty(); i++) {
            ClusterNode n = all.get(cs.random.nextInt(all.size()));
            if (n.link == null || !n.link.connected || n.pingSent != 0
                    || n.has(ClusterNode.MYSELF | ClusterNode.HANDSHAKE)) {
                continue;
            }
            if (min == null || min.pongReceived > n.pongReceived) {
                min = n;
            }
        }
        if (min != null) {
            sendPing(min.link, BusMessage.PING, now);
        }
    }

    /** PFAIL becomes FAIL once a majority of slot-owning masters (myself included when a master) reports it. */
    void markFailingIfNeeded(ClusterNode n, long now) {
        int needed = cs.size / 2 + 1;
        if (!n.has(ClusterNode.PFAIL) || n.has(ClusterNode.FAIL)) {
            return;
        }
        int failures = cs.failureReports(n, now);
        if (cs.myself.isMaster()) {
            failures++;
        }
        if (failures < needed) {
            return;
        }
        n.flags = (n.flags & ~ClusterNode.PFAIL) | ClusterNode.FAIL;
        n.failTime = now;
        BusMessage fail = header(BusMessage.FAIL);
        fail.nodename = n.name;
        broadcast(fail);
        cs.todoSave = true;
        cs.updateState(now);
    }

    /** A node flagged FAIL answers again: clear it if it owns no slots, or after twice the node timeout. */
    private void clearFailureIfNeeded(ClusterNode n, long now) {
        if (!n.isMaster() || n.slots.isEmpty() || now - n.failTime > cs.nodeTimeout * 2) {
            n.flags &= ~ClusterNode.FAIL;
            cs.todoSave = true;
            cs.updateState(now);
        }
    }

    // ---- receiving ----

    /** Processes one message received on {@code link} (Redis's clusterProcessPacket). */
    public void process(BusLink link, BusMessage m, long now) {
        if (m.type < BusMessage.TYPE_COUNT) {
            cs.received[m.type]++;
        }
        ClusterNode sender = m.type != BusMessage.MODULE ? cs.lookup(m.sender) : null;
        if (sender != null && link.inbound && sender.inboundLink != link) {
            if (sender.inboundLink != null && sender.inboundLink != link) {
                BusLink old = sender.inboundLink;
                old.node = null;
                transport.close(old);
            }
            sender.inboundLink = link;
            link.node = sender;
        }
        if (sender != null && sender.has(ClusterNode.HANDSHAKE)) {
            sender = null;
        }
        if (sender != null) {
            sender.dataReceived = now;
            if (m.currentEpoch > cs.currentEpoch) {
                cs.currentEpoch = m.currentEpoch;
                cs.todoSave = true;
            }
            if (m.configEpoch > sender.configEpoch) {
                sender.configEpoch = m.configEpoch;
                cs.todoSave = true;
            }
            sender.replOffset = m.offset;
            failover.primaryOffsetReceived(sender, m);
        }
        switch (m.type) {
            case BusMessage.PING, BusMessage.PONG, BusMessage.MEET -> processPing(link, m, sender, now);
            case BusMessage.FAIL -> {
                ClusterNode failing = sender == null ? null : cs.lookup(m.nodename);
                if (failing != null && !failing.has(ClusterNode.FAIL | ClusterNode.MYSELF)) {
                    failing.flags = (failing.flags & ~ClusterNode.PFAIL) | ClusterNode.FAIL;
                    failing.failTime = now;
                    cs.todoSave = true;
                    cs.updateState(now);
                }
            }
            case BusMessage.PUBLISH, BusMessage.PUBLISHSHARD -> {
                if (sender != null) {
                    publisher.publish(m.channel, m.message, m.type == BusMessage.PUBLISHSHARD);
                }
            }
            case BusMessage.UPDATE -> {
                ClusterNode n = sender == null ? null : cs.lookup(m.nodename);
                if (n != null && n.configEpoch < m.updateConfigEpoch) {
                    setNodeAsMaster(n);
                    n.configEpoch = m.updateConfigEpoch;
                    updateSlotsWith(n, m.updateConfigEpoch, m.updateSlots, now);
                    cs.todoSave = true;
                }
            }
            case BusMessage.FAILOVER_AUTH_REQUEST -> {
                if (sender != null) {
                    failover.voteIfNeeded(sender, m, now);
                }
            }
            case BusMessage.FAILOVER_AUTH_ACK -> {
                if (sender != null) {
                    failover.ackReceived(sender, m, now);
                }
            }
            case BusMessage.MFSTART -> {
                if (sender != null) {
                    failover.mfStartReceived(sender, now);
                }
            }
            default -> {
                // Module messages are not supported.
            }
        }
    }

    private void processPing(BusLink link, BusMessage m, ClusterNode sender, long now) {
        if (m.type == BusMessage.PING || m.type == BusMessage.MEET) {
            // Learn our own ip from the address other nodes reach us on.
            if ((m.type == BusMessage.MEET || cs.myself.ip.isEmpty()) && cs.announceIp.isEmpty()
                    && !link.localIp.isEmpty() && !link.localIp.equals(cs.myself.ip)) {
                cs.myself.ip = link.localIp;
                cs.todoSave = true;
            }
            if (sender == null && m.type == BusMessage.MEET) {
                ClusterNode n = new ClusterNode(ClusterNode.randomName(cs.random), ClusterNode.HANDSHAKE, now);
                n.ip = m.myip.isEmpty() ? link.peerIp : m.myip;
                n.port = m.port;
                n.pport = m.pport;
                n.cport = m.cport;
                cs.addNode(n);
                cs.todoSave = true;
                processGossip(m, null, now, true);
            }
            sendPing(link, BusMessage.PONG, now);
        }
        ClusterNode linkNode = link.inbound ? null : link.node;
        if (linkNode != null) {
            if (linkNode.has(ClusterNode.HANDSHAKE)) {
                if (sender != null) {
                    // We already know this node under its real id: the handshake node is a duplicate.
                    updateAddress(sender, link, m);
                    cs.delNode(linkNode, transport);
                    return;
                }
                ClusterNode existing = cs.lookup(m.sender);
                if (existing != null && existing != linkNode) {
                    cs.delNode(existing, transport);
                }
                cs.rename(linkNode, m.sender);
                linkNode.flags &= ~ClusterNode.HANDSHAKE;
                linkNode.flags |= m.flags & (ClusterNode.MASTER | ClusterNode.SLAVE);
                linkNode.dataReceived = now;
                linkNode.configEpoch = Math.max(linkNode.configEpoch, m.configEpoch);
                cs.todoSave = true;
                sender = linkNode;
            } else if (!linkNode.name.equals(m.sender)) {
                // The node at this address has a different id now: forget the address.
                linkNode.flags |= ClusterNode.NOADDR;
                linkNode.ip = "";
                linkNode.port = 0;
                linkNode.cport = 0;
                cs.closeLinks(linkNode, transport);
                cs.todoSave = true;
                return;
            }
        }
        if (sender != null) {
            processExtensions(sender, m, now);
        }
        if (linkNode != null && m.type == BusMessage.PONG) {
            linkNode.pongReceived = now;
            linkNode.pingSent = 0;
            if (linkNode.has(ClusterNode.PFAIL)) {
                linkNode.flags &= ~ClusterNode.PFAIL;
                cs.updateState(now);
            } else if (linkNode.has(ClusterNode.FAIL)) {
                clearFailureIfNeeded(linkNode, now);
            }
        }
        if (sender == null) {
            return;
        }
        int nofailover = m.flags & ClusterNode.NOFAILOVER;
        sender.flags = (sender.flags & ~ClusterNode.NOFAILOVER) | nofailover;
        if (m.slaveof == null) {
            setNodeAsMaster(sender);
        } else {
            if (sender.isMaster()) {
                // A primary turned replica: its slots are no longer its own.
                cs.delNodeSlots(sender);
                sender.flags = (sender.flags & ~(ClusterNode.MASTER | ClusterNode.MIGRATE_TO)) | ClusterNode.SLAVE;
                cs.todoSave = true;
                cs.updateState(now);
            }
            ClusterNode master = cs.lookup(m.slaveof);
            if (master != null && !m.slaveof.equals(sender.slaveof)) {
                sender.slaveof = m.slaveof;
                master.flags |= ClusterNode.MIGRATE_TO;
                if (master.shardId != null) {
                    sender.shardId = master.shardId;
                }
                cs.todoSave = true;
            }
        }
        if (sender.isMaster()) {
            // Bit s of the bitmap is bit s % 8 of byte s / 8: BitSet's own order.
            java.util.BitSet claimed = java.util.BitSet.valueOf(m.myslots);
            if (!claimed.equals(sender.slots)) {
                updateSlotsWith(sender, m.configEpoch, m.myslots, now);
            }
            // A sender claiming slots with an older epoch than their owner's learns the owner's claim.
            for (int s = claimed.nextSetBit(0); s >= 0; s = claimed.nextSetBit(s + 1)) {
                ClusterNode owner = cs.slots[s];
                if (owner == null || owner == sender) {
                    continue;
                }
                if (owner.configEpoch > m.configEpoch) {
                    sendUpdate(link, owner);
                    break;
                }
            }
            cs.handleConfigEpochCollision(sender);
        }
        processGossip(m, sender, now, false);
    }

    /** Redis's clusterSetNodeAsMaster: {@code n} turns primary; another node that was a replica may take replicas. */
    void setNodeAsMaster(ClusterNode n) {
        if (n.isMaster()) {
            return;
        }
        if (n.slaveof != null && n != cs.myself) {
            n.flags |= ClusterNode.MIGRATE_TO;
        }
        n.flags = (n.flags & ~ClusterNode.SLAVE) | ClusterNode.MASTER;
        n.slaveof = null;
        cs.todoSave = true;
    }

    /** Redis's clusterUpdateSlotsConfigWith: slots claimed with a higher config epoch change owner. */
    void updateSlotsWith(ClusterNode sender, long senderConfigEpoch, byte[] bitmap, long now) {
        if (sender == cs.myself) {
            return;
        }
        java.util.BitSet claimed = java.util.BitSet.valueOf(bitmap);
        ClusterNode curMaster = cs.myself.isMaster() ? cs.myself : cs.masterOf(cs.myself);
        boolean changed = false;
        boolean newMaster = false;
        int senderSlots = 0;
        int migratedOurSlots = 0;
        List<Integer> dirty = new ArrayList<>();
        for (int s = claimed.nextSetBit(0); s >= 0 && s < HashSlots.SLOTS; s = claimed.nextSetBit(s + 1)) {
            senderSlots++;
            ClusterNode owner = cs.slots[s];
            if (owner == sender || cs.importingFrom[s] != null) {
                continue;
            }
            if (owner == null || owner.configEpoch < senderConfigEpoch) {
                if (owner == cs.myself && cs.keys.countKeysInSlot(s) > 0) {
                    dirty.add(s);
                }
                if (owner == cs.myself) {
                    cs.migratingTo[s] = null;
                }
                if (owner != null && owner == curMaster) {
                    newMaster = true;
                    migratedOurSlots++;
                }
                cs.delSlot(s);
                cs.addSlot(sender, s);
                changed = true;
            }
        }
        if (changed) {
            cs.todoSave = true;
            cs.updateState(now);
        }
        ClusterNode myMaster = cs.myself.isMaster() ? null : cs.masterOf(cs.myself);
        ClusterNode grandMaster = myMaster == null ? null : cs.masterOf(myMaster);
        if (newMaster && curMaster.slots.isEmpty()
                && (cs.allowReplicaMigration || senderSlots == migratedOurSlots)) {
            // Failed over (or emptied): follow the node that took our slots; replication replaces the keys.
            replicas.setMyMaster(sender, now);
        } else if (grandMaster != null && grandMaster != cs.myself) {
            // My primary turned replica: follow its primary, never a sub-replica.
            replicas.setMyMaster(grandMaster, now);
        } else {
            // We lost slots that still have keys here: they belong to the new owner now.
            for (int s : dirty) {
                cs.keys.deleteKeysInSlot(s);
            }
        }
    }

    private void processExtensions(ClusterNode sender, BusMessage m, long now) {
        String hostname = m.hostname == null ? "" : m.hostname;
        String human = m.humanNodename == null ? "" : m.humanNodename;
        if (!hostname.equals(sender.hostname) || !human.equals(sender.humanNodename)) {
            sender.hostname = hostname;
            sender.humanNodename = human;
            cs.todoSave = true;
        }
        for (BusMessage.Forgotten f : m.forgotten) {
            ClusterNode n = cs.lookup(f.nodename());
            if (n != null && n != cs.myself) {
                cs.blacklistAdd(f.nodename(), f.ttlSeconds(), now);
                cs.delNode(n, transport);
            }
        }
        if (m.shardId != null && !m.shardId.equals(sender.shardId)) {
            sender.shardId = m.shardId;
            cs.todoSave = true;
        }
    }

    private void processGossip(BusMessage m, ClusterNode sender, long now, boolean fromMeet) {
        for (BusMessage.Gossip g : m.gossip) {
            ClusterNode node = cs.lookup(g.nodename());
            if (node != null) {
                if (sender != null && sender.isMaster() && node != cs.myself) {
                    if ((g.flags() & (ClusterNode.FAIL | ClusterNode.PFAIL)) != 0) {
                        cs.addFailureReport(node, sender, now);
                        markFailingIfNeeded(node, now);
                    } else {
                        cs.removeFailureReport(node, sender);
                    }
                }
                if ((g.flags() & (ClusterNode.FAIL | ClusterNode.PFAIL)) == 0 && node.pingSent == 0
                        && cs.failureReports(node, now) == 0) {
                    long pongTime = g.pongReceived() * 1000;
                    if (pongTime <= now + 500 && pongTime > node.pongReceived) {
                        node.pongReceived = pongTime;
                    }
                }
                if (node.failing() && (g.flags() & (ClusterNode.NOADDR | ClusterNode.FAIL | ClusterNode.PFAIL)) == 0
                        && (!node.ip.equalsIgnoreCase(g.ip()) || node.port != g.port() || node.cport != g.cport())) {
                    cs.closeLinks(node, transport);
                    node.ip = g.ip();
                    node.port = g.port();
                    node.pport = g.pport();
                    node.cport = g.cport();
                    node.flags &= ~ClusterNode.NOADDR;
                }
            } else if ((sender != null || fromMeet) && (g.flags() & ClusterNode.NOADDR) == 0
                    && !cs.blacklisted(g.nodename(), now) && !g.nodename().equals(cs.myself.name)) {
                ClusterNode n = new ClusterNode(g.nodename(), g.flags()
                        & ~(ClusterNode.MYSELF | ClusterNode.PFAIL | ClusterNode.FAIL), now);
                n.ip = g.ip();
                n.port = g.port();
                n.pport = g.pport();
                n.cport = g.cport();
                cs.addNode(n);
                cs.todoSave = true;
            }
        }
    }

    private void updateAddress(ClusterNode n, BusLink link, BusMessage m) {
        String ip = m.myip.isEmpty() ? link.peerIp : m.myip;
        if (ip.isEmpty() || (ip.equals(n.ip) && n.port == m.port && n.cport == m.cport)) {
            return;
        }
        n.ip = ip;
        n.port = m.port;
        n.pport = m.pport;
        n.cport = m.cport;
        n.flags &= ~ClusterNode.NOADDR;
        cs.todoSave = true;
    }

    // ---- sending ----

    /** The header every message starts with, describing myself. */
    BusMessage header(int type) {
        BusMessage m = new BusMessage();
        ClusterNode me = cs.myself;
        m.type = type;
        m.sender = me.name;
        m.port = me.port;
        m.pport = me.pport;
        m.cport = me.cport;
        m.myip = cs.announceIp;
        // A replica announces its primary's slots and config epoch.
        ClusterNode master = me.has(ClusterNode.SLAVE) && cs.masterOf(me) != null ? cs.masterOf(me) : me;
        byte[] bits = master.slots.toByteArray();
        System.arraycopy(bits, 0, m.myslots, 0, Math.min(bits.length, m.myslots.length));
        m.slaveof = me.slaveof;
        m.flags = me.flags & 0xffff;
        m.state = cs.state;
        m.currentEpoch = cs.currentEpoch;
        m.configEpoch = master.configEpoch;
        m.offset = replication.offset();
        if (failover.paused()) {
            m.mflags0 |= BusMessage.MFLAG0_PAUSED;
        }
        return m;
    }

    void send(BusLink link, BusMessage m) {
        if (link == null || !link.connected) {
            return;
        }
        cs.sent[m.type]++;
        transport.send(link, m);
    }

    /** PING, PONG or MEET with gossip about a tenth of the nodes (at least 3) plus every PFAIL node. */
    void sendPing(BusLink link, int type, long now) {
        BusMessage m = header(type);
        List<ClusterNode> candidates = new ArrayList<>(cs.nodes.values());
        int fresh = candidates.size() - 2;
        int wanted = Math.max(3, candidates.size() / 10);
        wanted = Math.min(wanted, fresh);
        java.util.Set<String> added = new java.util.HashSet<>();
        int iterations = wanted * 3;
        while (fresh > 0 && added.size() < wanted && iterations-- > 0) {
            ClusterNode n = candidates.get(cs.random.nextInt(candidates.size()));
            if (n.isMyself() || n.has(ClusterNode.PFAIL) || n.has(ClusterNode.HANDSHAKE | ClusterNode.NOADDR)
                    || (n.link == null && n.slots.isEmpty()) || !added.add(n.name)) {
                continue;
            }
            m.gossip.add(gossipEntry(n));
        }
        for (ClusterNode n : candidates) {
            if (n.has(ClusterNode.PFAIL) && !n.has(ClusterNode.HANDSHAKE | ClusterNode.NOADDR) && !n.isMyself()
                    && added.add(n.name)) {
                m.gossip.add(gossipEntry(n));
            }
        }
        if (!cs.myself.hostname.isEmpty()) {
            m.hostname = cs.myself.hostname;
        }
        if (!cs.myself.humanNodename.isEmpty()) {
            m.humanNodename = cs.myself.humanNodename;
        }
        long nowSec = now / 1000;
        for (var e : cs.blacklist.entrySet()) {
            if (e.getValue() >= nowSec) {
                m.forgotten.add(new BusMessage.Forgotten(e.getKey(), e.getValue() - nowSec));
            }
        }
        m.shardId = cs.myself.shardId;
        if (link.node != null && type == BusMessage.PING && !link.inbound) {
            link.node.pingSent = now;
        }
        send(link, m);
    }

    private static BusMessage.Gossip gossipEntry(ClusterNode n) {
        return new BusMessage.Gossip(n.name, n.pingSent / 1000, n.pongReceived / 1000, n.ip, n.port, n.cport,
                n.flags & 0xffff, n.pport);
    }

    private void sendUpdate(BusLink link, ClusterNode n) {
        BusMessage m = header(BusMessage.UPDATE);
        m.nodename = n.name;
        m.updateConfigEpoch = n.configEpoch;
        m.updateSlots = new byte[HashSlots.SLOTS / 8];
        byte[] bits = n.slots.toByteArray();
        System.arraycopy(bits, 0, m.updateSlots, 0, Math.min(bits.length, m.updateSlots.length));
        send(link, m);
    }

    /** Sends {@code m} on the outbound link of every connected node but myself and handshakes. */
    void broadcast(BusMessage m) {
        for (ClusterNode n : cs.nodes.values()) {
            if (n.link != null && !n.has(ClusterNode.MYSELF | ClusterNode.HANDSHAKE)) {
                send(n.link, m);
            }
        }
    }

    /** Tells every node our configuration at once (after an import ends, CLUSTER BUMPEPOCH …). */
    public void broadcastPong(long now) {
        for (ClusterNode n : new ArrayList<>(cs.nodes.values())) {
            if (n.link != null && n.link.connected && !n.has(ClusterNode.MYSELF | ClusterNode.HANDSHAKE)) {
                sendPing(n.link, BusMessage.PONG, now);
            }
        }
    }

    /**
     * PUBLISH to every node; SPUBLISH (shard) only to the other nodes of my shard, which are my
     * replicas: a primary-only cluster has none.
     */
    public void publish(byte[] channel, byte[] message, boolean shard) {
        BusMessage m = header(shard ? BusMessage.PUBLISHSHARD : BusMessage.PUBLISH);
        m.channel = channel;
        m.message = message;
        for (ClusterNode n : cs.nodes.values()) {
            if (n.link != null && !n.has(ClusterNode.MYSELF | ClusterNode.HANDSHAKE)
                    && (!shard || cs.myself.shardId.equals(n.shardId))) {
                send(n.link, m);
            }
        }
    }
}
