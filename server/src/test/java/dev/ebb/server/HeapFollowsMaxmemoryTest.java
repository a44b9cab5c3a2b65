package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * {@code ebb-server} started as an operator starts it, as a separate {@code java} process ({@link Main} on the test
 * class path): with maxmemory and no heap flags the server runs in a child JVM whose heap follows maxmemory, hands
 * memory back after FLUSHALL, and the parent passes signals and the exit code through; without maxmemory, under G1,
 * it gives back the heap a load left committed ({@link G1Trim}). Readings come from INFO's
 * {@code jvm_heap_max}, {@code jvm_heap_committed} and {@code process_id}, never from RSS or timing; every wait polls
 * with a generous deadline.
 */
class HeapFollowsMaxmemoryTest {
    private static final long MB = 1024L * 1024;
    private static final Pattern STARTED = Pattern.compile("port (\\d+), pid (\\d+)");

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopEverything() {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    @Test
    void serverShouldRunInChildJvmWithHeapFromMaxmemoryAndGiveMemoryBackAfterFlushall() throws Exception {
        Started ebb = start(Map.of(), List.of(), "maxmemory 192mb\nmaxmemory-policy allkeys-lru\n",
                "-", "--port", "0", "--save", "");

        try (Jedis jedis = new Jedis("127.0.0.1", ebb.port, 30_000)) {
            assertNotEquals(ebb.process.pid(), ebb.serverPid, "the server runs in a child JVM");
            assertEquals(ebb.serverPid, info(jedis, "server", "process_id"));
            assertEquals(192 * MB, info(jedis, "memory", "maxmemory"), "maxmemory read from standard input");
            long heapMax = info(jedis, "memory", "jvm_heap_max");
            assertTrue(heapMax <= JvmRelaunch.heapMaxBytes(192 * MB) && heapMax >= 300 * MB, "jvm_heap_max " + heapMax);

            Pipeline pipeline = jedis.pipelined();
            byte[] value = new byte[100_000];
            for (int i = 0; i < 1500; i++) {
                pipeline.set(("big:" + i).getBytes(StandardCharsets.US_ASCII), value);
            }
            pipeline.sync();
            long committedFull = info(jedis, "memory", "jvm_heap_committed");
            assertTrue(committedFull >= 144 * MB, "jvm_heap_committed with 150 MB stored " + committedFull);

            jedis.flushAll();

            long committed = committedFull;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((info(jedis, "memory", "jvm_memory_returns") < 1 || committed > committedFull / 2)
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
                committed = info(jedis, "memory", "jvm_heap_committed");
            }
            System.out.printf("jvm_heap_max %d MB, jvm_heap_committed with 150 MB stored %d MB, after FLUSHALL %d MB%n",
                    heapMax / MB, committedFull / MB, committed / MB);
            assertTrue(committed <= committedFull / 2,
                    "jvm_heap_committed after FLUSHALL " + committed + ", before " + committedFull);
            // One return for the FLUSHALL, and one more if the load's own (once the loop was quiet) came first.
            long returns = info(jedis, "memory", "jvm_memory_returns");
            assertTrue(returns == 1 || returns == 2, "jvm_memory_returns " + returns);

            jedis.shutdown();
        }
        assertTrue(ebb.process.waitFor(30, TimeUnit.SECONDS), "parent exits when the server does");
        assertEquals(0, ebb.process.exitValue(), "the child's exit code");
    }

    @Test
    void underPlainG1TheServerShouldGiveBackWhatALoadLeftCommittedOnceItIsQuiet() throws Exception {
        // -XX:InitialHeapSize (unlike -Xms) leaves the minimum heap low: 512 MB committed to start with, whatever
        // the machine, and nothing keeps G1 from shrinking below it.
        Started ebb = start(Map.of(), List.of("-XX:+UseG1GC", "-Xmx1g", "-XX:InitialHeapSize=512m"), null,
                "--port", "0", "--save", "");

        try (Jedis jedis = new Jedis("127.0.0.1", ebb.port, 30_000)) {
            assertEquals(ebb.process.pid(), ebb.serverPid, "no maxmemory: no child JVM");
            Pipeline pipeline = jedis.pipelined();
            byte[] value = new byte[1_000];
            for (int i = 0; i < 40_000; i++) {
                pipeline.set(("k:" + i).getBytes(StandardCharsets.US_ASCII), value);
            }
            pipeline.sync();
            long loaded = info(jedis, "memory", "jvm_heap_committed");
            long used = info(jedis, "memory", "used_memory");
            assertTrue(loaded >= 400 * MB, "jvm_heap_committed after the load " + loaded);

            long committed = loaded;
            // A pause in the load long enough to count as quiet would trim half way; the next trim may then
            // come a minute later (MemoryReturn.GROWTH_INTERVAL_MS).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while ((info(jedis, "memory", "jvm_memory_returns") < 1 || committed > used * 3 / 2 + 64 * MB)
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
                committed = info(jedis, "memory", "jvm_heap_committed");
            }
            System.out.printf("used_memory %d MB, jvm_heap_committed after the load %d MB, once quiet %d MB%n",
                    used / MB, loaded / MB, committed / MB);
            assertTrue(info(jedis, "memory", "jvm_memory_returns") >= 1);
            assertTrue(committed <= used * 3 / 2 + 64 * MB,
                    "jvm_heap_committed " + committed + " for used_memory " + used);
            assertEquals(40_000, jedis.dbSize());
            assertEquals(1_000, jedis.strlen("k:39999"));

            jedis.set("after", "trim");
            assertEquals("trim", jedis.get("after"), "the heap grows again as writes need it");
            jedis.shutdown();
        }
        assertTrue(ebb.process.waitFor(30, TimeUnit.SECONDS));
    }

