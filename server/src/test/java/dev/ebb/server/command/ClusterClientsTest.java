package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.cluster.HashSlots;
import dev.ebb.server.cluster.OneNodeCluster;
import dev.ebb.server.embedded.EbbExtension;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The cluster clients against Ebb in cluster mode: JedisCluster (discovers the topology with
 * CLUSTER SLOTS) and Lettuce's RedisClusterClient (CLUSTER NODES, RESP3 handshake) connect, route
 * everything to the one node, run multi-key commands and transactions on {@code {user:100}:*}
 * keys, and surface the server's CROSSSLOT for keys without a common tag.
 */
class ClusterClientsTest {
    private static final String CROSSSLOT = "CROSSSLOT Keys in request don't hash to the same slot";

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("cluster-enabled", "yes");

    private static ClientResources resources;
    private static RedisClusterClient lettuce;

    @BeforeAll
    static void startLettuce() {
        OneNodeCluster.ownEverySlot(ebb);
        resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(1).build();
        lettuce = RedisClusterClient.create(resources, RedisURI.create(ebb.host(), ebb.port()));
    }

    @AfterAll
    static void stopLettuce() {
        lettuce.shutdown(0, 1, TimeUnit.SECONDS);
        resources.shutdown(0, 1, TimeUnit.SECONDS);
    }

    private static JedisCluster jedisCluster() {
        return new JedisCluster(new HostAndPort(ebb.host(), ebb.port()));
    }

    @Test
    void jedisClusterShouldDiscoverOneNodeOwningEverySlot() {
        try (JedisCluster jc = jedisCluster()) {
            Map<String, ?> nodes = jc.getClusterNodes();

            assertEquals(List.of(ebb.host() + ":" + ebb.port()), List.copyOf(nodes.keySet()));
        }
    }

    @Test
    void jedisClusterShouldRunMultiKeyCommandsOnHashTaggedKeys() {
        try (JedisCluster jc = jedisCluster()) {
            assertEquals("OK", jc.mset("{user:100}:name", "ann", "{user:100}:email", "ann@example.com"));
            assertEquals(List.of("ann", "ann@example.com"), jc.mget("{user:100}:name", "{user:100}:email"));
            assertEquals("OK", jc.rename("{user:100}:email", "{user:100}:mail"));
            assertEquals(2L, jc.del("{user:100}:name", "{user:100}:mail"));
        }
    }

    @Test
    void jedisClusterShouldGetCrossslotFromTheServerForKeysWithoutACommonTag() {
        try (JedisCluster jc = jedisCluster()) {
            JedisDataException e = assertThrows(JedisDataException.class,
                    () -> jc.sendCommand("user:100:name".getBytes(StandardCharsets.UTF_8), Protocol.Command.MSET,
                            "user:100:name".getBytes(StandardCharsets.UTF_8), "a".getBytes(StandardCharsets.UTF_8),
                            "user:200:name".getBytes(StandardCharsets.UTF_8), "b".getBytes(StandardCharsets.UTF_8)));

            assertEquals(CROSSSLOT, e.getMessage());
            assertNull(jc.get("user:100:name"));
        }
    }

    @Test
    void jedisClusterTransactionOnTaggedKeysShouldRunAndOneAcrossSlotsShouldBeRefused() {
        try (JedisCluster jc = jedisCluster()) {
            int slot = HashSlots.slot("{user:100}".getBytes(StandardCharsets.UTF_8));
            try (Connection connection = jc.getConnectionFromSlot(slot)) {
                Transaction t = new Transaction(connection);
                t.set("{user:100}:visits", "1");
                t.incr("{user:100}:visits");
                t.get("{user:100}:visits");
                assertEquals(List.of("OK", 2L, "2"), t.exec());

                Transaction cross = new Transaction(connection);
                cross.set("{user:100}:visits", "10");
                cross.set("{user:200}:visits", "10");
                JedisDataException e = assertThrows(JedisDataException.class, cross::exec);
                assertEquals(CROSSSLOT, e.getMessage());
            }
            assertEquals("2", jc.get("{user:100}:visits"));
            assertNull(jc.get("{user:200}:visits"));
        }
    }

    @Test
    void lettuceClusterClientShouldSeeOneMasterWithEverySlot() {
        try (StatefulRedisClusterConnection<String, String> conn = lettuce.connect()) {
            List<RedisClusterNode> nodes = List.copyOf(conn.getPartitions().getPartitions());

            assertEquals(1, nodes.size());
            RedisClusterNode node = nodes.get(0);
            assertTrue(node.is(RedisClusterNode.NodeFlag.MASTER));
            assertEquals(HashSlots.SLOTS, node.getSlots().size());
            assertEquals(ebb.port(), node.getUri().getPort());
            assertEquals(node.getNodeId(), conn.sync().clusterMyId());
        }
    }

    @Test
    void lettuceClusterClientShouldRunCommandsOnHashTaggedKeysTogether() {
        try (StatefulRedisClusterConnection<String, String> conn = lettuce.connect()) {
            RedisAdvancedClusterCommands<String, String> r = conn.sync();
            Map<String, String> profile = new LinkedHashMap<>();
            profile.put("{user:100}:name", "ann");
            profile.put("{user:100}:city", "Oslo");

            assertEquals("OK", r.mset(profile));
            List<KeyValue<String, String>> values = r.mget("{user:100}:name", "{user:100}:city");
            assertEquals(List.of("ann", "Oslo"), values.stream().map(KeyValue::getValue).collect(Collectors.toList()));
            assertEquals(9308L, r.clusterKeyslot("{user:100}:name"));
            assertEquals(2L, r.clusterCountKeysInSlot(9308));
            assertEquals(1, r.clusterGetKeysInSlot(9308, 1).size());
        }
    }

    @Test
    void lettuceShouldGetCrossslotForAKeyPairWithoutACommonTag() {
        try (StatefulRedisClusterConnection<String, String> conn = lettuce.connect()) {
            RedisAdvancedClusterCommands<String, String> r = conn.sync();
            r.set("user:100:name", "ann");

            RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class,
                    () -> r.rename("user:100:name", "user:200:name"));

            assertEquals(CROSSSLOT, e.getMessage());
            assertEquals("ann", r.get("user:100:name"));
        }
    }

    @Test
    void lettuceTransactionOnTheNodeConnectionShouldRespectSlots() {
        try (StatefulRedisClusterConnection<String, String> conn = lettuce.connect()) {
            RedisClusterNode node = conn.getPartitions().getPartitions().iterator().next();
            RedisCommands<String, String> r = conn.getConnection(node.getNodeId()).sync();

            r.multi();
            r.set("{user:100}:a", "1");
            r.incr("{user:100}:b");
            TransactionResult ok = r.exec();
            assertEquals(List.of("OK", 1L), List.of(ok.get(0), ok.get(1)));

            r.multi();
            r.set("{user:100}:a", "2");
            r.set("{user:200}:a", "2");
            RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class, r::exec);
            assertEquals(CROSSSLOT, e.getMessage());
            assertEquals("1", r.get("{user:100}:a"));
        }
    }
}
