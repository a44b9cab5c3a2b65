package dev.ebb.server;

import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * CLIENT PAUSE / UNPAUSE, with Redis 7.2's semantics. In ALL mode every client's next command is
 * held, CLIENT UNPAUSE from another connection included (only the timeout or an UNPAUSE already
 * running ends it); in WRITE mode the commands that may write are held: those flagged
 * {@code write} or {@code may-replicate} (EVAL, FCALL, PUBLISH …) and an EXEC whose queued commands
 * include one. The check sits where Redis's is, after the other dispatch checks and before MULTI
 * queues a command. A held client's later input is held behind it, in order, as Redis leaves it in
 * the query buffer; when the pause ends the held clients run their input in the order they were
 * held. While paused, active expiry and eviction do not run (Redis pauses both for either mode).
 *
 * <p>A new PAUSE replaces the mode (WRITE does not weaken a running ALL) and keeps the later of
 * the two deadlines. The end is noticed by a timer set for the deadline, and before each command.
 *
 * <p>FAILOVER and a primary's part in a cluster manual failover (MFSTART) pause writes for a purpose
 * of their own (Redis's PAUSE_DURING_FAILOVER), FAILOVER with no deadline, the manual failover until
 * twice its timeout: CLIENT UNPAUSE does not lift it, its end does not lift a CLIENT PAUSE, and the
 * held clients run only once neither pause holds. As in Redis the effective pause is the strongest
 * of the two (ALL over WRITE) until the later deadline.
 *
 * <p>Costs: one branch per command while not paused. Command loop thread only.
 */
public final class ClientPause {
    private final Server server;
    /** Server time the pause ends at; meaningful while {@link #paused}. */
    private long endMs;
    private boolean paused;
    private boolean all;
    private boolean failover;
    /** Server time the failover pause ends at (Long.MAX_VALUE: until {@link #endFailoverPause}). */
    private long failoverEndMs;
    private final Map<Client, List<Object>> held = new LinkedHashMap<>();
    private long timerDeadlineMs = Long.MAX_VALUE;

    ClientPause(Server server) {
        this.server = server;
    }

    /**
     * CLIENT PAUSE: until {@code untilMs} (server time; 0 or a past time ends the pause at the next
     * check), holding every command ({@code everything}) or the writing ones.
     */
    public void pause(long untilMs, boolean everything) {
        all = everything || (paused && all);
        paused = true;
        endMs = Math.max(endMs, untilMs);
        armTimer();
    }

    /** CLIENT UNPAUSE, and the end of the timeout: the held clients run their input (unless FAILOVER holds them). */
    public void unpause() {
        if (!paused) {
            return;
        }
        paused = false;
        all = false;
        endMs = 0;
        release();
    }

    /** FAILOVER starts: writes wait until {@link #endFailoverPause}. */
    public void pauseForFailover() {
        pauseForFailover(Long.MAX_VALUE);
    }

    /**
     * A failover holds writes until {@code untilMs} (server time) or {@link #endFailoverPause}; a
     * failover pause already in force keeps the later deadline.
     */
    public void pauseForFailover(long untilMs) {
        failoverEndMs = failover ? Math.max(failoverEndMs, untilMs) : untilMs;
        failover = true;
        armTimer();
    }

    /** FAILOVER ended (done or aborted): the held clients run their input unless CLIENT PAUSE still holds them. */
    public void endFailoverPause() {
        if (!failover) {
            return;
        }
        failover = false;
        if (!paused) {
            release();
        }
    }

    private void release() {
        if (failover || held.isEmpty()) {
            return;
        }
        List<Map.Entry<Client, List<Object>>> resume = new ArrayList<>(held.entrySet());
        held.clear();
        CommandLoop loop = server.loop();
        // After the command that ended the pause (UNPAUSE) has replied, not inside it.
        loop.executor().execute(() -> {
            for (Map.Entry<Client, List<Object>> e : resume) {
                Client c = e.getKey();
                for (Object msg : e.getValue()) {
                    loop.handle(c, msg);
                }
                loop.flush(c);
            }
        });
    }

    /** Whether a pause is in force (ends it first if its time has passed): expiry and eviction wait. */
    public boolean active() {
        long now = server.nowMs();
        if (paused && now >= endMs) {
            unpause();
        }
        if (failover && now >= failoverEndMs) {
            endFailoverPause();
        }
        return paused || failover;
    }

    /**
     * Before {@code c} runs {@code spec}: true if the pause holds it, in which case the command
     * (and all of {@code c}'s input after it) waits, unanswered, for the pause to end.
     */
    boolean holds(Client c, CommandSpec spec, byte[][] argv) {
        if (!(paused || failover) || !active()) {
            return false;
        }
        if (!(paused && all) && !mayWrite(c, spec)) {
            return false;
        }
        held.computeIfAbsent(c, k -> new ArrayList<>()).add(argv);
        return true;
    }

    /** Holds {@code msg} if {@code c} is waiting for the pause to end; false if it may run. */
    boolean holdIfHeld(Client c, Object msg) {
        if (held.isEmpty()) {
            return false;
        }
        List<Object> input = held.get(c);
        if (input == null) {
            return false;
        }
        input.add(msg);
        return true;
    }

    /** A disconnected client's held input is dropped. */
    void forget(Client c) {
        if (!held.isEmpty()) {
            held.remove(c);
        }
    }

    private static boolean mayWrite(Client c, CommandSpec spec) {
        long writing = CommandFlags.WRITE | CommandFlags.MAY_REPLICATE;
        if (spec.has(writing)) {
            return true;
        }
        if (spec.fullName().equals("exec") && c.inMulti()) {
            Transaction t = c.transaction();
            for (int i = 0; i < t.size(); i++) {
                if (t.spec(i).has(writing)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Sets the timer for the nearer deadline of the pauses in force, unless one is set for it already. */
    private void armTimer() {
        CommandLoop loop = server.loop();
        long deadline = Math.min(paused ? endMs : Long.MAX_VALUE, failover ? failoverEndMs : Long.MAX_VALUE);
        if (loop == null || deadline == Long.MAX_VALUE || deadline >= timerDeadlineMs) {
            return;
        }
        timerDeadlineMs = deadline;
        loop.executor().schedule(() -> {
            timerDeadlineMs = Long.MAX_VALUE;
            server.tick();
            active();
            armTimer();
        }, Math.max(0, deadline - server.nowMs()), TimeUnit.MILLISECONDS);
    }
}
