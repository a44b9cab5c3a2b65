package dev.ebb.server.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ReplicationBacklogTest {
    @Test
    void shouldKeepTheNewestBytesAcrossWrapsAgainstAModel() {
        Random random = new Random(7);
        ReplicationBacklog backlog = new ReplicationBacklog(100, 0);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int round = 0; round < 500; round++) {
            byte[] chunk = new byte[random.nextInt(round % 50 == 0 ? 250 : 40)];
            random.nextBytes(chunk);
            backlog.append(chunk, 0, chunk.length);
            all.writeBytes(chunk);
            byte[] stream = all.toByteArray();
            long end = stream.length;
            assertEquals(Math.min(100, end), backlog.histlen());
            assertEquals(end - backlog.histlen() + 1, backlog.firstByteOffset());
            long from = backlog.firstByteOffset() + random.nextInt((int) backlog.histlen() + 1);
            assertArrayEquals(Arrays.copyOfRange(stream, (int) from - 1, stream.length), backlog.copyFrom(from));
            assertFalse(backlog.covers(backlog.firstByteOffset() - 1));
            assertTrue(backlog.covers(end + 1));
            assertFalse(backlog.covers(end + 2));
        }
    }

    @Test
    void resizeShouldKeepTheNewestStream() {
        ReplicationBacklog backlog = new ReplicationBacklog(64, 1000);
        byte[] data = new byte[50];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        backlog.append(data, 0, data.length);
        backlog.resize(20);
        assertEquals(20, backlog.histlen());
        assertEquals(1031, backlog.firstByteOffset());
        assertArrayEquals(Arrays.copyOfRange(data, 30, 50), backlog.copyFrom(1031));
        backlog.resize(200);
        assertArrayEquals(Arrays.copyOfRange(data, 30, 50), backlog.copyFrom(1031));
    }

    @Test
    void stateShouldContinueOnTheOldIdOnlyUpToThePromotion() {
        ReplicationState state = new ReplicationState(new SplittableRandom(1));
        state.feed(new byte[10], 0, 10);
        assertEquals(0, state.offset(), "no backlog, no offset");
        state.createBacklog(1024);
        state.feed(new byte[10], 0, 10);
        String old = state.replid();
        assertTrue(state.canContinue(old, 11));
        state.shiftReplicationId();
        state.feed(new byte[5], 0, 5);
        assertEquals(old, state.replid2());
        assertEquals(11, state.secondOffset());
        assertTrue(state.canContinue(old, 11));
        assertFalse(state.canContinue(old, 12));
        assertTrue(state.canContinue(state.replid(), 16));
        assertFalse(state.canContinue(ReplicationState.ZERO_ID, 1));
    }
}
