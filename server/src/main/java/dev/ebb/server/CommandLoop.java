package dev.ebb.server;

import dev.ebb.resp.RespProtocolError;
import dev.ebb.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.concurrent.EventExecutor;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single thread that owns the keyspace. Connections hand it what they decoded; it runs the
 * commands in arrival order, collects each client's replies in its {@link RespWriter} and writes
 * them out once per event-loop turn, after the turn's input ({@link #flush}).
 *
 * <p>With {@code io-threads 1} the loop is the one Netty event loop that also does the IO, so a
 * batch runs inline as it is decoded, exactly like Redis. With more IO threads the loop is a
 * separate executor; each IO thread hands it one task per socket read (a batch), and the loop
 * writes the replies back with {@code writeAndFlush}, which Netty passes to the IO thread.
 */
final class CommandLoop {
    private static final Logger LOG = LoggerFactory.getLogger(CommandLoop.class);

    private final Server server;
    private final EventExecutor executor;
    private final AtomicLong nextClientId = new AtomicLong(1);
    private final Cron cron;
    /** The most {@link #writeNow} hands the channel in one piece (a slice of a larger referenced value). */
    static final int WRITE_PIECE = 256 * 1024;
    private boolean turnFlushScheduled;
    private final Runnable flushTurn = () -> {
        turnFlushScheduled = false;
        flushPendingWrites();
        ClientEviction.enforce(server());
    };

    CommandLoop(Server server, EventExecutor executor) {
        this.server = server;
        this.executor = executor;
        this.cron = new Cron(this);
        server.blockingKeys().attach(this);
        server.attach(this);
    }

    Cron cron() {
        return cron;
    }

    Server server() {
        return server;
    }

    EventExecutor executor() {
        return executor;
    }

    boolean inLoop() {
        return executor.inEventLoop();
    }

    /** Runs {@code task} on the loop thread: now if already there, else queued in order. */
    void run(Runnable task) {
        if (executor.inEventLoop()) {
            task.run();
        } else {
            executor.execute(task);
        }
    }

    /** A new client id, unique among all connections (the replication link's master client too). */
    long nextClientId() {
        return nextClientId.getAndIncrement();
    }

    /** Called on the IO thread when a connection opens; registration happens on the loop. */
    Client newClient(Channel channel) {
        server.stats().totalConnectionsReceived.incrementAndGet();
        Client c = new Client(nextClientId.getAndIncrement(), channel, server, address(channel.remoteAddress()),
                address(channel.localAddress()), server.nowMs());
        run(() -> register(c));
        return c;
    }

