package dev.ebb.server;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.storage.Database;
import io.netty.channel.Channel;

/**
 * One connection's state. Everything here except the immutable identity fields is owned by the
 * command loop thread; the connection's IO thread only hands commands over and writes out the
 * bytes {@link #reply()} has accumulated.
 */
public final class Client {
    /** CLIENT LIST flag letters Ebb can set (Redis's letters). */
    public static final int FLAG_CLOSE_AFTER_REPLY = 1;
    public static final int FLAG_NO_EVICT = 1 << 1;
    /** CLIENT NO-TOUCH: the client's commands leave keys' access times alone. */
    public static final int FLAG_NO_TOUCH = 1 << 2;
    /** MONITOR: the client receives every command the server runs. */
    public static final int FLAG_MONITOR = 1 << 3;
    /**
     * The {@code timeout} directive does not apply: features whose clients legitimately stay
     * silent (subscribers, clients blocked in a command) set it while in that state, as Redis
     * exempts them. See {@link #exemptFromIdleTimeout()}.
     */
    public static final int FLAG_IDLE_TIMEOUT_EXEMPT = 1 << 4;
    /** CLIENT REPLY OFF: nothing the client's own commands reply is sent. */
    public static final int FLAG_REPLY_OFF = 1 << 5;
    /** CLIENT REPLY SKIP was the last command: the next command's reply is dropped. */
    public static final int FLAG_REPLY_SKIP_NEXT = 1 << 6;
    /** The reply of the command being run is dropped (the command after CLIENT REPLY SKIP). */
    public static final int FLAG_REPLY_SKIP = 1 << 7;
    /** CLIENT TRACKING ON: the client is told when keys it read (or, in BCAST, any matching key) change. */
    public static final int FLAG_TRACKING = 1 << 8;
    /** Tracking in broadcasting mode (BCAST): invalidations by prefix, no per-key table. */
    public static final int FLAG_TRACKING_BCAST = 1 << 9;
    /** Tracking OPTIN: only reads right after CLIENT CACHING YES are tracked. */
    public static final int FLAG_TRACKING_OPTIN = 1 << 10;
    /** Tracking OPTOUT: reads right after CLIENT CACHING NO are not tracked. */
    public static final int FLAG_TRACKING_OPTOUT = 1 << 11;
    /** Tracking NOLOOP: no invalidation for keys the client changed itself. */
    public static final int FLAG_TRACKING_NOLOOP = 1 << 12;
    /** CLIENT CACHING YES|NO was given for the next command (or the next transaction). */
    public static final int FLAG_TRACKING_CACHING = 1 << 13;
    /** The client tracking notifications are redirected to has gone (CLIENT LIST flag {@code R}). */
    public static final int FLAG_TRACKING_BROKEN_REDIR = 1 << 14;
    /** ASKING was sent: the next command may use a slot this node is importing (Redis's CLIENT_ASKING). */
    public static final int FLAG_ASKING = 1 << 15;
    /** The connection this replica receives its primary's stream on (CLIENT LIST {@code flags=M}). */
    public static final int FLAG_MASTER = 1 << 16;
    /** The client an append-only file is replayed as (Redis's AOF client, {@code CLIENT_ID_AOF}). */
    public static final int FLAG_AOF_REPLAY = 1 << 17;
    /** READONLY was sent: a cluster replica serves this client's reads of its primary's slots (CLIENT_READONLY). */
    public static final int FLAG_READONLY = 1 << 18;
    /** Every tracking flag: CLIENT TRACKING OFF and disconnection clear them all. */
    public static final int TRACKING_FLAGS = FLAG_TRACKING | FLAG_TRACKING_BCAST | FLAG_TRACKING_OPTIN
            | FLAG_TRACKING_OPTOUT | FLAG_TRACKING_NOLOOP | FLAG_TRACKING_CACHING | FLAG_TRACKING_BROKEN_REDIR;

    private final long id;
    private final Channel channel;
    private final Server server;
    private final RespWriter reply;
    private final String addr;
    private final String laddr;
    private long createdMs;

    private Database db;
    private byte[] name;
    private String libName = "";
    private String libVersion = "";
    private long lastInteractionMs;
    private CommandSpec lastCommand;
    /** Arguments of the command being run, or of the last one (the slow log of a blocked command). */
    private byte[][] lastArgv;
    private int flags;
    private boolean authenticated;
    /** The ACL user the connection runs as: {@code default} until AUTH or HELLO AUTH says otherwise. */
    private dev.ebb.server.acl.User user;
    /** Replies were handed to the channel since the socket's latest read: set by the loop, cleared by the IO thread. */
    private volatile boolean repliedSinceRead;
    private boolean closed;
    private Transaction transaction;

