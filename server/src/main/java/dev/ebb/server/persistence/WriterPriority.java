package dev.ebb.server.persistence;

import dev.ebb.server.util.ThreadPlacement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * <p>A {@code SCHED_IDLE} thread on a machine whose every core is busy with other work gets next to
 * nothing, so a {@link #watch} gives the writer the ordinary policy back (still at nice 10) when it has
 * been starved for {@link #STARVED_SECONDS} seconds. Restoring needs {@code CAP_SYS_NICE} or an {@code RLIMIT_NICE}
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
    /** A writer that runs less than this, in thousandths of the time, while runnable and while keys wait, is starved. */
    static final long STARVED_RUN_PERMILLE = 50;
    /** Samples a second of the writer's state ({@code R}: runnable or running, or asleep). */
    static final int SAMPLES_PER_SECOND = 10;
    /** Seconds in a row a writer may be starved before it gets the ordinary policy back. */
    static final int STARVED_SECONDS = 5;

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

    /** What the watch asks of a writer, from the watch's thread. */
    interface Progress {
        /** Whether pre-images wait for the writer. */
        boolean keysWaiting();

        boolean finished();
    }

    /**
     * A daemon thread beside a {@code SCHED_IDLE} writer: {@link #SAMPLES_PER_SECOND} times a second it reads
     * the writer's state, and once a second how long it ran (its {@code schedstat}); a second in which the
     * writer ran less than {@link #STARVED_RUN_PERMILLE} per mille of the time although it was runnable in
     * at least half of the samples, while keys waited for it, is a starved second. After {@link
     * #STARVED_SECONDS} of them in a row the watch restores the ordinary policy once and ends. Ends too
     * when the writer finishes. A writer sharing two busy cores with the loop and its clients still runs
     * 10-25% of the time and stays SCHED_IDLE; one that other processes leave no CPU at all (a 200k-key
     * save took 7-10 s instead of 0.3 s beside a build) is lifted. A writer that runs little because it
     * sleeps (a slow disk, the {@code rdb-key-save-delay} test knob) is not runnable and is left alone.
     * (The run-queue wait in {@code schedstat} would say the same, but the kernel adds it up only when
     * the thread next gets a CPU, which a starved thread seldom does.)
     */
    static Thread watch(long tid, String writerName, Progress progress) {
        Path task = Path.of("/proc/self/task/" + tid);
        Thread t = new Thread(() -> {
            long lastRun = runNanos(task);
            long lastTime = System.nanoTime();
            int starved = 0;
            int runnable = 0;
            int samples = 0;
            while (!progress.finished() && lastRun >= 0) {
                try {
                    Thread.sleep(1000 / SAMPLES_PER_SECOND);
                } catch (InterruptedException e) {
                    return;
                }
                char state = state(task);
                if (state == 0) {
                    return;
                }
                runnable += state == 'R' ? 1 : 0;
                if (++samples < SAMPLES_PER_SECOND) {
                    continue;
                }
                long run = runNanos(task);
                long time = System.nanoTime();
                boolean starvedNow = run >= 0 && progress.keysWaiting()
                        && starved(run - lastRun, time - lastTime, runnable, samples);
                lastRun = run;
                lastTime = time;
                runnable = 0;
                samples = 0;
                starved = starvedNow ? starved + 1 : 0;
                if (starved >= STARVED_SECONDS && !progress.finished()) {
                    if (restore(tid)) {
                        LOG.warn("{} got under {}% of a CPU for {} s while keys waited (other work takes every core): "
                                + "it now runs at nice {} instead of SCHED_IDLE", writerName, STARVED_RUN_PERMILLE / 10,
                                STARVED_SECONDS, NICE);
                    } else {
                        LOG.warn("{} got under {}% of a CPU for {} s while keys waited, and its SCHED_IDLE policy "
                                + "cannot be lifted without CAP_SYS_NICE: the save goes on slowly", writerName,
                                STARVED_RUN_PERMILLE / 10, STARVED_SECONDS);
                    }
                    return;
                }
            }
        }, "watch-" + writerName);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Whether a writer that ran {@code run} of {@code elapsed} ns, and was runnable in {@code runnable} of
     * {@code samples} samples of its state, was starved.
     */
    static boolean starved(long run, long elapsed, int runnable, int samples) {
        return run * 1000 < elapsed * STARVED_RUN_PERMILLE && runnable * 2 >= samples;
    }

    /** The nanoseconds a thread has run (the first field of its schedstat), or -1 when unreadable (gone). */
    static long runNanos(Path task) {
        try {
            String text = Files.readString(task.resolve("schedstat")).trim();
            int space = text.indexOf(' ');
            return Long.parseLong(space < 0 ? text : text.substring(0, space));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** A thread's state letter from its stat ({@code R} runnable, {@code S} / {@code D} asleep), 0 when gone. */
    static char state(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            int close = stat.lastIndexOf(')');
            return close < 0 || close + 2 >= stat.length() ? 0 : stat.charAt(close + 2);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
