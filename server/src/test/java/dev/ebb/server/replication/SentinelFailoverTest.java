package dev.ebb.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.Main;
import dev.ebb.server.differential.ReferenceRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.masterreplica.MasterReplica;
import io.lettuce.core.masterreplica.StatefulRedisMasterReplicaConnection;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPoolConfig;
import redis.clients.jedis.JedisSentinelPool;

/**
 * Redis Sentinel (the reference redis-server 7.2.4 run with {@code --sentinel}) managing Ebb nodes, as the
 * replication issue asks: three sentinels, an Ebb primary and two Ebb replicas, each Ebb a JVM of its own so
 * that the primary can be killed with SIGKILL. After the kill a replica is promoted, the other follows it, the
 * restarted old primary is turned into a replica, every write acknowledged with {@code WAIT 1} before the kill
 * is on the new primary, and Jedis's {@link JedisSentinelPool} and Lettuce's master/replica client keep
 * working. Every wait polls a condition with a generous deadline; nothing sleeps for a fixed time.
 */
class SentinelFailoverTest {
    private static final String MASTER = "mymaster";
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();
    private final Map<Integer, Path> logs = new HashMap<>();

    @AfterEach
    void stopAll() {
        processes.forEach(Process::destroyForcibly);
    }

    @Test
    void sentinelsShouldPromoteAReplicaWhenThePrimaryIsKilled() throws Exception {
        Path redis = ReferenceRedis.binary();
        assumeTrue(Files.isExecutable(redis), "skipped: reference redis-server (for --sentinel) not found at " + redis);
        int[] ebb = {freePort(), freePort(), freePort()};
        Process primary = startEbb(ebb[0]);
        startEbb(ebb[1], "--replicaof", "127.0.0.1", String.valueOf(ebb[0]));
        startEbb(ebb[2], "--replicaof", "127.0.0.1", String.valueOf(ebb[0]));
        await("two replicas online at the primary", () -> info(ebb[0], "connected_slaves").equals("2")
                && info(ebb[1], "master_link_status").equals("up") && info(ebb[2], "master_link_status").equals("up"));

        int[] sentinels = {freePort(), freePort(), freePort()};
        for (int port : sentinels) {
            startSentinel(redis, port, ebb[0]);
        }
        for (int port : sentinels) {
            await("sentinel " + port + " to know both replicas and the other sentinels", () -> {
                Map<String, String> m = sentinelMaster(port);
                return "2".equals(m.get("num-slaves")) && "2".equals(m.get("num-other-sentinels"));
            });
        }

        Set<String> sentinelAddresses = Set.of("127.0.0.1:" + sentinels[0], "127.0.0.1:" + sentinels[1],
                "127.0.0.1:" + sentinels[2]);
        RedisClient lettuce = RedisClient.create();
        try (JedisSentinelPool pool = new JedisSentinelPool(MASTER, sentinelAddresses, new JedisPoolConfig(), 5000, null, 0);
                StatefulRedisMasterReplicaConnection<String, String> lettuceConn = MasterReplica.connect(lettuce,
                        StringCodec.UTF8, RedisURI.Builder.sentinel("127.0.0.1", sentinels[0], MASTER)
                                .withSentinel("127.0.0.1", sentinels[1]).withSentinel("127.0.0.1", sentinels[2]).build())) {
            lettuceConn.setReadFrom(ReadFrom.UPSTREAM);
            assertEquals(ebb[0], pool.getCurrentHostMaster().getPort());
            assertEquals("OK", lettuceConn.sync().set("lettuce-before", "1"));
            int acked = 0;
            try (Jedis j = pool.getResource()) {
                for (int i = 0; i < 2000; i++) {
                    j.set("k" + i, "v" + i);
                    if (i % 100 == 99) {
                        assertTrue(j.waitReplicas(1, 10_000) >= 1, "WAIT 1 before the kill");
                        acked = i + 1;
                    }
                }
            }

            primary.destroyForcibly().waitFor();

            int[] promoted = new int[1];
            await("a replica promoted by the sentinels", () -> {
                int port = masterPortSeenBy(sentinels[0]);
                promoted[0] = port;
                return port != ebb[0] && "master".equals(info(port, "role"));
            });
            int other = promoted[0] == ebb[1] ? ebb[2] : ebb[1];
            await("the other replica to follow the new primary", () -> info(other, "master_port").equals(
                    String.valueOf(promoted[0])) && info(other, "master_link_status").equals("up"));
            try (Jedis j = new Jedis("127.0.0.1", promoted[0])) {
                for (int i = 0; i < acked; i++) {
                    assertEquals("v" + i, j.get("k" + i), "acknowledged write k" + i + " after the failover");
                }
            }

            startEbb(ebb[0]);
            await("the old primary to rejoin as a replica of the new one", () -> "slave".equals(info(ebb[0], "role"))
                    && info(ebb[0], "master_port").equals(String.valueOf(promoted[0]))
                    && info(ebb[0], "master_link_status").equals("up"));

            await("JedisSentinelPool to write to the new primary", () -> {
                try (Jedis j = pool.getResource()) {
                    return pool.getCurrentHostMaster().getPort() == promoted[0] && "OK".equals(j.set("jedis-after", "1"));
                } catch (RuntimeException notYet) {
                    return false;
                }
            });
            await("Lettuce's sentinel client to write to the new primary", () -> {
                try {
                    return "OK".equals(lettuceConn.sync().set("lettuce-after", "1"));
                } catch (RuntimeException notYet) {
                    return false;
                }
            });
            try (Jedis j = new Jedis("127.0.0.1", promoted[0])) {
                assertEquals("1", j.get("jedis-after"));
                assertEquals("1", j.get("lettuce-after"));
                assertEquals("1", j.get("lettuce-before"));
            }
            assertNotEquals(ebb[0], promoted[0]);
        } finally {
            lettuce.shutdown();
        }
    }

