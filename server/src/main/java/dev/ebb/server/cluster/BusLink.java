package dev.ebb.server.cluster;

/**
 * One cluster bus connection (Redis's clusterLink): outbound links are opened by this node to a
 * known node; inbound links are accepted, and learn their node from the first message whose
 * sender is known. The transport keeps its channel in {@link #handle}.
 *
 * <p>Fields are read and written on the command loop thread only; the transport's I/O threads
 * reach a link through the loop's executor.
 */
public final class BusLink {
    final boolean inbound;
    final long ctime;
    ClusterNode node;
    boolean connected;
    /** The transport's connection (a Netty channel); null in state-machine tests. */
    public Object handle;
    /** The peer's ip and this end's ip, as the transport saw the connection ("" unknown). */
    public String peerIp = "";
    public String localIp = "";

    public BusLink(boolean inbound, long ctime) {
        this.inbound = inbound;
        this.ctime = ctime;
        this.connected = inbound;
    }

    public boolean inbound() {
        return inbound;
    }

    public ClusterNode node() {
        return node;
    }

    public long ctime() {
        return ctime;
    }
}
