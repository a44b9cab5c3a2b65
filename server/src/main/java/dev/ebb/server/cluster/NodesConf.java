package dev.ebb.server.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code cluster-config-file} (nodes.conf) in Redis 7.2's format: one line per node,
 * <pre>
 * id ip:port@cport,hostname,tls-port=0,shard-id=… flags master ping_sent pong_recv config_epoch link slots…
 * </pre>
 * with myself's open slots as {@code [slot->-id]} (migrating) and {@code [slot-<-id]} (importing),
 * and a last line {@code vars currentEpoch N lastVoteEpoch N}. CLUSTER NODES prints the same lines
 * without the aux fields. Written to a temporary file then renamed over the old one, so a crash
 * leaves the old or the new file, never half of one.
 */
public final class NodesConf {
    private NodesConf() {
    }

    /** The whole file. */
    public static String render(ClusterState cs) {
        StringBuilder sb = new StringBuilder();
        for (ClusterNode n : cs.nodes()) {
            sb.append(describe(cs, n, true, n.ip)).append('\n');
        }
        sb.append("vars currentEpoch ").append(cs.currentEpoch).append(" lastVoteEpoch ").append(cs.lastVoteEpoch)
                .append('\n');
        return sb.toString();
    }

    /**
     * One node's line (Redis's clusterGenNodeDescription).
     *
     * @param aux whether to add the aux fields (nodes.conf) or not (CLUSTER NODES)
     * @param ip the ip to print (CLUSTER NODES shows myself's as the client reached it when unknown)
     */
    public static String describe(ClusterState cs, ClusterNode n, boolean aux, String ip) {
        StringBuilder sb = new StringBuilder(128);
        sb.append(n.name).append(' ').append(ip).append(':').append(n.port).append('@').append(n.cport);
        if (!n.hostname.isEmpty()) {
            sb.append(',').append(n.hostname);
        }
        if (aux) {
            if (n.hostname.isEmpty()) {
                sb.append(',');
            }
            sb.append(",tls-port=0");
            if (!n.humanNodename.isEmpty()) {
                sb.append(",nodename=").append(n.humanNodename);
            }
            if (n.shardId != null) {
                sb.append(",shard-id=").append(n.shardId);
            }
        }
        sb.append(' ').append(n.flagsText()).append(' ').append(n.slaveof == null ? "-" : n.slaveof);
        ClusterNode master = n.slaveof == null ? null : cs.lookup(n.slaveof);
        long epoch = master != null ? master.configEpoch : n.configEpoch;
        sb.append(' ').append(n.pingSent).append(' ').append(n.pongReceived).append(' ').append(epoch).append(' ')
                .append(n.link != null && n.link.connected || n.isMyself() ? "connected" : "disconnected");
        for (int[] r : ClusterState.ranges(n)) {
            sb.append(' ').append(r[0]);
            if (r[1] != r[0]) {
                sb.append('-').append(r[1]);
            }
        }
        if (n.isMyself()) {
            for (int s = 0; s < HashSlots.SLOTS; s++) {
                if (cs.migratingTo[s] != null) {
                    sb.append(" [").append(s).append("->-").append(cs.migratingTo[s].name).append(']');
                } else if (cs.importingFrom[s] != null) {
                    sb.append(" [").append(s).append("-<-").append(cs.importingFrom[s].name).append(']');
                }
            }
        }
        return sb.toString();
    }

