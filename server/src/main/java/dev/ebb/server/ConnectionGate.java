package dev.ebb.server;

import dev.ebb.server.config.ServerConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Decides whether a new connection may be served, as Redis's accept handler does: beyond
 * {@code maxclients} it gets {@code -ERR max number of clients reached}; in protected mode (on,
 * and no password for the default user) a client that is not on the loopback interface gets
 * Redis's long {@code -DENIED} explanation. Either way the connection is closed after the line
 * and counted in {@code rejected_connections}. Stateless; called on the loop thread.
 */
final class ConnectionGate {
    static final byte[] MAX_CLIENTS = ascii("-ERR max number of clients reached\r\n");
    /** Redis 7.0's text, typo included, as the reference redis-server sends it. */
    static final byte[] DENIED = ascii("-DENIED Redis is running in protected mode because protected mode is enabled"
            + " and no password is set for the default user. In this mode connections are only accepted from the"
            + " loopback interface. If you want to connect from external computers to Redis you may adopt one of the"
            + " following solutions: 1) Just disable protected mode sending the command 'CONFIG SET protected-mode no'"
            + " from the loopback interface by connecting to Redis from the same host the server is running, however"
            + " MAKE SURE Redis is not publicly accessible from internet if you do so. Use CONFIG REWRITE to make this"
            + " change permanent. 2) Alternatively you can just disable the protected mode by editing the Redis"
            + " configuration file, and setting the protected mode option to 'no', and then restarting the server."
            + " 3) If you started the server manually just for testing, restart it with the '--protected-mode no'"
            + " option. 4) Setup a an authentication password for the default user. NOTE: You only need to do one of"
            + " the above things in order for the server to start accepting connections from the outside.\r\n");

    private ConnectionGate() {
    }

    /** The error line to send before closing a new connection, or null to serve it. */
    static byte[] refusal(ServerConfig config, int connectedClients, SocketAddress remote) {
        if (connectedClients >= config.maxclients()) {
            return MAX_CLIENTS;
        }
        if (protectedModeRefuses(config.protectedMode(), !config.requirepass().isEmpty(), remote)) {
            return DENIED;
        }
        return null;
    }

    /**
     * Protected mode: with it on and no password, only loopback clients (127.0.0.0/8, ::1) and
     * local non-IP sockets are served.
     */
    static boolean protectedModeRefuses(boolean protectedMode, boolean hasPassword, SocketAddress remote) {
        return protectedMode && !hasPassword && !isLocal(remote);
    }

    /**
     * Whether a peer is local as Redis's {@code islocalClient} decides: a loopback address
     * (127.0.0.0/8, ::1) or a socket that is not IP at all.
     */
    static boolean isLocal(SocketAddress remote) {
        if (!(remote instanceof InetSocketAddress)) {
            return true;
        }
        InetAddress address = ((InetSocketAddress) remote).getAddress();
        return address == null || address.isLoopbackAddress();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
