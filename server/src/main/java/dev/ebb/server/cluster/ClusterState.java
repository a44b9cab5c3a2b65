package dev.ebb.server.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * This node's view of the cluster (Redis's clusterState): the node table with myself in it, the
 * owner of each of the 16384 slots, the slots being migrated or imported, the current epoch, the
 * forgotten-nodes blacklist and the ok/fail state. {@link Gossip} drives it from bus messages and
 * cron ticks; the CLUSTER commands change it directly.
 *
 * <p><b>Epochs.</b> The current epoch is the highest epoch seen; each master carries a config epoch
 * and a slot belongs to the claimant with the highest config epoch. Two masters with the same
 * config epoch resolve the collision by the one with the smaller id taking a new epoch.
 *
 * <p><b>State.</b> The cluster is ok when (with cluster-require-full-coverage) every slot has an
 * owner that is not FAIL and a majority of the masters that own slots is reachable. Unlike Redis, a
 * restarted master does not wait the 2 s "rejoin" delay before turning ok.
 *
 * <p>Changes that Redis saves to nodes.conf set {@link #todoSave} (saved with an fsync, Redis's
 * CLUSTER_TODO_FSYNC_CONFIG) or, for CLUSTER SETSLOT's own changes, {@link #todoSaveNoFsync} (Redis
 * saves those without one); the owner saves once per batch of messages or command, as Redis's
 * clusterBeforeSleep. Command loop thread only.
 */
