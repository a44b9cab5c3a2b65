package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ConfigException;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.differential.ReferenceRedis;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import redis.clients.jedis.Jedis;

/**
 * Helpers of the multi-node cluster tests: free ports, Ebb nodes started in-process, reference
 * redis-server nodes, waiting, and the checks they share.
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
     * A reference redis-server 7.2.4 cluster node with a free bus port and {@code nodeTimeout}; skips
     * the test (with the reason) where redis-cli or the reference binary cannot run.
     */
    static ReferenceRedis startRedisOrSkip(long nodeTimeout) throws IOException {
        Assumptions.assumeTrue(new java.io.File("/usr/bin/redis-cli").canExecute() || System.getenv("REDIS_CLI") != null,
                "redis-cli is not installed (apt-get install redis-tools): skipping the mixed cluster test");
        int bus;
        try (ServerSocket s = new ServerSocket(0)) {
            bus = s.getLocalPort();
        }
        ReferenceRedis redis = ReferenceRedis.startOrNull("--cluster-enabled", "yes", "--cluster-port",
                String.valueOf(bus), "--cluster-node-timeout", String.valueOf(nodeTimeout));
        Assumptions.assumeTrue(redis != null, () -> "reference redis-server cannot run: " + ReferenceRedis.unavailableReason);
        return redis;
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
