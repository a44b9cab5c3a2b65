package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ebb.server.EbbServer;
import dev.ebb.server.Main;
import dev.ebb.server.config.ConfigException;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.differential.ReferenceRedis;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import redis.clients.jedis.Jedis;

/**
 * Helpers of the multi-node cluster tests: free ports, Ebb nodes started in-process or in child
 * JVMs, reference redis-server nodes, waiting, and the checks they share.
 */
final class ClusterNodes {
    /** How long a {@code redis-cli --cluster} run may take on a busy machine. */
    static final Duration SLOW = Duration.ofMinutes(5);

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
     * Starts an Ebb node in-process for each entry of {@code nodes} (its port into {@code ports}, its
     * dir a new temporary one), gives the first {@code primaries} an even share of the 16384 slots, and
     * has the first node meet the others; {@link #awaitHealthy} then waits for them to agree.
     */
    static void startAndMeet(EbbServer[] nodes, int[] ports, int primaries, long nodeTimeout) throws IOException {
        for (int i = 0; i < nodes.length; i++) {
            ports[i] = freePortWithBusPort();
            nodes[i] = startEbb(ports[i], Files.createTempDirectory("ebb-cluster-" + i + "-"), nodeTimeout);
        }
        for (int i = 0; i < primaries; i++) {
            call(ports[i], "CLUSTER", "ADDSLOTSRANGE", String.valueOf(16384 * i / primaries),
                    String.valueOf(16384 * (i + 1) / primaries - 1));
        }
        for (int i = 1; i < nodes.length; i++) {
            call(ports[0], "CLUSTER", "MEET", "127.0.0.1", String.valueOf(ports[i]));
        }
    }

    /** Waits until every node of {@code ports} sees them all, none failing, and the cluster ok. */
    static void awaitHealthy(int[] ports) throws InterruptedException {
        for (int port : ports) {
            await("node " + port + " to see a healthy " + ports.length + "-node cluster", 120,
                    () -> sees(port, ports.length));
        }
    }

    /**
     * {@code redis-cli --cluster create} of the six nodes of {@code ports} with one replica each: on
     * one host redis-cli makes the first three the primaries.
     */
    static void createThreeByThree(int[] ports) {
        RedisCli.Result create = RedisCli.against(ports[0]).runWithInput(null, SLOW, "--cluster", "create",
                addr(ports[0]), addr(ports[1]), addr(ports[2]), addr(ports[3]), addr(ports[4]), addr(ports[5]),
                "--cluster-replicas", "1", "--cluster-yes");
        assertEquals(0, create.exitCode(), create::describe);
    }

    /** Waits until each replica (nodes 3-5 of {@code ports}) has its replication link up. */
    static void awaitReplicasLinked(int[] ports) throws InterruptedException {
        for (int i = 3; i < 6; i++) {
            int port = ports[i];
            await("node " + port + " to sync from its primary", 120,
                    () -> call(port, "INFO", "replication").contains("master_link_status:up"));
        }
    }

    /**
     * In a {@link #createThreeByThree} cluster: {primary, replica}, the indexes in {@code ports} of the
     * primary serving slot 0 (0-2) and of its replica (3-5).
     */
    static int[] slot0PrimaryAndReplica(int[] ports) {
        String owner = slot0Owner(ports[3]);
        int primary = -1;
        int replica = -1;
        for (int i = 0; i < 6; i++) {
            if (i < 3 && call(ports[i], "CLUSTER", "MYID").equals(owner)) {
                primary = i;
            } else if (i >= 3 && isReplicaOf(ports[i], owner)) {
                replica = i;
            }
        }
        assertTrue(primary >= 0 && replica >= 0, "slot 0's primary and its replica");
        return new int[] {primary, replica};
    }

    /** Skips the test (naming it {@code test}) when redis-cli is not installed. */
    static void requireRedisCli(String test) {
        Assumptions.assumeTrue(new File("/usr/bin/redis-cli").canExecute() || System.getenv("REDIS_CLI") != null,
                "redis-cli is not installed (apt-get install redis-tools): skipping the " + test);
    }

    /**
     * A reference redis-server 7.2.4 cluster node with a free bus port and {@code nodeTimeout}; skips
     * the test (with the reason) where redis-cli or the reference binary cannot run.
     */
    static ReferenceRedis startRedisOrSkip(long nodeTimeout) throws IOException {
        requireRedisCli("mixed cluster test");
        int bus;
        try (ServerSocket s = new ServerSocket(0)) {
            bus = s.getLocalPort();
        }
        ReferenceRedis redis = ReferenceRedis.startOrNull("--cluster-enabled", "yes", "--cluster-port",
                String.valueOf(bus), "--cluster-node-timeout", String.valueOf(nodeTimeout));
        Assumptions.assumeTrue(redis != null, () -> "reference redis-server cannot run: " + ReferenceRedis.unavailableReason);
        return redis;
    }

    /**
     * In-process Ebb nodes for a {@code redis-cli --cluster} test, one per slot of {@code nodes}, on free
     * ports (with free bus ports) and temporary dirs named {@code prefix}-i-; skips the test (naming it
     * {@code test}) when redis-cli is not installed.
     */
    static void startForCli(EbbServer[] nodes, int[] ports, Path[] dirs, String prefix, long nodeTimeout,
            String test) throws IOException {
        requireRedisCli(test);
        for (int i = 0; i < nodes.length; i++) {
            ports[i] = freePortWithBusPort();
            dirs[i] = Files.createTempDirectory(prefix + "-" + i + "-");
            nodes[i] = startEbb(ports[i], dirs[i], nodeTimeout);
        }
    }

    /** Closes every node not null (an Ebb server or a reference redis-server). */
    static void closeAll(AutoCloseable[] nodes) {
        for (AutoCloseable n : nodes) {
            if (n != null) {
                try {
                    n.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /**
     * The nodes of a mixed cluster: three reference redis-servers and three in-process Ebb nodes
     * (their dirs into {@code ebbDirs}), the redis-servers' ports first in {@code ports} if
     * {@code redisFirst}, the Ebb nodes' otherwise. Skips the test where redis-server cannot run.
     */
    static void startMixed(ReferenceRedis[] redis, EbbServer[] ebb, Path[] ebbDirs, int[] ports, boolean redisFirst,
            long nodeTimeout) throws IOException {
        int redisAt = redisFirst ? 0 : 3;
        int ebbAt = redisFirst ? 3 : 0;
        for (int i = 0; i < 3; i++) {
            redis[i] = startRedisOrSkip(nodeTimeout);
            ports[redisAt + i] = redis[i].port();
        }
        for (int i = 0; i < 3; i++) {
            ports[ebbAt + i] = freePortWithBusPort();
            ebbDirs[i] = Files.createTempDirectory("ebb-mixed-" + i + "-");
            ebb[i] = startEbb(ports[ebbAt + i], ebbDirs[i], nodeTimeout);
        }
    }

    static String addr(int port) {
        return "127.0.0.1:" + port;
    }

    /** {@code redis-cli --cluster check} from {@code port}: every node agrees and every slot is covered. */
    static void assertCheckClean(int port) {
        RedisCli.Result check = RedisCli.against(port).runWithInput(null, SLOW, "--cluster", "check", addr(port));
        assertTrue(check.stdout().contains("[OK] All nodes agree about slots configuration."), check::describe);
        assertTrue(check.stdout().contains("[OK] All 16384 slots covered."), check::describe);
    }

    /** Whether the node on {@code port} is a replica of {@code masterId} with its link up. */
    static boolean isReplicaOf(int port, String masterId) {
        return call(port, "CLUSTER", "NODES").contains("myself,slave " + masterId)
                && call(port, "INFO", "replication").contains("master_link_status:up");
    }

    /** The id of the node serving slot 0, as CLUSTER NODES on {@code port} shows it; null if none. */
    static String slot0Owner(int port) {
        for (String line : call(port, "CLUSTER", "NODES").split("\n")) {
            String[] f = line.split(" ");
            if (f.length > 8 && f[8].startsWith("0-")) {
                return f[0];
            }
        }
        return null;
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
