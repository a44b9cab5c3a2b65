package dev.ebb.server;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs the server in a child JVM whose heap is sized from {@code maxmemory}, when the user left the heap to the
 * JVM's defaults.
 *
 * <p><b>Why a child JVM.</b> A JVM picks its maximum heap at start (a quarter of the machine's memory, 6 GB on a
 * 24 GB host) and its initial heap (1/64 of it, 377 MB); neither can change later, and
 * a jar's manifest cannot carry JVM options. The flags HotSpot lets a running JVM change
 * ({@code HotSpotDiagnosticMXBean.setVMOption}: {@code MinHeapFreeRatio}, {@code MaxHeapFreeRatio},
 * {@code G1PeriodicGCInterval}, {@code SoftMaxHeapSize} which only ZGC honours in JDK 17) move the heap inside
 * those bounds but cannot bound it, and ParallelGC's adaptive sizing ignores the free ratios. With
 * {@code maxmemory 200mb} a default JVM grew to 634 MB of resident memory and kept it after FLUSHALL. So
 * {@link Main} starts this same class path again with:
 *
 * <ul>
 *   <li>{@code -Xmx} = {@link #heapMaxBytes(long) 1.5 x maxmemory + 32 MB}: the keyspace's {@code used_memory}
 *       estimate is close to its live heap, and a collector needs the rest as room to work in (with 292 MB
 *       for maxmemory 200mb, G1's old generation crossed the 90% heap safety net while evicting and writes were
 *       refused);</li>
 *   <li>{@code -Xms16m}, so the heap can shrink back when the data goes;</li>
 *   <li>G1 unless the user chose a collector: it reclaims the evicted keys' old-generation garbage concurrently
 *       instead of in full collections of the whole live set, and it gives memory back at the end of a concurrent
 *       cycle; with it {@code -XX:+ExplicitGCInvokesConcurrent}, so the {@code System.gc()} that
 *       {@link MemoryReturn} asks for after FLUSHALL is a concurrent cycle with pauses of milliseconds, not a full
 *       collection;</li>
 *   <li>under a collector the user chose that has a fixed old generation (ParallelGC, SerialGC),
 *       {@code -XX:NewRatio=5}: at the default 2 the old generation is two thirds of the heap, less than the
 *       live keyspace plus its garbage, and the safety net refused writes; these collectors clear the evicted
 *       keys' garbage only in full collections (0.66-0.83 s at 200 MB) and do not give the heap back;</li>
 *   <li>{@code -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30}: at that cycle's end the committed heap is cut to
 *       at most 1/0.7 of what is live (the defaults 40/70 keep up to 3.3 times).</li>
 * </ul>
 *
 * Each flag is added only if the user gave no value for it (the two free ratios only if the user gave neither). No re-launch happens when {@code maxmemory} is 0, when
 * the JVM was started with any heap-size flag ({@code -Xmx}, {@code -Xms}, {@code -XX:MaxRAMPercentage} ...), or
 * when the environment has {@code EBB_RELAUNCH=no} (which the child also gets). Embedding ({@link EbbServer#start})
 * never re-launches.
 *
 * <p>The parent stays as a small supervisor: the child inherits its standard output and error, and its standard
 * input (or, when the configuration was read from standard input, gets that text), SIGTERM and SIGINT to the parent
 * are forwarded to the child as SIGTERM, and the parent exits with the child's exit code (128 + signal when the
 * child was killed); if the parent itself is killed (SIGKILL), the child notices and shuts down
 * ({@link #exitWithSupervisor}). The parent costs a JVM's floor of resident memory (about 40 MB).
 *
 * <p>Stateless; {@link #run} blocks the calling thread until the child ends.
 */
final class JvmRelaunch {
    /** Environment variable that turns re-launching off when set to {@code no}; the child always gets it. */
    static final String ENV_SWITCH = "EBB_RELAUNCH";
    /** Environment variable naming the supervising parent's pid, set for the child only. */
    static final String ENV_SUPERVISOR = "EBB_SUPERVISOR_PID";
    private static final long MB = 1024L * 1024;
    private static final long MIN_HEAP = 64 * MB;
    private static final String[] HEAP_FLAGS = {"-Xmx", "-Xms", "-XX:MaxHeapSize=", "-XX:InitialHeapSize=",
        "-XX:MinHeapSize=", "-XX:MaxRAM=", "-XX:MaxRAMPercentage=", "-XX:MinRAMPercentage=",
        "-XX:InitialRAMPercentage=", "-XX:MaxRAMFraction=", "-XX:MinRAMFraction="};

    private JvmRelaunch() {
    }

    /** The child's maximum heap for {@code maxmemory}: 1.5 times it plus 32 MB, at least 64 MB. */
    static long heapMaxBytes(long maxmemory) {
        long heap = maxmemory + maxmemory / 2 + 32 * MB;
        return Math.max(MIN_HEAP, heap);
    }

    /**
     * The child's command line, or empty when the server should run in this JVM.
     *
     * @param maxmemory the configured {@code maxmemory}, 0 for none
     * @param jvmArgs this JVM's options ({@code RuntimeMXBean.getInputArguments()})
     * @param env this process's environment
     * @param javaHome {@code java.home}
     * @param classPath {@code java.class.path}
     * @param args the program arguments, passed on unchanged
     */
    static Optional<List<String>> childCommand(long maxmemory, List<String> jvmArgs, Map<String, String> env,
            String javaHome, String classPath, String[] args) {
        if (maxmemory <= 0 || "no".equalsIgnoreCase(env.get(ENV_SWITCH)) || jvmArgs.stream().anyMatch(
                arg -> List.of(HEAP_FLAGS).stream().anyMatch(arg::startsWith))) {
            return Optional.empty();
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(javaHome, "bin", "java").toString());
        for (String arg : jvmArgs) {
            // A debugger agent would try to listen on the port the parent already holds.
            if (!arg.startsWith("-agentlib:jdwp") && !arg.startsWith("-Xrunjdwp")) {
                command.add(arg);
            }
        }
        command.add("-Xmx" + heapMaxBytes(maxmemory) / MB + "m");
        command.add("-Xms16m");
        boolean collectorChosen = jvmArgs.stream().anyMatch(a -> a.startsWith("-XX:+Use") && a.endsWith("GC"));
        if (!collectorChosen) {
            command.add("-XX:+UseG1GC");
        }
        if (!collectorChosen || jvmArgs.contains("-XX:+UseG1GC")) {
            addUnlessGiven(command, jvmArgs, "ExplicitGCInvokesConcurrent", "-XX:+ExplicitGCInvokesConcurrent");
        } else if ((jvmArgs.contains("-XX:+UseParallelGC") || jvmArgs.contains("-XX:+UseSerialGC"))
                && jvmArgs.stream().noneMatch(a -> a.startsWith("-Xmn") || a.contains("NewSize"))) {
            addUnlessGiven(command, jvmArgs, "NewRatio", "-XX:NewRatio=5");
        }
        if (jvmArgs.stream().noneMatch(a -> a.contains("HeapFreeRatio"))) {
            // Both or neither: one of ours beside one of the user's could break Min <= Max.
            command.add("-XX:MinHeapFreeRatio=10");
            command.add("-XX:MaxHeapFreeRatio=30");
        }
        command.add("-cp");
        command.add(classPath);
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        return Optional.of(command);
    }

    private static void addUnlessGiven(List<String> command, List<String> jvmArgs, String flag, String value) {
        String lower = flag.toLowerCase(Locale.ROOT);
        if (jvmArgs.stream().noneMatch(a -> a.toLowerCase(Locale.ROOT).contains(lower))) {
            command.add(value);
        }
    }

    /**
     * Runs {@code command} as the child and returns its exit code.
     *
     * @param stdinText the configuration text read from standard input, written to the child's standard input; null
     *     to let the child inherit standard input
     */
    static int run(List<String> command, byte[] stdinText) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectInput(stdinText == null ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.PIPE);
        builder.environment().put(ENV_SWITCH, "no");
        builder.environment().put(ENV_SUPERVISOR, Long.toString(ProcessHandle.current().pid()));
        // The parent's options, these included, are already on the command line: do not apply them twice.
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        Process child = builder.start();
        // At once: a SIGTERM while the configuration is written must reach the child too.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> forwardTermination(child), "ebb-relaunch-forward"));
        if (stdinText != null) {
            try (OutputStream in = child.getOutputStream()) {
                in.write(stdinText);
            }
        }
        // What parsing the configuration left behind is garbage now: under G1 (the default) this took the
        // parent from 74 to 62 MB of RSS; under ParallelGC it changes little (71 to 74 MB).
        System.gc();
        return child.waitFor();
    }

    /**
     * In the child: the supervising parent named by {@link #ENV_SUPERVISOR}, to watch with {@link #exitWithSupervisor};
     * empty in a JVM that is not such a child. Called first thing in {@code main}: a child whose parent is no longer
     * that process (killed while the child was starting, the child re-parented to pid 1) exits with status 1 here,
     * so that no orphaned server takes the port.
     */
    static Optional<ProcessHandle> supervisor(Map<String, String> env) {
        String supervisor = env.get(ENV_SUPERVISOR);
        if (supervisor == null) {
            return Optional.empty();
        }
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        if (parent.isEmpty() || !Long.toString(parent.get().pid()).equals(supervisor)) {
            System.err.println("The supervising ebb-server process " + supervisor + " has exited; not starting");
            System.exit(1);
        }
        return parent;
    }

    /**
     * In the child: runs {@code onGone} when the supervising parent ends without stopping the child first (SIGKILL),
     * at once if it already has. Registered before the server starts, so a parent killed meanwhile is noticed too.
     */
    static void exitWithSupervisor(Optional<ProcessHandle> supervisor, Runnable onGone) {
        supervisor.ifPresent(parent -> parent.onExit().thenRun(onGone));
    }

    /**
     * Shutdown hook of the parent: on SIGTERM/SIGINT the child is still running, so it gets SIGTERM, and the parent
     * leaves with its exit code once it has ended (halt, since exit cannot be called from a hook).
     */
    private static void forwardTermination(Process child) {
        if (!child.isAlive()) {
            return;
        }
        child.destroy();
        try {
            while (!child.waitFor(60, TimeUnit.SECONDS)) {
                System.err.println("Waiting for the Ebb server process " + child.pid() + " to exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Runtime.getRuntime().halt(child.exitValue());
    }
}
