package dev.ebb.server;

import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.Errors;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.Socket;
import io.netty.channel.unix.UnixChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serving the other clients while a script runs past {@code busy-reply-threshold} (Redis's
 * processEventsWhileBlocked for scripts).
 *
 * <p>The script runs on the command loop, and with {@code io-threads 1} that thread is also the
 * Netty event loop of every connection, so nothing else is read while the script runs. Once the
 * script is past the threshold, its watchdog calls {@link #serve} every millisecond or so, still
 * on the loop thread: for every other connection it reads what the socket holds straight from the
 * socket's file descriptor (non-blocking) and passes the bytes down the connection's own pipeline,
 * as the event loop would, then writes the replies out with {@link CommandLoop#writeNow} (not the
 * loop's flush, which would also offer the expire cycle a turn: no key may expire under a running
 * script), so writability, output-buffer limits and close-after-reply apply as usual. The decoder and handler run as usual, {@link Server#call} sees
 * the busy script and answers through {@link #callWhileBusy}: {@code -BUSY} for everything except
 * commands flagged {@code allow_busy} (SCRIPT KILL, SHUTDOWN NOSAVE); replies are flushed at once,
 * and so is what waited for the write-out of the turn in which the script began.
 * The script's own caller is not read (its next commands wait for the script's reply). Reading
 * behind Netty's back is safe because it happens on the channel's own event-loop thread; Netty's
 * edge-triggered read afterwards simply finds the socket empty.
 *
 * <p>New connections: the listening sockets are the loop's too, so each round also accepts what
 * is pending on them, straight from their file descriptors as Netty's accept would (non-blocking
 * {@code accept}, then the new channel goes through the server channel's pipeline, which sets it up
 * and registers it on this same event loop, synchronously). The new client is then served like
 * the others: its first command gets {@code -BUSY} within a round, as in Redis.
 *
 * <p>Limits: needs the native epoll transport (the file descriptor); with NIO, or with
 * {@code io-threads} above 1 (connections live on other threads), other clients simply wait for
 * the script, and SCRIPT KILL cannot reach it. Cost per round: one {@code read} system call per
 * connected client and one {@code accept} per listening socket. Loop thread only.
 */
public final class BusyPump {
    private static final Logger LOG = LoggerFactory.getLogger(BusyPump.class);
    private static final int READ_CHUNK = 16 * 1024;

    private BusyPump() {
    }

    /**
     * Reads and handles what every client except {@code caller} has sent. Must be called on the
     * loop thread that is also the connections' event loop; does nothing otherwise.
     */
    public static void serve(Server server, Client caller) {
        for (Channel listener : server.listeners()) {
            acceptPending(listener);
        }
        List<Client> others = new ArrayList<>(server.clients().size());
        for (Client c : server.clients()) {
            if (c != caller && !c.closing()) {
                others.add(c);
            }
        }
        for (Client c : others) {
            Channel ch = c.channel();
            if (!(ch instanceof UnixChannel) || !ch.eventLoop().inEventLoop() || !ch.isActive()
                    || !ch.config().isAutoRead()) {
                continue;
            }
            if (readAvailable(ch)) {
                server.loop().writeNow(c);
            }
        }
        // What waits for the turn's write-out (the replies of clients served in the same turn
        // before the script's caller, messages its batch published) goes out now, the AOF first,
        // as Redis's processEventsWhileBlocked runs beforeSleep's writes.
        server.loop().flushPendingWrites();
    }

    /** Accepts the connections waiting on {@code listener} and registers them, as its event loop would. */
    private static void acceptPending(Channel listener) {
        if (!(listener instanceof EpollServerSocketChannel) || !listener.eventLoop().inEventLoop()
                || !listener.isActive() || !listener.config().isAutoRead()) {
            return;
        }
        Socket socket = (Socket) ((EpollServerSocketChannel) listener).fd();
        byte[] address = new byte[26];
        while (true) {
            int fd;
            try {
                fd = socket.accept(address);
            } catch (IOException e) {
                LOG.debug("Accept failed while a script is busy: {}", listener, e);
                return;
            }
            if (fd < 0) {
                return;
            }
            EpollSocketChannel child;
            try {
                // Netty's own accept builds the child with the listener as parent, through a
                // constructor that is not public; the pipeline does not need the parent.
                child = new EpollSocketChannel(fd);
            } catch (RuntimeException e) {
                // A peer that reset before its socket could be set up (ChannelException): dropped,
                // as Netty's accept drops it, and the script goes on.
                LOG.debug("Dropped a connection accepted while a script is busy: {}", listener, e);
                closeQuietly(fd);
                continue;
            }
            try {
                listener.pipeline().fireChannelRead(child);
            } catch (RuntimeException e) {
                LOG.warn("Failed to register a connection accepted while a script is busy: {}", child, e);
                child.unsafe().closeForcibly();
            }
        }
    }

    private static void closeQuietly(int fd) {
        try {
            new FileDescriptor(fd).close();
        } catch (IOException e) {
            LOG.debug("Closing an accepted socket failed", e);
        }
    }

    /** Passes what the socket holds down the pipeline; true if anything was read. */
    private static boolean readAvailable(Channel ch) {
        boolean any = false;
        while (true) {
            ByteBuf buf = ch.alloc().directBuffer(READ_CHUNK);
            int n;
            try {
                ByteBuffer nio = buf.internalNioBuffer(buf.writerIndex(), buf.writableBytes());
                n = ((UnixChannel) ch).fd().read(nio, nio.position(), nio.limit());
            } catch (IOException e) {
                buf.release();
                LOG.debug("Read failed while a script is busy: {}", ch, e);
                return any;
            }
            if (n <= 0) {
                buf.release();
                return any;
            }
            any = true;
            buf.writerIndex(buf.writerIndex() + n);
            ch.pipeline().fireChannelRead(buf);
            if (n < READ_CHUNK) {
                return true;
            }
        }
    }

    /**
     * {@link Server#call} while a script is past its threshold: the usual checks (unknown command,
     * arity, authentication), then {@code -BUSY} (naming SCRIPT KILL or FUNCTION KILL, whichever
     * can stop what runs) unless the command is flagged {@code allow_busy}.
     * SHUTDOWN is let through only with NOSAVE, and it ends the script first. The command time is
     * not read again: it belongs to the script.
     */
    static void callWhileBusy(Server server, Client c, byte[][] argv) {
        CommandSpec spec = server.commands().lookup(argv[0]);
        if (spec == null) {
            reject(server, c, Errors.unknownCommand(argv));
            return;
        }
        if (!spec.subcommands().isEmpty() && argv.length > 1) {
            CommandSpec sub = spec.subcommand(argv[1]);
            if (sub == null) {
                reject(server, c, Errors.unknownSubcommand(argv[1], Errors.printable(argv[0])));
                return;
            }
            spec = sub;
        }
        if (!spec.arityAccepts(argv.length)) {
            server.commandStats().rejected(spec);
            reject(server, c, Errors.wrongArity(spec.fullName()));
            return;
        }
        if (c.authRequired() && !spec.has(CommandFlags.NO_AUTH)) {
            server.commandStats().rejected(spec);
            reject(server, c, Errors.NOAUTH);
            return;
        }
        boolean shutdown = spec.name().equals("shutdown");
        if (!spec.has(CommandFlags.ALLOW_BUSY) || (shutdown && !hasNoSave(argv))) {
            server.commandStats().rejected(spec);
            reject(server, c, server.scripting().busyError());
            return;
        }
        if (shutdown) {
            server.scripting().abortForShutdown();
        }
        c.touch(server.nowMs(), spec);
        server.stats().totalCommandsProcessed++;
        // Counted as its own command, not as part of the script it interrupts.
        server.markErrors();
        long start = System.nanoTime();
        spec.handler().execute(c, argv);
        server.commandStats().called(spec, System.nanoTime() - start, server.config().latencyTracking());
        server.attributeErrors(spec);
    }

    private static boolean hasNoSave(byte[][] argv) {
        for (int i = 1; i < argv.length; i++) {
            if (dev.ebb.server.command.Arguments.is(argv[i], "nosave")) {
                return true;
            }
        }
        return false;
    }

    private static void reject(Server server, Client c, String error) {
        c.reply().error(error);
    }
}