    // ---- pub/sub and output-buffer limits (dev.ebb.server.pubsub, OutputBufferLimiter) ----
    private final dev.ebb.server.pubsub.Subscriptions subscriptions = new dev.ebb.server.pubsub.Subscriptions();
    /** When the output first went over the soft limit (server ms), or {@link OutputBufferLimiter#NOT_OVER}. */
    long softLimitReachedMs = OutputBufferLimiter.NOT_OVER;
    /** True while the client is queued in {@link Server#markPendingWrite} for the next flush. */
    boolean pendingWrite;
    private boolean denyBlocking;
    /** Where the muted command's reply began ({@link #muteStart}), or -1 when replies are sent. */
    private long muteMark = -1;
    private boolean script;

    // ---- client-side caching (ClientTracking) ----
    /** CLIENT TRACKING REDIRECT's client id, 0 for none. */
    private long trackingRedirect;
    /** BCAST prefixes in byte order, or null outside BCAST mode. */
    private java.util.TreeSet<byte[]> trackingPrefixes;

    // ---- replication (dev.ebb.server.replication) ----
    /** This connection's replica link once it sent SYNC or PSYNC, else null. */
    private dev.ebb.server.replication.ReplicaLink replicaLink;
    /** The replication offset after this client's last command (Redis's {@code woff}, what WAIT waits for). */
    private long replOffset;

    Client(long id, Channel channel, Server server, String addr, String laddr, long createdMs) {
        this.id = id;
        this.channel = channel;
        this.server = server;
        this.reply = new RespWriter(channel.alloc());
        // Every error reply counts in INFO errorstats, a script client's included (as Redis counts
        // the errors of the commands a script runs).
        this.reply.observeErrors(server.errorStats()::record);
        this.addr = addr;
        this.laddr = laddr;
        this.createdMs = createdMs;
        this.lastInteractionMs = createdMs;
        this.db = server.db(0);
        this.user = server.acl().defaultUser();
        authenticated(!server.requiresAuth());
    }

    public long id() {
        return id;
    }

    public Server server() {
        return server;
    }

    /** Where this client's replies are written; the loop writes it out once per event-loop turn. */
    public RespWriter reply() {
        return reply;
    }

    public Database db() {
        return db;
    }

    public void select(Database db) {
        this.db = db;
    }

    public int protocol() {
        return reply.protocol();
    }

    public void protocol(int version) {
        reply.protocol(version);
    }

    /** The connection name (CLIENT SETNAME), or null. */
    public byte[] name() {
        return name;
    }

    public void name(byte[] name) {
        this.name = name;
    }

    public String libName() {
        return libName;
    }

    public void libName(String libName) {
        this.libName = libName;
    }

    public String libVersion() {
        return libVersion;
    }

    public void libVersion(String libVersion) {
        this.libVersion = libVersion;
    }

    /** Remote address as {@code ip:port}. */
    public String addr() {
        return addr;
    }

    /** Local address as {@code ip:port}. */
    public String laddr() {
        return laddr;
    }

    /** Stamps the connection time; the loop calls it when it registers the client, with its own clock. */
    void connectedAt(long nowMs) {
        this.createdMs = nowMs;
        this.lastInteractionMs = nowMs;
    }

    public long createdMs() {
        return createdMs;
    }

    public long lastInteractionMs() {
        return lastInteractionMs;
    }

    void touch(long nowMs, CommandSpec command, byte[][] argv) {
        this.lastArgv = argv;
        touch(nowMs, command);
    }

    /** The arguments of the command being run, or of the last one run; null before the first. */
    byte[][] lastArgv() {
        return lastArgv;
    }

    void touch(long nowMs, CommandSpec command) {
        this.lastInteractionMs = nowMs;
        this.lastCommand = command;
    }

    /** The connection's RESP decoder (CLIENT LIST's query buffer figures); null without a connection. */
    public dev.ebb.resp.RespDecoder decoder() {
        return channel.pipeline().get(dev.ebb.resp.RespDecoder.class);
    }

    /** Whether the cron's idle timeout must leave this client alone: a subscriber, a blocked client, or {@link #FLAG_IDLE_TIMEOUT_EXEMPT}. */
    public boolean exemptFromIdleTimeout() {
        return hasFlag(FLAG_IDLE_TIMEOUT_EXEMPT) || subscriptions().active() || server.blockingKeys().isBlocked(this);
    }