    private void register(Client c) {
        c.connectedAt(server.tick());
        byte[] refusal = ConnectionGate.refusal(server.config(), server.clients().size(), c.channel().remoteAddress());
        if (refusal != null) {
            server.stats().rejectedConnections.incrementAndGet();
            c.markClosed();
            c.channel().writeAndFlush(io.netty.buffer.Unpooled.wrappedBuffer(refusal))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        server.register(c);
    }

    /** Handles one decoded message: a command (byte[][]) or a protocol error. Loop thread only. */
    void handle(Client c, Object msg) {
        if (c.closing() || server.blockingKeys().holdIfBlocked(c, msg) || server.pause().holdIfHeld(c, msg)) {
            return;
        }
        if (msg instanceof byte[][]) {
            if (!c.replyMuted()) {
                server.call(c, (byte[][]) msg);
            } else {
                c.muteStart();
                server.call(c, (byte[][]) msg);
                c.muteEnd();
            }
            c.commandDone();
            if (c.outputBytes() >= server.outputLimitFloor()) {
                // As Redis checks after every reply it adds: a pipeline of big replies is cut at its
                // limit, not once the whole read has run.
                OutputBufferLimiter.enforce(server, c, server.nowMs());
            }
        } else if (msg instanceof RespProtocolError) {
            RespProtocolError error = (RespProtocolError) msg;
            if (error.reply()) {
                // Under CLIENT REPLY OFF the error is dropped too. Redis then leaves the connection
                // open (it closes after a reply that never comes); Ebb closes it.
                if (!c.replyMuted()) {
                    c.reply().error(error.message());
                }
            } else {
                LOG.warn("Closing client that reached max query buffer length: id={} addr={}", c.id(), c.addr());
            }
            c.closeAfterReply();
        }
    }

    /** Runs a batch handed over by an IO thread, then flushes. Loop thread only. */
    void handleBatch(Client c, List<Object> batch) {
        for (Object msg : batch) {
            handle(c, msg);
        }
        flush(c);
    }

    /**
     * Ends a client's batch: queues its replies (closing it instead if that puts it over its
     * output-buffer limit) and runs the after-batch expiry offer. The replies go out with every
     * other client's in one task that Netty runs once the reads of this event-loop turn are
     * handled, as Redis writes all replies in {@code beforeSleep}: the AOF first (under appendfsync
     * always one fsync covers every client served in the turn), then the sockets, then
     * {@code maxmemory-clients} on what they did not take. Writing each client as soon as its batch
     * ran woke the benchmark client once per socket instead of once per turn: with 50 pipelining
     * clients 15% of the loop's time went into those wake-ups (Redis: 4%).
     */
    void flush(Client c) {
        server.wroteTo(c);
        cron.afterBatch();
        if (!turnFlushScheduled) {
            turnFlushScheduled = true;
            executor.execute(flushTurn);
        }
    }

    /**
     * Writes out the clients pub/sub messages, notifications, MONITOR lines or deferred replies were
     * queued for, after the AOF: the writes behind those replies reach the file (and the disk under
     * appendfsync always) before any of them is sent.
     */
    void flushPendingWrites() {
        server.aof().beforeReplies();
        server.drainPendingWrites(this::writeNow);
    }

    /**
     * Gives one client's pending replies to its socket, as much as the channel takes: pieces of at
     * most {@link #WRITE_PIECE} bytes while the channel is writable (Netty's outbound buffer under
     * its high water mark). What is left waits in the client's {@link RespWriter}, where referenced
     * values cost no copy, and reading from the client stops until the channel drains
     * ({@link #resumeWrite}), so a client that does not read holds at most one read's worth of
     * commands' replies, all counted in its output buffer limits. Closes the client once everything
     * is written if it asked to be closed. No expiry offer: {@link BusyPump} writes with this while a
     * script runs, when no key may expire. Loop thread only.
     */
    void writeNow(Client c) {
        if (c.closed() || OutputBufferLimiter.enforce(server, c, server.nowMs())) {
            return;
        }
        Channel ch = c.channel();
        RespWriter reply = c.reply();
        ByteBuf piece = reply.next(WRITE_PIECE);
        if (piece != null) {
            c.repliedSinceRead(true);
        }
        while (piece != null) {
            server.stats().netOutputBytes.addAndGet(piece.readableBytes());
            if (!reply.hasPending() || !ch.isWritable()) {
                ch.writeAndFlush(piece, ch.voidPromise());
                break;
            }
            ch.write(piece, ch.voidPromise());
            piece = reply.next(WRITE_PIECE);
        }
        if (reply.hasPending()) {
            ch.config().setAutoRead(false);
        } else if (c.hasFlag(Client.FLAG_CLOSE_AFTER_REPLY)) {
            ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /**
     * The client's channel drained below its low water mark: writes what the client's replies still
     * hold, and reads from it again once nothing is left. Loop thread only.
     */
    void resumeWrite(Client c) {
        writeNow(c);
        Channel ch = c.channel();
        if (!c.closing() && !c.reply().hasPending() && ch.isWritable() && !ch.config().isAutoRead()) {
            ch.config().setAutoRead(true);
        }
    }

    /** Called when the connection has closed, from whatever thread noticed. */
    void disconnected(Client c) {
        run(() -> {
            server.pubsub().forget(c);
            server.monitors().remove(c);
            c.markClosed();
            server.unregister(c);
        });
    }

    private static String address(java.net.SocketAddress address) {
        if (address instanceof java.net.InetSocketAddress) {
            java.net.InetSocketAddress inet = (java.net.InetSocketAddress) address;
            String host = inet.getAddress() == null ? inet.getHostString() : inet.getAddress().getHostAddress();
            return host + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }
}
