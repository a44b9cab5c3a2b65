package dev.ebb.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and SIGINT as Redis handles them: logged, then the same shutdown as SHUTDOWN without
 * arguments ({@link EbbServer#shutdown()}), after which {@code main} exits with status 0. Without
 * these handlers the JVM would run its shutdown hooks and exit with 143 (128 + SIGTERM).
 *
 * <p>Installed before the server starts, as Redis sets its handlers up before it listens: a signal
 * that arrives while the server is still starting is remembered and served once it is up.
 * {@code sun.misc.Signal} (module jdk.unsupported) is the supported way for an application to
 * replace the JVM's handler; it works in whichever process runs the server. The handler runs on the
 * JVM's signal dispatcher thread and only hands the shutdown to the command loop.
 *
 * <p>Thread-safe.
 */
final class ShutdownSignals {
    private static final Logger LOG = LoggerFactory.getLogger(ShutdownSignals.class);

    private EbbServer server;
    private boolean requested;

    private ShutdownSignals() {
    }

    /**
     * Installs the handlers; a signal the JVM will not give up (java -Xrs) keeps its default. A signal
     * this process inherited as ignored stays ignored, with a warning: a non-interactive shell starts
     * {@code ebb-server &} with SIGINT ignored, and unlike Redis, which installs its handler anyway,
     * the JVM refuses to replace an inherited ignore ({@code Signal.handle} returns {@code SIG_IGN}
     * and installs nothing).
     */
    static ShutdownSignals install() {
        ShutdownSignals signals = new ShutdownSignals();
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                SignalHandler previous = Signal.handle(new Signal(name), signal -> {
                    LOG.warn("Received SIG{} scheduling shutdown...", signal.getName());
                    signals.request();
                });
                if (previous == SignalHandler.SIG_IGN) {
                    LOG.warn("SIG{} is ignored: the process that started Ebb ignored it (a background job of a"
                            + " non-interactive shell), and a JVM cannot undo that. Stop Ebb with {}.",
                            name, name.equals("INT") ? "SIGTERM or SHUTDOWN" : "SHUTDOWN");
                }
            } catch (IllegalArgumentException e) {
                LOG.debug("Cannot handle SIG{}: {}", name, e.getMessage());
            }
        }
        return signals;
    }

    /** The server the signals stop from now on; stopped at once if a signal came while it started. */
    synchronized void attach(EbbServer started) {
        server = started;
        if (requested) {
            started.shutdown();
        }
    }

    private synchronized void request() {
        requested = true;
        if (server != null) {
            server.shutdown();
        }
    }
}
