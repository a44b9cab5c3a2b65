package dev.ebb.server.cluster;

/**
 * Replica elections, votes and manual failover (Redis's clusterHandleSlaveFailover,
 * clusterSendFailoverAuthIfNeeded, clusterHandleManualFailover, clusterFailoverReplaceYourMaster),
 * on the {@link Gossip} state machine: time is an argument, the network its transport.
 *
 * <p><b>Election.</b> A replica whose primary is FAIL (and owned slots) schedules an election
 * 500 ms + random(0..500) ms + rank × 1000 ms ahead, its rank being how many sibling replicas
 * announced a larger replication offset; then it bumps the current epoch and broadcasts
 * FAILOVER_AUTH_REQUEST. Each slot-owning primary grants one vote per epoch (lastVoteEpoch, saved in
 * nodes.conf) with FAILOVER_AUTH_ACK, and at most one per failed primary every two node timeouts,
 * refusing a request whose slots have an owner with a newer config epoch. With the votes of a
 * majority of the slot-owning primaries the replica takes the election epoch as its config epoch,
 * takes its primary's slots, turns primary and broadcasts a PONG; the others learn the new owner
 * from it (and from UPDATE messages), and replicas left without slots follow it. An election
 * expires after max(2 × node timeout, 2 s); the next may start after twice that.
 * {@code cluster-replica-validity-factor} keeps a replica disconnected for too long out of it,
 * {@code cluster-replica-no-failover} keeps it out altogether.
 *
 * <p><b>Manual failover</b> (CLUSTER FAILOVER): the replica sends MFSTART; its primary holds client
 * writes for twice the 5 s manual-failover timeout and pings the replica with the PAUSED flag and
 * its offset; once the replica has applied that offset it runs the election at once, with the
 * FORCEACK flag so that primaries vote although its primary is up. FORCE skips the handshake;
 * TAKEOVER skips the election (a new config epoch without consensus).
 *
 * <p>Command loop thread only.
 */
