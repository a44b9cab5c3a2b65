package dev.ebb.server.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;

/** Subscribe and publish through Jedis (RESP2) and Lettuce (RESP3 pushes, and RESP2). */
class PubSubClientsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    static final ClientResources LETTUCE = DefaultClientResources.builder()
            .ioThreadPoolSize(1).computationThreadPoolSize(1).build();

    @AfterAll
    static void stopLettuce() {
        LETTUCE.shutdown(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void jedisShouldReceiveChannelAndPatternMessages() throws Exception {
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        CountDownLatch subscribed = new CountDownLatch(2);
        JedisPubSub listener = new JedisPubSub() {
            @Override
            public void onMessage(String channel, String message) {
                received.add(channel + "=" + message);
            }

            @Override
            public void onPMessage(String pattern, String channel, String message) {
                received.add(pattern + ":" + channel + "=" + message);
                if (message.equals("bye")) {
                    punsubscribe();
                    unsubscribe();
                }
            }

            @Override
            public void onSubscribe(String channel, int count) {
                subscribed.countDown();
            }

            @Override
            public void onPSubscribe(String pattern, int count) {
                subscribed.countDown();
            }
        };
        try (Jedis sub = new Jedis(ebb.host(), ebb.port()); Jedis pub = new Jedis(ebb.host(), ebb.port())) {
            Thread t = new Thread(() -> sub.subscribe(listener, "orders"));
            t.start();
            while (!listener.isSubscribed()) {
                Thread.sleep(5);
            }
            listener.psubscribe("ord*");
            assertTrue(subscribed.await(5, TimeUnit.SECONDS));

            assertEquals(2, pub.publish("orders", "o1"));
            assertEquals(1, pub.publish("ordinal", "bye"));

            assertEquals("orders=o1", received.poll(5, TimeUnit.SECONDS));
            assertEquals("ord*:orders=o1", received.poll(5, TimeUnit.SECONDS));
            assertEquals("ord*:ordinal=bye", received.poll(5, TimeUnit.SECONDS));
            t.join(5000);
            assertEquals(0, pub.publish("orders", "after"));
            assertEquals("PONG", sub.ping());
        }
    }

    @Test
    void lettuceResp3ShouldReceivePushMessagesAndKeepRunningCommands() throws Exception {
        lettuceRoundTrip(ProtocolVersion.RESP3);
    }

    @Test
    void lettuceResp2ShouldReceiveMessages() throws Exception {
        lettuceRoundTrip(ProtocolVersion.RESP2);
    }

    private void lettuceRoundTrip(ProtocolVersion protocol) throws Exception {
        RedisClient client = RedisClient.create(LETTUCE, RedisURI.create(ebb.host(), ebb.port()));
        client.setOptions(ClientOptions.builder().protocolVersion(protocol).build());
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        try (StatefulRedisPubSubConnection<String, String> sub = client.connectPubSub();
                StatefulRedisConnection<String, String> pub = client.connect()) {
            sub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    received.add(channel + "=" + message);
                }

                @Override
                public void message(String pattern, String channel, String message) {
                    received.add(pattern + ":" + channel + "=" + message);
                }
            });
            sub.sync().subscribe("c1", "c2");
            sub.sync().psubscribe("c*");

            assertEquals(2L, pub.sync().publish("c1", "m1"));
            assertEquals(1L, pub.sync().publish("cx", "m2"));
            List<String> got = List.of(received.poll(5, TimeUnit.SECONDS), received.poll(5, TimeUnit.SECONDS),
                    received.poll(5, TimeUnit.SECONDS));
            assertTrue(got.contains("c1=m1") && got.contains("c*:c1=m1") && got.contains("c*:cx=m2"), got.toString());
            assertEquals(2L, (long) pub.sync().pubsubNumsub("c1", "c2").values().stream().mapToLong(Long::longValue)
                    .sum());
            if (protocol == ProtocolVersion.RESP3) {
                assertEquals("PONG", sub.sync().ping());
                sub.sync().unsubscribe("c1");
                assertEquals(1L, pub.sync().publish("c1", "m3"));
                assertEquals("c*:c1=m3", received.poll(5, TimeUnit.SECONDS));
            }
        } finally {
            client.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }
}
