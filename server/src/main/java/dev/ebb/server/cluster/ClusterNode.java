package dev.ebb.server.cluster;

import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One node of the cluster as this node knows it (Redis's clusterNode): its 40-hex-digit id, its
 * addresses, flags, config epoch, the slots it claims, its master's id (null for a master), the
 * replication offset it announced, the ping/pong times that failure detection reads, the failure reports other
 * primaries sent about it, and its bus links. Myself is one of them, flagged {@link #MYSELF}.
 *
 * <p>Owned by the command loop thread, like the whole {@link ClusterState}.
 */
public final class ClusterNode {
    public static final int MASTER = 1;
    public static final int SLAVE = 1 << 1;
    public static final int PFAIL = 1 << 2;
    public static final int FAIL = 1 << 3;
    public static final int MYSELF = 1 << 4;
    public static final int HANDSHAKE = 1 << 5;
    public static final int NOADDR = 1 << 6;
    public static final int MEET = 1 << 7;
    public static final int MIGRATE_TO = 1 << 8;
    public static final int NOFAILOVER = 1 << 9;

    static final int NAME_LENGTH = 40;
    /** Redis's default cluster bus port offset (cluster-port 0). */
    private static final int BUS_PORT_OFFSET = 10000;

    String name;
    int flags;
    String ip = "";
    int port;
    int pport;
    int cport;
    String hostname = "";
    String humanNodename = "";
    String shardId;
    long configEpoch;
    final BitSet slots = new BitSet(HashSlots.SLOTS);
    /** The master's id for a replica; null for a master. */
    String slaveof;
    long ctime;
    long pingSent;
    long pongReceived;
    long dataReceived;
    long failTime;
    long replOffset;
    /** When this node (a primary) last had one of its replicas voted for (Redis's voted_time). */
    long votedTime;
    /** Since when this primary has had no working replica, or 0 (replica migration). */
    long orphanedTime;
    /** Failure reports: reporting primary's id to the time of its latest report. */
    final Map<String, Long> failReports = new LinkedHashMap<>();
    /** The link this node opened to the other (outbound), and the one the other opened to us (inbound). */
    BusLink link;
    BusLink inboundLink;

    ClusterNode(String name, int flags, long now) {
        this.name = name;
        this.flags = flags;
        this.ctime = now;
    }

    /** A random 40-hex-digit id, as Redis's getRandomHexChars (node ids and shard ids). */
    static String randomName(SplittableRandom random) {
        StringBuilder sb = new StringBuilder(NAME_LENGTH);
        for (int i = 0; i < NAME_LENGTH; i++) {
            sb.append(Character.forDigit(random.nextInt(16), 16));
        }
        return sb.toString();
    }

    public String name() {
        return name;
    }

    public int flags() {
        return flags;
    }

    public String ip() {
        return ip;
    }

    public int port() {
        return port;
    }

    public int cport() {
        return cport;
    }

    public String hostname() {
        return hostname;
    }

    public String shardId() {
        return shardId;
    }

    public long configEpoch() {
        return configEpoch;
    }

    public boolean has(int flag) {
        return (flags & flag) != 0;
    }

    public boolean isMaster() {
        return has(MASTER);
    }

    public boolean isMyself() {
        return has(MYSELF);
    }

    public boolean failing() {
        return has(PFAIL | FAIL);
    }

    /** The master's id for a replica; null for a master. */
    public String slaveof() {
        return slaveof;
    }

    public long replOffset() {
        return replOffset;
    }

    public int slotCount() {
        return slots.cardinality();
    }

    /** The cluster bus port CLUSTER NODES shows for {@code port} with cluster-port 0: port + 10000, or 0 past 65535. */
    public static int busPort(int port) {
        int bus = port + BUS_PORT_OFFSET;
        return bus > 65535 ? 0 : bus;
    }

    /** Redis's representClusterNodeFlags: myself, master, slave, fail?, fail, handshake, noaddr, nofailover; or noflags. */
    public String flagsText() {
        StringBuilder sb = new StringBuilder();
        appendFlag(sb, MYSELF, "myself");
        appendFlag(sb, MASTER, "master");
        appendFlag(sb, SLAVE, "slave");
        appendFlag(sb, PFAIL, "fail?");
        appendFlag(sb, FAIL, "fail");
        appendFlag(sb, HANDSHAKE, "handshake");
        appendFlag(sb, NOADDR, "noaddr");
        appendFlag(sb, NOFAILOVER, "nofailover");
        return sb.length() == 0 ? "noflags" : sb.toString();
    }

    private void appendFlag(StringBuilder sb, int flag, String text) {
        if (has(flag)) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(text);
        }
    }

    /** Parses a nodes.conf flags field back into bits; unknown words are ignored, as Redis does. */
    static int parseFlags(String text) {
        int f = 0;
        for (String w : text.split(",")) {
            f |= switch (w) {
                case "myself" -> MYSELF;
                case "master" -> MASTER;
                case "slave" -> SLAVE;
                case "fail?" -> PFAIL;
                case "fail" -> FAIL;
                case "handshake" -> HANDSHAKE;
                case "noaddr" -> NOADDR;
                case "nofailover" -> NOFAILOVER;
                default -> 0;
            };
        }
        return f;
    }
}
