package dev.ebb.server.command;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * MIGRATE's connections to its targets, kept open between calls as Redis's {@code migrate_cached_sockets}:
 * one per {@code host:port} as written in the command, closed after {@value #IDLE_MS} ms unused (by the
 * cron) or on any I/O error, at most {@value #MAX_SOCKETS} (the oldest is closed to make room). Each
 * remembers the database it last selected, so a MIGRATE to the same database sends no SELECT.
 * {@code redis-cli --cluster reshard} sends one MIGRATE per batch of keys; with a connection per call
 * (Ebb before) the connect and the target's accept made a call 10-15x Redis's. Loop thread only.
 */
public final class MigrateSockets {
    static final long IDLE_MS = 10_000;
    static final int MAX_SOCKETS = 64;

    /** One open connection to a target. */
    static final class Target {
        final String name;
        final Socket socket;
        final OutputStream out;
        final InputStream in;
        /** The database the last SELECT on this connection chose, -1 for none. */
        long selectedDb = -1;
        long lastUseMs;

        private Target(String name, Socket socket) throws IOException {
            this.name = name;
            this.socket = socket;
            this.out = socket.getOutputStream();
            this.in = new BufferedInputStream(socket.getInputStream());
        }
    }

    private final Map<String, Target> targets = new LinkedHashMap<>();

    /**
     * The cached connection to {@code host:port}, or a new one connected within {@code timeoutMs}; either way
     * reads time out after {@code timeoutMs}.
     *
     * @throws IOException if it cannot connect
     * @throws IllegalArgumentException for a port out of range or an unresolvable address
     */
    Target get(String host, int port, int timeoutMs, long nowMs) throws IOException {
        String name = host + ":" + port;
        Target t = targets.get(name);
        if (t == null) {
            if (targets.size() >= MAX_SOCKETS) {
                Iterator<Target> oldest = targets.values().iterator();
                closeQuietly(oldest.next());
                oldest.remove();
            }
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(host, port), timeoutMs);
                socket.setTcpNoDelay(true);
                t = new Target(name, socket);
            } catch (IOException | RuntimeException e) {
                socket.close();
                throw e;
            }
            targets.put(name, t);
        }
        t.socket.setSoTimeout(timeoutMs);
        t.lastUseMs = nowMs;
        return t;
    }

    /** Closes and forgets {@code t} (after an I/O error on it). */
    void discard(Target t) {
        targets.remove(t.name);
        closeQuietly(t);
    }

    /** Cron: closes the connections unused for {@value #IDLE_MS} ms. */
    public void closeIdle(long nowMs) {
        Iterator<Target> it = targets.values().iterator();
        while (it.hasNext()) {
            Target t = it.next();
            if (nowMs - t.lastUseMs > IDLE_MS) {
                closeQuietly(t);
                it.remove();
            }
        }
    }

    /** Closes every connection (the server stops). */
    public void closeAll() {
        targets.values().forEach(MigrateSockets::closeQuietly);
        targets.clear();
    }

    /** INFO {@code migrate_cached_sockets}. */
    public int size() {
        return targets.size();
    }

    private static void closeQuietly(Target t) {
        try {
            t.socket.close();
        } catch (IOException ignored) {
            // closing: nothing to do
        }
    }
}
