package dev.ebb.server.replication;

import dev.ebb.server.MasterClient;
import dev.ebb.server.Server;
import dev.ebb.server.config.ServerConfig;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica side of replication (Redis's replication.c for a replica): REPLICAOF, the link to the
 * primary and its state, the full sync's load, the applied stream and the offsets, INFO and ROLE.
 *
 * <p><b>Idea.</b> The connection lives on a Netty event loop of its own ({@link LinkHandler}): the
 * handshake, the RDB transfer into a temp file and the reading of the stream never run on the
 * command loop. What the link learns comes to this class as tasks on the loop, each checked against
 * the current link (a task of a link that was replaced meanwhile is dropped). A full sync loads the
 * file on a thread of its own into fresh databases, swapped in on the loop
 * ({@link dev.ebb.server.persistence.Persistence#loadSyncPayload}); stream bytes that arrive during the
 * load wait here. Then each complete command of the stream runs as the {@link MasterClient}, and its
 * bytes are fed to {@link ReplicationState}: the offset counts the bytes of complete commands applied
 * (a MULTI ... EXEC counts when its EXEC has run, as Redis's reploff), and this node's own replicas and
 * backlog receive the primary's bytes verbatim.
 *
 * <p><b>Time.</b> Once a second (while a primary is set) a timer on the loop connects if the link is
 * down, sends {@code REPLCONF ACK <offset>}, and drops a link silent for {@code repl-timeout}. Link
 * times are wall-clock times, not the command clock (which a test may drive by hand).
 *
 * <p>Loop thread only, except {@link #post}, which the link's thread calls.
 */
public final class PrimaryLink {
    private static final Logger LOG = LoggerFactory.getLogger(PrimaryLink.class);
    private static final int DEFAULT_BACKLOG_SIZE = 1024 * 1024;

    /** Redis's repl_state, as ROLE names it. */
    public enum LinkState {
        NONE("none"), CONNECT("connect"), CONNECTING("connecting"), HANDSHAKE("handshake"), TRANSFER("sync"),
        CONNECTED("connected");

        private final String roleName;

        LinkState(String roleName) {
            this.roleName = roleName;
        }

        public String roleName() {
            return roleName;
        }
    }

    private final Server server;
    private ScheduledExecutorService loop;
    private EventLoopGroup group;
    private ScheduledFuture<?> timer;

    private String host;
    private int port;
    private LinkState state = LinkState.NONE;
    private Channel channel;
    private LinkHandler link;
    private MasterClient master;
    private final StreamParser parser = new StreamParser();
    /** Stream bytes received while the full sync's file loads. */
    private final List<byte[]> waiting = new ArrayList<>();
    private boolean loadingPayload;
    private String syncId;
    private long syncOffset;
    /** The database the primary's stream has selected; kept across reconnections as Redis's cached master. */
    private int streamDb;
    /** Whether this node's replid and offset name a point in a history a primary may continue (PSYNC). */
    private boolean cached;
    /** Bytes of stream received (Redis's read_reploff). */
    private long readOffset;
    private long lastIoMs;
    /** When the link went down (ms), or 0 if it was never up. */
    private long downSinceMs;
    private boolean startupResume = true;

    public PrimaryLink(Server server) {
        this.server = server;
    }

    /** The loop's executor, which runs the link's tasks and the once-a-second timer. */
    public void useLoop(ScheduledExecutorService executor) {
        this.loop = executor;
    }

    /** Whether this node is a replica (REPLICAOF host port in force). */
    public boolean active() {
        return host != null;
    }

    public LinkState state() {
        return state;
    }

    /** Whether the link is up and synced (Redis's REPL_STATE_CONNECTED). */
    public boolean connected() {
        return state == LinkState.CONNECTED;
    }

    /**
     * Milliseconds since the primary was last heard from while the link is up, or since the link went
     * down; a replica that never synced reports Long.MAX_VALUE / 2, as Redis's data age from time zero.
     */
    public long dataAgeMs() {
        long now = System.currentTimeMillis();
        if (state == LinkState.CONNECTED) {
            return now - lastIoMs;
        }
        return downSinceMs == 0 ? Long.MAX_VALUE / 2 : now - downSinceMs;
    }

    /** The database the primary's stream has selected (RDB {@code repl-stream-db}). */
    public int streamDb() {
        return master != null ? master.db() : streamDb;
    }

    // ---------------------------------------------------------------- REPLICAOF

    /** Start-up with {@code replicaof host port}: follows it once the data set has loaded. */
    public void startFromConfig() {
        List<String> target = server.config().replicaof();
        if (!target.isEmpty()) {
            follow(target.get(0), Integer.parseInt(target.get(1)), false);
        }
    }

    /**
     * REPLICAOF host port: forgets the current link and follows {@code host:port}. The replication id
     * and offset stay: the new primary may continue them with PSYNC (a promoted sibling).
     *
     * @return false if this is already the primary followed (Redis's "Already connected")
     */
    public boolean replicaOf(String newHost, int newPort) {
        if (newHost.equalsIgnoreCase(host) && newPort == port) {
            return false;
        }
        follow(newHost, newPort, true);
        return true;
    }

    private void follow(String newHost, int newPort, boolean runtime) {
        boolean wasPrimary = host == null;
        dropLink();
        server.blockingKeys().unblockAll(dev.ebb.server.command.Errors.UNBLOCKED_ROLE_CHANGE);
        host = newHost;
        port = newPort;
        server.config().replicaof(List.of(newHost, Integer.toString(newPort)));
        ReplicationState r = server.replication();
        if (wasPrimary) {
            // As Redis's replicationCacheMasterUsingMyself: our own history is what we offer the new primary.
            // No backlog yet, as in Redis: the first sync (or +CONTINUE) creates it, so a node that never
            // synced keeps offset 0.
            cached = runtime;
            r.replica(true);
            server.expiryMode(dev.ebb.storage.Database.ExpiryMode.HIDE);
        }
        startupResume = !runtime;
        if (wasPrimary) {
            downSinceMs = 0;
        }
        state = LinkState.CONNECT;
        LOG.info("Connecting to MASTER {}:{}", host, port);
        startTimer();
        if (runtime) {
            connect();
        }
    }

    /**
     * FAILOVER's hand-over: this primary follows {@code newHost:newPort}, its PSYNC carrying
     * {@code FAILOVER} while {@link Failover} is in progress.
     */
    public void failoverTo(String newHost, int newPort) {
        follow(newHost, newPort, true);
    }

    /** The target refused {@code PSYNC … FAILOVER}: the failover aborts (and this node is a primary again). */
    void failoverRefused(LinkHandler handler) {
        if (handler == link) {
            server.replicationPrimary().failover().pSyncAnswered(false);
        }
    }

    /**
     * REPLICAOF NO ONE: this node becomes a primary, keeping its data. The old primary's id becomes
     * {@code replid2} so that the other replicas of that primary can continue here with PSYNC.
     */
    public void promote() {
        if (host == null) {
            return;
        }
        dropLink();
        host = null;
        port = 0;
        state = LinkState.NONE;
        server.config().replicaof(List.of());
        ReplicationState r = server.replication();
        r.shiftReplicationId();
        r.replica(false);
        server.replicationPrimary().historyChanged();
        server.expiryMode(dev.ebb.storage.Database.ExpiryMode.DELETE);
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        LOG.info("MASTER MODE enabled");
    }

    // ---------------------------------------------------------------- the connection

    private void startTimer() {
        if (timer == null && loop != null) {
            timer = loop.scheduleAtFixedRate(this::cron, 1, 1, TimeUnit.SECONDS);
        }
    }

    private void connect() {
        if (server.persistence().loading() || loop == null) {
            return;
        }
        if (startupResume) {
            startupResume = false;
            resumeFromLoadedFile();
        }
        ServerConfig config = server.config();
        ReplicationState r = server.replication();
        String psyncId = cached ? r.replid() : null;
        Path temp = config.dir().resolve("temp-" + (System.currentTimeMillis() / 1000) + "."
                + ProcessHandle.current().pid() + ".rdb");
        int listeningPort = config.replication().replicaAnnouncePort() != 0 ? config.replication().replicaAnnouncePort() : server.boundPort();
        LinkHandler.Handshake handshake = new LinkHandler.Handshake(config.replication().masteruser(), config.replication().masterauth(),
                listeningPort, config.replication().replicaAnnounceIp(), psyncId, r.offset() + 1, temp,
                server.replicationPrimary().failover().handingOver());
        LinkHandler handler = new LinkHandler(this, handshake);
        if (group == null) {
            group = new NioEventLoopGroup(1, new DefaultThreadFactory("ebb-replica-link", true));
        }
        link = handler;
        state = LinkState.CONNECTING;
        lastIoMs = System.currentTimeMillis();
        LOG.info("MASTER <-> REPLICA sync started");
        ChannelFuture future = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.replication().replTimeout() * 1000)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(handler);
                    }
                })
                .connect(host, port);
        channel = future.channel();
        future.addListener(f -> {
            if (!f.isSuccess()) {
                String reason = f.cause() == null ? "unknown" : f.cause().getMessage();
                post(() -> {
                    if (link == handler) {
                        LOG.warn("Error condition on socket for SYNC: {}", reason);
                        link = null;
                        channel = null;
                        state = LinkState.CONNECT;
                    }
                });
            }
        });
    }

    /** Start-up after loading an RDB that records a replication id and offset: offer them with PSYNC. */
    private void resumeFromLoadedFile() {
        String id = server.persistence().loadedReplId();
        long offset = server.persistence().loadedReplOffset();
        if (id != null && offset >= 0) {
            server.replication().adopt(id, offset);
            streamDb = server.persistence().loadedReplStreamDb();
            cached = true;
            LOG.info("Using the replication id {} and offset {} of the loaded file for a partial resync", id, offset);
        }
    }

    /** Runs {@code task} on the loop; dropped if the server has stopped. Any thread. */
    void post(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException stopped) {
            LOG.debug("Server stopped before a replication event ran");
        }
    }

    void handshakeStarted(LinkHandler handler) {
        if (handler == link && state == LinkState.CONNECTING) {
            state = LinkState.HANDSHAKE;
            lastIoMs = System.currentTimeMillis();
        }
    }

    void fullResync(LinkHandler handler, String id, long offset) {
        if (handler != link) {
            return;
        }
        state = LinkState.TRANSFER;
        syncId = id;
        syncOffset = offset;
        waiting.clear();
        server.replicationPrimary().failover().pSyncAnswered(true);
    }

    void payloadReceived(LinkHandler handler, Path file) {
        if (handler != link) {
            deleteQuietly(file);
            return;
        }
        loadingPayload = true;
        LOG.info("MASTER <-> REPLICA sync: Flushing old data");
        server.persistence().loadSyncPayload(file, () -> synced(handler), reason -> {
            loadingPayload = false;
            LOG.warn("{}", reason);
            if (handler == link) {
                channel.close();
            }
        });
    }

    /** The full sync's data set is in place: adopt the primary's history and apply the stream. */
    private void synced(LinkHandler handler) {
        loadingPayload = false;
        ReplicationState r = server.replication();
        r.createBacklog(DEFAULT_BACKLOG_SIZE);
        r.adopt(syncId, syncOffset);
        server.replicationPrimary().historyChanged();
        cached = true;
        streamDb = server.persistence().loadedReplStreamDb();
        readOffset = syncOffset;
        LOG.info("MASTER <-> REPLICA sync: Finished with success");
        if (handler != link) {
            return;
        }
        goOnline(handler);
        sendAck();
        List<byte[]> held = new ArrayList<>(waiting);
        waiting.clear();
        for (byte[] bytes : held) {
            streamed(handler, bytes);
        }
    }

    void continued(LinkHandler handler, String newId) {
        if (handler != link) {
            return;
        }
        server.replicationPrimary().failover().pSyncAnswered(true);
        ReplicationState r = server.replication();
        if (newId != null && !newId.equals(r.replid())) {
            LOG.info("Master replication ID changed to {}", newId);
            r.followNewId(newId);
            server.replicationPrimary().historyChanged();
        }
        r.createBacklog(DEFAULT_BACKLOG_SIZE);
        readOffset = r.offset();
        goOnline(handler);
    }

    private void goOnline(LinkHandler handler) {
        state = LinkState.CONNECTED;
        lastIoMs = System.currentTimeMillis();
        master = new MasterClient(server, host + ":" + port);
        if (streamDb != 0) {
            master.select(streamDb);
        }
        parser.reset();
    }

    /** Bytes of the primary's stream: runs every complete command. */
    void streamed(LinkHandler handler, byte[] bytes) {
        if (handler != link) {
            return;
        }
        if (master == null) {
            waiting.add(bytes);
            return;
        }
        if (dropIfKilled()) {
            return;
        }
        lastIoMs = System.currentTimeMillis();
        readOffset += bytes.length;
        parser.append(bytes, 0, bytes.length);
        ReplicationState r = server.replication();
        byte[][] argv;
        try {
            while ((argv = parser.next()) != null) {
                if (argv.length > 0 && isGetAck(argv)) {
                    sendAck();
                } else if (argv.length > 0 && !master.run(argv)) {
                    LOG.warn("Unknown command '{}' from the master, skipped",
                            new String(argv[0], StandardCharsets.ISO_8859_1));
                }
                if (!master.inMulti()) {
                    int from = parser.mark();
                    r.feed(parser.buffer(), from, parser.commandEnd() - from);
                    parser.release(parser.commandEnd());
                }
                if (handler != link || master == null) {
                    return;
                }
            }
        } catch (IllegalStateException e) {
            LOG.warn("{}", e.getMessage());
            channel.close();
        }
    }

    /** CLIENT KILL of the master client: drop the link (it reconnects and continues with PSYNC). */
    private boolean dropIfKilled() {
        if (master == null || !master.killed()) {
            return false;
        }
        LOG.info("Master client killed: dropping the link with the master");
        if (channel != null) {
            channel.close();
        }
        return true;
    }

    private static boolean isGetAck(byte[][] argv) {
        return argv.length >= 2 && ascii(argv[0]).equalsIgnoreCase("replconf")
                && ascii(argv[1]).equalsIgnoreCase("getack");
    }

    private void sendAck() {
        Channel ch = channel;
        if (ch != null && state == LinkState.CONNECTED) {
            ch.writeAndFlush(Unpooled.wrappedBuffer(
                    LinkHandler.command("REPLCONF", "ACK", Long.toString(server.replication().offset()))));
        }
    }

    void linkClosed(LinkHandler handler) {
        if (handler != link) {
            return;
        }
        LOG.info("Connection with master lost.");
        closeMaster();
        link = null;
        channel = null;
        if (host != null) {
            state = LinkState.CONNECT;
            downSinceMs = System.currentTimeMillis();
        }
    }

    private void dropLink() {
        LinkHandler old = link;
        link = null;
        if (channel != null) {
            channel.close();
            channel = null;
        }
        if (old != null && state == LinkState.CONNECTED) {
            downSinceMs = System.currentTimeMillis();
        }
        closeMaster();
        waiting.clear();
    }

    private void closeMaster() {
        if (master != null) {
            streamDb = master.db();
            master.close();
            master = null;
        }
        parser.reset();
    }

    /** Once a second while following a primary: reconnect, ACK, time out a silent link. */
    private void cron() {
        if (host == null) {
            return;
        }
        long now = System.currentTimeMillis();
        long timeoutMs = server.config().replication().replTimeout() * 1000L;
        switch (state) {
            case CONNECT -> connect();
            case CONNECTING, HANDSHAKE, TRANSFER -> {
                long last = Math.max(lastIoMs, link == null ? 0 : link.lastIoMillis());
                if (!loadingPayload && now - last > timeoutMs) {
                    LOG.warn("Timeout connecting to the MASTER...");
                    timeOut();
                }
            }
            case CONNECTED -> {
                if (dropIfKilled()) {
                    return;
                }
                if (now - lastIoMs > timeoutMs) {
                    LOG.warn("MASTER timeout: no data nor PING received...");
                    timeOut();
                } else {
                    sendAck();
                }
            }
            default -> {
            }
        }
    }

    private void timeOut() {
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        } else {
            state = LinkState.CONNECT;
        }
    }

    /** Stops the link's thread (server shutdown). */
    public void stop() {
        if (timer != null) {
            timer.cancel(false);
        }
        if (channel != null) {
            channel.close();
        }
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    // ---------------------------------------------------------------- INFO and ROLE

    /**
     * The replica's lines of INFO replication after {@code role:slave}, in Redis 7.2's order, up to
     * {@code replica_announced}.
     */
    public void appendInfo(StringBuilder out) {
        long nowMs = System.currentTimeMillis();
        line(out, "master_host", host);
        line(out, "master_port", port);
        line(out, "master_link_status", state == LinkState.CONNECTED ? "up" : "down");
        line(out, "master_last_io_seconds_ago", master != null ? (nowMs - lastIoMs) / 1000 : -1);
        line(out, "master_sync_in_progress", state == LinkState.TRANSFER ? 1 : 0);
        long applied = server.replication().offset();
        line(out, "slave_read_repl_offset", master != null ? readOffset : applied);
        line(out, "slave_repl_offset", applied);
        if (state == LinkState.TRANSFER && link != null) {
            long total = link.transferSize();
            long read = link.transferRead();
            line(out, "master_sync_total_bytes", total);
            line(out, "master_sync_read_bytes", read);
            line(out, "master_sync_left_bytes", total < 0 ? -1 : total - read);
            line(out, "master_sync_perc", String.format("%.2f", total <= 0 ? 0.0 : read * 100.0 / total));
            line(out, "master_sync_last_io_seconds_ago", (System.currentTimeMillis() - link.lastIoMillis()) / 1000);
        }
        if (state != LinkState.CONNECTED) {
            line(out, "master_link_down_since_seconds", downSinceMs == 0 ? -1 : (nowMs - downSinceMs) / 1000);
        }
        ServerConfig config = server.config();
        line(out, "slave_priority", config.replication().replicaPriority());
        line(out, "slave_read_only", config.replication().replicaReadOnly() ? 1 : 0);
        line(out, "replica_announced", config.replication().replicaAnnounced() ? 1 : 0);
    }

    /** ROLE on a replica: slave, host, port, state, offset. */
    public void role(dev.ebb.resp.RespWriter w) {
        w.arrayHeader(5);
        w.bulk("slave");
        w.bulk(host);
        w.integer(port);
        w.bulk(state.roleName());
        w.integer(state == LinkState.CONNECTED ? server.replication().offset() : -1);
    }

    private static void line(StringBuilder out, String name, Object value) {
        out.append(name).append(':').append(value).append("\r\n");
    }

    private static String ascii(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (java.io.IOException e) {
            LOG.debug("Could not delete {}", file, e);
        }
    }
}