public final class Failover {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Failover.class);
    /** Redis's CLUSTER_MF_TIMEOUT: a manual failover not done by then is aborted. */
    static final long MF_TIMEOUT_MS = 5000;

    private final Gossip gossip;
    private final ClusterState cs;

    // Election (replica side).
    private long authTime;
    private int authCount;
    private boolean authSent;
    private int authRank;
    private long authEpoch;

    // Manual failover (both sides).
    private long mfEnd;
    private boolean mfCanStart;
    /** On a primary: the replica that asked for the manual failover. */
    private ClusterNode mfReplica;
    /** On a replica: the offset its paused primary announced, or -1. */
    private long mfPrimaryOffset = -1;

    Failover(Gossip gossip) {
        this.gossip = gossip;
        this.cs = gossip.state();
    }

    /** Whether this primary holds writes for a replica's manual failover (the PAUSED flag of its headers). */
    boolean paused() {
        return mfEnd != 0 && cs.myself.isMaster();
    }

    /** Whether a manual failover is under way (on the replica that runs it or the primary that holds writes). */
    public boolean inProgress() {
        return mfEnd != 0;
    }

    /** The replica a manual failover of this primary is for, or null. */
    ClusterNode manualReplica() {
        return mfEnd != 0 ? mfReplica : null;
    }

    /** The epoch of the last election this node started (0 if none). */
    public long authEpoch() {
        return authEpoch;
    }

    // ---- cron ----

    /** Each cron tick: time out a manual failover; on a replica, move the manual failover and the election on. */
    void cron(long now) {
        if (mfEnd != 0 && mfEnd < now) {
            resetManual();
        }
        if (cs.myself.has(ClusterNode.SLAVE)) {
            handleManual(now);
            handleReplicaFailover(now);
        }
    }

    // ---- replica side ----

    /** Redis's clusterGetSlaveRank: sibling replicas (that may fail over) announcing a larger offset. */
    int rank() {
        ClusterNode master = cs.masterOf(cs.myself);
        if (master == null) {
            return 0;
        }
        long mine = gossip.replication().offset();
        int rank = 0;
        for (ClusterNode r : cs.replicasOf(master)) {
            if (r != cs.myself && !r.has(ClusterNode.NOFAILOVER) && r.replOffset > mine) {
                rank++;
            }
        }
        return rank;
    }

    /** Redis's clusterHandleSlaveFailover: schedule, start, and win (or let expire) an election. */
    void handleReplicaFailover(long now) {
        ClusterNode me = cs.myself;
        ClusterNode master = cs.masterOf(me);
        boolean manual = mfEnd != 0 && mfCanStart;
        if (me.isMaster() || master == null || (!master.has(ClusterNode.FAIL) && !manual)
                || (cs.replicaNoFailover && !manual) || master.slots.isEmpty()) {
            return;
        }
        long authAge = now - authTime;
        long authTimeout = Math.max(cs.nodeTimeout * 2, 2000);
        long retry = authTimeout * 2;
        long dataAge = gossip.replication().dataAgeMs();
        if (dataAge > cs.nodeTimeout) {
            dataAge -= cs.nodeTimeout;
        }
        if (cs.validityFactor != 0 && dataAge > cs.replPingPeriodMs + cs.nodeTimeout * cs.validityFactor && !manual) {
            return;
        }
        if (authAge > retry) {
            authTime = now + 500 + cs.random.nextInt(500);
            authCount = 0;
            authSent = false;
            authRank = rank();
            authTime += authRank * 1000L;
            if (mfEnd != 0) {
                authTime = now;
                authRank = 0;
            }
            LOG.info("Start of election delayed for {} milliseconds (rank #{}, offset {}).", authTime - now, authRank,
                    gossip.replication().offset());
            // Tell the sibling replicas our offset, so that they rank themselves against it.
            for (ClusterNode r : cs.replicasOf(master)) {
                if (r != me && r.link != null) {
                    gossip.sendPing(r.link, BusMessage.PONG, now);
                }
            }
            if (mfEnd == 0) {
                return;
            }
            authAge = now - authTime;
        }
        if (!authSent && mfEnd == 0) {
            int newRank = rank();
            if (newRank > authRank) {
                authTime += (newRank - authRank) * 1000L;
                authRank = newRank;
            }
        }
        if (now < authTime || authAge > authTimeout) {
            return;
        }
        if (!authSent) {
            cs.currentEpoch++;
            authEpoch = cs.currentEpoch;
            LOG.info("Starting a failover election for epoch {}.", authEpoch);
            BusMessage request = gossip.header(BusMessage.FAILOVER_AUTH_REQUEST);
            if (mfEnd != 0) {
                request.mflags0 |= BusMessage.MFLAG0_FORCEACK;
            }
            gossip.broadcast(request);
            authSent = true;
            cs.todoSave = true;
            return;
        }
        if (authCount >= cs.size / 2 + 1) {
            LOG.info("Failover election won: I'm the new master.");
            if (me.configEpoch < authEpoch) {
                me.configEpoch = authEpoch;
            }
            replaceMyMaster(now);
        }
    }

    /** A FAILOVER_AUTH_ACK: counted if it comes from a slot-owning primary in this election's epoch or later. */
    void ackReceived(ClusterNode sender, BusMessage m, long now) {
        if (sender.isMaster() && !sender.slots.isEmpty() && m.currentEpoch >= authEpoch) {
            authCount++;
            handleReplicaFailover(now);
        }
    }

    /** Redis's clusterFailoverReplaceYourMaster: turn primary and take the old primary's slots. */
    void replaceMyMaster(long now) {
        ClusterNode me = cs.myself;
        ClusterNode old = cs.masterOf(me);
        if (me.isMaster() || old == null) {
            return;
        }
        gossip.setNodeAsMaster(me);
        gossip.replication().promote();
        for (int s = old.slots.nextSetBit(0); s >= 0; s = old.slots.nextSetBit(s + 1)) {
            cs.delSlot(s);
            cs.addSlot(me, s);
        }
        cs.updateState(now);
        cs.todoSave = true;
        gossip.broadcastPong(now);
        resetManual();
    }

    // ---- primary side ----

    /** Redis's clusterSendFailoverAuthIfNeeded: vote for {@code node} if every rule allows it. */
    void voteIfNeeded(ClusterNode node, BusMessage request, long now) {
        ClusterNode me = cs.myself;
        if (!me.isMaster() || me.slots.isEmpty() || request.currentEpoch < cs.currentEpoch
                || cs.lastVoteEpoch == cs.currentEpoch) {
            return;
        }
        ClusterNode master = cs.masterOf(node);
        boolean force = (request.mflags0 & BusMessage.MFLAG0_FORCEACK) != 0;
        if (node.isMaster() || master == null || (!master.has(ClusterNode.FAIL) && !force)) {
            return;
        }
        if (now - master.votedTime < cs.nodeTimeout * 2) {
            return;
        }
        java.util.BitSet claimed = java.util.BitSet.valueOf(request.myslots);
        for (int s = claimed.nextSetBit(0); s >= 0 && s < HashSlots.SLOTS; s = claimed.nextSetBit(s + 1)) {
            ClusterNode owner = cs.slots[s];
            if (owner != null && owner.configEpoch > request.configEpoch) {
                return;
            }
        }
        cs.lastVoteEpoch = cs.currentEpoch;
        master.votedTime = now;
        LOG.info("Failover auth granted to {} for epoch {}", node.name, cs.currentEpoch);
        cs.todoSave = true;
        gossip.send(node.link, gossip.header(BusMessage.FAILOVER_AUTH_ACK));
    }

    /** MFSTART from one of my replicas: hold writes and tell it my offset (PAUSED pings until it is done). */
    void mfStartReceived(ClusterNode sender, long now) {
        if (!cs.myself.name.equals(sender.slaveof)) {
            return;
        }
        resetManual();
        mfEnd = now + MF_TIMEOUT_MS;
        mfReplica = sender;
        LOG.info("Manual failover requested by replica {}.", sender.name);
        gossip.replication().pauseWrites(now + MF_TIMEOUT_MS * 2);
        if (sender.link != null) {
            gossip.sendPing(sender.link, BusMessage.PING, now);
        }
    }

    // ---- manual failover ----

    /** A header from my primary flagged PAUSED during my manual failover: the offset to reach. */
    void primaryOffsetReceived(ClusterNode sender, BusMessage m) {
        if (mfEnd != 0 && cs.myself.has(ClusterNode.SLAVE) && sender.name.equals(cs.myself.slaveof)
                && (m.mflags0 & BusMessage.MFLAG0_PAUSED) != 0 && mfPrimaryOffset == -1) {
            mfPrimaryOffset = m.offset;
        }
    }

    private void handleManual(long now) {
        if (mfEnd == 0 || mfCanStart || mfPrimaryOffset == -1) {
            return;
        }
        if (mfPrimaryOffset == gossip.replication().offset()) {
            mfCanStart = true;
            handleReplicaFailover(now);
        }
    }

    /**
     * CLUSTER FAILOVER [FORCE|TAKEOVER] after its syntax check.
     *
     * @return the error to reply, or null (OK)
     */
    public String manualFailover(boolean force, boolean takeover, long now) {
        ClusterNode me = cs.myself;
        ClusterNode master = cs.masterOf(me);
        if (me.isMaster()) {
            return "ERR You should send CLUSTER FAILOVER to a replica";
        }
        if (master == null) {
            return "ERR I'm a replica but my master is unknown to me";
        }
        if (!force && !takeover && (master.has(ClusterNode.FAIL) || master.link == null)) {
            return "ERR Master is down or failed, please use CLUSTER FAILOVER FORCE";
        }
        resetManual();
        mfEnd = now + MF_TIMEOUT_MS;
        if (takeover) {
            cs.bumpEpochWithoutConsensus();
            replaceMyMaster(now);
        } else if (force) {
            mfCanStart = true;
        } else {
            gossip.send(master.link, gossip.header(BusMessage.MFSTART));
        }
        return null;
    }

    /** Redis's resetManualFailover: a primary that held writes for it lets them go. */
    void resetManual() {
        if (mfReplica != null) {
            gossip.replication().unpauseWrites();
        }
        mfEnd = 0;
        mfCanStart = false;
        mfReplica = null;
        mfPrimaryOffset = -1;
    }
}
