package dev.ebb.server.persistence;

import dev.ebb.server.util.ThreadPlacement;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a snapshot's writer thread behind the command loop: nice {@link #NICE} and then Linux's
 * {@code SCHED_IDLE} policy, so that the writer uses the CPU the loop and the clients leave and gives
 * it up the moment the loop wakes. Redis's forked child competes with the server as an equal; a
 * thread of the same process would too, and on two cores with a client load that doubles the loop's
 * tail latency during a BGSAVE. Nice 10 alone was not enough: the loop still waited for the CPU 300 ms
 * of every second of a 10M-key BGSAVE under 50 clients (its {@code schedstat}), since a waking thread
 * does not always preempt a niced one; under {@code SCHED_IDLE} it always does (GET p99 5 ms → 2-3 ms
 * in alternating runs; the save took 10 s instead of 6).
 *
 * <p>A {@code SCHED_IDLE} thread on a machine whose every core is busy gets next to nothing, so a
 * {@link Watch} gives the writer the ordinary policy back (still at nice 10) when it has written no
 * key for {@link #STARVED_MILLIS}. Restoring needs {@code CAP_SYS_NICE} or an {@code RLIMIT_NICE}
 * that allows nice 10; where it is refused the save goes on slowly and a warning says why.
 *
 * <p>Through {@link ThreadPlacement} ({@code renice} and {@code chrt} on the thread's own id); best
 * effort: where either is missing (not Linux, no util-linux) the step is skipped.
 */
final class WriterPriority {
    private static final Logger LOG = LoggerFactory.getLogger(WriterPriority.class);
    static final int NICE = 10;
    /** {@code SCHED_IDLE}'s number in /proc/PID/task/TID/stat's policy field. */
    static final int SCHED_IDLE = 5;
    /** How long a writer with keys waiting may write nothing before it gets the ordinary policy back. */
    static final long STARVED_MILLIS = 2_000;

    private WriterPriority() {
    }

    /**
     * Lowers the calling thread's priority (nice {@link #NICE}, then {@code SCHED_IDLE}).
     *
     * @return the thread's id when {@code SCHED_IDLE} was set, for {@link #restore}, or -1
     */
    static long lowerCurrentThread() {
        long tid = ThreadPlacement.currentThreadId();
        if (tid < 0) {
            return -1;
        }
        ThreadPlacement.run("renice", "-n", Integer.toString(NICE), "-p", Long.toString(tid));
        return ThreadPlacement.run("chrt", "--idle", "--pid", "0", Long.toString(tid)) ? tid : -1;
    }

    /** Gives thread {@code tid} the ordinary policy back (its nice value stays). Any thread. */
    static boolean restore(long tid) {
        return ThreadPlacement.run("chrt", "--other", "--pid", "0", Long.toString(tid));
    }

    /** How far a writer has got: keys written, and whether keys wait for it. Read from the watch's thread. */
    interface Progress {
        long written();

        boolean keysWaiting();

        boolean finished();
    }

    /**
     * A daemon thread beside a {@code SCHED_IDLE} writer: checks its progress every few hundred
     * milliseconds and, if it has written nothing for {@link #STARVED_MILLIS} while keys wait, restores
     * the ordinary policy once and ends. Ends too when the writer finishes.
     */
    static Thread watch(long tid, String writerName, Progress progress) {
        Thread t = new Thread(() -> {
            long last = progress.written();
            long lastChange = System.nanoTime();
            while (!progress.finished()) {
                try {
                    Thread.sleep(STARVED_MILLIS / 8);
                } catch (InterruptedException e) {
                    return;
                }
                long now = progress.written();
                if (now != last || !progress.keysWaiting()) {
                    last = now;
                    lastChange = System.nanoTime();
                } else if (System.nanoTime() - lastChange >= TimeUnit.MILLISECONDS.toNanos(STARVED_MILLIS)) {
                    if (restore(tid)) {
                        LOG.warn("{} wrote nothing for {} ms while keys waited (no CPU left for it, or a stalled disk): "
                                + "it now runs at nice {} instead of SCHED_IDLE", writerName, STARVED_MILLIS, NICE);
                    } else {
                        LOG.warn("{} wrote nothing for {} ms while keys waited, and its SCHED_IDLE policy cannot be "
                                + "lifted without CAP_SYS_NICE: the save goes on slowly", writerName, STARVED_MILLIS);
                    }
                    return;
                }
            }
        }, "watch-" + writerName);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
