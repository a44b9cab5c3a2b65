package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.embedded.EbbExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.SafeEncoder;

/** The latency monitor's {@code expire-cycle} event, timed over a whole active expire cycle. */
class ExpireCycleLatencyTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    private static final int KEYS = 200_000;

    private static long maxLatency(Jedis j) {
        ProtocolCommand latency = () -> SafeEncoder.encode("LATENCY");
        long max = 0;
        for (Object sample : (List<?>) j.sendCommand(latency, "HISTORY", "expire-cycle")) {
            max = Math.max(max, (Long) ((List<?>) sample).get(1));
        }
        return max;
    }

    @Test
    void anActiveExpireCycleOverTheThresholdShouldBeRecordedAsExpireCycle() throws Exception {
        try (Jedis j = new Jedis(ebb.host(), ebb.port())) {
            Pipeline p = j.pipelined();
            for (int i = 0; i < KEYS; i++) {
                p.set("k:" + i, "v", SetParams.setParams().px(1000));
            }
            p.sync();
            j.configSet("latency-monitor-threshold", "1");

            // Deleting 200,000 keys takes 0.3-0.4 s of cycles, slow ones in slices of 250 µs with
            // I/O between them: the event is a cycle's time, not one slice's. How the work splits
            // into slow and fast cycles depends on when the cron ticks, so the threshold is 1 ms
            // (the longest cycle took 5 to 26 ms in three runs).
            ebb.advanceClock(2000);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (j.dbSize() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }

            assertEquals(0, j.dbSize());
            assertTrue(maxLatency(j) >= 1, "ms: " + maxLatency(j));
        }
    }
}
