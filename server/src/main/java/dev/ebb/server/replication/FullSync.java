package dev.ebb.server.replication;

import dev.ebb.server.Client;
import dev.ebb.server.Server;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One snapshot sent to the replicas that wait for it (Redis's startBgsaveForReplication and
 * updateSlavesWaitingBgsave), without stopping the loop.
 *
 * <p><b>Idea.</b> At {@link #start} the loop records the replication offset and begins a
 * point-in-time {@code BackgroundSave} (the snapshot is the keyspace as of that offset), tells each
 * replica {@code +FULLRESYNC <replid> <offset>} and forces a SELECT into the stream. From then on the
 * stream is buffered per replica ({@link ReplicaLink#pending}).
 * <ul>
 *   <li><b>Disk-based</b>: the save writes {@code dir/dbfilename} as any BGSAVE (with the replication
 *   AUX fields); when it is done a sender thread streams the file as {@code $<len>\r\n<bytes>}.
 *   Replicas that arrive while it is being written join it: they get the same offset and a copy of
 *   the stream buffered for the first one (Redis's reuse of a BGSAVE in progress).</li>
 *   <li><b>Diskless</b> ({@code repl-diskless-sync yes}, replicas that sent {@code capa eof}): the
 *   save thread writes the RDB straight to the sockets, framed as {@code $EOF:<40 chars>\r\n} before
 *   and the same 40 chars after.</li>
 * </ul>
 * Socket writes come from the save or sender thread in 64 KB pieces, each waiting until every live
 * channel is writable again, so a slow replica holds the transfer back rather than filling memory.
 * When the last byte is queued the loop writes the buffered stream and the replicas are online.
 * Netty keeps the order: the loop's writes before the transfer are flushed before it starts, and the
 * loop learns of the end only after the thread queued its last piece.
 */
final class FullSync {
    private static final Logger LOG = LoggerFactory.getLogger(FullSync.class);
    private static final int PIECE = 64 * 1024;

    private final ReplicationPrimary primary;
    private final Server server;
    final boolean diskless;
    final List<ReplicaLink> links = new ArrayList<>();
    private long offset;
    private String replid;
    private byte[] eofMark;
    /** True while the snapshot is being written: a disk-based sync may still take replicas in. */
    boolean saving;

    FullSync(ReplicationPrimary primary, Server server, boolean diskless) {
        this.primary = primary;
        this.server = server;
        this.diskless = diskless;
    }

    /** Starts the snapshot for {@code waiting} (loop thread; no save may be running). */
    void start(List<ReplicaLink> waiting, SplittableRandom random) {
        ReplicationState state = server.replication();
        primary.stream().forceSelect();
        offset = state.offset();
        replid = state.replid();
        boolean functionsOnly = true;
        for (ReplicaLink link : waiting) {
            attach(link);
            functionsOnly &= link.functionsOnly;
        }
        Map<String, byte[]> aux = new LinkedHashMap<>();
        // A primary's stream starts with a SELECT after this point (forceSelect); a replica proxies its
        // primary's stream, which goes on in the database its master client has selected.
        int streamDb = state.replica() && server.primaryLink() != null ? server.primaryLink().streamDb() : 0;
        aux.put("repl-stream-db", ascii(Integer.toString(streamDb)));
        aux.put("repl-id", ascii(replid));
        aux.put("repl-offset", ascii(Long.toString(offset)));
        OutputStream out = null;
        if (diskless) {
            eofMark = ascii(ReplicationState.randomId(random));
            for (ReplicaLink link : links) {
                link.client.reply().raw(ascii("$EOF:" + new String(eofMark, StandardCharsets.US_ASCII) + "\r\n"));
            }
            out = new SocketOutput(channels());
        }
        for (ReplicaLink link : links) {
            server.flushNow(link.client);
        }
        saving = true;
        LOG.info("Starting BGSAVE for SYNC with target: {}", diskless ? "replicas sockets" : "disk");
        server.persistence().startReplicationSave(aux, out, diskless && functionsOnly, this::saveDone);
    }

    /** A replica that arrives while this disk-based snapshot is written: same offset, same buffered stream. */
    void join(ReplicaLink link) {
        ReplicaLink first = links.isEmpty() ? null : links.get(0);
        attach(link);
        if (first != null && first.pending != null) {
            link.buffer(first.pending.toByteArray(), 0, first.pending.size());
        }
        LOG.info("Waiting for end of BGSAVE for SYNC");
    }

    private void attach(ReplicaLink link) {
        link.sync = this;
        link.syncOffset = offset;
        link.state = ReplicaLink.State.WAIT_BGSAVE_END;
        link.pending = null;
        links.add(link);
        if (!link.oldProtocol) {
            link.client.reply().raw(ascii("+FULLRESYNC " + replid + " " + offset + "\r\n"));
            server.wroteTo(link.client);
        }
    }

    /** The save ended (loop thread): send the file, or finish the diskless transfer; or drop the replicas. */
    private void saveDone(IOException failure) {
        saving = false;
        links.removeIf(link -> link.client.closing());
        if (failure != null) {
            LOG.warn("SYNC failed. BGSAVE child returned an error");
            for (ReplicaLink link : links) {
                link.client.kill();
            }
            primary.syncEnded(this);
            return;
        }
        if (diskless) {
            for (ReplicaLink link : links) {
                link.client.reply().raw(eofMark);
            }
            LOG.info("Diskless rdb transfer, done reading from pipe, {} replicas still up.", links.size());
            finish();
            return;
        }
        for (ReplicaLink link : links) {
            link.state = ReplicaLink.State.SEND_BULK;
        }
        Path file = server.persistence().rdbPath();
        List<Channel> channels = channels();
        Thread sender = new Thread(() -> send(file, channels), "ebb-repl-send");
        sender.setDaemon(true);
        sender.start();
    }

    /** The sender thread: {@code $<len>\r\n} and the file's bytes to every channel, then back to the loop. */
    private void send(Path file, List<Channel> channels) {
        boolean ok;
        try (InputStream in = Files.newInputStream(file); SocketOutput out = new SocketOutput(channels)) {
            out.write(ascii("$" + Files.size(file) + "\r\n"));
            in.transferTo(out);
            out.flush();
            ok = true;
        } catch (IOException e) {
            LOG.warn("Failed sending the RDB file to replicas: {}", e.getMessage());
            ok = false;
        }
        boolean sent = ok;
        server.runOnLoop(() -> {
            if (!sent) {
                links.forEach(link -> link.client.kill());
                primary.syncEnded(this);
                return;
            }
            finish();
        });
    }

    /** Every replica of this sync is online: its buffered stream follows the snapshot. */
    private void finish() {
        long now = server.nowMs();
        for (ReplicaLink link : links) {
            Client c = link.client;
            link.sync = null;
            if (c.closing()) {
                continue;
            }
            if (link.rdbOnly) {
                server.wroteTo(c);
                c.closeAfterReply();
                continue;
            }
            link.state = ReplicaLink.State.ONLINE;
            link.ackTimeMs = now;
            if (link.pending != null) {
                c.reply().raw(link.pending.toByteArray());
                link.pending = null;
            }
            server.wroteTo(c);
            LOG.info("Synchronization with replica {}:{} succeeded", link.ip(), link.listeningPort);
        }
        primary.syncEnded(this);
    }

    private List<Channel> channels() {
        List<Channel> channels = new ArrayList<>(links.size());
        for (ReplicaLink link : links) {
            channels.add(link.client.channel());
        }
        return channels;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Bytes to several sockets from a thread that is not their event loop: buffered into pieces, each
     * written to every channel still open once it is writable (bounded memory per replica). Fails
     * when no channel is left open.
     */
    static final class SocketOutput extends OutputStream {
        private final List<Channel> channels;
        private final byte[] piece = new byte[PIECE];
        private int used;

        SocketOutput(List<Channel> channels) {
            this.channels = channels;
        }

        @Override
        public void write(int b) throws IOException {
            if (used == piece.length) {
                flushPiece();
            }
            piece[used++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (used == piece.length) {
                    flushPiece();
                }
                int n = Math.min(len, piece.length - used);
                System.arraycopy(b, off, piece, used, n);
                used += n;
                off += n;
                len -= n;
            }
        }

        @Override
        public void flush() throws IOException {
            flushPiece();
        }

        private void flushPiece() throws IOException {
            if (used == 0) {
                return;
            }
            ByteBuf buf = Unpooled.copiedBuffer(piece, 0, used);
            used = 0;
            boolean anyOpen = false;
            try {
                for (Channel ch : channels) {
                    while (ch.isActive() && !ch.isWritable()) {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                    if (ch.isActive()) {
                        anyOpen = true;
                        ch.writeAndFlush(buf.retainedDuplicate(), ch.voidPromise());
                    }
                }
            } finally {
                buf.release();
            }
            if (!anyOpen) {
                throw new IOException("every replica of the transfer disconnected");
            }
        }
    }
}
