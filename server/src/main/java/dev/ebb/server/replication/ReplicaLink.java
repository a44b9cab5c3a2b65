package dev.ebb.server.replication;

import dev.ebb.server.Client;
import java.io.ByteArrayOutputStream;

/**
 * One replica's link, seen from its primary: what the replica told in REPLCONF (listening port,
 * address, capabilities), where it stands in the sync ({@link State}) and what it acknowledged.
 *
 * <p>A connection gets a link at its first REPLCONF or at SYNC/PSYNC; it is a replica (CLIENT LIST
 * {@code S}, client type {@code replica}, the replica output-buffer limits) from SYNC/PSYNC on, when
 * {@link #state} is set. While its snapshot is prepared and sent, the stream fed meanwhile is kept in
 * {@link #pending} and written once the replica is online, so that the replica applies it after
 * loading the snapshot. Loop thread only.
 */
public final class ReplicaLink {
    /** Redis's SLAVE_STATE_*; {@link #infoName} is what INFO prints. */
    public enum State {
        WAIT_BGSAVE_START("wait_bgsave"),
        WAIT_BGSAVE_END("wait_bgsave"),
        SEND_BULK("send_bulk"),
        ONLINE("online");

        final String infoName;

        State(String infoName) {
            this.infoName = infoName;
        }
    }

    final Client client;
    State state;
    int listeningPort;
    String announcedIp;
    boolean capaEof;
    boolean capaPsync2;
    boolean rdbOnly;
    boolean functionsOnly;
    /** SYNC rather than PSYNC: no +FULLRESYNC line, and no acks to expect. */
    boolean oldProtocol;
    long ackOffset;
    long ackTimeMs;
    /** When it started waiting for a snapshot (repl-diskless-sync-delay counts from here). */
    long waitSinceMs;
    /** The offset the snapshot it loads stands at ({@code +FULLRESYNC <id> <offset>}). */
    long syncOffset;
    /** The full sync this replica waits for or receives, or null. */
    FullSync sync;
    /** Stream fed since the snapshot point, written once the snapshot is sent. */
    ByteArrayOutputStream pending;

    ReplicaLink(Client client) {
        this.client = client;
    }

    public Client client() {
        return client;
    }

    /** Whether the connection has become a replica (sent SYNC or PSYNC). */
    public boolean isReplica() {
        return state != null;
    }

    public State state() {
        return state;
    }

    /** REPLCONF listening-port: the port INFO and ROLE show. */
    public void listeningPort(int port) {
        this.listeningPort = port;
    }

    /** REPLCONF ip-address: the address INFO and ROLE show instead of the connection's. */
    public void announcedIp(String ip) {
        this.announcedIp = ip;
    }

    /** REPLCONF capa: {@code eof} (diskless snapshots) and {@code psync2} (+CONTINUE with the id); others are ignored. */
    public void capability(byte[] capa) {
        String name = new String(capa, java.nio.charset.StandardCharsets.ISO_8859_1);
        if (name.equalsIgnoreCase("eof")) {
            capaEof = true;
        } else if (name.equalsIgnoreCase("psync2")) {
            capaPsync2 = true;
        }
    }

    /** REPLCONF rdb-only: the replica wants the snapshot and no stream; the link closes after it. */
    public void rdbOnly(boolean only) {
        this.rdbOnly = only;
    }

    /** REPLCONF rdb-filter-only functions: a diskless snapshot of the function libraries only. */
    public void functionsOnly(boolean only) {
        this.functionsOnly = only;
    }

    /** The address INFO and ROLE show: {@code ip-address} from REPLCONF, else the connection's own. */
    String ip() {
        if (announcedIp != null) {
            return announcedIp;
        }
        String addr = client.addr();
        int colon = addr.lastIndexOf(':');
        return colon < 0 ? addr : addr.substring(0, colon);
    }

    /**
     * Stream bytes kept for after the snapshot: counted with the connection's pending output against
     * the {@code replica} output-buffer limit, as Redis counts a syncing replica's buffer.
     */
    public long pendingBytes() {
        return pending == null ? 0 : pending.size();
    }

    /** Keeps {@code len} stream bytes for after the snapshot. */
    void buffer(byte[] bytes, int off, int len) {
        if (pending == null) {
            pending = new ByteArrayOutputStream(Math.max(256, len));
        }
        pending.write(bytes, off, len);
    }
}
