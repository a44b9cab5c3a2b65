package dev.ebb.server.persistence;

import dev.ebb.server.BusyPump;
import dev.ebb.server.Client;
import dev.ebb.server.Server;

/**
 * Serves the other clients while the append-only file loads on the command loop (Redis's
 * processEventsWhileBlocked during loadAppendOnlyFiles): the loader calls {@link #step} after every
 * command it replays and every key of an RDB base, and every {@link #INTERVAL_NANOS} of loading the
 * pump records the bytes read so far (INFO's {@code loading_loaded_bytes}) and lets {@link BusyPump}
 * read and answer what the clients sent. Their commands meet {@code -LOADING} unless flagged
 * {@code loading} (INFO, CONFIG, SHUTDOWN ...), as in Redis. A SHUTDOWN so answered ends the load:
 * the next step throws {@link Interrupted}, nothing is saved, and the server stops.
 *
 * <p>Limits are {@link BusyPump}'s: with the NIO transport or {@code io-threads} above 1 the other
 * clients wait for the end of the load. Loop thread only.
 */
final class LoadingPump {
    /** How much loading work runs between two rounds of serving clients. */
    static final long INTERVAL_NANOS = 2_000_000;
    /** Steps between two readings of the clock. */
    private static final int CLOCK_EVERY = 64;

    /** The load was ended by SHUTDOWN; nothing more may be loaded. */
    static final class Interrupted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Interrupted() {
            super("Loading interrupted by a shutdown", null, false, false);
        }
    }

    private final Server server;
    private final Client caller;
    private int steps;
    private long lastServedNanos = System.nanoTime();

    /**
     * @param caller the client whose command runs the load (DEBUG LOADAOF), not served meanwhile;
     *     null at start-up
     */
    LoadingPump(Server server, Client caller) {
        this.server = server;
        this.caller = caller;
    }

    /** One unit of loading work done; {@code loadedBytes} of the whole load have been read. */
    void step(long loadedBytes) {
        if (++steps % CLOCK_EVERY != 0) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastServedNanos < INTERVAL_NANOS) {
            return;
        }
        server.persistence().loadingProgress(loadedBytes);
        BusyPump.serve(server, caller);
        lastServedNanos = System.nanoTime();
        if (server.shutdownRequested()) {
            throw new Interrupted();
        }
    }
}
