package dev.ebb.server;

import dev.ebb.server.command.CommandFlags;
import dev.ebb.server.command.CommandSpec;
import dev.ebb.server.command.CommandTable;
import dev.ebb.server.command.Errors;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.script.Scripting;
import dev.ebb.storage.Database;
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
    private final CommandTable commands;
    private final Database[] dbs;
    private final Map<Long, Client> clients = new LinkedHashMap<>();
    private final Collection<Client> clientsView = Collections.unmodifiableCollection(clients.values());
    private final ServerStats stats = new ServerStats();
    private final LongSupplier clock;
    private final long startMs;
    private final String runId;
    private final Runnable shutdownAction;
    private final ActiveExpireCycle expireCycle;
    private long nowMs;

    Server(ServerConfig config, CommandTable commands, LongSupplier clock, long seed, Runnable shutdownAction) {
        this.config = config;
        this.commands = commands;
        this.clock = clock;
        this.shutdownAction = shutdownAction;
        this.dbs = new Database[config.databases()];
        SplittableRandom seeds = new SplittableRandom(seed);
        ExpiryStrategyKind expiryKind = ExpiryStrategyKind.fromConfigName(config.expiryStrategy().configName());
        for (int i = 0; i < dbs.length; i++) {
            dbs[i] = new Database(i, seeds.nextLong(), expiryKind);
        }
        this.expireCycle = new ActiveExpireCycle(dbs, expireCycleConfig(config), NanoClock.SYSTEM);
        Runnable reconfigure = () -> expireCycle.setConfig(expireCycleConfig(config));
        config.onChange("hz", reconfigure);
        config.onChange("active-expire-effort", reconfigure);
        config.onChange("active-expire-slice-us", reconfigure);
        this.nowMs = clock.getAsLong();
        this.startMs = nowMs;
        this.runId = runId(seeds);
    }

    private static ExpireCycleConfig expireCycleConfig(ServerConfig config) {
        return ExpireCycleConfig.forEffort(config.activeExpireEffort(), config.hz())
                .withSliceMicros(config.activeExpireSliceMicros());
    }

    private static String runId(SplittableRandom random) {
        StringBuilder sb = new StringBuilder(40);
        for (int i = 0; i < 40; i++) {
            sb.append(Character.forDigit(random.nextInt(16), 16));
        }
        return sb.toString();
    }

    /**
     * Runs one command for {@code c}: look up its spec, check arity and authentication, run it.
     * Every outcome is a reply; an unexpected exception in a command is logged and answered with
     * an error rather than taking the loop down.
     */
    void call(Client c, byte[][] argv) {
        if (scripting != null && scripting.busy()) {
            BusyPump.callWhileBusy(this, c, argv);
            return;
        }
        nowMs = clock.getAsLong();
        CommandSpec spec = commands.lookup(argv[0]);
        if (spec == null) {
            reject(c, Errors.unknownCommand(argv));
            return;
        }
        // A container with a handler of its own (COMMAND) runs it when called without a subcommand.
        if (!spec.subcommands().isEmpty() && (argv.length > 1 || spec.handler() == null)) {
            if (argv.length < 2) {
                reject(c, Errors.wrongArity(spec.fullName()));
                return;
            }
            CommandSpec sub = spec.subcommand(argv[1]);
            if (sub == null) {
                reject(c, Errors.unknownSubcommand(argv[1], Errors.printable(argv[0])));
                return;
            }
            spec = sub;
        }
        if (!spec.arityAccepts(argv.length)) {
            reject(c, Errors.wrongArity(spec.fullName()));
            return;
        }
        if (!c.authenticated() && !spec.has(CommandFlags.NO_AUTH)) {
            reject(c, Errors.NOAUTH);
            return;
        }
        c.touch(nowMs, spec);
        stats.totalCommandsProcessed++;
        long errorsBefore = c.reply().errorReplies();
        try {
            spec.handler().execute(c, argv);
        } catch (RuntimeException e) {
            LOG.error("Command '{}' failed unexpectedly", spec.fullName(), e);
            stats.unexpectedErrorReplies++;
            c.reply().error("ERR " + e);
        }
        stats.totalErrorReplies += c.reply().errorReplies() - errorsBefore;
    }

    private void reject(Client c, String error) {
        stats.totalErrorReplies++;
        c.reply().error(error);
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
        clients.remove(c.id());
    }

    public long startMs() {
        return startMs;
    }

    public String runId() {
        return runId;
    }

    boolean requiresAuth() {
        return !config.requirepass().isEmpty();
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
        shutdownAction.run();
    }
}