public final class ClusterState {
    public static final int OK = 0;
    public static final int FAIL = 1;
    /** {@link #takeSaveRequest} answers: nothing to save, save, save and fsync. */
    public static final int SAVE_NONE = 0;
    public static final int SAVE = 1;
    public static final int SAVE_FSYNC = 2;
    /** Seconds a forgotten node may not be re-added (CLUSTER_BLACKLIST_TTL). */
    static final long BLACKLIST_TTL_SECONDS = 60;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ClusterState.class);

    final SplittableRandom random;
    final Map<String, ClusterNode> nodes = new LinkedHashMap<>();
    final ClusterNode[] slots = new ClusterNode[HashSlots.SLOTS];
    final ClusterNode[] migratingTo = new ClusterNode[HashSlots.SLOTS];
    final ClusterNode[] importingFrom = new ClusterNode[HashSlots.SLOTS];
    /** Forgotten node id to the unix second its ban ends. */
    final Map<String, Long> blacklist = new LinkedHashMap<>();
    final long[] sent = new long[BusMessage.TYPE_COUNT];
    final long[] received = new long[BusMessage.TYPE_COUNT];
    ClusterNode myself;
    long currentEpoch;
    long lastVoteEpoch;
    int state = FAIL;
    int size;
    int pfailNodes;
    /** Links freed for queueing more than {@link #linkSendBufferLimit} (Redis's stat of that name). */
    long linksBufferLimitExceeded;
    boolean todoSave;
    boolean todoSaveNoFsync;
    /** Slot-keyed data the state needs to see: keys counted and deleted per slot. */
    SlotKeys keys = SlotKeys.NONE;

    // Settings, refreshed from the configuration by the owner.
    long nodeTimeout = 15000;
    boolean requireFullCoverage = true;
    boolean allowReadsWhenDown;
    boolean allowPubsubshardWhenDown = true;
    /** {@code cluster-link-sendbuf-limit}: 0 no limit. */
    long linkSendBufferLimit;
    String announceIp = "";
    String announceHostname = "";
    String announceHumanNodename = "";
    long validityFactor = 10;
    boolean replicaNoFailover;
    int migrationBarrier = 1;
    boolean allowReplicaMigration = true;
    long replPingPeriodMs = 10_000;

    public ClusterState(SplittableRandom random, long now) {
        this.random = random;
        ClusterNode me = new ClusterNode(ClusterNode.randomName(random), ClusterNode.MYSELF | ClusterNode.MASTER,
                now);
        me.shardId = ClusterNode.randomName(random);
        setMyself(me);
    }

    void setMyself(ClusterNode me) {
        nodes.values().removeIf(ClusterNode::isMyself);
        myself = me;
        nodes.put(me.name, me);
    }

    /** What the cluster state needs of the keyspace (database 0). */
    public interface SlotKeys {
        SlotKeys NONE = new SlotKeys() {
            @Override
            public long countKeysInSlot(int slot) {
                return 0;
            }

            @Override
            public void deleteKeysInSlot(int slot) {
            }

            @Override
            public long keyCount() {
                return 0;
            }
        };

        long countKeysInSlot(int slot);

        void deleteKeysInSlot(int slot);

        long keyCount();
    }

    public ClusterNode myself() {
        return myself;
    }

    public Collection<ClusterNode> nodes() {
        return nodes.values();
    }

    public ClusterNode lookup(String name) {
        return nodes.get(name);
    }

    /** The primary {@code n} replicates, or null (a primary, or a primary this node does not know). */
    public ClusterNode masterOf(ClusterNode n) {
        return n.slaveof == null ? null : nodes.get(n.slaveof);
    }

    /** The replicas of {@code master} this node knows, in node-table order. */
    public List<ClusterNode> replicasOf(ClusterNode master) {
        List<ClusterNode> out = new ArrayList<>();
        for (ClusterNode n : nodes.values()) {
            if (n.has(ClusterNode.SLAVE) && master.name.equals(n.slaveof)) {
                out.add(n);
            }
        }
        return out;
    }

    public ClusterNode slotOwner(int slot) {
        return slots[slot];
    }

    public ClusterNode migratingTo(int slot) {
        return migratingTo[slot];
    }

    public ClusterNode importingFrom(int slot) {
        return importingFrom[slot];
    }

    /** {@code n}'s bus links: the outbound one, then the inbound one, those that exist. */
    public List<BusLink> links(ClusterNode n) {
        List<BusLink> out = new ArrayList<>(2);
        if (n.link != null && n.link.connected) {
            out.add(n.link);
        }
        if (n.inboundLink != null) {
            out.add(n.inboundLink);
        }
        return out;
    }

    public long currentEpoch() {
        return currentEpoch;
    }

    public long lastVoteEpoch() {
        return lastVoteEpoch;
    }

    public int state() {
        return state;
    }

    public int size() {
        return size;
    }

    public long sent(int type) {
        return sent[type];
    }

    public long received(int type) {
        return received[type];
    }

    /** Keys of database 0 in {@code slot}. */
    public long keysInSlot(int slot) {
        return keys.countKeysInSlot(slot);
    }

    public void keys(SlotKeys keys) {
        this.keys = keys;
    }

    public void settings(long nodeTimeout, boolean requireFullCoverage, boolean allowReadsWhenDown,
            boolean allowPubsubshardWhenDown) {
        this.nodeTimeout = nodeTimeout;
        this.requireFullCoverage = requireFullCoverage;
        this.allowReadsWhenDown = allowReadsWhenDown;
        this.allowPubsubshardWhenDown = allowPubsubshardWhenDown;
    }

    public void linkSendBufferLimit(long bytes) {
        this.linkSendBufferLimit = bytes;
    }

    /** CLUSTER INFO's {@code total_cluster_links_buffer_limit_exceeded}. */
    public long linksBufferLimitExceeded() {
        return linksBufferLimitExceeded;
    }

    /** The replica and failover directives (cluster-replica-*, cluster-migration-barrier …, repl-ping-replica-period). */
    public void failoverSettings(long validityFactor, boolean replicaNoFailover, int migrationBarrier,
            boolean allowReplicaMigration, long replPingPeriodMs) {
        this.validityFactor = validityFactor;
        this.replicaNoFailover = replicaNoFailover;
        this.migrationBarrier = migrationBarrier;
        this.allowReplicaMigration = allowReplicaMigration;
        this.replPingPeriodMs = replPingPeriodMs;
        int flags = replicaNoFailover ? myself.flags | ClusterNode.NOFAILOVER : myself.flags & ~ClusterNode.NOFAILOVER;
        if (flags != myself.flags) {
            myself.flags = flags;
            todoSave = true;
        }
    }

    public void announce(String ip, String hostname, String humanNodename) {
        this.announceIp = ip;
        this.announceHostname = hostname;
        this.announceHumanNodename = humanNodename;
        if (!ip.isEmpty()) {
            myself.ip = ip;
        }
        myself.hostname = hostname;
        myself.humanNodename = humanNodename;
    }

    public boolean allowReadsWhenDown() {
        return allowReadsWhenDown;
    }

    public boolean allowPubsubshardWhenDown() {
        return allowPubsubshardWhenDown;
    }

    /** The save due ({@link #SAVE_NONE}, {@link #SAVE} or {@link #SAVE_FSYNC}), clearing the request. */
    public int takeSaveRequest() {
        int due = todoSave ? SAVE_FSYNC : todoSaveNoFsync ? SAVE : SAVE_NONE;
        todoSave = false;
        todoSaveNoFsync = false;
        return due;
    }

    // ---- slots ----

    /** Gives {@code slot} to {@code n}; false if it already has an owner. */
    boolean addSlot(ClusterNode n, int slot) {
        if (slots[slot] != null) {
            return false;
        }
        n.slots.set(slot);
        slots[slot] = n;
        return true;
    }

    /** Takes {@code slot} from its owner; false if it had none. */
    boolean delSlot(int slot) {
        ClusterNode n = slots[slot];
        if (n == null) {
            return false;
        }
        n.slots.clear(slot);
        slots[slot] = null;
        return true;
    }

    void delNodeSlots(ClusterNode n) {
        for (int s = n.slots.nextSetBit(0); s >= 0; s = n.slots.nextSetBit(s + 1)) {
            slots[s] = null;
        }
        n.slots.clear();
    }

    public void addMySlot(int slot) {
        addSlot(myself, slot);
        importingFrom[slot] = null;
        todoSave = true;
    }

    public void delMySlot(int slot) {
        delSlot(slot);
        todoSave = true;
    }

    /** CLUSTER FLUSHSLOTS. */
    public void flushMySlots() {
        delNodeSlots(myself);
        todoSave = true;
    }

    public void setMigrating(int slot, ClusterNode to) {
        migratingTo[slot] = to;
        todoSaveNoFsync = true;
    }

    public void setImporting(int slot, ClusterNode from) {
        importingFrom[slot] = from;
        todoSaveNoFsync = true;
    }

    public void setStable(int slot) {
        migratingTo[slot] = null;
        importingFrom[slot] = null;
        todoSaveNoFsync = true;
    }

    /**
     * CLUSTER SETSLOT slot NODE id after its checks: the slot changes owner; a node that finished
     * importing it takes a new config epoch, so that the rest of the cluster accepts the change.
     *
     * @return true if the new owner is myself and it finished an import (broadcast a PONG)
     */
    public boolean setSlotNode(int slot, ClusterNode n) {
        if (keys.countKeysInSlot(slot) == 0 && migratingTo[slot] != null) {
            migratingTo[slot] = null;
        }
        delSlot(slot);
        addSlot(n, slot);
        todoSaveNoFsync = true;
        if (n == myself && importingFrom[slot] != null) {
            bumpEpochWithoutConsensus();
            importingFrom[slot] = null;
            return true;
        }
        return false;
    }

    // ---- epochs ----

    long maxEpoch() {
        long max = currentEpoch;
        for (ClusterNode n : nodes.values()) {
            max = Math.max(max, n.configEpoch);
        }
        return max;
    }

    /**
     * Redis's clusterBumpConfigEpochWithoutConsensus: unless myself already has the unique highest
     * config epoch, take a new one. CLUSTER BUMPEPOCH and the end of a slot import use it.
     *
     * @return true if the epoch changed (BUMPED), false if it stayed (STILL)
     */
    public boolean bumpEpochWithoutConsensus() {
        long max = maxEpoch();
        if (myself.configEpoch == 0 || myself.configEpoch != max) {
            currentEpoch++;
            myself.configEpoch = currentEpoch;
            todoSave = true;
            return true;
        }
        return false;
    }

    /** CLUSTER SET-CONFIG-EPOCH after its checks. */
    public void setMyConfigEpoch(long epoch) {
        myself.configEpoch = epoch;
        if (currentEpoch < epoch) {
            currentEpoch = epoch;
        }
        todoSave = true;
    }

    /**
     * Two masters announced the same config epoch: the one with the lexicographically smaller id
     * takes a new epoch (currentEpoch + 1), so every master ends with a unique one.
     */
    void handleConfigEpochCollision(ClusterNode sender) {
        if (sender.configEpoch != myself.configEpoch || !sender.isMaster() || !myself.isMaster()) {
            return;
        }
        if (sender.name.compareTo(myself.name) <= 0) {
            return;
        }
        currentEpoch++;
        myself.configEpoch = currentEpoch;
        todoSave = true;
    }

    // ---- nodes ----

    void addNode(ClusterNode n) {
        nodes.put(n.name, n);
    }

    /** Removes a node: its slots become unassigned, its failure reports vanish, its links close. */
    void delNode(ClusterNode n, BusTransport transport) {
        for (int s = 0; s < HashSlots.SLOTS; s++) {
            if (importingFrom[s] == n) {
                importingFrom[s] = null;
            }
            if (migratingTo[s] == n) {
                migratingTo[s] = null;
            }
            if (slots[s] == n) {
                delSlot(s);
            }
        }
        for (ClusterNode other : nodes.values()) {
            other.failReports.remove(n.name);
        }
        nodes.remove(n.name);
        closeLinks(n, transport);
        todoSave = true;
    }

    void closeLinks(ClusterNode n, BusTransport transport) {
        closeLink(n, n.link, transport);
        closeLink(n, n.inboundLink, transport);
    }

    /** Detaches {@code l} (one of {@code n}'s links, or null) from the node and closes it. */
    private void closeLink(ClusterNode n, BusLink l, BusTransport transport) {
        if (l == null) {
            return;
        }
        if (n.link == l) {
            n.link = null;
        }
        if (n.inboundLink == l) {
            n.inboundLink = null;
        }
        l.node = null;
        transport.close(l);
    }

    /**
     * Redis's clusterNodeCronFreeLinkOnBufferLimitReached: frees each of {@code n}'s links whose
     * queued bytes pass {@code cluster-link-sendbuf-limit} (a peer that reads too slowly, or a flood
     * of PUBLISH), counting each; the cron's reconnect logic opens a new outbound link at once and
     * the peer a new inbound one. The messages queued on a freed link are lost, as in Redis.
     */
    void freeLinksOverLimit(ClusterNode n, BusTransport transport) {
        if (linkSendBufferLimit == 0) {
            return;
        }
        for (BusLink l : links(n)) {
            long queued = transport.queuedBytes(l);
            if (queued > linkSendBufferLimit) {
                LOG.warn("Freeing cluster link({} node {}, used memory: {}) due to exceeding send buffer memory limit.",
                        l.inbound ? "from" : "to", n.name, queued);
                closeLink(n, l, transport);
                linksBufferLimitExceeded++;
            }
        }
    }

    void rename(ClusterNode n, String name) {
        nodes.remove(n.name);
        n.name = name;
        nodes.put(name, n);
    }

    /** Forbids re-adding {@code name} for a minute (CLUSTER FORGET, the forgotten-node extension). */
    void blacklistAdd(String name, long ttlSeconds, long nowMs) {
        blacklist.put(name, nowMs / 1000 + ttlSeconds);
    }

    boolean blacklisted(String name, long nowMs) {
        long nowSec = nowMs / 1000;
        blacklist.values().removeIf(until -> until < nowSec);
        return blacklist.containsKey(name);
    }

    /** CLUSTER FORGET after its checks. */
    public void forget(ClusterNode n, BusTransport transport, long nowMs) {
        blacklistAdd(n.name, BLACKLIST_TTL_SECONDS, nowMs);
        delNode(n, transport);
        updateState(nowMs);
    }

    /**
     * CLUSTER RESET: a replica turns primary, every slot released, every migration closed, every
     * other node forgotten; a hard reset also zeroes the epochs and takes a new id and shard id.
     */
    public void reset(boolean hard, BusTransport transport, long now) {
        if (myself.has(ClusterNode.SLAVE)) {
            myself.flags = (myself.flags & ~ClusterNode.SLAVE) | ClusterNode.MASTER;
            myself.slaveof = null;
        }
        for (int s = 0; s < HashSlots.SLOTS; s++) {
            migratingTo[s] = null;
            importingFrom[s] = null;
        }
        delNodeSlots(myself);
        for (ClusterNode n : new ArrayList<>(nodes.values())) {
            if (n != myself) {
                delNode(n, transport);
            }
        }
        blacklist.clear();
        if (hard) {
            currentEpoch = 0;
            lastVoteEpoch = 0;
            myself.configEpoch = 0;
            rename(myself, ClusterNode.randomName(random));
            myself.shardId = ClusterNode.randomName(random);
        }
        todoSave = true;
        updateState(now);
    }

    // ---- failure reports ----

    /** Records {@code sender}'s report that {@code node} is failing; true if it is a new reporter. */
    boolean addFailureReport(ClusterNode node, ClusterNode sender, long now) {
        return node.failReports.put(sender.name, now) == null;
    }

    void removeFailureReport(ClusterNode node, ClusterNode sender) {
        node.failReports.remove(sender.name);
    }

    /** Valid failure reports about {@code node}: those younger than twice the node timeout. */
    public int failureReports(ClusterNode node, long now) {
        long maxAge = nodeTimeout * 2;
        Iterator<Long> it = node.failReports.values().iterator();
        while (it.hasNext()) {
            if (now - it.next() > maxAge) {
                it.remove();
            }
        }
        return node.failReports.size();
    }

    // ---- cluster state ----

    /** Redis's clusterUpdateState: recomputes {@link #size} and ok/fail. */
    public void updateState(long now) {
        int newState = OK;
        if (requireFullCoverage) {
            for (int s = 0; s < HashSlots.SLOTS; s++) {
                if (slots[s] == null || slots[s].has(ClusterNode.FAIL)) {
                    newState = FAIL;
                    break;
                }
            }
        }
        int reachable = 0;
        int masters = 0;
        for (ClusterNode n : nodes.values()) {
            if (n.isMaster() && !n.slots.isEmpty()) {
                masters++;
                if (!n.failing()) {
                    reachable++;
                }
            }
        }
        size = masters;
        if (reachable < masters / 2 + 1) {
            newState = FAIL;
        }
        state = newState;
    }

    /** Slots whose owner is reachable, PFAIL and FAIL (CLUSTER INFO's cluster_slots_*), after the assigned count. */
    public int[] slotCounts() {
        int[] counts = new int[4];
        for (ClusterNode n : slots) {
            if (n == null) {
                continue;
            }
            counts[0]++;
            if (n.has(ClusterNode.FAIL)) {
                counts[3]++;
            } else if (n.has(ClusterNode.PFAIL)) {
                counts[2]++;
            } else {
                counts[1]++;
            }
        }
        return counts;
    }

    /** The slot ranges of {@code n} as start/end pairs. */
    public static List<int[]> ranges(ClusterNode n) {
        List<int[]> out = new ArrayList<>();
        int s = n.slots.nextSetBit(0);
        while (s >= 0) {
            int end = n.slots.nextClearBit(s) - 1;
            out.add(new int[] {s, end});
            s = n.slots.nextSetBit(end + 1);
        }
        return out;
    }
}
