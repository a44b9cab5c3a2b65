package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.fail;

import dev.ebb.server.EbbServer;
import dev.ebb.server.Main;
import dev.ebb.server.config.ConfigException;
import dev.ebb.server.config.ServerConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import redis.clients.jedis.Jedis;

/** Helpers of the multi-node cluster tests: free ports, Ebb nodes in-process or in child JVMs, waiting. */
final class ClusterNodes {
    private ClusterNodes() {
    }

    /** A port free now whose bus port (+10000) is free too and valid. */
    static int freePortWithBusPort() throws IOException {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            if (port + 10000 > 65535) {
                continue;
            }
            try (ServerSocket a = new ServerSocket(port); ServerSocket b = new ServerSocket(port + 10000)) {
                return port;
            } catch (IOException busy) {
                // try another
            }
        }
        return fail("no free port pair found");
    }

    /** An Ebb cluster node on {@code port} (bus port + 10000) keeping nodes.conf in {@code dir}. */
    static EbbServer startEbb(int port, Path dir, long nodeTimeout) {
        String conf = "port " + port + "\nbind 127.0.0.1\ncluster-enabled yes\ncluster-node-timeout " + nodeTimeout
                + "\ndir \"" + dir + "\"\nsave \"\"\nappendonly no\n";
        try {
            return EbbServer.start(ServerConfig.fromText(conf));
        } catch (ConfigException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * An Ebb cluster node in a JVM of its own (so a test can SIGKILL it) on {@code port}, keeping
     * nodes.conf and its log {@code ebb.log} in {@code dir}; returns once it answers PING.
     * {@code EBB_RELAUNCH=no}: the child is the server itself, not a supervisor of another JVM;
     * {@code EBB_SUPERVISOR_PID} names this JVM, so the node exits if the test JVM dies without
     * stopping it.
     */
    static Process startEbbProcess(int port, Path dir, long nodeTimeout) throws InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                Main.class.getName(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--cluster-enabled", "yes", "--cluster-node-timeout", Long.toString(nodeTimeout),
                "--dir", dir.toString(), "--save", "", "--appendonly", "no"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("ebb.log").toFile()));
        builder.environment().put("EBB_RELAUNCH", "no");
        builder.environment().put("EBB_SUPERVISOR_PID", Long.toString(ProcessHandle.current().pid()));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("could not start " + command, e);
        }
        await("Ebb on port " + port + " to answer PING", 120, () -> {
            if (!process.isAlive()) {
                return fail("Ebb on port " + port + " exited with " + process.exitValue() + "; see " + dir
                        + "/ebb.log");
            }
            return "PONG".equals(call(port, "PING"));
        });
        return process;
    }

    /** Waits up to {@code seconds} for {@code condition}; fails with {@code what} otherwise. */
    static void await(String what, int seconds, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // a node still starting: try again
            }
            Thread.sleep(200);
        }
        fail("timed out after " + seconds + " s waiting for " + what);
    }

    static String call(int port, String... command) {
        try (Jedis j = new Jedis("127.0.0.1", port, 10_000)) {
            Object reply = j.sendCommand(() -> redis.clients.jedis.util.SafeEncoder.encode(command[0]),
                    java.util.Arrays.copyOfRange(command, 1, command.length));
            return reply instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8)
                    : String.valueOf(reply);
        }
    }

    /** Whether CLUSTER NODES on {@code port} lists {@code nodes} nodes, none in handshake, none failing. */
    static boolean sees(int port, int nodes) {
        String text = call(port, "CLUSTER", "NODES");
        return text.split("\n").length == nodes && !text.contains("handshake") && !text.contains("fail")
                && call(port, "CLUSTER", "INFO").contains("cluster_state:ok");
    }
}