    private Process startEbb(int port, String... args) throws IOException, InterruptedException {
        Path nodeDir = dir.resolve("ebb-" + port);
        Files.createDirectories(nodeDir);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(Main.class.getName());
        command.addAll(List.of("--port", String.valueOf(port), "--bind", "127.0.0.1", "--dir", nodeDir.toString(),
                "--save", "", "--repl-diskless-sync", "no"));
        command.addAll(List.of(args));
        Path log = nodeDir.resolve("ebb-" + System.nanoTime() + ".log");
        logs.put(port, log);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        await("Ebb on port " + port + " to answer PING", () -> {
            try (Jedis j = new Jedis("127.0.0.1", port)) {
                return "PONG".equals(j.ping());
            } catch (RuntimeException notYet) {
                return false;
            }
        });
        return p;
    }

    private void startSentinel(Path redis, int port, int primaryPort) throws IOException {
        Path conf = dir.resolve("sentinel-" + port + ".conf");
        Files.writeString(conf, String.join("\n",
                "port " + port,
                "bind 127.0.0.1",
                "dir " + dir,
                "sentinel monitor " + MASTER + " 127.0.0.1 " + primaryPort + " 2",
                "sentinel down-after-milliseconds " + MASTER + " 3000",
                "sentinel failover-timeout " + MASTER + " 20000",
                "sentinel parallel-syncs " + MASTER + " 1",
                ""), StandardCharsets.UTF_8);
        Path log = dir.resolve("sentinel-" + port + ".log");
        logs.put(port, log);
        processes.add(new ProcessBuilder(redis.toString(), conf.toString(), "--sentinel").redirectErrorStream(true)
                .redirectOutput(log.toFile()).start());
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    /** A field of the node's INFO, or "" when the node does not answer or lacks the field. */
    private static String info(int port, String field) {
        try (Jedis j = new Jedis(new HostAndPort("127.0.0.1", port),
                DefaultJedisClientConfig.builder().socketTimeoutMillis(2000).connectionTimeoutMillis(2000).build())) {
            for (String line : j.info("replication").split("\r\n")) {
                if (line.startsWith(field + ":")) {
                    return line.substring(field.length() + 1);
                }
            }
            return "";
        } catch (RuntimeException down) {
            return "";
        }
    }

    private static Map<String, String> sentinelMaster(int sentinelPort) {
        try (Jedis j = new Jedis("127.0.0.1", sentinelPort)) {
            return j.sentinelMaster(MASTER).entrySet().stream().collect(
                    java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> String.valueOf(e.getValue())));
        } catch (RuntimeException notYet) {
            return Map.of();
        }
    }

    private static int masterPortSeenBy(int sentinelPort) {
        try (Jedis j = new Jedis("127.0.0.1", sentinelPort)) {
            return Integer.parseInt(j.sentinelGetMasterAddrByName(MASTER).get(1));
        } catch (RuntimeException notYet) {
            return -1;
        }
    }

    private void await(String what, Supplier<Boolean> condition) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + "\n" + logTails());
            }
            Thread.sleep(100);
        }
    }

    private String logTails() {
        StringBuilder sb = new StringBuilder();
        logs.forEach((port, log) -> {
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
                sb.append("--- ").append(log.getFileName()).append('\n');
                lines.subList(Math.max(0, lines.size() - 15), lines.size()).forEach(l -> sb.append(l).append('\n'));
            } catch (IOException gone) {
                sb.append("--- ").append(log).append(": ").append(gone).append('\n');
            }
        });
        return sb.toString();
    }
}
