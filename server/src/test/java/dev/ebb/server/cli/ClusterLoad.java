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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;

/**
 * A read/write load on a cluster: one thread drives {@code JedisCluster}, another Lettuce's
 * {@code RedisClusterClient} (adaptive and periodic topology refresh, so it follows MOVED and
 * failovers). Each SETs keys {@code <client>:{n}} for n cycling over {@link #KEYS}, so the keys
 * cover every slot, and GETs each one back. An acknowledged write is recorded as the key's last
 * acknowledged value; a failed one is retried until acknowledged (or the load stops), its value
 * meanwhile recorded as unconfirmed (it may or may not have been applied). Errors are counted,
 * never thrown. Both maps outlive the load, so successive loads extend one record.
 */
final class ClusterLoad implements AutoCloseable {
    /** Distinct key numbers per client. */
    static final int KEYS = 20_000;
    private static final AtomicInteger generations = new AtomicInteger();

    /** Last acknowledged value per key. */
    private final Map<String, String> acknowledged;
    /** Values written after the key's last acknowledged one whose SET failed (applied or not). */
    private final Map<String, Set<String>> unconfirmed;
    private final String generation = "g" + generations.incrementAndGet();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Writer> writers = new ArrayList<>();
    private final JedisCluster jedis;
    private final ClientResources resources;
    private final RedisClusterClient lettuce;
    private final StatefulRedisClusterConnection<String, String> lettuceConnection;

    /** One client's view of the cluster. */
    private interface Kv {
        void set(String key, String value);

        String get(String key);
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

    private ClusterLoad(int[] seeds, Map<String, String> acknowledged, Map<String, Set<String>> unconfirmed) {
        this.acknowledged = acknowledged;
        this.unconfirmed = unconfirmed;
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
        writers.add(writer("jedis", new Kv() {
            @Override
            public void set(String key, String value) {
                jedis.set(key, value);
            }

            @Override
            public String get(String key) {
                return jedis.get(key);
            }
        }));
        writers.add(writer("lettuce", new Kv() {
            @Override
            public void set(String key, String value) {
                sync.set(key, value);
            }

            @Override
            public String get(String key) {
                return sync.get(key);
            }
        }));
    }

    /** Starts both client threads against the cluster reachable through {@code seeds}. */
    static ClusterLoad start(int[] seeds, Map<String, String> acknowledged, Map<String, Set<String>> unconfirmed) {
        ClusterLoad load = new ClusterLoad(seeds, acknowledged, unconfirmed);
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
                acknowledged.put(key, value);
                unconfirmed.remove(key);
                w.acked.incrementAndGet();
                return true;
            } catch (RuntimeException e) {
                failed(w, e);
                unconfirmed.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(value);
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
