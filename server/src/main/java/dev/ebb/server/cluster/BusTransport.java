package dev.ebb.server.cluster;

/**
 * What the cluster state machine needs of the network: open an outbound link to a node, send a
 * message on a link, close a link. {@link ClusterBus} implements it over Netty; state-machine
 * tests implement it with lists. Called on the command loop thread only; completions come back
 * through {@link Gossip#linkConnected} and {@link Gossip#linkClosed}.
 */
public interface BusTransport {
    /** Starts connecting to {@code node}'s ip and bus port; returns the (not yet connected) link. */
    BusLink connect(ClusterNode node, long now);

    void send(BusLink link, BusMessage message);

    void close(BusLink link);

    /**
     * Bytes of the messages sent on {@code link} that the socket has not taken yet (Redis's
     * send_msg_queue_mem without its fixed overheads): what {@code cluster-link-sendbuf-limit} and
     * CLUSTER LINKS measure.
     */
    long queuedBytes(BusLink link);
}
