package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JvmRelaunchTest {
    private static final long MB = 1024L * 1024;
    private static final String[] ARGS = {"/etc/ebb.conf", "--port", "7000"};

    private static Optional<List<String>> plan(long maxmemory, List<String> jvmArgs, Map<String, String> env) {
        return JvmRelaunch.childCommand(maxmemory, jvmArgs, env, "/opt/jdk", "/opt/ebb/ebb-server.jar", ARGS);
    }

    @Test
    void childShouldGetHeapFromMaxmemoryG1AndTheSameArguments() {
        List<String> command = plan(200 * MB, List.of("-Dfoo=bar"), Map.of()).orElseThrow();

        assertEquals(List.of("/opt/jdk/bin/java", "-Dfoo=bar", "-Xmx332m", "-Xms16m", "-XX:+UseG1GC",
                "-XX:+ExplicitGCInvokesConcurrent", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30",
                "-cp", "/opt/ebb/ebb-server.jar", "dev.ebb.server.Main", "/etc/ebb.conf", "--port", "7000"), command);
    }

    @Test
    void userChosenCollectorAndRatiosShouldBeKept() {
        List<String> command = plan(1024 * MB, List.of("-XX:+UseParallelGC", "-XX:MaxHeapFreeRatio=50",
                "-agentlib:jdwp=transport=dt_socket,server=y,address=5005"), Map.of()).orElseThrow();

        assertTrue(command.contains("-XX:+UseParallelGC"));
        assertTrue(command.contains("-Xmx1568m"));
        assertFalse(command.contains("-XX:+UseG1GC"));
        assertFalse(command.contains("-XX:+ExplicitGCInvokesConcurrent"));
        assertTrue(command.contains("-XX:NewRatio=5"), "an old generation that holds the keyspace");
        assertTrue(command.contains("-XX:MaxHeapFreeRatio=50"));
        assertFalse(command.contains("-XX:MaxHeapFreeRatio=30"));
        assertFalse(command.contains("-XX:MinHeapFreeRatio=10"), "ours could exceed the user's maximum");
        assertFalse(command.stream().anyMatch(a -> a.contains("jdwp")), "a debugger port cannot be opened twice");
    }

    @Test
    void noChildWithoutMaxmemoryWithAHeapFlagOrWhenSwitchedOff() {
        assertTrue(plan(0, List.of(), Map.of()).isEmpty());
        assertTrue(plan(200 * MB, List.of("-Xmx1g"), Map.of()).isEmpty());
        assertTrue(plan(200 * MB, List.of("-Xms64m"), Map.of()).isEmpty());
        assertTrue(plan(200 * MB, List.of("-XX:MaxRAMPercentage=50"), Map.of()).isEmpty());
        assertTrue(plan(200 * MB, List.of(), Map.of(JvmRelaunch.ENV_SWITCH, "no")).isEmpty());
    }

    @Test
    void heapShouldBeOneAndAHalfTimesMaxmemoryPlus32MbAtLeast64Mb() {
        assertEquals(332 * MB, JvmRelaunch.heapMaxBytes(200 * MB));
        assertEquals(64 * MB, JvmRelaunch.heapMaxBytes(1 * MB));
    }
}
