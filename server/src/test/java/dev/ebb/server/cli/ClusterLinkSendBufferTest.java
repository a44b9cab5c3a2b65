package dev.ebb.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.EbbServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;

/**
 * {@code cluster-link-sendbuf-limit} end to end on two Ebb primaries: PUBLISH of large messages
 * queues bytes on the bus link faster than the socket takes them; CLUSTER LINKS reports them, a
 * small limit frees the link (counted in CLUSTER INFO's {@code total_cluster_links_buffer_limit_exceeded})
 * and the cron reconnects it, so the cluster is ok again once the flood stops.
 */
class ClusterLinkSendBufferTest {
    private static final long NODE_TIMEOUT = 3000;
    private static final String BIG = "x".repeat(1 << 20);

    private static final EbbServer[] nodes = new EbbServer[2];
    private static final int[] ports = new int[2];

    @BeforeAll
    static void startTwoPrimaries() throws IOException, InterruptedException {
        ClusterNodes.startAndMeet(nodes, ports, 2, NODE_TIMEOUT);
        awaitHealthy();
    }

    @AfterAll
    static void stop() {
        ClusterNodes.closeAll(nodes);
    }

    private static void awaitHealthy() throws InterruptedException {
        ClusterNodes.awaitHealthy(ports);
        for (int port : ports) {
            ClusterNodes.await("node " + port + " to have both bus links", 120, () -> linkCount(port) == 2);
        }
    }

    private static List<Map<String, Object>> links(Jedis j) {
        return j.clusterLinks();
    }

    private static int linkCount(int port) {
        try (Jedis j = new Jedis("127.0.0.1", port, 10_000)) {
            return links(j).size();
        }
    }

    private static long exceeded(int port) {
        for (String line : ClusterNodes.call(port, "CLUSTER", "INFO").split("\r\n")) {
            if (line.startsWith("total_cluster_links_buffer_limit_exceeded:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1));
            }
        }
        throw new AssertionError("no total_cluster_links_buffer_limit_exceeded in CLUSTER INFO");
    }

    /**
     * 40 PUBLISH of 1 MB pipelined, then CLUSTER LINKS in the same batch (before the bus thread can
     * have written 40 MB): the bytes the links report queued, allocated and used alike.
     */
    private static long floodAndMeasure(Jedis j) {
        Pipeline p = j.pipelined();
        for (int i = 0; i < 40; i++) {
            p.publish("flood", BIG);
        }
        Response<Object> links = p.sendCommand(Protocol.Command.CLUSTER, "LINKS");
        p.sync();
        long used = 0;
        for (Object link : (List<?>) links.get()) {
            List<?> fields = (List<?>) link;
            Object allocated = null;
            for (int i = 0; i < fields.size(); i += 2) {
                String name = new String((byte[]) fields.get(i), StandardCharsets.UTF_8);
                if (name.equals("send-buffer-allocated")) {
                    allocated = fields.get(i + 1);
                } else if (name.equals("send-buffer-used")) {
                    assertEquals(allocated, fields.get(i + 1));
                    used += (Long) fields.get(i + 1);
                }
            }
        }
        return used;
    }

    @Test
    void aLinkQueueingPastTheLimitShouldBeFreedCountedAndReconnected() throws InterruptedException {
        try (Jedis j = new Jedis("127.0.0.1", ports[0], 60_000)) {
            assertEquals(0, exceeded(ports[0]));
            for (Map<String, Object> link : links(j)) {
                assertEquals(0L, link.get("send-buffer-used"), "an idle link queues nothing: " + link);
                assertEquals("r", link.get("events"));
            }
            boolean seenQueued = false;
            for (int round = 0; round < 50 && !seenQueued; round++) {
                seenQueued = floodAndMeasure(j) > 0;
            }
            assertTrue(seenQueued, "CLUSTER LINKS showed bytes queued behind a PUBLISH flood");
            assertEquals(0, exceeded(ports[0]), "no limit, no link freed");

            assertEquals("OK", j.configSet("cluster-link-sendbuf-limit", "64kb"));
            for (int round = 0; round < 200 && exceeded(ports[0]) == 0; round++) {
                floodAndMeasure(j);
                Thread.sleep(50);
            }
            assertTrue(exceeded(ports[0]) > 0, "the flooded link was freed past the limit");
            assertEquals("OK", j.configSet("cluster-link-sendbuf-limit", "0"));
        }
        long freed = exceeded(ports[0]);

        awaitHealthy();
        assertEquals(freed, exceeded(ports[0]), "idle links are not freed");
        assertEquals(0, exceeded(ports[1]));
        try (Jedis j = new Jedis("127.0.0.1", ports[0], 10_000)) {
            ClusterNodes.await("a PUBLISH on one node to reach a subscriber on the other", 60,
                    () -> subscribedElsewhere(j));
        }
    }

    /** Whether node 1 has a subscriber to "after" that receives the message node 0 publishes. */
    private static boolean subscribedElsewhere(Jedis publisher) {
        BlockingQueue<String> got = new LinkedBlockingQueue<>();
        JedisPubSub listener = new JedisPubSub() {
            @Override
            public void onSubscribe(String channel, int count) {
                publisher.publish("after", "ok");
            }

            @Override
            public void onMessage(String channel, String message) {
                got.add(message);
                unsubscribe();
            }
        };
        Thread t = new Thread(() -> {
            try (Jedis sub = new Jedis("127.0.0.1", ports[1], 10_000)) {
                sub.subscribe(listener, "after");
            } catch (RuntimeException closed) {
                got.add("closed");
            }
        });
        t.setDaemon(true);
        t.start();
        try {
            String message = got.poll(10, TimeUnit.SECONDS);
            if (listener.isSubscribed()) {
                listener.unsubscribe();
            }
            return "ok".equals(message);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