    @Test
    void sigtermToTheParentShouldStopTheChildAndPassItsExitCode() throws Exception {
        Started ebb = start(Map.of(), List.of(), null, "--port", "0", "--save", "", "--maxmemory", "32mb");
        ProcessHandle child = ProcessHandle.of(ebb.serverPid).orElseThrow();
        assertNotEquals(ebb.process.pid(), ebb.serverPid);

        ebb.process.destroy();

        assertTrue(ebb.process.waitFor(30, TimeUnit.SECONDS), "parent exits after SIGTERM");
        assertTrue(child.onExit().get(30, TimeUnit.SECONDS) != null && !child.isAlive(), "child stopped");
        // 0 when the server stops cleanly on SIGTERM, 143 (128 + SIGTERM) from a JVM that does not.
        assertTrue(ebb.process.exitValue() == 0 || ebb.process.exitValue() == 143,
                "exit code " + ebb.process.exitValue());
    }

    @Test
    void childShouldShutDownWhenTheParentIsKilled() throws Exception {
        Started ebb = start(Map.of(), List.of(), null, "--port", "0", "--save", "", "--maxmemory", "32mb");
        ProcessHandle child = ProcessHandle.of(ebb.serverPid).orElseThrow();

        ebb.process.destroyForcibly();

        child.onExit().get(30, TimeUnit.SECONDS);
        assertFalse(child.isAlive(), "no orphaned server keeps the port");
    }

    @Test
    void childWhoseSupervisorIsNotItsParentShouldExitWithoutStarting() throws Exception {
        // As after the parent was killed while the child started: the child now belongs to another process.
        Path output = Files.createTempFile("ebb-orphan", ".log");
        output.toFile().deleteOnExit();
        ProcessBuilder builder = new ProcessBuilder(javaCommand("--port", "0", "--save", ""))
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put(JvmRelaunch.ENV_SWITCH, "no");
        builder.environment().put(JvmRelaunch.ENV_SUPERVISOR, Long.toString(ProcessHandle.current().pid() + 1_000_000));
        Process child = builder.start();
        started.add(child);

        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the orphaned child exits");
        String text = Files.readString(output, StandardCharsets.ISO_8859_1);
        assertEquals(1, child.exitValue(), text);
        assertFalse(STARTED.matcher(text).find(), "it never listened:\n" + text);
    }

    @Test
    void childShouldExitWhenItsParentIsKilledWhileItStarts() throws Exception {
        // A shell stands in for the supervising parent; it is killed as soon as the child JVM exists.
        String java = String.join(" ", javaCommand("--port", "0", "--save", "").stream()
                .map(a -> "'" + a + "'").toList());
        Process parent = new ProcessBuilder("sh", "-c",
                "EBB_RELAUNCH=no EBB_SUPERVISOR_PID=$$ " + java + " >/dev/null 2>&1 & echo $!; wait")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        started.add(parent);
        String line = new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
        ProcessHandle child = ProcessHandle.of(Long.parseLong(line.trim())).orElseThrow();

        parent.destroyForcibly();

        try {
            child.onExit().get(60, TimeUnit.SECONDS);
        } finally {
            child.destroyForcibly();
        }
        assertFalse(child.isAlive(), "no orphaned server keeps the port");
    }

    @Test
    void serverShouldStayInTheJvmWhenAHeapFlagIsGivenOrRelaunchIsOff() throws Exception {
        Started withXmx = start(Map.of(), List.of("-Xmx96m"), null, "--port", "0", "--save", "", "--maxmemory", "32mb");
        Started optedOut = start(Map.of(JvmRelaunch.ENV_SWITCH, "no"), List.of(), null,
                "--port", "0", "--save", "", "--maxmemory", "32mb");

        assertEquals(withXmx.process.pid(), withXmx.serverPid);
        assertEquals(optedOut.process.pid(), optedOut.serverPid);
        try (Jedis jedis = new Jedis("127.0.0.1", withXmx.port, 30_000)) {
            assertEquals(96 * MB, info(jedis, "memory", "jvm_heap_max"));
        }
    }

    private record Started(Process process, int port, long serverPid) {
    }

    /** Starts {@code java <jvmArgs> -cp <test class path> dev.ebb.server.Main <args>} and waits for its start line. */
    private Started start(Map<String, String> env, List<String> jvmArgs, String stdin, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.addAll(javaCommand(args).subList(1, javaCommand(args).size()));
        Path output = Files.createTempFile("ebb-relaunch", ".log");
        output.toFile().deleteOnExit();
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().remove(JvmRelaunch.ENV_SWITCH);
        builder.environment().remove(JvmRelaunch.ENV_SUPERVISOR);
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().putAll(env);
        Process process = builder.start();
        started.add(process);
        try (OutputStream in = process.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.US_ASCII));
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String text = Files.readString(output, StandardCharsets.ISO_8859_1);
            Optional<Matcher> m = Optional.of(STARTED.matcher(text)).filter(Matcher::find);
            if (m.isPresent()) {
                return new Started(process, Integer.parseInt(m.get().group(1)), Long.parseLong(m.get().group(2)));
            }
            if (!process.isAlive()) {
                fail("ebb-server exited with " + process.exitValue() + ":\n" + text);
            }
            Thread.sleep(20);
        }
        fail("ebb-server did not start within 60 s:\n" + Files.readString(output, StandardCharsets.ISO_8859_1));
        return null;
    }

    /** {@code java -XX:TieredStopAtLevel=1 -cp <test class path> dev.ebb.server.Main <args>}. */
    private static List<String> javaCommand(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        return command;
    }

    private static long info(Jedis jedis, String section, String field) {
        return EvictionWorkload.infoField(jedis, section, field);
    }
}
