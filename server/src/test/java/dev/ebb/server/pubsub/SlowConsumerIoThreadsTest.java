package dev.ebb.server.pubsub;

import dev.ebb.server.embedded.EbbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The slow-consumer flood with {@code io-threads 2}: replies are produced on the command loop and
 * written by separate IO threads, so the pending-output measure has to count writes still queued
 * for the IO thread as well as those in the channel's outbound buffer.
 */
class SlowConsumerIoThreadsTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().config("io-threads", "2");

    @Test
    void subscriberThatNeverReadsShouldBeClosedAtPubsubHardLimitWithSeparateIoThreads() throws Exception {
        SlowConsumerTest.floodStalledSubscriber(ebb);
    }
}