    /** The last command run, or null before the first. */
    public CommandSpec lastCommand() {
        return lastCommand;
    }

    /**
     * Whether the connection has authenticated: by AUTH or HELLO ... AUTH, or by connecting while no
     * {@code requirepass} was set. Removing or setting {@code requirepass} later does not change it.
     */
    public boolean authenticated() {
        return authenticated;
    }

    /**
     * Whether commands other than the NO_AUTH ones are refused: the server requires a password and the
     * connection has not authenticated (Redis's {@code authRequired()}).
     */
    public boolean authRequired() {
        return !authenticated && server.requiresAuth();
    }

    /** The ACL user the connection runs as. */
    public dev.ebb.server.acl.User user() {
        return user;
    }

    /** Switches the ACL user: AUTH, HELLO AUTH, RESET, and a script client taking its caller's user. */
    public void user(dev.ebb.server.acl.User user) {
        this.user = user;
    }

    /** Sets the AUTH state; the connection's decoder limits what an unauthenticated client may send. */
    public void authenticated(boolean authenticated) {
        this.authenticated = authenticated;
        refreshDecoderAuth();
    }

    /** Tells the connection's decoder whether {@link #authRequired()}, after an AUTH or a {@code requirepass} change. */
    void refreshDecoderAuth() {
        dev.ebb.resp.RespDecoder decoder = decoder();
        if (decoder != null) {
            decoder.authRequired(authRequired());
        }
    }

    /** Whether the command about to run replies to nobody (CLIENT REPLY OFF, or SKIP's next command). */
    boolean replyMuted() {
        return (flags & (FLAG_REPLY_OFF | FLAG_REPLY_SKIP)) != 0;
    }

    /** Starts dropping what the command about to run replies (see {@link #muteEnd}). */
    void muteStart() {
        muteMark = reply.pendingBytes();
    }

    /** Drops what the muted command replied, pushes excepted; replies are sent again. */
    void muteEnd() {
        if (replyMuted()) {
            // Not after CLIENT REPLY ON, which cleared the flags before its +OK.
            reply.discardFrom(muteMark);
        }
        muteMark = -1;
    }

    /**
     * Before a pub/sub push is written to this client: a muted command's own reply so far is
     * dropped, as Redis sends pushes (subscribe confirmations, messages) even under CLIENT REPLY
     * OFF. Call {@link #afterPush} once the push is written.
     */
    public void beforePush() {
        if (muteMark >= 0) {
            reply.discardFrom(muteMark);
        }
    }

    /** After a push is written: it is kept whatever the muted command replies after it. */
    public void afterPush() {
        if (muteMark >= 0) {
            muteMark = reply.pendingBytes();
        }
    }

    /**
     * A command was processed: SKIP applies to the command after CLIENT REPLY SKIP only. A command
     * that blocked is done when it is served, times out or is unblocked.
     */
    void commandDone() {
        if ((flags & (FLAG_REPLY_SKIP | FLAG_REPLY_SKIP_NEXT)) != 0 && !server.blockingKeys().isBlocked(this)) {
            flags = (flags & FLAG_REPLY_SKIP_NEXT) != 0
                    ? (flags & ~FLAG_REPLY_SKIP_NEXT) | FLAG_REPLY_SKIP : flags & ~FLAG_REPLY_SKIP;
        }
    }

    /** Every flag bit at once (tests of several flags in one comparison). */
    int flags() {
        return flags;
    }

    public boolean hasFlag(int flag) {
        return (flags & flag) != 0;
    }

    /**
     * Whether this client replays what a primary or an AOF already decided (Redis's mustObeyClient):
     * arguments another node's or run's command accepted are not refused again.
     */
    public boolean mustObey() {
        return (flags & (FLAG_MASTER | FLAG_AOF_REPLAY)) != 0;
    }

    public void setFlag(int flag, boolean on) {
        flags = on ? flags | flag : flags & ~flag;
    }

    /**
     * Whether blocking commands must not block for this client (inside MULTI/EXEC or a script):
     * BLPOP and friends then answer as their non-blocking form would on an empty key.
     */
    public boolean denyBlocking() {
        return denyBlocking || inMulti();
    }

    /** Whether this is the client scripts run their commands as (Redis's CLIENT_SCRIPT). */
    public boolean inScript() {
        return script;
    }

    /** Set by scripting around the commands it runs (EXEC is covered by {@link #inMulti()}). */
    public void denyBlocking(boolean deny) {
        this.denyBlocking = deny;
    }

    void markScript() {
        this.script = true;
    }

