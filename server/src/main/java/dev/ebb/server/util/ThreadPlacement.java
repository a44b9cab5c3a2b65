package dev.ebb.server.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a thread runs: its CPU affinity (Redis's {@code server_cpulist}, {@code bio_cpulist},
 * {@code aof_rewrite_cpulist} and {@code bgsave_cpulist}) and its scheduling class. Java has no call for
 * either (Thread priorities are ignored on Linux), so this runs util-linux's {@code taskset},
 * {@code renice} and {@code chrt} on the calling thread's own id, read from {@code /proc/thread-self}.
 * Best effort: where they are missing (not Linux, no util-linux) nothing changes and the reason is logged
 * at debug level.
 */
public final class ThreadPlacement {
    private static final Logger LOG = LoggerFactory.getLogger(ThreadPlacement.class);
    private static final long TIMEOUT_SECONDS = 5;

    private ThreadPlacement() {
    }

    /** The calling thread's kernel id, or -1 where {@code /proc/thread-self} does not exist. */
    public static long currentThreadId() {
        Path self = Path.of("/proc/thread-self");
        if (!Files.exists(self)) {
            return -1;
        }
        try {
            return Long.parseLong(Files.readSymbolicLink(self).getFileName().toString());
        } catch (IOException | RuntimeException e) {
            LOG.debug("no thread id: {}", e.toString());
            return -1;
        }
    }

    /**
     * Pins the calling thread to the CPUs of {@code cpulist}, as Redis's {@code setcpuaffinity}: nothing
     * for an empty list, and, as Redis, nothing for one that does not parse ({@link #parseCpuList}).
     *
     * @return whether the affinity was set
     */
    public static boolean pinCurrentThread(String cpulist, String threadRole) {
        if (cpulist == null || cpulist.isEmpty()) {
            return false;
        }
        BitSet cpus = parseCpuList(cpulist);
        long tid = currentThreadId();
        if (cpus == null || tid < 0) {
            LOG.debug("{} not pinned: cpu list '{}' {}", threadRole, cpulist, cpus == null ? "does not parse" : "(no thread id)");
            return false;
        }
        boolean done = run("taskset", "--cpu-list", "--pid", toCpuList(cpus), Long.toString(tid));
        if (!done) {
            LOG.warn("{} not pinned to CPUs {}: taskset failed", threadRole, cpulist);
        }
        return done;
    }

    /**
     * The CPUs of a list in Redis's (and taskset's) syntax: comma-separated numbers, ranges {@code a-b} and
     * strided ranges {@code a-b:s}, e.g. {@code "0,2-3"}, {@code "0-20:2"}; null if it does not parse (a
     * descending range, a zero stride, anything else), which Redis also ignores.
     */
    public static BitSet parseCpuList(String cpulist) {
        BitSet cpus = new BitSet();
        for (String part : cpulist.split(",", -1)) {
            String range = part;
            int stride = 1;
            int colon = part.indexOf(':');
            if (colon >= 0) {
                stride = number(part.substring(colon + 1));
                range = part.substring(0, colon);
                if (stride <= 0 || range.indexOf('-') < 0) {
                    return null;
                }
            }
            int dash = range.indexOf('-');
            int from = number(dash < 0 ? range : range.substring(0, dash));
            int to = dash < 0 ? from : number(range.substring(dash + 1));
            if (from < 0 || to < 0 || from > to) {
                return null;
            }
            for (int cpu = from; cpu <= to; cpu += stride) {
                cpus.set(cpu);
            }
        }
        return cpus;
    }

    /** A set of CPUs in taskset's list form, e.g. {@code 0,2,4}. */
    static String toCpuList(BitSet cpus) {
        StringBuilder out = new StringBuilder();
        for (int cpu = cpus.nextSetBit(0); cpu >= 0; cpu = cpus.nextSetBit(cpu + 1)) {
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(cpu);
        }
        return out.toString();
    }

    /** A non-negative decimal CPU number of at most 5 digits, or -1. */
    private static int number(String s) {
        if (s.isEmpty() || s.length() > 5) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return -1;
            }
        }
        return Integer.parseInt(s);
    }

    /** Runs a command, output discarded; whether it exited 0 within {@link #TIMEOUT_SECONDS}. */
    public static boolean run(String... command) {
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroy();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException | RuntimeException e) {
            LOG.debug("{} failed: {}", command[0], e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
