package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.Consumer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.PendingEntry;
import org.redisson.api.PendingResult;
import org.redisson.api.RStream;
import org.redisson.api.RedissonClient;
import org.redisson.api.StreamConsumer;
import org.redisson.api.StreamGroup;
import org.redisson.api.StreamInfo;
import org.redisson.api.StreamMessageId;
import org.redisson.api.stream.StreamAddArgs;
import org.redisson.api.stream.StreamCreateGroupArgs;
import org.redisson.api.stream.StreamReadGroupArgs;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamEntry;

/**
 * The stream type through the clients queues are built with: Lettuce's XREADGROUP with BLOCK over
 * RESP2 and RESP3 woken by an XADD, Jedis's blocking XREADGROUP loop, and Redisson's RStream
 * (add, read group, ack, pending, claim, info).
 */
class StreamClientsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static ClientResources resources;
    private static RedisClient lettuce;
    private static RedissonClient redisson;

    @BeforeAll
    static void connect() {
        resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(1).build();
        lettuce = RedisClient.create(resources, RedisURI.create(ebb.host(), ebb.port()));
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + ebb.host() + ":" + ebb.port())
                .setConnectionMinimumIdleSize(2).setConnectionPoolSize(6)
                .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(2);
        config.setCodec(StringCodec.INSTANCE);
        redisson = Redisson.create(config);
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown(0, 2, TimeUnit.SECONDS);
        lettuce.shutdown(0, 1, TimeUnit.SECONDS);
        resources.shutdown(0, 1, TimeUnit.SECONDS);
    }

    private static void lettuceBlockingReadGroup(ProtocolVersion protocol, String key) throws Exception {
        lettuce.setOptions(ClientOptions.builder().protocolVersion(protocol).build());
        try (StatefulRedisConnection<String, String> waiterConn = lettuce.connect();
                StatefulRedisConnection<String, String> producerConn = lettuce.connect()) {
            RedisCommands<String, String> producer = producerConn.sync();
            producer.xgroupCreate(XReadArgs.StreamOffset.from(key, "$"), "workers", XGroupCreateArgs.Builder.mkstream());

            CompletableFuture<List<StreamMessage<String, String>>> read = waiterConn.async()
                    .xreadgroup(Consumer.from("workers", "w1"), XReadArgs.Builder.block(Duration.ZERO).count(10),
                            XReadArgs.StreamOffset.lastConsumed(key)).toCompletableFuture();
            ListBlockingTest.awaitBlocked(ebb, 1);
            String id = producer.xadd(key, Map.of("job", "42"));

            List<StreamMessage<String, String>> messages = read.get(30, TimeUnit.SECONDS);
            assertEquals(1, messages.size());
            assertEquals(id, messages.get(0).getId());
            assertEquals(Map.of("job", "42"), messages.get(0).getBody());
            assertEquals(1L, producer.xack(key, "workers", id));
            assertEquals(0L, producer.xpending(key, "workers").getCount());
        }
    }

    @Test
    void lettuceXreadgroupBlockShouldBeWokenByXaddOverResp2() throws Exception {
        lettuceBlockingReadGroup(ProtocolVersion.RESP2, "lettuce2");
    }

    @Test
    void lettuceXreadgroupBlockShouldBeWokenByXaddOverResp3() throws Exception {
        lettuceBlockingReadGroup(ProtocolVersion.RESP3, "lettuce3");
    }

    @Test
    void jedisBlockingConsumerLoopShouldReceiveAndAcknowledgeEveryEntry() throws Exception {
        try (Jedis consumer = new Jedis(ebb.host(), ebb.port()); Jedis producer = new Jedis(ebb.host(), ebb.port())) {
            producer.xgroupCreate("jobs", "g", StreamEntryID.XGROUP_LAST_ENTRY, true);
            CompletableFuture<Integer> loop = CompletableFuture.supplyAsync(() -> {
                int received = 0;
                while (received < 20) {
                    List<Map.Entry<String, List<StreamEntry>>> batch = consumer.xreadGroup("g", "c",
                            XReadGroupParams.xReadGroupParams().count(5).block(0),
                            Map.of("jobs", StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
                    for (StreamEntry e : batch.get(0).getValue()) {
                        consumer.xack("jobs", "g", e.getID());
                        received++;
                    }
                }
                return received;
            });
            for (int i = 0; i < 20; i++) {
                producer.xadd("jobs", StreamEntryID.NEW_ENTRY, Map.of("n", Integer.toString(i)));
            }

            assertEquals(20, loop.get(30, TimeUnit.SECONDS));
            assertEquals(0L, producer.xpending("jobs", "g").getTotal());
            assertEquals(20L, producer.xlen("jobs"));
        }
    }

    @Test
    void redissonStreamShouldAddReadAckClaimAndDescribe() {
        RStream<String, String> stream = redisson.getStream("orders");
        stream.createGroup(StreamCreateGroupArgs.name("billing").makeStream());
        StreamMessageId first = stream.add(StreamAddArgs.entry("order", "1"));
        StreamMessageId second = stream.add(StreamAddArgs.entry("order", "2"));

        Map<StreamMessageId, Map<String, String>> read = stream.readGroup("billing", "alice",
                StreamReadGroupArgs.neverDelivered().count(10));
        assertEquals(Map.of(first, Map.of("order", "1"), second, Map.of("order", "2")), read);
        assertEquals(1L, stream.ack("billing", first));

        PendingResult summary = stream.getPendingInfo("billing");
        assertEquals(1L, summary.getTotal());
        assertEquals(second, summary.getLowestId());
        assertEquals(Map.of("alice", 1L), summary.getConsumerNames());
        List<PendingEntry> pending = stream.listPending("billing", StreamMessageId.MIN, StreamMessageId.MAX, 10);
        assertEquals(1, pending.size());
        assertEquals("alice", pending.get(0).getConsumerName());
        assertEquals(1L, pending.get(0).getLastTimeDelivered());

        Map<StreamMessageId, Map<String, String>> claimed = stream.claim("billing", "bob", 0, TimeUnit.MILLISECONDS,
                second);
        assertEquals(Map.of(second, Map.of("order", "2")), claimed);

        StreamInfo<String, String> info = stream.getInfo();
        assertEquals(2, info.getLength());
        assertEquals(1, info.getGroups());
        assertEquals(first, info.getFirstEntry().getId());
        assertEquals(second, info.getLastEntry().getId());
        List<StreamGroup> groups = stream.listGroups();
        assertEquals("billing", groups.get(0).getName());
        assertEquals(2, groups.get(0).getConsumers());
        assertEquals(1, groups.get(0).getPending());
        List<StreamConsumer> consumers = stream.listConsumers("billing");
        assertEquals(List.of("alice", "bob"), consumers.stream().map(StreamConsumer::getName).toList());
        assertTrue(consumers.get(1).getPending() == 1);
    }
}
