package dev.ebb.server.replication;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The primary side of replication: the replicas attached to this node, how each gets in sync
 * (PSYNC answered with {@code +CONTINUE} from the backlog, or a {@link FullSync}), the stream they
 * follow ({@link ReplicationStream}), their acknowledgements (WAIT, min-replicas-to-write) and the
 * once-a-second housekeeping of Redis's replicationCron: PING into the stream every
 * {@code repl-ping-replica-period}, newlines to replicas waiting for a disk snapshot, dropping replicas
 * silent for {@code repl-timeout}, freeing the backlog after {@code repl-backlog-ttl} without replicas.
 *
 * <p>A node that is itself a replica serves PSYNC the same way: its replication state then holds its
 * primary's id and offset, and the backlog the bytes it proxied (replica chains).
 *
 * <p><b>Costs.</b> Each command fed to the stream is encoded once and copied once per online
 * replica into its reply buffer (written out once per loop batch, as other clients' replies); a
 * replica in sync keeps its share of the stream in memory until its snapshot is sent. Loop thread only.
 */
public final class ReplicationPrimary {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicationPrimary.class);
    private static final byte[][] PING = {ascii("PING")};
    private static final byte[][] GETACK = {ascii("REPLCONF"), ascii("GETACK"), ascii("*")};
    private static final byte[] NEWLINE = {'\n'};

    private final Server server;
    private final ReplicationState state;
    private final ReplicationStream stream;
    private final ReplicaWaits waits;
    private final Failover failover;
    private final SplittableRandom random = new SplittableRandom();
    private final List<ReplicaLink> replicas = new ArrayList<>();
    private FullSync sync;
    private boolean sinkAttached;
    private long noReplicasSinceMs;
    private long lastCronSecond = -1;
    private long cronLoops;
    private long syncFull;
    private long syncPartialOk;
    private long syncPartialErr;

    public ReplicationPrimary(Server server) {
        this.server = server;
        this.state = server.replication();
        this.stream = new ReplicationStream(server);
        this.waits = new ReplicaWaits(server, this);
        this.failover = new Failover(server, this);
        this.noReplicasSinceMs = server.nowMs();
        state.setDownstream(this::send);
        state.setBacklogListener(this::backlogChanged);
        ServerConfig config = server.config();
        config.onChange("repl-backlog-size", () -> {
            if (state.backlog() != null) {
                state.backlog().resize(backlogSize());
            }
        });
    }

    ReplicationStream stream() {
        return stream;
    }

    /** WAIT's blocked clients. */
    public ReplicaWaits waits() {
        return waits;
    }

    /** The FAILOVER command's state. */
    public Failover failover() {
        return failover;
    }

    /** The replicas attached (any state), in attach order. */
    List<ReplicaLink> replicas() {
        return replicas;
    }

    private int backlogSize() {
        return (int) Math.min(Integer.MAX_VALUE - 8, server.config().replication().replBacklogSize());
    }

    private void backlogChanged() {
        boolean want = state.backlog() != null;
        if (want && !sinkAttached) {
            server.propagation().addSink(stream);
        } else if (!want && sinkAttached) {
            server.propagation().removeSink(stream);
        }
        sinkAttached = want;
    }

    /** The stream's Downstream: each online replica gets the bytes, the ones in sync keep them for later. */
    private void send(byte[] bytes, int off, int len) {
        byte[] copy = null;
        for (int i = 0; i < replicas.size(); i++) {
            ReplicaLink link = replicas.get(i);
            switch (link.state) {
                case ONLINE -> {
                    if (link.streamOnAck) {
                        link.buffer(bytes, off, len);
                        server.enforceOutputLimit(link.client);
                        continue;
                    }
                    if (copy == null) {
                        copy = java.util.Arrays.copyOfRange(bytes, off, off + len);
                    }
                    link.client.reply().raw(copy);
                    server.wroteTo(link.client);
                }
                case WAIT_BGSAVE_END, SEND_BULK -> {
                    if (!link.rdbOnly) {
                        link.buffer(bytes, off, len);
                        server.enforceOutputLimit(link.client);
                    }
                }
                default -> {
                    // WAIT_BGSAVE_START: its snapshot, still to be taken, will include this.
                }
            }
        }
    }

    /** The connection's link, created at its first REPLCONF or SYNC/PSYNC. */
    public ReplicaLink link(Client c) {
        ReplicaLink link = c.replicaLink();
        if (link == null) {
            link = new ReplicaLink(c);
            c.replicaLink(link);
        }
        return link;
    }

    // ---------------------------------------------------------------- SYNC / PSYNC

    /**
     * PSYNC replid offset ({@code replid} "?" forces a full sync), or SYNC when {@code replid} is
     * null. {@code from} is the first stream byte the replica lacks (its offset plus one).
     */
    public void sync(Client c, String replid, long from) {
        ReplicaLink link = link(c);
        if (link.isReplica()) {
            return;
        }
        if (state.replica() && state.backlog() == null) {
            // A replica serves sub-replicas only once it holds its primary's history.
            c.reply().error("NOMASTERLINK Can't SYNC while not connected with my master");
            return;
        }
        if (failover.inProgress()) {
            c.reply().error(dev.ebb.server.command.Errors.SYNC_WHILE_FAILING_OVER);
            return;
        }
        String name = link.ip() + ":" + link.listeningPort;
        LOG.info("Replica {} asks for synchronization", name);
        if (replid != null && tryPartial(link, replid, from)) {
            return;
        }
        if (replid != null && !replid.equals("?")) {
            syncPartialErr++;
        }
        syncFull++;
        link.oldProtocol = replid == null;
        link.state = ReplicaLink.State.WAIT_BGSAVE_START;
        link.ackTimeMs = server.nowMs();
        link.waitSinceMs = server.nowMs();
        attach(link);
        if (state.backlog() == null) {
            state.newHistory();
            state.createBacklog(backlogSize());
            LOG.info("Replication backlog created, my new replication IDs are '{}' and '{}'", state.replid(),
                    state.replid2());
        }
        if (sync != null && sync.saving && !sync.diskless && !disklessFor(link)) {
            sync.join(link);
            return;
        }
        LOG.info("Full resync requested by replica {}", name);
        startPendingSync();
    }

    private boolean tryPartial(ReplicaLink link, String replid, long from) {
        if (!state.canContinue(replid, from)) {
            if (!replid.equals("?")) {
                LOG.info("Partial resynchronization not accepted: Replication ID mismatch or offset {} not in the"
                        + " backlog (Replica asked for '{}', my replication IDs are '{}' and '{}')", from, replid,
                        state.replid(), state.replid2());
            }
            return false;
        }
        byte[] backlog = state.backlog().copyFrom(from);
        link.state = ReplicaLink.State.ONLINE;
        link.ackTimeMs = server.nowMs();
        attach(link);
        RespWriter reply = link.client.reply();
        reply.raw(ascii(link.capaPsync2 ? "+CONTINUE " + state.replid() + "\r\n" : "+CONTINUE\r\n"));
        reply.raw(backlog);
        syncPartialOk++;
        LOG.info("Partial resynchronization request from {}:{} accepted. Sending {} bytes of backlog starting from"
                + " offset {}.", link.ip(), link.listeningPort, backlog.length, from);
        return true;
    }

    private void attach(ReplicaLink link) {
        replicas.add(link);
        link.client.setFlag(Client.FLAG_IDLE_TIMEOUT_EXEMPT, true);
    }

    /** Whether a replica waits for a snapshot or receives one (Redis keeps the sync's RDB file for it). */
    private boolean feedingReplicas() {
        for (ReplicaLink link : replicas) {
            if (link.state == ReplicaLink.State.WAIT_BGSAVE_START || link.state == ReplicaLink.State.WAIT_BGSAVE_END
                    || link.state == ReplicaLink.State.SEND_BULK) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code link} would get a diskless snapshot. */
    private boolean disklessFor(ReplicaLink link) {
        return link.capaEof && (server.config().replication().replDisklessSync() || link.rdbOnly);
    }

    /**
     * Starts a snapshot for the replicas waiting for one, when no save runs: at once for a disk-based
     * one; a diskless one after {@code repl-diskless-sync-delay} seconds, or as soon as
     * {@code repl-diskless-sync-max-replicas} wait (Redis's replicationStartPendingFork).
     */
    private void startPendingSync() {
        if (sync != null || server.persistence().bgsaveInProgress()) {
            return;
        }
        List<ReplicaLink> waiting = new ArrayList<>();
        boolean diskless = true;
        long longestWaitMs = 0;
        for (ReplicaLink link : replicas) {
            if (link.state == ReplicaLink.State.WAIT_BGSAVE_START && !link.client.closing()) {
                waiting.add(link);
                diskless &= disklessFor(link);
                longestWaitMs = Math.max(longestWaitMs, server.nowMs() - link.waitSinceMs);
            }
        }
        if (waiting.isEmpty()) {
            return;
        }
        ServerConfig config = server.config();
        int maxReplicas = config.replication().replDisklessSyncMaxReplicas();
        boolean due = !diskless || longestWaitMs >= config.replication().replDisklessSyncDelay() * 1000L
                || (maxReplicas > 0 && waiting.size() >= maxReplicas);
        if (!due) {
            return;
        }
        sync = new FullSync(this, server, diskless);
        sync.start(waiting, random);
    }

    /** A full sync ended (its replicas are online or dropped): the next may start. */
    void syncEnded(FullSync ended) {
        if (sync == ended) {
            sync = null;
        }
        startPendingSync();
    }

    // ---------------------------------------------------------------- acks

    /** REPLCONF ACK from a replica: its offset, and the time, for lag, WAIT and min-replicas. */
    public void ack(ReplicaLink link, long offset) {
        if (link.streamOnAck) {
            link.streamOnAck = false;
            if (link.pending != null) {
                link.client.reply().raw(link.pending.toByteArray());
                link.pending = null;
            }
            server.wroteTo(link.client);
        }
        if (offset > link.ackOffset) {
            link.ackOffset = offset;
        }
        link.ackTimeMs = server.nowMs();
        waits.acked();
        failover.update();
    }

    /** Online replicas that acknowledged at least {@code offset} (Redis's replicationCountAcksByOffset). */
    public int ackedAtLeast(long offset) {
        int n = 0;
        for (ReplicaLink link : replicas) {
            if (link.state == ReplicaLink.State.ONLINE && link.ackOffset >= offset) {
                n++;
            }
        }
        return n;
    }

    /** Asks every replica for an ACK now, through the stream (WAIT); not while paused, as the offset must hold still. */
    public void requestAcks() {
        if (state.backlog() != null && !state.replica() && !replicas.isEmpty() && !server.pause().active()) {
            stream.feed(-1, GETACK);
        }
    }

    /**
     * Whether writes must be refused with NOREPLICAS: this is a primary with
     * {@code min-replicas-to-write} and {@code min-replicas-max-lag} set, and fewer online replicas
     * acked within the lag (Redis's repl_good_slaves_count).
     */
    public boolean tooFewGoodReplicas() {
        ServerConfig config = server.config();
        int min = config.replication().minReplicasToWrite();
        int maxLag = config.replication().minReplicasMaxLag();
        if (min == 0 || maxLag == 0 || state.replica()) {
            return false;
        }
        long now = server.nowMs();
        int good = 0;
        for (ReplicaLink link : replicas) {
            if (link.state == ReplicaLink.State.ONLINE && (now - link.ackTimeMs) / 1000 <= maxLag) {
                good++;
            }
        }
        return good < min;
    }

    // ---------------------------------------------------------------- cron and disconnection

    /** Every cron tick: pending syncs; once a second the rest of Redis's replicationCron. */
    public void cron(long nowMs) {
        failover.update();
        startPendingSync();
        long second = nowMs / 1000;
        if (second == lastCronSecond) {
            return;
        }
        lastCronSecond = second;
        server.persistence().removeRdbUsedToSyncReplicas(feedingReplicas());
        ServerConfig config = server.config();
        // No PING while a cluster manual failover holds writes: the replica waits for the exact offset.
        boolean manualFailover = server.clusterEnabled() && server.cluster().gossip().failover().inProgress()
                && server.pause().active();
        if (!replicas.isEmpty() && cronLoops % config.replication().replPingReplicaPeriod() == 0 && !state.replica()
                && state.backlog() != null && !failover.holdsPings() && !manualFailover) {
            stream.feed(-1, PING);
        }
        cronLoops++;
        List<ReplicaLink> timedOut = new ArrayList<>();
        for (ReplicaLink link : replicas) {
            boolean diskSnapshot = link.state == ReplicaLink.State.WAIT_BGSAVE_START
                    || (link.state == ReplicaLink.State.WAIT_BGSAVE_END && link.sync != null && !link.sync.diskless);
            if (diskSnapshot) {
                link.client.reply().raw(NEWLINE);
                server.wroteTo(link.client);
            } else if (link.state == ReplicaLink.State.ONLINE && !link.oldProtocol
                    && nowMs - link.ackTimeMs > config.replication().replTimeout() * 1000L) {
                timedOut.add(link);
            }
        }
        for (ReplicaLink link : timedOut) {
            LOG.warn("Disconnecting timedout replica (streaming sync): {}:{}", link.ip(), link.listeningPort);
            link.client.kill();
            forget(link.client);
        }
        long ttl = config.replication().replBacklogTtl();
        if (replicas.isEmpty() && !state.replica() && state.backlog() != null && ttl > 0
                && nowMs - noReplicasSinceMs > ttl * 1000) {
            state.newHistory();
            state.freeBacklog();
            LOG.info("Replication backlog freed after {} seconds without connected replicas.", ttl);
        }
    }

    /**
     * This node's history changed under its replicas (it was promoted, or its primary's id changed):
     * they are disconnected so that they reconnect and learn the new id with PSYNC ({@code +CONTINUE
     * <newid>}), as Redis's disconnectSlaves. The next command fed carries a SELECT.
     */
    public void historyChanged() {
        stream.forceSelect();
        for (ReplicaLink link : new ArrayList<>(replicas)) {
            link.client.kill();
            forget(link.client);
        }
    }

    /** A connection closed: if it was a replica, it is no longer one. */
    public void forget(Client c) {
        waits.forget(c);
        ReplicaLink link = c.replicaLink();
        if (link == null || !link.isReplica() || !replicas.remove(link)) {
            return;
        }
        LOG.info("Connection with replica {}:{} lost.", link.ip(), link.listeningPort);
        if (link.sync != null) {
            link.sync.links.remove(link);
        }
        link.pending = null;
        if (replicas.isEmpty()) {
            noReplicasSinceMs = server.nowMs();
        }
    }

    // ---------------------------------------------------------------- INFO and ROLE

    /** INFO stats' sync_full, sync_partial_ok, sync_partial_err. */
    public void appendSyncStats(StringBuilder out) {
        line(out, "sync_full", syncFull);
        line(out, "sync_partial_ok", syncPartialOk);
        line(out, "sync_partial_err", syncPartialErr);
    }

    /** INFO replication's {@code connected_slaves} and {@code slaveN} lines, as Redis prints them. */
    public void appendReplicaLines(StringBuilder out) {
        line(out, "connected_slaves", replicas.size());
        long now = server.nowMs();
        int n = 0;
        for (ReplicaLink link : replicas) {
            out.append("slave").append(n++).append(":ip=").append(link.ip()).append(",port=")
                    .append(link.listeningPort).append(",state=").append(link.state.infoName).append(",offset=")
                    .append(link.ackOffset).append(",lag=").append((now - link.ackTimeMs) / 1000).append("\r\n");
        }
    }

    /** ROLE on a primary: master, the offset, and [ip, port, acked offset] of each online replica. */
    public void role(RespWriter w) {
        List<ReplicaLink> online = new ArrayList<>();
        for (ReplicaLink link : replicas) {
            if (link.state == ReplicaLink.State.ONLINE) {
                online.add(link);
            }
        }
        w.arrayHeader(3);
        w.bulk("master");
        w.integer(state.offset());
        w.arrayHeader(online.size());
        for (ReplicaLink link : online) {
            w.arrayHeader(3);
            w.bulk(link.ip());
            w.bulk(Integer.toString(link.listeningPort));
            w.bulk(Long.toString(link.ackOffset));
        }
    }

    private static void line(StringBuilder out, String name, long value) {
        out.append(name).append(':').append(value).append("\r\n");
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
