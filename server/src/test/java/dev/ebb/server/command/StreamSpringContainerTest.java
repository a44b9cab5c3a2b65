package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.PendingMessagesSummary;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.RecordId;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.stream.StreamMessageListenerContainer;
import org.springframework.data.redis.stream.StreamMessageListenerContainer.StreamMessageListenerContainerOptions;

/**
 * Spring Data Redis's {@code StreamMessageListenerContainer} with a consumer group, the way
 * Spring applications consume streams: messages are delivered to the listener and acknowledged;
 * a consumer that "crashes" (its container stops before it acknowledges) leaves its entries
 * pending, and a second consumer claims them with XCLAIM and acknowledges them.
 */
class StreamSpringContainerTest {
    private static final long WAIT_MS = 30_000;

    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension();

    private static StreamMessageListenerContainer<String, MapRecord<String, String, String>> container(
            LettuceConnectionFactory factory) {
        StreamMessageListenerContainerOptions<String, MapRecord<String, String, String>> options =
                StreamMessageListenerContainerOptions.builder().pollTimeout(Duration.ofMillis(100)).batchSize(10)
                        .build();
        return StreamMessageListenerContainer.create(factory, options);
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void containerShouldDeliverAcknowledgeAndLetAnotherConsumerClaimACrashedOnesEntries() throws Exception {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(ebb.host(), ebb.port()));
        factory.afterPropertiesSet();
        factory.start();
        try {
            StringRedisTemplate template = new StringRedisTemplate(factory);
            template.afterPropertiesSet();
            template.opsForStream().add("events", Map.of("seq", "0"));
            template.opsForStream().createGroup("events", ReadOffset.from("0-0"), "billing");

            List<String> delivered = new CopyOnWriteArrayList<>();
            var healthy = container(factory);
            healthy.receive(Consumer.from("billing", "alice"), StreamOffset.create("events", ReadOffset.lastConsumed()),
                    message -> {
                        delivered.add(message.getValue().get("seq"));
                        template.opsForStream().acknowledge("billing", message);
                    });
            healthy.start();
            for (int i = 1; i <= 5; i++) {
                template.opsForStream().add("events", Map.of("seq", Integer.toString(i)));
            }
            await(() -> delivered.size() == 6, "six deliveries to alice");
            await(() -> template.opsForStream().pending("events", "billing").getTotalPendingMessages() == 0,
                    "alice's acknowledgements");
            healthy.stop();

            // A second group, so that alice's last poll (in flight while her container stops) cannot take bob's entries.
            template.opsForStream().createGroup("events", ReadOffset.latest(), "shipping");
            List<RecordId> unacknowledged = new CopyOnWriteArrayList<>();
            var crashing = container(factory);
            crashing.receive(Consumer.from("shipping", "bob"), StreamOffset.create("events", ReadOffset.lastConsumed()),
                    message -> unacknowledged.add(message.getId()));
            crashing.start();
            for (int i = 6; i <= 8; i++) {
                template.opsForStream().add("events", Map.of("seq", Integer.toString(i)));
            }
            await(() -> unacknowledged.size() == 3, "three deliveries to bob");
            crashing.stop();

            PendingMessagesSummary pending = template.opsForStream().pending("events", "shipping");
            assertEquals(3, pending.getTotalPendingMessages());
            assertEquals(Map.of("bob", 3L), pending.getPendingMessagesPerConsumer());

            List<MapRecord<String, Object, Object>> claimed = template.opsForStream().claim("events", "shipping",
                    "carol", Duration.ZERO, unacknowledged.toArray(new RecordId[0]));
            assertEquals(3, claimed.size());
            assertEquals(List.of("6", "7", "8"), claimed.stream().map(r -> (String) r.getValue().get("seq")).toList());
            for (MapRecord<String, Object, Object> r : claimed) {
                template.opsForStream().acknowledge("events", "shipping", r.getId());
            }
            assertEquals(0, template.opsForStream().pending("events", "shipping").getTotalPendingMessages());
            assertTrue(delivered.containsAll(List.of("0", "1", "2", "3", "4", "5")));
        } finally {
            factory.destroy();
        }
    }
}
