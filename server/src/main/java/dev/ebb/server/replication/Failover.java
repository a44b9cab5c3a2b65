package dev.ebb.server.replication;

import dev.ebb.server.Server;
import dev.ebb.server.command.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The FAILOVER command's coordinated hand-over from this primary to one of its replicas, as Redis
 * 7.2's (replication.c: failoverCommand, updateFailoverStatus, abortFailover):
 * <ol>
 *   <li>{@link #start}: writes are paused (a pause of FAILOVER's own, see
 *   {@link dev.ebb.server.ClientPause#pauseForFailover}); state {@code waiting-for-sync}.</li>
 *   <li>{@link #update}, every cron tick and after each ACK: once the target (or, without one, any
 *   replica) has acknowledged this node's whole stream, this node becomes its replica and the
 *   handshake sends {@code PSYNC <replid> <offset> FAILOVER}; state {@code failover-in-progress}. With
 *   a TIMEOUT that passes first: abort, or with FORCE fail over to the target anyway.</li>
 *   <li>The target, whose replid and offset are ours, promotes itself and answers {@code +CONTINUE}:
 *   {@link #pSyncAnswered} ends the failover and lifts the pause; the clients it held then run as on
 *   a replica. A refused PSYNC aborts: this node is a primary again.</li>
 * </ol>
 * FAILOVER ABORT (or the timeout) ends it at any point. The other replicas are not re-pointed: they
 * stay attached to this node, which proxies the new primary's stream to them (a chain), as in Redis.
 *
 * <p>Loop thread only.
 */
public final class Failover {
    private static final Logger LOG = LoggerFactory.getLogger(Failover.class);

    /** Redis's failover_state, as INFO's {@code master_failover_state} names it. */
    public enum State {
        NO_FAILOVER("no-failover"), WAIT_FOR_SYNC("waiting-for-sync"), IN_PROGRESS("failover-in-progress");

        private final String infoName;

        State(String infoName) {
            this.infoName = infoName;
        }
    }

    private final Server server;
    private final ReplicationPrimary primary;
    private State state = State.NO_FAILOVER;
    private String targetHost;
    private int targetPort;
    /** Server time the wait for a replica ends at, or 0 (no TIMEOUT). */
    private long endMs;
    private boolean force;

    Failover(Server server, ReplicationPrimary primary) {
        this.server = server;
        this.primary = primary;
    }

    /** INFO replication's {@code master_failover_state}. */
    public String stateName() {
        return state.infoName;
    }

    /** Whether a failover is under way (REPLICAOF and SYNC/PSYNC are refused meanwhile). */
    public boolean inProgress() {
        return state != State.NO_FAILOVER;
    }

    /** Whether this node, now a replica of the target, asks it to take over ({@code PSYNC … FAILOVER}). */
    boolean handingOver() {
        return state == State.IN_PROGRESS;
    }

    /** Whether the periodic PING must stay out of the stream (a failover with a TIMEOUT waits on fixed offsets). */
    boolean holdsPings() {
        return state != State.NO_FAILOVER && endMs != 0 && server.pause().active();
    }

    /**
     * FAILOVER [TO host port [FORCE]] [TIMEOUT ms] once parsed: the checks in Redis's order, then the
     * pause and {@code waiting-for-sync}.
     *
     * @param host the target, or null for any replica
     * @param timeoutMs 0 for no timeout
     * @return the error to answer, or null when the failover started
     */
    public String start(String host, int port, long timeoutMs, boolean forceFlag) {
        if (inProgress()) {
            return Errors.FAILOVER_IN_PROGRESS;
        }
        if (server.replication().replica()) {
            return Errors.FAILOVER_ON_REPLICA;
        }
        if (primary.replicas().isEmpty()) {
            return Errors.FAILOVER_NO_REPLICAS;
        }
        if (forceFlag && (timeoutMs == 0 || host == null)) {
            return Errors.FAILOVER_FORCE;
        }
        if (host != null) {
            ReplicaLink target = find(host, port);
            if (target == null) {
                return Errors.FAILOVER_NOT_REPLICA;
            }
            if (target.state != ReplicaLink.State.ONLINE) {
                return Errors.FAILOVER_NOT_ONLINE;
            }
            targetHost = host;
            targetPort = port;
            LOG.info("FAILOVER requested to {}:{}.", host, port);
        } else {
            LOG.info("FAILOVER requested to any replica.");
        }
        endMs = timeoutMs > 0 ? server.nowMs() + timeoutMs : 0;
        force = forceFlag;
        state = State.WAIT_FOR_SYNC;
        server.pause().pauseForFailover();
        return null;
    }

    /** FAILOVER ABORT. @return false if no failover was under way */
    public boolean abort() {
        if (!inProgress()) {
            return false;
        }
        abort("Failover manually aborted");
        return true;
    }

    private void abort(String reason) {
        if (targetHost != null) {
            LOG.info("FAILOVER to {}:{} aborted: {}", targetHost, targetPort, reason);
        } else {
            LOG.info("FAILOVER to any replica aborted: {}", reason);
        }
        if (state == State.IN_PROGRESS) {
            server.primaryLink().promote();
        }
        clear();
    }

    private void clear() {
        state = State.NO_FAILOVER;
        targetHost = null;
        targetPort = 0;
        endMs = 0;
        force = false;
        server.pause().endFailoverPause();
    }

    /** While waiting for a replica: the timeout, then whether the target (or any replica) has caught up. */
    void update() {
        if (state != State.WAIT_FOR_SYNC) {
            return;
        }
        if (endMs != 0 && server.nowMs() >= endMs) {
            if (force) {
                LOG.info("FAILOVER to {}:{} time out exceeded, failing over.", targetHost, targetPort);
                handOver();
            } else {
                abort("Replica never caught up before timeout");
            }
            return;
        }
        long offset = server.replication().offset();
        ReplicaLink caughtUp = null;
        if (targetHost != null) {
            ReplicaLink target = find(targetHost, targetPort);
            if (target != null && target.ackOffset == offset) {
                caughtUp = target;
            }
        } else {
            for (ReplicaLink link : primary.replicas()) {
                if (link.ackOffset == offset) {
                    caughtUp = link;
                    targetHost = link.ip();
                    targetPort = link.listeningPort;
                    break;
                }
            }
        }
        if (caughtUp != null) {
            LOG.info("Failover target {}:{} is synced, failing over.", targetHost, targetPort);
            handOver();
        }
    }

    /** Becomes the target's replica; the link's PSYNC carries FAILOVER while the state says so. */
    private void handOver() {
        state = State.IN_PROGRESS;
        server.primaryLink().failoverTo(targetHost, targetPort);
    }

    /**
     * The target answered {@code PSYNC … FAILOVER}: accepted ({@code +CONTINUE}, or a full resync,
     * which Redis tolerates too) ends the failover; anything else aborts it.
     */
    void pSyncAnswered(boolean accepted) {
        if (state != State.IN_PROGRESS) {
            return;
        }
        if (accepted) {
            LOG.info("FAILOVER to {}:{} done.", targetHost, targetPort);
            clear();
        } else {
            abort("Failover target rejected psync request");
        }
    }

    /** Redis's findReplica: by the address INFO shows and the listening port, whatever its state. */
    private ReplicaLink find(String host, int port) {
        for (ReplicaLink link : primary.replicas()) {
            if (link.ip().equalsIgnoreCase(host) && link.listeningPort == port) {
                return link;
            }
        }
        return null;
    }
}
