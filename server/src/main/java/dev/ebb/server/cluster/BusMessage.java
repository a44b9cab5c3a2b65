package dev.ebb.server.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * One Redis Cluster bus message ({@code clusterMsg} of Redis 7.2's cluster.h) as plain fields: the
 * common header every message carries, then the part its {@link #type} uses (gossip entries and
 * ping extensions for PING/PONG/MEET, a node name for FAIL, channel and message for PUBLISH and
 * PUBLISHSHARD, epoch, name and slots for UPDATE). {@link BusCodec} reads and writes the wire form.
 *
 * <p>Not thread-safe: built by one thread and handed over whole.
 */
public final class BusMessage {
    public static final int PING = 0;
    public static final int PONG = 1;
    public static final int MEET = 2;
    public static final int FAIL = 3;
    public static final int PUBLISH = 4;
    public static final int FAILOVER_AUTH_REQUEST = 5;
    public static final int FAILOVER_AUTH_ACK = 6;
    public static final int UPDATE = 7;
    public static final int MFSTART = 8;
    public static final int MODULE = 9;
    public static final int PUBLISHSHARD = 10;
    /** Number of message types (Redis's CLUSTERMSG_TYPE_COUNT). */
    public static final int TYPE_COUNT = 11;

    /** mflags[0] bits. */
    public static final int MFLAG0_PAUSED = 1;
    public static final int MFLAG0_FORCEACK = 1 << 1;
    public static final int MFLAG0_EXT_DATA = 1 << 2;

    /** Cluster state byte of the header. */
    public static final int STATE_OK = 0;
    public static final int STATE_FAIL = 1;

    private static final String[] TYPE_NAMES = {"ping", "pong", "meet", "fail", "publish", "auth-req", "auth-ack",
        "update", "mfstart", "module", "publishshard"};

    // Header.
    public int type;
    public int count;
    public int port;
    public int pport;
    public int cport;
    public long currentEpoch;
    public long configEpoch;
    public long offset;
    public String sender = "";
    public byte[] myslots = new byte[HashSlots.SLOTS / 8];
    /** The sender's master, or null (all zero bytes on the wire) for a master. */
    public String slaveof;
    /** The sender's announced ip, or "" (all zero bytes: the receiver uses the connection's address). */
    public String myip = "";
    public int flags;
    public int state;
    public int mflags0;

    // PING, PONG, MEET.
    public final List<Gossip> gossip = new ArrayList<>();
    /** Ping extensions; null when absent from the message. */
    public String hostname;
    public String humanNodename;
    public String shardId;
    public final List<Forgotten> forgotten = new ArrayList<>();

    // FAIL: the failing node. UPDATE: the node whose configuration is sent.
    public String nodename;

    // PUBLISH, PUBLISHSHARD.
    public byte[] channel;
    public byte[] message;

    // UPDATE.
    public long updateConfigEpoch;
    public byte[] updateSlots;

    /** Redis's name of a message type, as CLUSTER INFO counts them ({@code ping}, {@code auth-req} …). */
    public static String typeName(int type) {
        return type >= 0 && type < TYPE_COUNT ? TYPE_NAMES[type] : "unknown";
    }

    public boolean isPingLike() {
        return type == PING || type == PONG || type == MEET;
    }

    /** A node as the sender sees it (clusterMsgDataGossip, 104 bytes). */
    public record Gossip(String nodename, long pingSent, long pongReceived, String ip, int port, int cport,
            int flags, int pport) {
    }

    /** A forgotten-node ping extension: {@code nodename} may not be added back for {@code ttlSeconds}. */
    public record Forgotten(String nodename, long ttlSeconds) {
    }
}