    /** Writes the file atomically (temp file, {@code fsync} or not, rename). */
    public static void save(ClusterState cs, Path file, boolean fsync) throws IOException {
        Path tmp = file.resolveSibling("temp-" + file.getFileName() + "-" + ProcessHandle.current().pid());
        try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.TRUNCATE_EXISTING, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(render(cs).getBytes(StandardCharsets.UTF_8)));
            if (fsync) {
                ch.force(true);
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Thrown for a nodes.conf that cannot be read back; Redis refuses to start on one. */
    public static final class CorruptException extends Exception {
        CorruptException(String message) {
            super(message);
        }
    }

    /**
     * Loads {@code text} into {@code cs}, replacing myself with the node flagged myself.
     *
     * @throws CorruptException on a line Redis would refuse
     */
    public static void load(ClusterState cs, String text, long now) throws CorruptException {
        List<String[]> open = new ArrayList<>();
        boolean sawMyself = false;
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.trim().split(" ");
            if (f[0].equals("vars")) {
                for (int i = 1; i + 1 < f.length; i += 2) {
                    if (f[i].equals("currentEpoch")) {
                        cs.currentEpoch = Long.parseLong(f[i + 1]);
                    } else if (f[i].equals("lastVoteEpoch")) {
                        cs.lastVoteEpoch = Long.parseLong(f[i + 1]);
                    }
                }
                continue;
            }
            if (f.length < 8) {
                throw new CorruptException("Unrecoverable error: corrupted cluster config file \"" + line + "\".");
            }
            ClusterNode n = cs.lookup(f[0]);
            if (n == null) {
                n = new ClusterNode(f[0], 0, now);
                cs.addNode(n);
            }
            String[] addr = f[1].split(",");
            int at = addr[0].lastIndexOf('@');
            int colon = addr[0].lastIndexOf(':', at < 0 ? addr[0].length() : at);
            if (colon < 0) {
                throw new CorruptException("Unrecoverable error: corrupted cluster config file \"" + line + "\".");
            }
            n.ip = addr[0].substring(0, colon);
            n.port = Integer.parseInt(addr[0].substring(colon + 1, at < 0 ? addr[0].length() : at));
            n.cport = at < 0 ? ClusterNode.busPort(n.port) : Integer.parseInt(addr[0].substring(at + 1));
            if (addr.length > 1) {
                n.hostname = addr[1];
            }
            for (int i = 2; i < addr.length; i++) {
                int eq = addr[i].indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String key = addr[i].substring(0, eq);
                String value = addr[i].substring(eq + 1);
                if (key.equals("shard-id")) {
                    n.shardId = value;
                } else if (key.equals("nodename")) {
                    n.humanNodename = value;
                }
            }
            n.flags = ClusterNode.parseFlags(f[2]);
            if (n.isMyself()) {
                sawMyself = true;
                cs.setMyself(n);
            }
            n.slaveof = f[3].equals("-") ? null : f[3];
            n.pingSent = Long.parseLong(f[4]) != 0 ? now : 0;
            n.pongReceived = Long.parseLong(f[5]) != 0 ? now : 0;
            n.configEpoch = Long.parseLong(f[6]);
            for (int i = 8; i < f.length; i++) {
                String s = f[i];
                if (s.startsWith("[")) {
                    open.add(new String[] {s, n.name});
                    continue;
                }
                int dash = s.indexOf('-');
                int start = Integer.parseInt(dash < 0 ? s : s.substring(0, dash));
                int end = dash < 0 ? start : Integer.parseInt(s.substring(dash + 1));
                for (int slot = start; slot <= end; slot++) {
                    cs.delSlot(slot);
                    cs.addSlot(n, slot);
                }
            }
        }
        if (!sawMyself) {
            throw new CorruptException("Unrecoverable error: corrupted cluster config file: no myself line.");
        }
        for (String[] o : open) {
            String s = o[0].substring(1, o[0].length() - 1);
            boolean migrating = s.contains("->-");
            String[] parts = s.split(migrating ? "->-" : "-<-");
            int slot = Integer.parseInt(parts[0]);
            ClusterNode other = cs.lookup(parts[1]);
            if (other != null) {
                if (migrating) {
                    cs.migratingTo[slot] = other;
                } else {
                    cs.importingFrom[slot] = other;
                }
            }
        }
        for (ClusterNode n : cs.nodes.values()) {
            ClusterNode master = cs.masterOf(n);
            if (n.has(ClusterNode.SLAVE) && master != null) {
                master.flags |= ClusterNode.MIGRATE_TO;
            }
        }
        if (cs.myself.shardId == null) {
            cs.myself.shardId = ClusterNode.randomName(cs.random);
        }
        cs.currentEpoch = Math.max(cs.currentEpoch, cs.maxEpoch());
    }
}
