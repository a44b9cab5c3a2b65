package dev.ebb.server;

import dev.ebb.resp.RespDecoder;
import dev.ebb.resp.RespLimits;
import dev.ebb.server.command.CommandTable;
import dev.ebb.server.command.Commands;
import dev.ebb.server.config.ConfigApplyException;
import dev.ebb.server.config.ConfigListener;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.persistence.AofException;
import dev.ebb.server.persistence.AppendOnlyFile;
import dev.ebb.server.util.ThreadPlacement;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Ebb server: the public entry point for {@code main} and for embedding in tests.
 *
 * <pre>{@code
 * try (EbbServer ebb = EbbServer.start(ServerConfig.fromText("port 0"))) {
 *     int port = ebb.port();
 *     ...
 * }
 * }</pre>
 *
 * Thread-safe: {@link #close()} may be called from any thread, more than once.
 */
public final class EbbServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EbbServer.class);

    private final ServerConfig config;
    private final EventLoopGroup ioGroup;
    private final DefaultEventLoop separateLoop;
    private final CommandLoop loop;
    private final List<Channel> listeners = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final int port;
    private final int tlsPort;
    private final ServerTls tls;
    private volatile boolean closing;
    /** A SHUTDOWN arrived while the append-only file loaded: the server stops without having served. */
    private boolean stoppedWhileLoading;
    private volatile int exitCode;
    private volatile java.util.concurrent.ScheduledFuture<?> clusterCron;

    private EbbServer(ServerConfig config, LongSupplier clock) throws InterruptedException {
        this.config = config;
        CommandTable table = Commands.table().renamed(config.renamedCommands());
        int ioThreads = config.ioThreads();
        boolean epoll = Epoll.isAvailable();
        DefaultThreadFactory ioFactory = new DefaultThreadFactory(ioThreads == 1 ? "ebb-loop" : "ebb-io", false);
        this.ioGroup = epoll ? new EpollEventLoopGroup(ioThreads, ioFactory) : new NioEventLoopGroup(ioThreads, ioFactory);
        EventExecutor executor;
        if (ioThreads == 1) {
            this.separateLoop = null;
            executor = ioGroup.next();
        } else {
            this.separateLoop = new DefaultEventLoop(new DefaultThreadFactory("ebb-loop", false));
            executor = separateLoop;
        }
        pinServerThreads(config.serverCpulist());
        Server server = new Server(config, table, clock, System.nanoTime(), this::closeAsync);
        this.loop = new CommandLoop(server, executor);
        RespLimits limits = new RespLimits();
        limits.protoMaxBulkLen(config.protoMaxBulkLen());
        limits.clientQueryBufferLimit(config.clientQueryBufferLimit());
        config.onChange("proto-max-bulk-len", () -> limits.protoMaxBulkLen(config.protoMaxBulkLen()));
        config.onChange("client-query-buffer-limit",
                () -> limits.clientQueryBufferLimit(config.clientQueryBufferLimit()));

        ServerBootstrap plain = bootstrap(config, epoll, server, limits, null);
        int plainPort = config.port();
        int tlsPort = config.tlsPort();
        if (tlsPort != 0) {
            try {
                this.tls = ServerTls.create(config);
            } catch (ServerTls.TlsConfigException e) {
                LOG.error("Failed to configure TLS: {}", e.getMessage());
                closeNow();
                throw new IllegalStateException("Failed to configure TLS. Check logs for more info.", e);
            }
            ServerTls tlsNow = tls;
            ConfigListener reload = changed -> reloadTls(tlsNow, changed);
            for (String name : ServerTls.directives()) {
                config.onChange(name, reload);
            }
            this.tlsPort = bind(bootstrap(config, epoll, server, limits, tls), config.bind(), tlsPort);
        } else {
            this.tls = null;
            this.tlsPort = 0;
        }
        // Redis: port 0 means no plain TCP listener. Ebb keeps "pick a free port" for embedding and tests,
        // except beside a TLS port, where a plain port nobody asked for would be a hole.
        this.port = plainPort == 0 && tlsPort != 0 ? 0 : bind(plain, config.bind(), plainPort);
        loop.run(() -> server.listeners(java.util.List.copyOf(listeners)));
        if (config.cluster().clusterEnabled()) {
            startCluster(server, plainPort == 0);
        }
        if (!startAof(server)) {
            stoppedWhileLoading = true;
            return;
        }
        // As Redis: the RDB file loads once the listeners are up (clients meanwhile get -LOADING), unless
        // appendonly is on: then the append-only file, loaded above, is the data set and dump.rdb is not read.
        if (!config.appendonly()) {
            loop.run(() -> server.persistence().loadAtStartup(() -> {
                exitCode = 1;
                closeAsync();
            }));
        }
        loop.run(loop.cron()::start);
        loop.run(server.primaryLink()::startFromConfig);
    }

    /** Binds the cluster bus and starts its cron on the loop; a bus that cannot bind stops the start. */
    private void startCluster(Server server, boolean portPicked) {
        try {
            int clientPort = port != 0 ? port : tlsPort;
            clusterCron = loop.executor().submit(() -> ClusterWiring.start(server, loop, clientPort, portPicked))
                    .get();
        } catch (Exception e) {
            closeNow();
            Throwable cause = e instanceof java.util.concurrent.ExecutionException ? e.getCause() : e;
            LOG.error("{}", cause.getMessage());
            throw new IllegalStateException(cause.getMessage(), cause);
        }
    }

    private ServerBootstrap bootstrap(ServerConfig config, boolean epoll, Server server, RespLimits limits,
            ServerTls tlsOrNull) {
        int ioThreads = config.ioThreads();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(ioGroup)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, config.tcpBacklog())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, config.tcpKeepalive() > 0)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(1 << 20, 4 << 20))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ClientHandler handler = new ClientHandler(loop);
                        if (tlsOrNull != null) {
                            ch.pipeline().addLast("tls", tlsOrNull.newHandler(ch.alloc()));
                        }
                        ch.pipeline()
                                .addLast("input-counter", new ClientHandler.InputCounter(server.stats(), handler))
                                .addLast("resp-decoder", new RespDecoder(limits, ioThreads > 1))
                                .addLast("client", handler);
                    }
                });
        if (epoll && config.tcpKeepalive() > 0) {
            // Redis's anetKeepAlive: first probe after the interval, then every third of it, 3 probes.
            int idle = config.tcpKeepalive();
            bootstrap.childOption(io.netty.channel.epoll.EpollChannelOption.TCP_KEEPIDLE, idle)
                    .childOption(io.netty.channel.epoll.EpollChannelOption.TCP_KEEPINTVL, Math.max(1, idle / 3))
                    .childOption(io.netty.channel.epoll.EpollChannelOption.TCP_KEEPCNT, 3);
        }
        return bootstrap;
    }

    /** A CONFIG SET of a tls-* directive: Redis's refusal text when the new files do not load. */
    private static void reloadTls(ServerTls tls, ServerConfig config) throws ConfigApplyException {
        try {
            tls.reload(config);
        } catch (ServerTls.TlsConfigException e) {
            LOG.warn("Failed to update TLS configuration: {}", e.getMessage());
            throw new ConfigApplyException("Unable to update TLS configuration. Check server logs.");
        }
    }

    /** {@code server_cpulist}: pins the IO threads and the command loop (Redis: the main and IO threads). */
    private void pinServerThreads(String cpulist) {
        if (cpulist.isEmpty()) {
            return;
        }
        Runnable pin = () -> ThreadPlacement.pinCurrentThread(cpulist, Thread.currentThread().getName());
        for (EventExecutor e : ioGroup) {
            e.execute(pin);
        }
        if (separateLoop != null) {
            separateLoop.execute(pin);
        }
    }

    /**
     * Loads the append-only file (with appendonly yes) on the loop once the server listens (as Redis: the
     * clients meanwhile get {@code -LOADING}), and follows CONFIG SET appendonly. A file that cannot be loaded
     * stops the start, as Redis exits; so does a SHUTDOWN during the load (then the server is stopping and
     * this returns false).
     */
    private boolean startAof(Server server) throws InterruptedException {
        AppendOnlyFile aof = server.aof();
        boolean loaded;
        try {
            loaded = loop.executor().submit(aof::startUp).get();
        } catch (java.util.concurrent.ExecutionException e) {
            closeNow();
            Throwable cause = e.getCause();
            LOG.error("{}", cause.getMessage());
            throw new IllegalStateException(cause.getMessage(), cause);
        }
        if (!loaded) {
            return false;
        }
        config.onChange("appendonly", changed -> {
            if (!config.appendonly()) {
                aof.stop();
                return;
            }
            try {
                aof.start();
            } catch (AofException e) {
                LOG.warn("{}", e.getMessage());
                throw new ConfigApplyException(e.getMessage());
            }
        });
        return true;
    }

    /**
     * Starts a server with {@code config}; returns once it is listening and, with appendonly yes, once the
     * append-only file has loaded (other clients get {@code -LOADING} meanwhile).
     */
    public static EbbServer start(ServerConfig config) {
        return start(config, System::currentTimeMillis);
    }

    /**
     * Starts a server whose notion of "now" (unix ms, for TTLs) comes from {@code clock}; tests use
     * this to drive expiry without sleeping.
     */
    public static EbbServer start(ServerConfig config, LongSupplier clock) {
        try {
            return new EbbServer(config, clock);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting", e);
        }
    }

    /**
     * Binds every address of {@code bind}; an address written {@code -addr} is optional (skipped if
     * unavailable), as in redis.conf. With port 0 the first address picks a free port and the others
     * use the same one.
     */
    private int bind(ServerBootstrap bootstrap, List<String> addresses, int wantedPort) throws InterruptedException {
        int actual = wantedPort;
        int before = listeners.size();
        for (String spec : addresses) {
            boolean optional = spec.startsWith("-");
            String host = optional ? spec.substring(1) : spec;
            try {
                Channel ch = bootstrap.bind(host.equals("*") ? new InetSocketAddress(actual)
                        : new InetSocketAddress(host, actual)).sync().channel();
                listeners.add(ch);
                actual = ((InetSocketAddress) ch.localAddress()).getPort();
            } catch (Exception e) {
                if (!optional) {
                    closeNow();
                    throw new IllegalStateException("Could not bind " + host + ":" + actual + ": " + e.getMessage(), e);
                }
                LOG.debug("Optional bind address {} unavailable: {}", host, e.toString());
            }
        }
        if (listeners.size() == before) {
            closeNow();
            throw new IllegalStateException("Could not bind any address of " + addresses);
        }
        return actual;
    }

    /**
     * The plain TCP port the server listens on (the chosen one when configured with port 0); 0 when it listens
     * on its TLS port only.
     */
    public int port() {
        return port;
    }

    /** The TLS port, or 0 without {@code tls-port}. */
    public int tlsPort() {
        return tlsPort;
    }

    public ServerConfig config() {
        return config;
    }

    /** Writes and fsyncs what the AOF buffers and closes it, on the loop, as Redis's shutdown does. */
    private void stopAof() {
        AppendOnlyFile aof = loop.server().aof();
        if (aof == null || loop.executor().isShuttingDown()) {
            return;
        }
        if (loop.inLoop()) {
            aof.stop();
            return;
        }
        try {
            loop.executor().submit(aof::stop).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("Could not close the append-only file: {}", e.toString());
        }
    }

    /** Runs {@code task} on the command loop thread and waits for it (tests, embedding). */
    public void runOnLoop(java.util.function.Consumer<Server> task) {
        try {
            loop.executor().submit(() -> task.accept(loop.server())).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("task on the command loop failed", e);
        }
    }

    /**
     * Stops the server the way SHUTDOWN without arguments does ({@link ShutdownSequence}), from any
     * thread: Main's SIGTERM/SIGINT handler, or embedding code. Returns at once;
     * {@link #awaitTermination()} waits for the stop.
     */
    public void shutdown() {
        if (!closing) {
            loop.run(() -> ShutdownSequence.run(loop.server(), false, false, false));
        }
    }

    /** Whether a SHUTDOWN during the append-only file's load stopped the server before it served. */
    public boolean stoppedWhileLoading() {
        return stoppedWhileLoading;
    }

    /**
     * The process exit status once stopped: 0, or 1 if the RDB file could not be loaded at start-up
     * (the server then stops on its own, as Redis exits, rather than serve without its data).
     */
    public int exitCode() {
        return exitCode;
    }

    /** Blocks until the server has stopped (SHUTDOWN or {@link #close()}). */
    public void awaitTermination() throws InterruptedException {
        stopped.await();
    }

    private void closeAsync() {
        Thread t = new Thread(this::close, "ebb-shutdown");
        t.setDaemon(false);
        t.start();
    }

    /** Stops listening, closes every connection and stops the threads. */
    @Override
    public void close() {
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
        }
        closeNow();
    }

    private void closeNow() {
        closing = true;
        for (Channel ch : listeners) {
            ch.close().awaitUninterruptibly();
        }
        loop.cron().stop();
        if (clusterCron != null) {
            clusterCron.cancel(false);
        }
        if (config.cluster().clusterEnabled()) {
            loop.server().cluster().shutdown();
        }
        loop.run(() -> loop.server().primaryLink().stop());
        loop.run(() -> loop.server().migrateSockets().closeAll());
        stopAof();
        ioGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        if (separateLoop != null) {
            separateLoop.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        }
        stopped.countDown();
    }
}
