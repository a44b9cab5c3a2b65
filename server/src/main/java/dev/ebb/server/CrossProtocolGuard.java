package dev.ebb.server;

import dev.ebb.server.command.Arguments;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Redis's defence against cross-protocol scripting: a web page can make a browser send an HTTP
 * request to the server's port, and the inline protocol would read its request line and headers as
 * commands (errors) and then run the commands in its body. An HTTP request starts with
 * {@code POST ...} or carries a {@code Host:} header, so a command named {@code post} or
 * {@code host:} (any case) closes the connection at once, before any other check, without a reply,
 * and drops the replies of earlier commands not yet written (those of the same read), as Redis
 * 7.2's {@code processCommand} and {@code securityWarningCommand} do. The warning is logged at most
 * once a minute, so an attack cannot flood the log. Neither name is a command: COMMAND does not
 * list them, and a script calling them gets the unknown-command error.
 *
 * <p>Thread safety: command loop thread only.
 */
final class CrossProtocolGuard {
    private static final Logger LOG = LoggerFactory.getLogger(CrossProtocolGuard.class);
    private static final long LOG_INTERVAL_MS = 60_000;

    private long loggedAtMs;
    private boolean logged;

    /** True when {@code argv} is an HTTP line; then {@code c} has been closed and nothing may run. */
    boolean refused(Client c, byte[][] argv, LongSupplier clock) {
        if (!Arguments.is(argv[0], "post") && !Arguments.is(argv[0], "host:")) {
            return false;
        }
        long nowMs = clock.getAsLong();
        if (!logged || Math.abs(nowMs - loggedAtMs) > LOG_INTERVAL_MS) {
            LOG.warn("Possible SECURITY ATTACK detected. It looks like somebody is sending POST or Host: commands to"
                    + " Redis. This is likely due to an attacker attempting to use Cross Protocol Scripting to"
                    + " compromise your Redis instance. Connection from {} aborted.", c.addr());
            logged = true;
            loggedAtMs = nowMs;
        }
        c.kill();
        return true;
    }
}
