package dev.ebb.server.replication;

import dev.ebb.server.Client;
import dev.ebb.server.Server;
import java.util.ArrayList;
import java.util.List;

/**
 * WAIT numreplicas timeout (Redis's waitCommand and processClientsWaitingReplicas): a client waits,
 * blocked through {@link dev.ebb.server.BlockingKeys} with no key, until {@code numreplicas} online
 * replicas acknowledged the offset of its last write, or its timeout passes; either way it is
 * answered with the count of replicas that acknowledged it then. Acks are asked for with
 * {@code REPLCONF GETACK *} in the stream. Each ack re-checks every waiter: O(waiters * replicas).
 * Loop thread only.
 */
public final class ReplicaWaits {
    private record Waiter(Client client, long offset, int replicas) {
    }

    private final Server server;
    private final ReplicationPrimary primary;
    private final List<Waiter> waiters = new ArrayList<>();

    ReplicaWaits(Server server, ReplicationPrimary primary) {
        this.server = server;
        this.primary = primary;
    }

    /**
     * Answers at once if enough replicas acked {@code c}'s last write (or {@code c} may not block),
     * else blocks it until they do or {@code timeoutMs} passes (0: no timeout).
     */
    public void waitFor(Client c, int numReplicas, long timeoutMs) {
        long offset = c.replOffset();
        int acked = primary.ackedAtLeast(offset);
        if (acked >= numReplicas || c.denyBlocking()) {
            c.reply().integer(acked);
            return;
        }
        Waiter w = new Waiter(c, offset, numReplicas);
        waiters.add(w);
        long deadline = timeoutMs > 0 ? server.nowMs() + timeoutMs : 0;
        server.blockingKeys().block(c, new byte[0][], deadline, Object.class, ignored -> false, blocked -> {
            waiters.remove(w);
            blocked.reply().integer(primary.ackedAtLeast(w.offset));
        });
        primary.requestAcks();
    }

    /** A replica acked: every waiter that now has enough acks is answered. */
    void acked() {
        if (waiters.isEmpty()) {
            return;
        }
        List<Waiter> done = new ArrayList<>();
        for (Waiter w : waiters) {
            if (primary.ackedAtLeast(w.offset) >= w.replicas) {
                done.add(w);
            }
        }
        for (Waiter w : done) {
            server.blockingKeys().unblock(w.client, null);
        }
    }

    /** A waiting client disconnected. */
    void forget(Client c) {
        if (!waiters.isEmpty()) {
            waiters.removeIf(w -> w.client == c);
        }
    }
}
