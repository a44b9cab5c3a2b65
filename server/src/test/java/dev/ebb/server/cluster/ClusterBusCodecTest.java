package dev.ebb.server.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

/**
 * The cluster bus codec against messages redis-server 7.2.4 sent: a MEET from a fresh node owning
 * slots 1, 2 and 100 (shard-id extension only), and a MEET from a node of a four-node cluster with
 * two gossip entries and hostname, human-nodename and shard-id extensions. Both were captured by a
 * socket posing as a node (CLUSTER MEET 127.0.0.1 7350 17350 sent to the reference server).
 */
class ClusterBusCodecTest {
    private static byte[] resource(String name) throws IOException {
        try (InputStream in = ClusterBusCodecTest.class.getResourceAsStream("/cluster/" + name)) {
            assertNotNull(in, name);
            return in.readAllBytes();
        }
    }

    @Test
    void decodeShouldReadTheHeaderOfAMeetFromRedis() throws IOException {
        byte[] frame = resource("redis-7.2.4-meet.bin");

        BusMessage m = BusCodec.decode(frame);

        assertNotNull(m);
        assertEquals(BusMessage.MEET, m.type);
        assertEquals(7301, m.port);
        assertEquals(17301, m.cport);
        assertEquals(ClusterNode.MYSELF | ClusterNode.MASTER, m.flags);
        assertEquals(BusMessage.STATE_FAIL, m.state);
        assertEquals("8047d9b53b8f80e97a2e0ec498084702681f3346", m.sender);
        assertNull(m.slaveof);
        assertEquals("", m.myip);
        assertEquals(0, m.gossip.size());
        assertEquals("99519f3129160811415f46cf9c6a89ab40b32c40", m.shardId);
        assertNull(m.hostname);
        BitSet slots = BitSet.valueOf(m.myslots);
        assertEquals(3, slots.cardinality());
        assertTrue(slots.get(1) && slots.get(2) && slots.get(100));
    }

    @Test
    void decodeShouldReadGossipAndEveryExtensionOfAMeetFromRedis() throws IOException {
        BusMessage m = BusCodec.decode(resource("redis-7.2.4-meet-gossip.bin"));

        assertNotNull(m);
        assertEquals(7321, m.port);
        assertEquals(2, m.gossip.size());
        BusMessage.Gossip failed = m.gossip.get(0);
        assertEquals("fd97f4ff927914259a101a76e957a98eb43e1ede", failed.nodename());
        assertEquals("127.0.0.1", failed.ip());
        assertEquals(7313, failed.port());
        assertEquals(17313, failed.cport());
        assertEquals(ClusterNode.MASTER | ClusterNode.FAIL, failed.flags());
        assertEquals("redis-a", m.hostname);
        assertEquals("human-a", m.humanNodename);
        assertEquals("750f341117ca7e4d149d56732a224060e5366e01", m.shardId);
    }

    @Test
    void encodeShouldReproduceRedisMessagesByteForByte() throws IOException {
        for (String name : new String[] {"redis-7.2.4-meet.bin", "redis-7.2.4-meet-gossip.bin"}) {
            byte[] frame = resource(name);

            byte[] again = BusCodec.encode(BusCodec.decode(frame));

            assertArrayEquals(frame, again, name);
        }
    }

    @Test
    void failPublishAndUpdateShouldRoundTrip() {
        BusMessage fail = header(BusMessage.FAIL);
        fail.nodename = "f".repeat(40);
        BusMessage publish = header(BusMessage.PUBLISH);
        publish.channel = "news".getBytes(StandardCharsets.UTF_8);
        publish.message = new byte[] {0, 1, 2, (byte) 0xff};
        BusMessage update = header(BusMessage.UPDATE);
        update.nodename = "e".repeat(40);
        update.updateConfigEpoch = 42;
        update.updateSlots = new byte[HashSlots.SLOTS / 8];
        update.updateSlots[2047] = (byte) 0x80;

        BusMessage f = BusCodec.decode(BusCodec.encode(fail));
        BusMessage p = BusCodec.decode(BusCodec.encode(publish));
        BusMessage u = BusCodec.decode(BusCodec.encode(update));

        assertEquals(BusCodec.HEADER_SIZE + 40, BusCodec.encode(fail).length);
        assertEquals(fail.nodename, f.nodename);
        assertEquals("news", new String(p.channel, StandardCharsets.UTF_8));
        assertArrayEquals(publish.message, p.message);
        assertEquals(42, u.updateConfigEpoch);
        assertEquals(update.nodename, u.nodename);
        assertTrue(BitSet.valueOf(u.updateSlots).get(16383));
        assertEquals(12345, f.currentEpoch);
        assertEquals("10.0.0.1", p.myip);
    }

    @Test
    void pingWithGossipForgottenNodesAndExtensionsShouldRoundTrip() {
        BusMessage ping = header(BusMessage.PING);
        ping.gossip.add(new BusMessage.Gossip("b".repeat(40), 1, 2, "::1", 7000, 17000, ClusterNode.MASTER, 0));
        ping.hostname = "host-name-longer-than-eight";
        ping.forgotten.add(new BusMessage.Forgotten("c".repeat(40), 59));
        ping.shardId = "d".repeat(40);

        byte[] bytes = BusCodec.encode(ping);
        BusMessage back = BusCodec.decode(bytes);

        assertEquals(0, (bytes.length - BusCodec.HEADER_SIZE - BusCodec.GOSSIP_SIZE) % 8);
        assertEquals(ping.gossip, back.gossip);
        assertEquals(ping.hostname, back.hostname);
        assertEquals(ping.forgotten, back.forgotten);
        assertEquals(ping.shardId, back.shardId);
        assertArrayEquals(bytes, BusCodec.encode(back));
    }

    @Test
    void decodeShouldRefuseWhatRedisRefuses() throws IOException {
        byte[] frame = resource("redis-7.2.4-meet-gossip.bin");

        byte[] badSignature = frame.clone();
        badSignature[0] = 'X';
        byte[] badVersion = frame.clone();
        badVersion[9] = 2;
        byte[] wrongCount = frame.clone();
        wrongCount[15] = 3;
        byte[] badExtension = frame.clone();
        ByteBuffer.wrap(badExtension).putInt(BusCodec.HEADER_SIZE + 2 * BusCodec.GOSSIP_SIZE, 4);

        assertNull(BusCodec.decode(badSignature));
        assertNull(BusCodec.decode(badVersion));
        assertNull(BusCodec.decode(wrongCount));
        assertNull(BusCodec.decode(badExtension));
        for (int cut = 0; cut < frame.length; cut += 97) {
            byte[] truncated = Arrays.copyOf(frame, cut);
            assertNull(BusCodec.decode(truncated), "truncated at " + cut);
        }
    }

    private static BusMessage header(int type) {
        BusMessage m = new BusMessage();
        m.type = type;
        m.sender = "a".repeat(40);
        m.port = 7000;
        m.cport = 17000;
        m.flags = ClusterNode.MASTER;
        m.currentEpoch = 12345;
        m.configEpoch = 7;
        m.myip = "10.0.0.1";
        return m;
    }
}
