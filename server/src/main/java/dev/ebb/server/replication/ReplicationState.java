package dev.ebb.server.replication;

import java.util.SplittableRandom;

/**
 * This node's place in the replication stream (Redis's {@code server.replid}, {@code replid2},
 * {@code master_repl_offset}, {@code second_replid_offset} and {@code repl_backlog}), shared by
 * both sides: a primary feeds it from the propagation stream, a replica feeds it the bytes it
 * applied from its primary (so that its own replicas, and PSYNC after its promotion, see the same
 * offsets).
 *
 * <p>As in Redis the offset moves only while a backlog exists: a node that never had a replica
 * and never was one reports offset 0. The backlog is created when the first replica attaches or
 * the node becomes a replica, and is dropped after {@code repl-backlog-ttl} seconds without
 * replicas (on a primary only). Loop thread only.
 */
public final class ReplicationState {
    public static final String ZERO_ID = "0000000000000000000000000000000000000000";

    /** Receives every byte fed to the stream, after the backlog: the attached replicas. */
    public interface Downstream {
        void send(byte[] bytes, int off, int len);
    }

    private final SplittableRandom random;
    private String replid;
    private String replid2 = ZERO_ID;
    private long offset;
    private long secondOffset = -1;
    private ReplicationBacklog backlog;
    private Downstream downstream;
    private boolean replica;
    private Runnable backlogListener = () -> { };

    public ReplicationState(SplittableRandom random) {
        this.random = random;
        this.replid = randomId(random);
    }

    public String replid() {
        return replid;
    }

    public String replid2() {
        return replid2;
    }

    /** {@code master_repl_offset}: bytes fed to the stream so far. */
    public long offset() {
        return offset;
    }

    /** {@code second_repl_offset}: the first offset at which {@link #replid2} is no longer valid, or -1. */
    public long secondOffset() {
        return secondOffset;
    }

    /**
     * Whether this node follows a primary (REPLICAOF host port). A replica feeds the stream with
     * the bytes it applied from its primary, never with its own propagation (Redis proxies the
     * primary's stream to sub-replicas verbatim).
     */
    public boolean replica() {
        return replica;
    }

    public void replica(boolean replica) {
        this.replica = replica;
    }

    /** The backlog, or null while there is none. */
    public ReplicationBacklog backlog() {
        return backlog;
    }

    public void createBacklog(int size) {
        if (backlog == null) {
            backlog = new ReplicationBacklog(size, offset);
            backlogListener.run();
        }
    }

    public void freeBacklog() {
        if (backlog != null) {
            backlog = null;
            backlogListener.run();
        }
    }

    /** Told when the backlog is created or freed: the primary side feeds the stream only while one exists. */
    public void setBacklogListener(Runnable listener) {
        this.backlogListener = listener;
    }

    public void setDownstream(Downstream downstream) {
        this.downstream = downstream;
    }

    /** Appends stream bytes: to the backlog, the offset and the attached replicas. Does nothing without a backlog. */
    public void feed(byte[] bytes, int off, int len) {
        if (backlog == null) {
            return;
        }
        backlog.append(bytes, off, len);
        offset += len;
        if (downstream != null) {
            downstream.send(bytes, off, len);
        }
    }

    /**
     * Whether a replica's {@code PSYNC replid offset} can continue here: the id is ours (or our
     * previous one up to {@link #secondOffset}) and the backlog still holds byte {@code from}.
     */
    public boolean canContinue(String askedId, long from) {
        if (backlog == null) {
            return false;
        }
        boolean ours = askedId.equals(replid);
        boolean previous = askedId.equals(replid2) && from <= secondOffset;
        return (ours || previous) && backlog.covers(from);
    }

    /**
     * On promotion (REPLICAOF NO ONE): the primary's id becomes {@code replid2}, valid up to the
     * current offset, and a new id starts, so that the other replicas of the old primary can
     * continue with this node (Redis's shiftReplicationId).
     */
    public void shiftReplicationId() {
        replid2 = replid;
        secondOffset = offset + 1;
        replid = randomId(random);
    }

    /** A new history (Redis's changeReplicationId + clearReplicationId2): after a full sync as a replica, or a FLUSHALL-free restart. */
    public void newHistory() {
        replid = randomId(random);
        replid2 = ZERO_ID;
        secondOffset = -1;
    }

    /** Adopts the primary's id and offset after a full sync ({@code +FULLRESYNC replid offset}). */
    public void adopt(String primaryId, long primaryOffset) {
        replid = primaryId;
        replid2 = ZERO_ID;
        secondOffset = -1;
        offset = primaryOffset;
        if (backlog != null) {
            backlog = new ReplicationBacklog(backlog.size(), primaryOffset);
        }
    }

    /** After a {@code +CONTINUE newid} from a primary that was promoted: its new id, our offset unchanged. */
    public void followNewId(String primaryId) {
        replid2 = replid;
        secondOffset = offset + 1;
        replid = primaryId;
    }

    static String randomId(SplittableRandom random) {
        StringBuilder sb = new StringBuilder(40);
        for (int i = 0; i < 40; i++) {
            sb.append(Character.forDigit(random.nextInt(16), 16));
        }
        return sb.toString();
    }
}
