package dev.ebb.server.cluster;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster bus over TCP: a Netty server on the bus port for inbound links and a client for
 * outbound ones, both on one I/O thread of their own. Frames are cut by the header's totlen and
 * decoded on the I/O thread ({@link BusCodec}); everything else (the state machine, every
 * {@link BusLink} field) runs on the command loop, reached through {@code loop}. A frame Redis would
 * refuse closes the link. Each channel counts the bytes sent and not yet written ({@link #queuedBytes}).
 */
public final class ClusterBus implements BusTransport {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterBus.class);
    /** Largest message accepted: a PUBLISH of up to 512 MB, as proto-max-bulk-len's default. */
    private static final int MAX_FRAME = 512 * 1024 * 1024 + BusCodec.HEADER_SIZE + 8;
    private static final AttributeKey<AtomicLong> QUEUED = AttributeKey.valueOf("ebb-bus-queued-bytes");

    /** What the bus hands to the loop. */
    public interface Sink {
        void accepted(BusLink link);

        void connected(BusLink link);

        void received(BusLink link, BusMessage message);

        void closed(BusLink link);
    }

    private final EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("ebb-cluster-bus", true));
    private final Executor loop;
    private final Sink sink;
    private final java.util.function.LongSupplier clock;
    private Channel server;

    public ClusterBus(Executor loop, Sink sink, java.util.function.LongSupplier clock) {
        this.loop = loop;
        this.sink = sink;
        this.clock = clock;
    }

    /** Binds the bus port on {@code hosts} ("*" for all); returns the port bound. */
    public int bind(List<String> hosts, int port) throws InterruptedException {
        ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        BusLink link = new BusLink(true, clock.getAsLong());
                        link.handle = ch;
                        addresses(link, ch);
                        ch.pipeline().addLast(frames()).addLast(new Handler(link));
                        loop.execute(() -> sink.accepted(link));
                    }
                });
        String host = hosts.isEmpty() ? "*" : hosts.get(0);
        if (host.startsWith("-")) {
            host = host.substring(1);
        }
        InetSocketAddress addr = host.equals("*") ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
        server = b.bind(addr).sync().channel();
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    private static LengthFieldBasedFrameDecoder frames() {
        // totlen at offset 4 counts the whole message, its own 8 leading bytes included.
        return new LengthFieldBasedFrameDecoder(MAX_FRAME, 4, 4, -8, 0);
    }

    private static void addresses(BusLink link, SocketChannel ch) {
        if (ch.remoteAddress() != null) {
            link.peerIp = ch.remoteAddress().getAddress().getHostAddress();
        }
        if (ch.localAddress() != null) {
            link.localIp = ch.localAddress().getAddress().getHostAddress();
        }
    }

    @Override
    public BusLink connect(ClusterNode node, long now) {
        BusLink link = new BusLink(false, now);
        Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5000)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(frames()).addLast(new Handler(link));
                    }
                });
        ChannelFuture f = b.connect(node.ip, node.cport);
        link.handle = f.channel();
        f.addListener(done -> {
            if (done.isSuccess()) {
                addresses(link, (SocketChannel) f.channel());
                loop.execute(() -> sink.connected(link));
            } else {
                loop.execute(() -> sink.closed(link));
            }
        });
        return link;
    }

    @Override
    public void send(BusLink link, BusMessage message) {
        Channel ch = (Channel) link.handle;
        if (ch == null || !ch.isActive()) {
            return;
        }
        byte[] bytes = BusCodec.encode(message);
        AtomicLong queued = queued(ch);
        queued.addAndGet(bytes.length);
        ChannelPromise written = ch.newPromise();
        // Written to the socket, or dropped with the channel: either way no longer queued.
        written.addListener(done -> queued.addAndGet(-bytes.length));
        ch.writeAndFlush(Unpooled.wrappedBuffer(bytes), written);
    }

    @Override
    public long queuedBytes(BusLink link) {
        Channel ch = (Channel) link.handle;
        return ch == null ? 0 : queued(ch).get();
    }

    /**
     * The channel's count of bytes handed to {@link #send} and not yet written: added to on the loop,
     * taken from on the I/O thread as each write completes (the one value both threads touch).
     */
    private static AtomicLong queued(Channel ch) {
        Attribute<AtomicLong> attr = ch.attr(QUEUED);
        AtomicLong q = attr.get();
        if (q == null) {
            AtomicLong fresh = new AtomicLong();
            q = attr.setIfAbsent(fresh);
            if (q == null) {
                q = fresh;
            }
        }
        return q;
    }

    @Override
    public void close(BusLink link) {
        Channel ch = (Channel) link.handle;
        if (ch != null) {
            ch.close();
        }
    }

    /** Closes the listener and every link. */
    public void shutdown() {
        if (server != null) {
            server.close().awaitUninterruptibly();
        }
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).awaitUninterruptibly();
    }

    private final class Handler extends ChannelInboundHandlerAdapter {
        private final BusLink link;

        Handler(BusLink link) {
            this.link = link;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            BusMessage m;
            try {
                m = BusCodec.decode(ByteBufUtil.getBytes(buf));
            } finally {
                buf.release();
            }
            if (m == null) {
                LOG.debug("Closing a cluster bus link that sent a malformed message");
                ctx.close();
                return;
            }
            loop.execute(() -> sink.received(link, m));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            loop.execute(() -> sink.closed(link));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Cluster bus link error: {}", cause.toString());
            ctx.close();
        }
    }
}
