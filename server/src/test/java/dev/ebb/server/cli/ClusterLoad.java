package dev.ebb.server.cli;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.ClusterPipeline;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Response;

/**
 * A read/write load on a cluster: one thread drives {@code JedisCluster}, another Lettuce's
 * {@code RedisClusterClient} (adaptive and periodic topology refresh, so it follows MOVED and
 * failovers). Each SETs keys {@code <client>:{n}} for n cycling over {@link #KEYS}, so the keys
 * cover every slot, and GETs each one back. An acknowledged write is recorded as the key's last
 * acknowledged value; a failed one is retried until acknowledged (or the load stops), its value
 * meanwhile recorded as unconfirmed (it may or may not have been applied), in a {@link Record}
 * that successive loads can share. Errors are counted, never thrown.
 */
final class ClusterLoad implements AutoCloseable {
    /** Distinct key numbers per client. */
    static final int KEYS = 20_000;
    private static final AtomicInteger generations = new AtomicInteger();

    private final Record record;
    private final String generation = "g" + generations.incrementAndGet();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Writer> writers = new ArrayList<>();
    private final JedisCluster jedis;
    private final ClientResources resources;
    private final RedisClusterClient lettuce;
    private final StatefulRedisClusterConnection<String, String> lettuceConnection;

    /** One client's view of the cluster: how it writes a key and reads it back. */
    private record Kv(BiConsumer<String, String> writes, UnaryOperator<String> reads) {
        void set(String key, String value) {
            writes.accept(key, value);
        }

        String get(String key) {
            return reads.apply(key);
        }
    }

    /** What the loads wrote, kept across loads: what a key must hold once they stopped. */
    static final class Record {
        /** Last acknowledged value per key. */
        private final Map<String, String> acknowledged = new ConcurrentHashMap<>();
        /** Values written after the key's last acknowledged one whose SET failed (applied or not). */
        private final Map<String, Set<String>> unconfirmed = new ConcurrentHashMap<>();

        int keys() {
            return acknowledged.size();
        }

        /**
         * Read through the cluster node on {@code port}: the keys holding neither their last
         * acknowledged value nor a later unconfirmed one, each described with both values.
         */
        List<String> lost(int port) {
            List<String> lost = new ArrayList<>();
            try (JedisCluster jc = new JedisCluster(new HostAndPort("127.0.0.1", port), 10_000, 10_000, 5,
                    new GenericObjectPoolConfig<>())) {
                Map<String, Response<String>> replies = new HashMap<>();
                try (ClusterPipeline p = jc.pipelined()) {
                    for (String key : acknowledged.keySet()) {
                        replies.put(key, p.get(key));
                    }
                    p.sync();
                }
                replies.forEach((key, reply) -> {
                    String stored = reply.get();
                    if (!acknowledged.get(key).equals(stored)
                            && !unconfirmed.getOrDefault(key, Set.of()).contains(stored)) {
                        lost.add(key + "=" + stored + " (acknowledged " + acknowledged.get(key) + ")");
                    }
                });
            }
            return lost;
        }
    }

    /** What one client thread did so far. */
    static final class Writer {
        final String name;
        final AtomicLong acked = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        /** GETs right after an acknowledged SET that returned something else. */
        final AtomicLong staleReads = new AtomicLong();
        volatile String lastError = "none";
        private final Thread thread;

        private Writer(String name, Runnable body) {
            this.name = name;
            this.thread = new Thread(body, "cluster-load-" + name);
        }

        @Override
        public String toString() {
            return name + ": " + acked.get() + " acknowledged writes, " + errors.get() + " errors (last: " + lastError
                    + "), " + staleReads.get() + " stale reads";
        }
    }

    private ClusterLoad(int[] seeds, Record record) {
        this.record = record;
        Set<HostAndPort> jedisSeeds = new java.util.HashSet<>();
        List<RedisURI> lettuceSeeds = new ArrayList<>();
        for (int port : seeds) {
            jedisSeeds.add(new HostAndPort("127.0.0.1", port));
            lettuceSeeds.add(RedisURI.builder().withHost("127.0.0.1").withPort(port)
                    .withTimeout(Duration.ofSeconds(5)).build());
        }
        jedis = new JedisCluster(jedisSeeds, 2000, 2000, 5, new GenericObjectPoolConfig<>());
        resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(1).build();
        lettuce = RedisClusterClient.create(resources, lettuceSeeds);
        lettuce.setOptions(ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .enablePeriodicRefresh(Duration.ofSeconds(2))
                        .build())
                .socketOptions(SocketOptions.builder().connectTimeout(Duration.ofSeconds(2)).build())
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build());
        lettuceConnection = lettuce.connect();
        RedisAdvancedClusterCommands<String, String> sync = lettuceConnection.sync();
        writers.add(writer("jedis", new Kv(jedis::set, jedis::get)));
        writers.add(writer("lettuce", new Kv(sync::set, sync::get)));
    }

    /** Starts both client threads against the cluster reachable through {@code seeds}, writing to {@code record}. */
    static ClusterLoad start(int[] seeds, Record record) {
        ClusterLoad load = new ClusterLoad(seeds, record);
        load.writers.forEach(w -> w.thread.start());
        return load;
    }

    List<Writer> writers() {
        return writers;
    }

    /** Acknowledged writes per client so far, in {@link #writers()} order. */
    long[] progress() {
        return writers.stream().mapToLong(w -> w.acked.get()).toArray();
    }

    /** Waits (120 s at most) until each client acknowledged {@code more} writes beyond {@code from}. */
    void awaitProgress(String what, long[] from, long more) throws InterruptedException {
        for (int c = 0; c < from.length; c++) {
            Writer w = writers.get(c);
            long target = from[c] + more;
            ClusterNodes.await(w.name + " to make " + more + " more acknowledged writes " + what + " (" + w + ")", 120,
                    () -> w.acked.get() >= target);
        }
    }

    private Writer writer(String name, Kv kv) {
        Writer[] self = new Writer[1];
        self[0] = new Writer(name, () -> {
            try {
                for (long i = 0; !stop.get(); i++) {
                    String key = name + ":{" + (i % KEYS) + "}";
                    String value = generation + ":" + i;
                    if (writeUntilAcknowledged(self[0], kv, key, value)) {
                        readBack(self[0], kv, key, value);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return self[0];
    }

    private boolean writeUntilAcknowledged(Writer w, Kv kv, String key, String value) throws InterruptedException {
        while (!stop.get()) {
            try {
                kv.set(key, value);
                record.acknowledged.put(key, value);
                record.unconfirmed.remove(key);
                w.acked.incrementAndGet();
                return true;
            } catch (RuntimeException e) {
                failed(w, e);
                record.unconfirmed.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(value);
                Thread.sleep(50);
            }
        }
        return false;
    }

    private static void readBack(Writer w, Kv kv, String key, String value) throws InterruptedException {
        try {
            if (!value.equals(kv.get(key))) {
                w.staleReads.incrementAndGet();
            }
        } catch (RuntimeException e) {
            failed(w, e);
            Thread.sleep(50);
        }
    }

    private static void failed(Writer w, RuntimeException e) {
        w.errors.incrementAndGet();
        w.lastError = e.toString();
    }

    /** Stops both threads and closes the clients. */
    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Writer w : writers) {
            w.thread.join(60_000);
        }
        jedis.close();
        lettuceConnection.close();
        lettuce.shutdown(0, 2, TimeUnit.SECONDS);
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