    /** The id tracking notifications are redirected to (CLIENT GETREDIR), 0 when they come to this client. */
    public long trackingRedirect() {
        return trackingRedirect;
    }

    void trackingRedirect(long id) {
        this.trackingRedirect = id;
    }

    /** The BCAST prefixes in byte order (CLIENT TRACKINGINFO), or null when not broadcasting. */
    public java.util.SortedSet<byte[]> trackingPrefixes() {
        return trackingPrefixes;
    }

    void trackingPrefixes(java.util.TreeSet<byte[]> prefixes) {
        this.trackingPrefixes = prefixes;
    }

    /** The replica link of a connection that sent SYNC or PSYNC (CLIENT LIST flag {@code S}), else null. */
    public dev.ebb.server.replication.ReplicaLink replicaLink() {
        return replicaLink;
    }

    public void replicaLink(dev.ebb.server.replication.ReplicaLink link) {
        this.replicaLink = link;
    }

    /** The replication offset when this client's last write was propagated: WAIT waits for replicas to ack it. */
    public long replOffset() {
        return replOffset;
    }

    public void replOffset(long offset) {
        this.replOffset = offset;
    }

    /** Closes the connection once the replies produced so far are written (QUIT, protocol errors). */
    public void closeAfterReply() {
        flags |= FLAG_CLOSE_AFTER_REPLY;
    }

    public boolean closing() {
        return closed || hasFlag(FLAG_CLOSE_AFTER_REPLY);
    }

    /** Closes the connection now, dropping pending replies (CLIENT KILL). */
    public void kill() {
        closed = true;
        channel.close();
    }

    boolean closed() {
        return closed;
    }

    void markClosed() {
        closed = true;
        discardTransaction();
        reply.release();
    }

    public Channel channel() {
        return channel;
    }

    /** This client's MULTI/WATCH state, created on first use. */
    public Transaction transaction() {
        if (transaction == null) {
            transaction = new Transaction(server.watches());
        }
        return transaction;
    }

    /**
     * True from MULTI until EXEC or DISCARD has finished, including while EXEC runs the queued
     * commands: a blocking command must then not block but answer as if its timeout had passed.
     */
    public boolean inMulti() {
        return transaction != null && transaction.open();
    }

    /** A WATCHed key was changed: EXEC will fail (CLIENT LIST flag {@code d}). */
    public boolean watchTouched() {
        return transaction != null && transaction.touched();
    }

    /** Ends any transaction and forgets every WATCHed key (RESET, disconnect). */
    public void discardTransaction() {
        if (transaction != null) {
            transaction.discard();
        }
    }

    /** The socket's file descriptor with the native (epoll) transport; -1 where Netty has none (NIO). */
    public int fd() {
        return channel instanceof io.netty.channel.unix.UnixChannel
                ? ((io.netty.channel.unix.UnixChannel) channel).fd().intValue() : -1;
    }

    /** The channels, patterns and shard channels this client is subscribed to. */
    public dev.ebb.server.pubsub.Subscriptions subscriptions() {
        return subscriptions;
    }

    /**
     * Reply blocks waiting to be written, besides the one being filled: those the loop still holds
     * plus the buffers the channel holds (CLIENT LIST's {@code oll}, Redis's reply list length).
     */
    public long outputBlocks() {
        io.netty.channel.ChannelOutboundBuffer outbound = channel.unsafe().outboundBuffer();
        return reply.sealedBlocks() + (outbound == null ? 0 : outbound.size());
    }

    /**
     * Bytes waiting to be written (CLIENT LIST's {@code omem}, what output buffer limits are checked
     * against): this client's reply blocks, referenced values included, plus what the channel holds
     * and the socket has not taken.
     */
    public long outputBytes() {
        // The outbound buffer's total is a volatile the IO thread updates; it is null once closed.
        io.netty.channel.ChannelOutboundBuffer outbound = channel.unsafe().outboundBuffer();
        return reply.pendingBytes() + (outbound == null ? 0 : outbound.totalPendingWriteBytes());
    }

    /**
     * True if replies were handed to the socket since data last arrived on it: with the loop on a
     * thread of its own, an unauthenticated connection's commands run one per batch, each reply
     * written before the next command runs, so this, not {@link #outputBytes}, tells that the
     * current read has been answered already (Redis's {@code addAuthErrReply}). Any thread.
     */
    public boolean repliedSinceRead() {
        return repliedSinceRead;
    }

    void repliedSinceRead(boolean replied) {
        repliedSinceRead = replied;
    }
}
