package dev.ebb.server;

import dev.ebb.server.acl.Acl;
import dev.ebb.server.acl.AclLog;
import dev.ebb.server.cluster.Cluster;
import dev.ebb.server.cluster.HashSlots;
import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.CommandTable;
import dev.ebb.server.command.MigrateSockets;
import dev.ebb.server.command.Errors;
import dev.ebb.server.command.LazyFree;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.pubsub.Monitors;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.server.pubsub.PubSub;
import dev.ebb.server.monitor.LatencyMonitor;
import dev.ebb.server.monitor.SlowLog;
import dev.ebb.server.script.Scripting;
import dev.ebb.server.persistence.Persistence;
import dev.ebb.storage.Database;
import dev.ebb.storage.KeyspaceListener;
import dev.ebb.storage.NanoClock;
import dev.ebb.storage.expiry.ActiveExpireCycle;
import dev.ebb.storage.expiry.ExpireCycleConfig;
import dev.ebb.storage.expiry.ExpiryStrategyKind;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything the command loop owns: the databases, the connected clients, the statistics and the
 * command table, plus dispatch ({@link #call}). Only the command loop thread may call into it.
 *
 * <p>Time: {@link #nowMs()} is read from the clock once per command and stands still while the
 * command runs, as in Redis 7; storage code takes it as an argument.
 */
public final class Server {
    private static final Logger LOG = LoggerFactory.getLogger(Server.class);
    /** The Redis release whose behaviour Ebb follows; HELLO and INFO report it as the server version. */
    public static final String REDIS_VERSION = "7.2.4";

    private final ServerConfig config;
    private final Acl acl;
    private final CommandTable commands;
    private final Database[] dbs;
    private final Map<Long, Client> clients = new LinkedHashMap<>();
    private final Collection<Client> clientsView = Collections.unmodifiableCollection(clients.values());
    private Collection<io.netty.channel.Channel> listeners = java.util.List.of();
    private final ServerStats stats = new ServerStats();
    private final ErrorStats errorStats = new ErrorStats();
    private final CommandStats commandStats = new CommandStats();
    /** {@link ErrorStats#events()} when the last command's errors were attributed to it. */
    private long errorMark;
    private static final int MAX_CLIENTS_PER_TICK = 200;
    private static final int MAX_HZ = 500;

    private final LongSupplier clock;
    private final long startMs;
    private final String runId;
    private final Runnable shutdownAction;
    private final ActiveExpireCycle expireCycle;
    private final SlowLog slowLog = new SlowLog();
    private final LatencyMonitor latencyMonitor = new LatencyMonitor();
    private final MemoryGuard memoryGuard;
    private int hz;

    // ---- pub/sub, keyspace notifications, MONITOR, deferred flushes (dev.ebb.server.pubsub) ----
    private final PubSub pubsub = new PubSub(this);
    private final Monitors monitors = new Monitors();
    /** Clients written to from outside their own command since the last flush. */
    private final java.util.ArrayList<Client> pendingWrites = new java.util.ArrayList<>();
    private Client current;
    private final KeyWatches watches;
    private final ClientTracking tracking;
    private final ClientPause pause = new ClientPause(this);
    private final MigrateSockets migrateSockets = new MigrateSockets();
    /** The client whose outermost command is running (Redis's current_client), or null. */
    private Client caller;
    private final Propagation propagation = new Propagation();
    private final dev.ebb.server.replication.ReplicationState replication;
    private final dev.ebb.server.replication.ReplicationPrimary replicationPrimary;
    private final dev.ebb.server.replication.PrimaryLink primaryLink = new dev.ebb.server.replication.PrimaryLink(this);
    private final dev.ebb.server.persistence.AppendOnlyFile aof;
    private final Cluster cluster;
    private final BlockingKeys blockingKeys = new BlockingKeys(this);
    private final Persistence persistence;
    /** The loop that runs the commands and writes the replies; set once by its constructor. */
    private CommandLoop loop;
    private final CrossProtocolGuard crossProtocolGuard = new CrossProtocolGuard();
    private long nowMs;
    private int executionDepth;
    /** {@link OutputBufferLimiter#floor} of the configured limits. */
    private long outputLimitFloor;

    Server(ServerConfig config, CommandTable commands, LongSupplier clock, long seed, Runnable shutdownAction) {
        this.config = config;
        this.commands = commands;
        this.acl = AclSetup.create(config, commands);
        this.clock = clock;
        this.shutdownAction = shutdownAction;
        this.nowMs = clock.getAsLong();
        this.dbs = new Database[config.databases()];
        SplittableRandom seeds = new SplittableRandom(seed);
        ExpiryStrategyKind expiryKind = ExpiryStrategyKind.fromConfigName(config.expiryStrategy().configName());
        for (int i = 0; i < dbs.length; i++) {
            dbs[i] = new Database(i, seeds.nextLong(), expiryKind);
            if (i == 0 && config.cluster().clusterEnabled()) {
                // The only database cluster mode serves keeps its keys by slot (COUNTKEYSINSLOT, GETKEYSINSLOT).
                dbs[i].indexSlots(HashSlots::slot);
            }
            dbs[i].setExpiryListener(propagatingExpiry(LazyFree.expiryListener(this)));
            dbs[i].volatileHashes().setListener(propagatingFieldExpiry(LazyFree.fieldExpiryListener(this)));
            dbs[i].setNewKeyListener((db, key) ->
                    Notifications.notify(this, NotifyKeyspaceEvents.NEW, "new", key, db.id()));
        }
        this.hz = config.hz();
        this.expireCycle = new ActiveExpireCycle(dbs, expireCycleConfig(), NanoClock.SYSTEM);
        Runnable reconfigure = () -> expireCycle.setConfig(expireCycleConfig());
        config.onChange("hz", () -> updateHz(clients.size()));
        config.onChange("dynamic-hz", () -> updateHz(clients.size()));
        // Seeded apart from `seeds`, so the other seeds (run id, cluster) stay what they were.
        this.tracking = new ClientTracking(this, seed ^ 0x636c69656e74L);
        this.watches = new KeyWatches(dbs.length, seeds.nextLong(), this::nowMs, tracking);
        KeyspaceListener keyspace = new KeyspaceListener() {
            @Override
            public void keyModified(Database db, byte[] key) {
                watches.keyModified(db, key);
                blockingKeys.signalKeyDeleted(db, key);
            }

            @Override
            public void beforeFlush(Database db) {
                watches.beforeFlush(db);
                blockingKeys.signalDatabaseFlushed(db);
            }

            @Override
            public void beforeSwap(Database db, Database other) {
                watches.beforeSwap(db, other);
            }
        };
        this.persistence = new Persistence(this, nowMs);
        // One listener for all databases: SWAPDB tells a shared listener once.
        KeyspaceListener counting = propagation.counting(persistence.countingChanges(keyspace));
        for (Database db : dbs) {
            db.setKeyspaceListener(counting);
        }
        config.onChange("active-expire-effort", reconfigure);
        config.onChange("active-expire-slice-us", reconfigure);
        latencyMonitor.thresholdMs(config.latencyMonitorThreshold());
        outputLimitFloor = OutputBufferLimiter.floor(config.clientOutputBufferLimits());
        config.onChange("client-output-buffer-limit",
                () -> outputLimitFloor = OutputBufferLimiter.floor(config.clientOutputBufferLimits()));
        config.onChange("latency-monitor-threshold", () -> latencyMonitor.thresholdMs(config.latencyMonitorThreshold()));
        // Removing requirepass frees the connections that had not authenticated; setting it restricts them again.
        config.onChange("requirepass", () -> {
            acl.requirepass(config.requirepass());
            clients.values().forEach(Client::refreshDecoderAuth);
        });
        config.onChange("acl-pubsub-default", () -> acl.allChannelsByDefault(config.aclPubsubAllChannels()));
        config.onChange("acllog-max-len", () -> acl.log().trim(config.acllogMaxLen()));
        this.memoryGuard = new MemoryGuard(this, dbs);
        memoryGuard.evictionListener(propagatingEviction(LazyFree.evictionListener(this)));
        this.startMs = nowMs;
        this.runId = runId(seeds);
        this.replication = new dev.ebb.server.replication.ReplicationState(new SplittableRandom());
        this.replicationPrimary = new dev.ebb.server.replication.ReplicationPrimary(this);
        this.cluster = config.cluster().clusterEnabled() ? ClusterWiring.create(this, seeds) : null;
        this.aof = new dev.ebb.server.persistence.AppendOnlyFile(this);
    }

    /** {@code listener}, then the expired key's DEL (UNLINK under lazyfree-lazy-expire) into {@link #propagation}. */
    private dev.ebb.storage.ExpiryListener propagatingExpiry(dev.ebb.storage.ExpiryListener listener) {
        return new dev.ebb.storage.ExpiryListener() {
            @Override
            public void expired(Database db, byte[] key) {
                expired(db, key, null);
            }

            @Override
            public void expired(Database db, byte[] key, Object value) {
                listener.expired(db, key, value);
                propagation.deletedBySystem(db, key, config.lazyfreeLazyExpire());
            }
        };
    }

    /** Wraps the field expiry listener so that expired hash fields also reach the propagation stream as HDEL. */
    private dev.ebb.storage.FieldExpiryListener propagatingFieldExpiry(dev.ebb.storage.FieldExpiryListener listener) {
        return (db, key, fields, keyDeleted) -> {
            listener.fieldsExpired(db, key, fields, keyDeleted);
            propagation.fieldsExpiredBySystem(db, key, fields);
        };
    }

    /** As {@link #propagatingExpiry} for evicted keys (UNLINK under lazyfree-lazy-eviction). */
    private dev.ebb.storage.EvictionListener propagatingEviction(dev.ebb.storage.EvictionListener listener) {
        return new dev.ebb.storage.EvictionListener() {
            @Override
            public void evicted(Database db, byte[] key) {
                evicted(db, key, null);
            }

            @Override
            public void evicted(Database db, byte[] key, Object value) {
                listener.evicted(db, key, value);
                propagation.deletedBySystem(db, key, config.lazyfreeLazyEviction());
            }
        };
    }

    private ExpireCycleConfig expireCycleConfig() {
        return ExpireCycleConfig.forEffort(config.activeExpireEffort(), hz)
                .withSliceMicros(config.activeExpireSliceMicros());
    }

    /** The cron's current frequency (INFO {@code hz}): {@code hz}, or more under dynamic-hz. */
    public int hz() {
        return hz;
    }

    /**
     * Redis's dynamic-hz: with {@code dynamic-hz yes} the configured hz doubles until there are
     * at most 200 clients per tick, up to 500, so per-client cron work keeps up with many
     * connections. The expire cycle's budget follows the new period. Loop thread only (and
     * config listeners, which run on the loop).
     *
     * @return true if the frequency changed
     */
    boolean updateHz(int clientCount) {
        int next = config.hz();
        if (config.dynamicHz()) {
            while (clientCount / next > MAX_CLIENTS_PER_TICK) {
                next *= 2;
                if (next > MAX_HZ) {
                    next = MAX_HZ;
                    break;
                }
            }
        }
        if (next == hz) {
            return false;
        }
        hz = next;
        expireCycle.setConfig(expireCycleConfig());
        return true;
    }

    private static String runId(SplittableRandom random) {
        StringBuilder sb = new StringBuilder(40);
        for (int i = 0; i < 40; i++) {
            sb.append(Character.forDigit(random.nextInt(16), 16));
        }
        return sb.toString();
    }

    /**
     * Runs one command for {@code c}: close it if the command is an HTTP line (see
     * {@link CrossProtocolGuard}), look up its spec, check arity and authentication, run it.
     * Every outcome is a reply; an unexpected exception in a command is logged and answered with
     * an error rather than taking the loop down.
     */
    void call(Client c, byte[][] argv) {
        boolean asking = c.hasFlag(Client.FLAG_ASKING);
        dispatch(c, argv);
        if (asking && !c.inMulti() && !isCommand(argv, "asking")) {
            // ASKING holds for the next command only (or the whole transaction it opens), as Redis's resetClient.
            c.setFlag(Client.FLAG_ASKING, false);
        }
        if (c.hasFlag(Client.FLAG_TRACKING_CACHING) && !c.inMulti() && !isClientCommand(argv)) {
            // CLIENT CACHING applies to the next command, or to the next transaction.
            c.setFlag(Client.FLAG_TRACKING_CACHING, false);
        }
    }

    private static boolean isCommand(byte[][] argv, String name) {
        return argv.length > 0 && argv[0].length == name.length()
                && new String(argv[0], java.nio.charset.StandardCharsets.ISO_8859_1).equalsIgnoreCase(name);
    }

    private static boolean isClientCommand(byte[][] argv) {
        return argv.length > 0 && argv[0].length == 6
                && new String(argv[0], java.nio.charset.StandardCharsets.ISO_8859_1).equalsIgnoreCase("client");
    }

    private void dispatch(Client c, byte[][] argv) {
        if (crossProtocolGuard.refused(c, argv, clock)) {
            return;
        }
        if (scripting != null && scripting.busy()) {
            BusyPump.callWhileBusy(this, c, argv);
            return;
        }
        nowMs = clock.getAsLong();
        CommandSpec spec = commands.lookup(argv[0]);
        if (spec == null) {
            reject(c, null, Errors.unknownCommand(argv));
            return;
        }
        // A container with a handler of its own (COMMAND) runs it when called without a subcommand.
        if (!spec.subcommands().isEmpty() && (argv.length > 1 || spec.handler() == null)) {
            if (argv.length < 2) {
                reject(c, spec, Errors.wrongArity(spec.fullName()));
                return;
            }
            CommandSpec sub = spec.subcommand(argv[1]);
            if (sub == null) {
                // No command to count it against, as in Redis.
                reject(c, null, Errors.unknownSubcommand(argv[1], Errors.printable(argv[0])));
                return;
            }
            spec = sub;
        }
        if (!spec.arityAccepts(argv.length)) {
            reject(c, spec, Errors.wrongArity(spec.fullName()));
            return;
        }
        if (DispatchChecks.refused(this, c, spec, argv)) {
            return;
        }
        if (tracking.clients() > 0) {
            tracking.enforceLimit();
        }
        if (pause.holds(c, spec, argv)) {
            return;
        }
        if (c.inMulti() && Transactions.queueOrReject(c, spec, argv)) {
            return;
        }
        execute(c, spec, argv);
    }

    /**
     * Runs a command that has passed every dispatch check ({@link #call}, and EXEC for its queued
     * commands): stamps the client, counts it, and turns an unexpected exception into an error
     * reply and an OutOfMemoryError into the OOM error. The command failed (INFO commandstats) if it replied an error of its own: errors of
     * the commands it ran (EXEC's, a script's) are theirs, as in Redis.
     */
    public void execute(Client c, CommandSpec spec, byte[][] argv) {
        c.touch(nowMs, spec, argv);
        stats.totalCommandsProcessed++;
        boolean outermost = executionDepth++ == 0;
        if (outermost) {
            errorMark = errorStats.events();
            caller = c;
        }
        Client previous = current;
        current = c;
        long startNanos = System.nanoTime();
        long replyMark = c.reply().pendingBytes();
        propagation.enter();
        try {
            spec.handler().execute(c, argv);
        } catch (RuntimeException e) {
            LOG.error("Command '{}' failed unexpectedly", spec.fullName(), e);
            stats.unexpectedErrorReplies++;
            c.reply().error("ERR " + e);
        } catch (OutOfMemoryError e) {
            // The last resort behind MemoryGuard.tryAllocate: a command whose allocation failed is
            // refused with OOM, its partial reply dropped; the connection and the loop carry on.
            LOG.warn("Command '{}' refused: {}", spec.fullName(), e.toString());
            c.reply().discardFrom(replyMark);
            c.reply().error(Errors.OOM);
        } finally {
            propagation.exit(c, spec, argv);
            executionDepth--;
            current = previous;
            if (outermost) {
                caller = null;
            }
        }
        attributeErrors(spec);
        if (tracking.clients() > 0) {
            tracking.afterExecute(outermost ? c : caller, spec, argv);
        }
        if (!blockingKeys.isBlocked(c)) {
            // A command that blocked is logged when it is served (BlockingKeys), as in Redis.
            commandExecuted(c, spec, argv, System.nanoTime() - startNanos);
        }
        if (outermost) {
            pubsub.afterCommand(c);
            tracking.afterCommand(c);
            // As Redis's handleClientsBlockedOnKeys: after the whole command (EXEC, a script).
            blockingKeys.handleReadyKeys();
        }
        if (!monitors.isEmpty() && !spec.has(CommandFlags.ADMIN | CommandFlags.SKIP_MONITOR)) {
            monitors.feed(this, c, argv);
        }
    }

    /**
     * Records an ACL denial in ACL LOG: the object is the command's full name, or the key or
     * channel at {@code position}; the client info is that of the client that sent the command
     * (a script's caller).
     */
    public void logAclDenial(Client c, int result, AclLog.Context context, CommandSpec spec, byte[][] argv,
            int position) {
        String object = result == Acl.DENIED_CMD ? spec.fullName() : Acl.text(argv[position]);
        Client real = current != null && c.inScript() ? current : c;
        acl.log().add(result, context, object, c.user().name(),
                dev.ebb.server.command.ClientCommands.describe(real, nowMs), nowMs, config.acllogMaxLen());
    }

    /** Closes the connections a change of {@code u} (or its removal) no longer allows; see {@link AclSetup#userChanged}. */
    public void aclUserChanged(dev.ebb.server.acl.User u, boolean removed) {
        AclSetup.userChanged(this, u, removed);
    }

    /** The ACL users, the permission check and ACL LOG. */
    public Acl acl() {
        return acl;
    }

    /** The pending output from which a client may be over an output-buffer limit; see {@link OutputBufferLimiter#floor}. */
    long outputLimitFloor() {
        return outputLimitFloor;
    }

    // ---- pub/sub, keyspace notifications, MONITOR, deferred flushes ----

    public PubSub pubsub() {
        return pubsub;
    }

    public Monitors monitors() {
        return monitors;
    }

    /** The client whose outermost command is running (not a script's client), or null. */
    Client caller() {
        return caller;
    }

    /** Client-side caching: the tracking table, BCAST prefixes, invalidation. */
    public ClientTracking tracking() {
        return tracking;
    }

    /** CLIENT PAUSE state. */
    public ClientPause pause() {
        return pause;
    }

    /** MIGRATE's cached connections to its targets. */
    public MigrateSockets migrateSockets() {
        return migrateSockets;
    }

    /** The client whose command is running, or null (cron work, between commands). */
    public Client currentClient() {
        return current;
    }

    /**
     * Called after something outside {@code c}'s own command wrote to its reply buffer (a pub/sub
     * message, a MONITOR line): applies its output-buffer limit at once, and queues it to be
     * flushed after the current batch or cron step.
     */
    public void wroteTo(Client c) {
        if (OutputBufferLimiter.enforce(this, c, nowMs)) {
            return;
        }
        if (!c.pendingWrite) {
            c.pendingWrite = true;
            pendingWrites.add(c);
        }
    }

    /** Applies {@code c}'s output-buffer limit now (closing it if it is over); true if it is closed. */
    public boolean enforceOutputLimit(Client c) {
        return OutputBufferLimiter.enforce(this, c, nowMs);
    }

    /** Hands the clients {@link #wroteTo} queued to {@code flusher} and empties the queue. */
    void drainPendingWrites(java.util.function.Consumer<Client> flusher) {
        tracking.broadcastPending();
        for (int i = 0; i < pendingWrites.size(); i++) {
            Client c = pendingWrites.get(i);
            c.pendingWrite = false;
            flusher.accept(c);
        }
        pendingWrites.clear();
    }

    /**
     * Records a command that ran, in the slow log and the latency monitor: the one hook for every
     * executed command. Commands flagged {@code skip_slowlog} (EXEC) are left out; whoever runs
     * commands on a command's behalf (EXEC, scripts, unblocking) calls this for each of them.
     * {@code argv} is as the command left it (redacted arguments already replaced).
     */
    public void commandExecuted(Client c, CommandSpec spec, byte[][] argv, long durationNanos) {
        long micros = durationNanos / 1000;
        commandStats.called(spec, durationNanos, config.latencyTracking());
        latencyMonitor.record(spec.has(CommandFlags.FAST) ? "fast-command" : "command", micros / 1000, nowMs);
        if (!spec.has(CommandFlags.SKIP_SLOWLOG)) {
            slowLog.record(argv, micros, config.slowlogLogSlowerThan(), config.slowlogMaxLen(), nowMs, c.addr(),
                    c.name());
        }
    }

    /**
     * Answers a command refused because of the cluster (CROSSSLOT): as Redis's processCommand, an
     * EXEC's transaction is discarded and the error sent as it is (not as EXECABORT); any other
     * command inside MULTI flags the transaction.
     */
    void rejectForCluster(Client c, CommandSpec spec, String error) {
        commandStats.rejected(spec);
        if (spec.fullName().equals("exec")) {
            c.discardTransaction();
        } else if (c.inMulti()) {
            c.transaction().flagQueueError();
        }
        c.reply().error(error);
    }

    /**
     * Answers a command refused at dispatch. Inside MULTI the refusal flags the transaction (EXEC
     * will abort), and a refused EXEC itself discards any transaction and answers EXECABORT, as
     * Redis's rejectCommand does.
     */
    void reject(Client c, CommandSpec spec, String error) {
        if (spec != null) {
            commandStats.rejected(spec);
        }
        // A refused EXEC aborts as Redis's execCommandAbort, inside MULTI or not.
        if (c.inMulti() || (spec != null && spec.fullName().equals("exec"))) {
            c.reply().error(Transactions.rejectedInMulti(c, spec, error));
        } else {
            c.reply().error(error);
        }
    }

    /**
     * Counts {@code spec} as failed if an error reply was sent since the last command's errors were
     * attributed (its own errors, not those of commands it ran, which attributed theirs), and moves
     * the mark. Called after each command runs: by {@link #execute}, for commands a script runs and
     * for blocked commands when they are served.
     */
    void attributeErrors(CommandSpec spec) {
        long events = errorStats.events();
        if (events != errorMark) {
            commandStats.failed(spec);
            errorMark = events;
        }
    }

    /** Moves the mark of {@link #attributeErrors} to now, before a command runs outside {@link #execute}. */
    void markErrors() {
        errorMark = errorStats.events();
    }

    /** INFO errorstats and total_error_replies. */
    public ErrorStats errorStats() {
        return errorStats;
    }

    /** INFO commandstats. */
    public CommandStats commandStats() {
        return commandStats;
    }

    /** The current time in unix ms, fixed for the duration of one command. */
    public long nowMs() {
        return nowMs;
    }

    /** Reads the clock afresh (cron, and between commands). */
    long tick() {
        nowMs = clock.getAsLong();
        return nowMs;
    }

    /** The one stream of writes leaving the loop (AOF, replicas); also counts changes ({@link Propagation#dirty()}). */
    public Propagation propagation() {
        return propagation;
    }

    /** Replication ids, offset and backlog, shared by the primary and the replica side. */
    public dev.ebb.server.replication.ReplicationState replication() {
        return replication;
    }

    /** The primary side of replication: replica links, full syncs, WAIT. */
    public dev.ebb.server.replication.ReplicationPrimary replicationPrimary() {
        return replicationPrimary;
    }

    /** Hands {@code c}'s pending replies to its socket now, before bytes written to the channel directly follow. */
    public void flushNow(Client c) {
        if (loop != null) {
            loop.writeNow(c);
        }
    }

    /** Runs {@code task} on the loop thread (from a background thread). */
    public void runOnLoop(Runnable task) {
        loop.run(() -> {
            tick();
            task.run();
            loop.flushPendingWrites();
        });
    }

    /** The append-only file, on or off ({@code appendonly}). */
    public dev.ebb.server.persistence.AppendOnlyFile aof() {
        return aof;
    }

    /** WATCH's index of watched keys, every database's {@link dev.ebb.storage.KeyspaceListener}. */
    KeyWatches watches() {
        return watches;
    }

    /** Whether Ebb runs as a cluster node ({@code cluster-enabled yes}). */
    public boolean clusterEnabled() {
        return cluster != null;
    }

    /** This server's cluster node, state and bus; only valid when {@link #clusterEnabled()}. */
    public Cluster cluster() {
        if (cluster == null) {
            throw new IllegalStateException("cluster mode is not enabled");
        }
        return cluster;
    }

    public Database db(int index) {
        return dbs[index];
    }

    public int databases() {
        return dbs.length;
    }

    /** The active expiry engine the cron drives; INFO reads its statistics. */
    public ActiveExpireCycle expireCycle() {
        return expireCycle;
    }

    /** SLOWLOG's entries. */
    public SlowLog slowLog() {
        return slowLog;
    }

    /** LATENCY's event histories. */
    public LatencyMonitor latencyMonitor() {
        return latencyMonitor;
    }

    /** maxmemory eviction and the JVM heap safety net. */
    public MemoryGuard memoryGuard() {
        return memoryGuard;
    }

    /** expired_keys: keys removed by lazy or active expiry, over every database. */
    public long expiredKeys() {
        long total = 0;
        for (Database db : dbs) {
            total += db.expiredKeys();
        }
        return total;
    }

    /** used_memory: the storage engine's estimate over every database. */
    public long usedMemory() {
        long total = 0;
        for (Database db : dbs) {
            total += db.usedMemory();
        }
        return total;
    }

    public ServerConfig config() {
        return config;
    }

    public CommandTable commands() {
        return commands;
    }

    public ServerStats stats() {
        return stats;
    }

    /** The listening sockets, once bound (a busy script accepts on them: {@link BusyPump}). */
    public Collection<io.netty.channel.Channel> listeners() {
        return listeners;
    }

    void listeners(Collection<io.netty.channel.Channel> bound) {
        listeners = bound;
    }

    /** Connected clients in connection order. */
    public Collection<Client> clients() {
        return clientsView;
    }

    public Client client(long id) {
        return clients.get(id);
    }

    void register(Client c) {
        clients.put(c.id(), c);
    }

    void unregister(Client c) {
        tracking.disable(c);
        pause.forget(c);
        clients.remove(c.id());
        blockingKeys.forget(c);
        replicationPrimary.forget(c);
    }

    void attach(CommandLoop commandLoop) {
        this.loop = commandLoop;
        persistence.useLoop(commandLoop.executor());
        primaryLink.useLoop(commandLoop.executor());
    }

    /** The replica side of replication: REPLICAOF, the link to the primary, the applied stream. */
    public dev.ebb.server.replication.PrimaryLink primaryLink() {
        return primaryLink;
    }

    /** Sets what lazy expiry does in every database: delete (a primary), or hide / keep (a replica). */
    public void expiryMode(Database.ExpiryMode mode) {
        for (Database db : dbs) {
            db.setExpiryMode(mode);
        }
    }

    /** The TCP port the first listener is bound to (what a replica announces to its primary), or 0. */
    public int boundPort() {
        for (io.netty.channel.Channel ch : listeners) {
            if (ch.localAddress() instanceof java.net.InetSocketAddress inet) {
                return inet.getPort();
            }
        }
        return config.port();
    }

    /** RDB persistence: SAVE/BGSAVE, save points, loading, the change counter. */
    public Persistence persistence() {
        return persistence;
    }

    /** The loop that writes replies ({@link CommandLoop#writeNow}); null before it is built. */
    CommandLoop loop() {
        return loop;
    }

    /** Clients blocked on keys (BLPOP …), and the signal write paths raise when a key may serve them. */
    public BlockingKeys blockingKeys() {
        return blockingKeys;
    }

    public long startMs() {
        return startMs;
    }

    public String runId() {
        return runId;
    }

    /** Whether a new connection must authenticate: the default user needs a password or is off (Redis's authRequired). */
    boolean requiresAuth() {
        dev.ebb.server.acl.User d = acl.defaultUser();
        return !d.nopass() || !d.enabled();
    }

    // Scripting (EVAL, SCRIPT): the Lua engine, created on first use.
    private Scripting scripting;

    /** The Lua scripting engine; created on first use. Loop thread only. */
    public Scripting scripting() {
        if (scripting == null) {
            scripting = new Scripting(this);
        }
        return scripting;
    }

    /** SHUTDOWN: stops the server after the current command. */
    public void shutdown() {
        shutdownRequested = true;
        shutdownAction.run();
    }

    private boolean shutdownRequested;

    /** Whether SHUTDOWN has gone through: a load in progress on the loop must stop. Loop thread only. */
    public boolean shutdownRequested() {
        return shutdownRequested;
    }
}
