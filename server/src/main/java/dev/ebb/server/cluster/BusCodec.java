package dev.ebb.server.cluster;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads and writes Redis 7.2's cluster bus messages ({@code clusterMsg}), byte for byte as
 * redis-server does, so Ebb and redis-server nodes share one bus.
 *
 * <p><b>Wire format.</b> Every field is big-endian. The header is 2256 bytes:
 * <pre>
 *   0 sig "RCmb"        4 totlen u32       8 ver u16 (1)     10 port u16      12 type u16
 *  14 count u16        16 currentEpoch u64 24 configEpoch u64 32 offset u64
 *  40 sender[40]       80 myslots[2048]  2128 slaveof[40]   2168 myip[46]   2214 extensions u16
 * 2216 unused[30]    2246 pport u16      2248 cport u16     2250 flags u16   2252 state u8
 * 2253 mflags[3]     2256 data
 * </pre>
 * Names are 40 bytes of hex, all zero for "none"; ips are NUL-padded. PING, PONG and MEET carry
 * {@code count} gossip entries of 104 bytes (name, ping_sent u32, pong_received u32 in seconds,
 * ip[46], port, cport, flags, pport, unused), then, when mflags[0] has EXT_DATA,
 * {@code extensions} ping extensions: length u32 (header included, a multiple of 8), type u16,
 * unused u16, payload (hostname 0 and human nodename 1 NUL-terminated and zero-padded; forgotten
 * node 2: name[40] + ttl u64 seconds; shard id 3: name[40]). FAIL carries a name; PUBLISH and
 * PUBLISHSHARD channel_len u32, message_len u32 and the two byte strings; UPDATE configEpoch u64,
 * name[40], slots[2048].
 *
 * <p>{@link #decode} refuses (returns null for) what Redis's clusterIsValidPacket refuses: a wrong
 * signature or version, or a total length that does not match what the type implies. Stateless.
 */
public final class BusCodec {
    public static final int HEADER_SIZE = 2256;
    public static final int GOSSIP_SIZE = 104;
    static final int NAME_LEN = 40;
    static final int IP_LEN = 46;
    private static final int SLOT_BYTES = HashSlots.SLOTS / 8;
    private static final int VERSION = 1;
    private static final byte[] SIGNATURE = {'R', 'C', 'm', 'b'};

    static final int EXT_HOSTNAME = 0;
    static final int EXT_HUMAN_NODENAME = 1;
    static final int EXT_FORGOTTEN_NODE = 2;
    static final int EXT_SHARDID = 3;

    private BusCodec() {
    }

    /** The message's wire form, {@code totlen} bytes. */
    public static byte[] encode(BusMessage m) {
        int extensions = 0;
        int extBytes = 0;
        if (m.isPingLike()) {
            if (m.hostname != null) {
                extensions++;
                extBytes += stringExtSize(m.hostname);
            }
            if (m.humanNodename != null) {
                extensions++;
                extBytes += stringExtSize(m.humanNodename);
            }
            extensions += m.forgotten.size();
            extBytes += m.forgotten.size() * (8 + NAME_LEN + 8);
            if (m.shardId != null) {
                extensions++;
                extBytes += 8 + NAME_LEN;
            }
        }
        int total = HEADER_SIZE + switch (m.type) {
            case BusMessage.PING, BusMessage.PONG, BusMessage.MEET -> m.gossip.size() * GOSSIP_SIZE + extBytes;
            case BusMessage.FAIL -> NAME_LEN;
            case BusMessage.PUBLISH, BusMessage.PUBLISHSHARD -> 8 + m.channel.length + m.message.length;
            case BusMessage.UPDATE -> 8 + NAME_LEN + SLOT_BYTES;
            default -> 0;
        };
        ByteBuffer b = ByteBuffer.allocate(total);
        b.put(SIGNATURE).putInt(total).putShort((short) VERSION).putShort((short) m.port).putShort((short) m.type);
        b.putShort((short) (m.isPingLike() ? m.gossip.size() : m.count));
        b.putLong(m.currentEpoch).putLong(m.configEpoch).putLong(m.offset);
        putName(b, m.sender);
        b.put(m.myslots, 0, SLOT_BYTES);
        putName(b, m.slaveof);
        putPadded(b, m.myip, IP_LEN);
        b.putShort((short) extensions);
        b.position(b.position() + 30);
        b.putShort((short) m.pport).putShort((short) m.cport).putShort((short) m.flags).put((byte) m.state);
        int mflags0 = m.isPingLike() && extensions > 0 ? m.mflags0 | BusMessage.MFLAG0_EXT_DATA : m.mflags0;
        b.put((byte) mflags0).put((byte) 0).put((byte) 0);
        switch (m.type) {
            case BusMessage.PING, BusMessage.PONG, BusMessage.MEET -> {
                for (BusMessage.Gossip g : m.gossip) {
                    putName(b, g.nodename());
                    b.putInt((int) g.pingSent()).putInt((int) g.pongReceived());
                    putPadded(b, g.ip(), IP_LEN);
                    b.putShort((short) g.port()).putShort((short) g.cport()).putShort((short) g.flags())
                            .putShort((short) g.pport()).putShort((short) 0);
                }
                if (m.hostname != null) {
                    putStringExt(b, EXT_HOSTNAME, m.hostname);
                }
                if (m.humanNodename != null) {
                    putStringExt(b, EXT_HUMAN_NODENAME, m.humanNodename);
                }
                for (BusMessage.Forgotten f : m.forgotten) {
                    b.putInt(8 + NAME_LEN + 8).putShort((short) EXT_FORGOTTEN_NODE).putShort((short) 0);
                    putName(b, f.nodename());
                    b.putLong(f.ttlSeconds());
                }
                if (m.shardId != null) {
                    b.putInt(8 + NAME_LEN).putShort((short) EXT_SHARDID).putShort((short) 0);
                    putName(b, m.shardId);
                }
            }
            case BusMessage.FAIL -> putName(b, m.nodename);
            case BusMessage.PUBLISH, BusMessage.PUBLISHSHARD ->
                b.putInt(m.channel.length).putInt(m.message.length).put(m.channel).put(m.message);
            case BusMessage.UPDATE -> {
                b.putLong(m.updateConfigEpoch);
                putName(b, m.nodename);
                b.put(m.updateSlots, 0, SLOT_BYTES);
            }
            default -> {
            }
        }
        return b.array();
    }

    /** The total length announced by a header's first 8 bytes, or -1 if the signature is wrong. */
    public static int frameLength(ByteBuffer first8) {
        for (int i = 0; i < 4; i++) {
            if (first8.get(first8.position() + i) != SIGNATURE[i]) {
                return -1;
            }
        }
        return first8.getInt(first8.position() + 4);
    }

    /**
     * Decodes one whole message ({@code frame.length == totlen}).
     *
     * @return the message, or null if Redis would refuse it as malformed
     */
    public static BusMessage decode(byte[] frame) {
        if (frame.length < HEADER_SIZE) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(frame);
        if (frameLength(b) != frame.length || (b.getShort(8) & 0xffff) != VERSION) {
            return null;
        }
        BusMessage m = new BusMessage();
        m.port = b.getShort(10) & 0xffff;
        m.type = b.getShort(12) & 0xffff;
        m.count = b.getShort(14) & 0xffff;
        m.currentEpoch = b.getLong(16);
        m.configEpoch = b.getLong(24);
        m.offset = b.getLong(32);
        m.sender = name(frame, 40);
        System.arraycopy(frame, 80, m.myslots, 0, SLOT_BYTES);
        m.slaveof = nameOrNull(frame, 2128);
        m.myip = padded(frame, 2168, IP_LEN);
        int extensions = b.getShort(2214) & 0xffff;
        m.pport = b.getShort(2246) & 0xffff;
        m.cport = b.getShort(2248) & 0xffff;
        m.flags = b.getShort(2250) & 0xffff;
        m.state = frame[2252] & 0xff;
        m.mflags0 = frame[2253] & 0xff;
        b.position(HEADER_SIZE);
        return switch (m.type) {
            case BusMessage.PING, BusMessage.PONG, BusMessage.MEET -> decodePing(m, b, extensions) ? m : null;
            case BusMessage.FAIL -> {
                if (b.remaining() != NAME_LEN) {
                    yield null;
                }
                m.nodename = name(frame, HEADER_SIZE);
                yield m;
            }
            case BusMessage.PUBLISH, BusMessage.PUBLISHSHARD -> {
                if (b.remaining() < 8) {
                    yield null;
                }
                long channelLen = b.getInt() & 0xffffffffL;
                long messageLen = b.getInt() & 0xffffffffL;
                if (channelLen + messageLen != b.remaining()) {
                    yield null;
                }
                m.channel = new byte[(int) channelLen];
                m.message = new byte[(int) messageLen];
                b.get(m.channel).get(m.message);
                yield m;
            }
            case BusMessage.UPDATE -> {
                if (b.remaining() != 8 + NAME_LEN + SLOT_BYTES) {
                    yield null;
                }
                m.updateConfigEpoch = b.getLong();
                m.nodename = name(frame, HEADER_SIZE + 8);
                m.updateSlots = new byte[SLOT_BYTES];
                System.arraycopy(frame, HEADER_SIZE + 8 + NAME_LEN, m.updateSlots, 0, SLOT_BYTES);
                yield m;
            }
            case BusMessage.FAILOVER_AUTH_REQUEST, BusMessage.FAILOVER_AUTH_ACK, BusMessage.MFSTART ->
                b.remaining() == 0 ? m : null;
            default -> m;
        };
    }

    private static boolean decodePing(BusMessage m, ByteBuffer b, int extensions) {
        byte[] frame = b.array();
        if (b.remaining() < m.count * GOSSIP_SIZE) {
            return false;
        }
        for (int i = 0; i < m.count; i++) {
            int at = b.position();
            m.gossip.add(new BusMessage.Gossip(name(frame, at), b.getInt(at + 40) & 0xffffffffL,
                    b.getInt(at + 44) & 0xffffffffL, padded(frame, at + 48, IP_LEN), b.getShort(at + 94) & 0xffff,
                    b.getShort(at + 96) & 0xffff, b.getShort(at + 98) & 0xffff, b.getShort(at + 100) & 0xffff));
            b.position(at + GOSSIP_SIZE);
        }
        if ((m.mflags0 & BusMessage.MFLAG0_EXT_DATA) == 0) {
            return b.remaining() == 0;
        }
        for (int i = 0; i < extensions; i++) {
            if (b.remaining() < 8) {
                return false;
            }
            int at = b.position();
            long length = b.getInt(at) & 0xffffffffL;
            int type = b.getShort(at + 4) & 0xffff;
            if (length < 8 || length > b.remaining()) {
                return false;
            }
            int payload = at + 8;
            int payloadLen = (int) length - 8;
            switch (type) {
                case EXT_HOSTNAME -> m.hostname = padded(frame, payload, payloadLen);
                case EXT_HUMAN_NODENAME -> m.humanNodename = padded(frame, payload, payloadLen);
                case EXT_FORGOTTEN_NODE -> {
                    if (payloadLen < NAME_LEN + 8) {
                        return false;
                    }
                    m.forgotten.add(new BusMessage.Forgotten(name(frame, payload), b.getLong(payload + NAME_LEN)));
                }
                case EXT_SHARDID -> {
                    if (payloadLen < NAME_LEN) {
                        return false;
                    }
                    m.shardId = name(frame, payload);
                }
                default -> {
                    // An extension this version does not know is skipped, as Redis skips them.
                }
            }
            b.position(at + (int) length);
        }
        return b.remaining() == 0;
    }

    /** A string extension's size: header, the bytes and a NUL, rounded up to 8. */
    private static int stringExtSize(String s) {
        int raw = s.getBytes(StandardCharsets.UTF_8).length + 1;
        return 8 + ((raw + 7) & ~7);
    }

    private static void putStringExt(ByteBuffer b, int type, String s) {
        int size = stringExtSize(s);
        b.putInt(size).putShort((short) type).putShort((short) 0);
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.put(bytes);
        b.position(b.position() + size - 8 - bytes.length);
    }

    private static void putName(ByteBuffer b, String name) {
        if (name == null) {
            b.position(b.position() + NAME_LEN);
        } else {
            putPadded(b, name, NAME_LEN);
        }
    }

    private static void putPadded(ByteBuffer b, String s, int width) {
        byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
        int n = Math.min(bytes.length, width);
        b.put(bytes, 0, n);
        b.position(b.position() + width - n);
    }

    private static String name(byte[] frame, int at) {
        return new String(frame, at, NAME_LEN, StandardCharsets.ISO_8859_1);
    }

    private static String nameOrNull(byte[] frame, int at) {
        for (int i = 0; i < NAME_LEN; i++) {
            if (frame[at + i] != 0) {
                return name(frame, at);
            }
        }
        return null;
    }

    /** A NUL-terminated (or full-width) string field. */
    private static String padded(byte[] frame, int at, int width) {
        int end = at;
        while (end < at + width && frame[end] != 0) {
            end++;
        }
        return new String(frame, at, end - at, StandardCharsets.UTF_8);
    }
}
