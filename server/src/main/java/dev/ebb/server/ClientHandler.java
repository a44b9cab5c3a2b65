package dev.ebb.server;

import dev.ebb.resp.RespDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-connection Netty handler after the RESP decoder. On the loop thread it runs each
 * command as it is decoded and queues the replies for the turn's write-out when the read is done
 * ({@link CommandLoop#flush}); on an IO thread of its own it
 * collects the read's commands and hands them to the loop as one batch.
 *
 * <p>Backpressure: when the socket stops accepting bytes (the client does not read), reading from
 * it stops too, and stays stopped until the replies the loop still holds for it are written, so a
 * pipelining client that never reads cannot make the server buffer more than one read's worth of
 * replies. Output-buffer limits ({@link OutputBufferLimiter}) come on top of this, checked after
 * every command.
 */
final class ClientHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ClientHandler.class);

    private final CommandLoop loop;
    private Client client;
    private List<Object> batch;
    /** With a loop of its own: told when a batch has run (it may wait for an unauthenticated command's outcome). */
    private RespDecoder decoder;

    ClientHandler(CommandLoop loop) {
        this.loop = loop;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        client = loop.newClient(ctx.channel());
        if (!loop.inLoop()) {
            batch = new ArrayList<>();
            decoder = ctx.pipeline().get(RespDecoder.class);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (batch == null) {
            loop.handle(client, msg);
        } else {
            batch.add(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (batch == null) {
            loop.flush(client);
        } else if (!batch.isEmpty()) {
            List<Object> work = batch;
            batch = new ArrayList<>(Math.max(4, work.size()));
            Client c = client;
            RespDecoder d = decoder;
            loop.executor().execute(() -> {
                loop.handleBatch(c, work);
                if (d != null) {
                    d.commandsRan();
                }
            });
        }
    }

    /**
     * Unwritable: stop reading. Writable again: the loop writes what the client's replies still
     * hold and turns reading back on once they are out ({@link CommandLoop#resumeWrite}). The
     * resumption is a task of its own, never run inside the flush that made the channel writable.
     */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(false);
        } else if (client != null) {
            Client c = client;
            loop.executor().execute(() -> loop.resumeWrite(c));
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (client != null) {
            loop.disconnected(client);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable reported = cause instanceof DecoderException && cause.getCause() instanceof SSLException
                ? cause.getCause() : cause;
        if (reported instanceof SSLException) {
            // A failed TLS handshake: a plain client on the TLS port, a missing or untrusted certificate.
            LOG.debug("Error accepting a client connection: {} {}", ctx.channel(), reported.toString());
        } else if (cause instanceof IOException) {
            // A peer that reset or went away: routine.
            LOG.debug("Connection error, closing: {}", ctx.channel(), cause);
        } else {
            // Ebb's own code threw outside a command handler: a bug worth a stack trace.
            LOG.error("Unexpected error, closing connection {}", ctx.channel(), cause);
        }
        ctx.close();
    }

    /**
     * Counts bytes read for INFO's total_net_input_bytes and tells the client a read began
     * ({@link Client#repliedSinceRead}); sits before the decoder.
     */
    static final class InputCounter extends ChannelInboundHandlerAdapter {
        private final ServerStats stats;
        private final ClientHandler handler;

        InputCounter(ServerStats stats, ClientHandler handler) {
            this.stats = stats;
            this.handler = handler;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf) {
                stats.netInputBytes.addAndGet(((ByteBuf) msg).readableBytes());
                if (handler.client != null) {
                    handler.client.repliedSinceRead(false);
                }
            }
            ctx.fireChannelRead(msg);
        }
    }
}
