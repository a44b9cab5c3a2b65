package dev.ebb.server.cluster;

import dev.ebb.server.config.ServerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ebb as a Redis Cluster node ({@code cluster-enabled yes}): the {@link ClusterState}, the
 * {@link Gossip} state machine that drives it, the {@link ClusterBus} it talks through and the
 * {@code cluster-config-file} it is saved to. Built with the server (loading nodes.conf, so a
 * restarted node keeps its id, epochs and slots), started once the client port is bound, ticked
 * ten times a second on the command loop.
 *
 * <p>Command loop thread only, except {@link #shutdown}.
 */
public final class Cluster implements BusTransport, ClusterBus.Sink {
    private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);

    private final ServerConfig config;
    private final ClusterState state;
    private final Gossip gossip;
    private final Path file;
    private final LongSupplier clock;
    private ClusterBus bus;
    private int clientPort;
    private int busPort;

    public Cluster(ServerConfig config, SplittableRandom random, LongSupplier clock) throws IOException,
            NodesConf.CorruptException {
        this.config = config;
        this.clock = clock;
        long now = clock.getAsLong();
        this.state = new ClusterState(random, now);
        this.gossip = new Gossip(state, this);
        Path name = Path.of(config.cluster().clusterConfigFile());
        this.file = name.isAbsolute() ? name : config.dir().resolve(name);
        if (Files.exists(file) && Files.size(file) > 0) {
            NodesConf.load(state, Files.readString(file, StandardCharsets.UTF_8), now);
            LOG.info("Node configuration loaded, I'm {}", state.myself().name());
        }
        applySettings();
    }

    public ClusterState state() {
        return state;
    }

    public Gossip gossip() {
        return gossip;
    }

    /** The bus port bound (0 before {@link #start}). */
    public int busPort() {
        return busPort;
    }

    /**
     * Binds the bus on {@code cluster-port} (port + 10000 when 0) and saves the configuration.
     * When Ebb picked the client port itself (port 0, for embedding) and port + 10000 cannot be
     * bound, the bus takes a free port instead.
     */
    public void start(Executor loop, int boundClientPort, boolean clientPortPicked) throws InterruptedException {
        this.clientPort = boundClientPort;
        // The bus stamps inbound links on its I/O thread, which must not touch the loop's clock.
        this.bus = new ClusterBus(loop, this, System::currentTimeMillis);
        int wanted = config.cluster().clusterPort() != 0 ? config.cluster().clusterPort() : boundClientPort + 10000;
        try {
            busPort = bus.bind(config.bind(), wanted > 65535 ? 0 : wanted);
        } catch (Exception e) {
            if (!clientPortPicked || config.cluster().clusterPort() != 0) {
                bus.shutdown();
                throw new IllegalStateException("Could not bind the cluster bus port " + wanted + ": " + e, e);
            }
            busPort = bus.bind(config.bind(), 0);
        }
        applySettings();
        state.updateState(clock.getAsLong());
        state.todoSave = true;
        saveIfNeeded();
    }

    /** Re-reads the cluster directives (CONFIG SET may have changed them) into the state. */
    private void applySettings() {
        state.settings(config.cluster().clusterNodeTimeout(), config.cluster().clusterRequireFullCoverage(),
                config.cluster().clusterAllowReadsWhenDown(), config.cluster().clusterAllowPubsubshardWhenDown());
        state.linkSendBufferLimit(config.cluster().clusterLinkSendbufLimit());
        state.failoverSettings(config.cluster().clusterReplicaValidityFactor(), config.cluster().clusterReplicaNoFailover(),
                config.cluster().clusterMigrationBarrier(), config.cluster().clusterAllowReplicaMigration(),
                config.replication().replPingReplicaPeriod() * 1000L);
        state.announce(config.cluster().clusterAnnounceIp(), config.cluster().clusterAnnounceHostname(),
                config.cluster().clusterAnnounceHumanNodename());
        ClusterNode me = state.myself();
        int port = config.cluster().clusterAnnouncePort() != 0 ? config.cluster().clusterAnnouncePort() : clientPort;
        int cport = config.cluster().clusterAnnounceBusPort() != 0 ? config.cluster().clusterAnnounceBusPort() : busPort;
        if (port != 0 && (me.port != port || me.cport != cport)) {
            me.port = port;
            me.cport = cport;
            state.todoSave = true;
        }
    }

    /** One cluster cron tick (every 100 ms). */
    public void cron(long now) {
        applySettings();
        gossip.cron(now);
        saveIfNeeded();
    }

    /** Saves nodes.conf if anything Redis saves has changed (Redis's clusterBeforeSleep). */
    public void saveIfNeeded() {
        int due = state.takeSaveRequest();
        if (due != ClusterState.SAVE_NONE) {
            try {
                NodesConf.save(state, file, due == ClusterState.SAVE_FSYNC);
            } catch (IOException e) {
                LOG.warn("Could not save the cluster configuration {}: {}", file, e.toString());
            }
        }
    }

    /** CLUSTER SAVECONFIG. */
    public void save() throws IOException {
        NodesConf.save(state, file, true);
    }

    /** Closes the bus. Any thread. */
    public void shutdown() {
        ClusterBus b = bus;
        if (b != null) {
            b.shutdown();
        }
    }

    // ---- BusTransport: the bus once started; before that links never connect ----

    @Override
    public BusLink connect(ClusterNode node, long now) {
        if (bus == null) {
            return new BusLink(false, now);
        }
        return bus.connect(node, now);
    }

    @Override
    public void send(BusLink link, BusMessage message) {
        if (bus != null) {
            bus.send(link, message);
        }
    }

    @Override
    public void close(BusLink link) {
        if (bus != null) {
            bus.close(link);
        }
    }

    @Override
    public long queuedBytes(BusLink link) {
        return bus == null ? 0 : bus.queuedBytes(link);
    }

    // ---- ClusterBus.Sink: on the loop ----

    @Override
    public void accepted(BusLink link) {
    }

    @Override
    public void connected(BusLink link) {
        gossip.linkConnected(link, clock.getAsLong());
        saveIfNeeded();
    }

    @Override
    public void received(BusLink link, BusMessage message) {
        gossip.process(link, message, clock.getAsLong());
        saveIfNeeded();
    }

    @Override
    public void closed(BusLink link) {
        gossip.linkClosed(link, clock.getAsLong());
    }
}
