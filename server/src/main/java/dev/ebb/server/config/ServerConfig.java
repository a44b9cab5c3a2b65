package dev.ebb.server.config;

import dev.ebb.server.config.Directive.Mutability;
import dev.ebb.server.util.Glob;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's live configuration: typed getters for the server (the replication and cluster ones grouped in
 * {@link ReplicationConfig} and {@link ClusterConfig}), and CONFIG GET / SET / REWRITE for the CONFIG command. Every
 * directive is a row of one table (names, aliases, types, defaults and ranges as Redis 7.2; see {@code conf/ebb.conf}
 * for what each does).
 *
 * <p>Thread safety: the values live in an immutable snapshot behind a volatile reference, so the getters are
 * lock-free, allocation-free reads that any thread may call (IO threads read {@link #protoMaxBulkLen()} while the
 * command loop runs CONFIG SET). A CONFIG SET publishes a whole new snapshot at once, so a reader never sees half of
 * one. CONFIG SET, CONFIG REWRITE and listener registration are serialized on this object.
 *
 * <p>Strings are byte strings: one char per byte (ISO-8859-1), as read from the file or received from a client,
 * so binary values such as passwords are kept exactly.
 */
public final class ServerConfig {
    private static final Logger LOG = LoggerFactory.getLogger(ServerConfig.class);
    private static final String INLINE_SOURCE = "inline config";

    private volatile Object[] values;
    private final Path configFile;
    private final List<RenamedCommand> renamedCommands;
    private final List<ConfigUser> users;
    /** The {@code user} lines CONFIG REWRITE writes: the server's users as they are now; none until set. */
    private java.util.function.Supplier<List<String>> currentUsers = List::of;
    /** Guarded by {@code this}. */
    private final Map<Directive<?>, List<ConfigListener>> listeners = new HashMap<>();
    private final ReplicationConfig replication = new ReplicationConfig(this);
    private final ClusterConfig cluster = new ClusterConfig(this);

    ServerConfig(Object[] values, Path configFile, List<RenamedCommand> renamedCommands) {
        this(values, configFile, renamedCommands, List.of());
    }

    ServerConfig(Object[] values, Path configFile, List<RenamedCommand> renamedCommands, List<ConfigUser> users) {
        this.values = values.clone();
        this.configFile = configFile;
        this.renamedCommands = List.copyOf(renamedCommands);
        this.users = List.copyOf(users);
    }

    /** Every directive at its default, no config file (CONFIG REWRITE will refuse). */
    public static ServerConfig defaults() {
        return new ServerConfig(Directives.defaults(), null, List.of());
    }

    /** Loads a redis.conf-syntax file; CONFIG REWRITE will rewrite it. */
    public static ServerConfig load(Path configFile) throws ConfigException {
        return load(configFile, null, "");
    }

    /**
     * Reads directives from redis.conf-syntax text, e.g. for an embedded server. Includes are resolved against
     * {@code dir}. There is no config file, so CONFIG REWRITE will refuse.
     */
    public static ServerConfig fromText(String configText) throws ConfigException {
        ConfigLoader loader = new ConfigLoader();
        loader.loadText(configText, INLINE_SOURCE);
        return new ServerConfig(loader.finish(), null, loader.renamedCommands(), loader.users());
    }

    /**
     * Loads, in this order (later wins): the config file if any, text read from standard input if any, and the
     * directives from the command line, one per line.
     */
    static ServerConfig load(Path configFile, String stdinText, String commandLineText) throws ConfigException {
        ConfigLoader loader = new ConfigLoader();
        if (configFile != null) {
            loader.loadFile(configFile);
        }
        if (stdinText != null) {
            loader.loadText(stdinText, ConfigLocation.STDIN);
        }
        loader.loadText(commandLineText, ConfigLocation.COMMAND_LINE);
        Path absolute = configFile == null ? null : configFile.toAbsolutePath().normalize();
        return new ServerConfig(loader.finish(), absolute, loader.renamedCommands(), loader.users());
    }

    // ---------------------------------------------------------------- NETWORK

    /** {@code bind}: addresses to listen on; a leading '-' marks an address that may be unavailable. */
    public List<String> bind() {
        return value(Directives.BIND);
    }

    /** {@code protected-mode}: refuse non-loopback clients when no password is set and bind is default. */
    public boolean protectedMode() {
        return value(Directives.PROTECTED_MODE);
    }

    /** {@code port}: TCP port. */
    public int port() {
        return value(Directives.PORT).intValue();
    }

    /** {@code tcp-backlog}: listen(2) backlog. */
    public int tcpBacklog() {
        return value(Directives.TCP_BACKLOG).intValue();
    }

    /** {@code timeout}: close a client idle for this many seconds; 0 never. */
    public int timeout() {
        return value(Directives.TIMEOUT).intValue();
    }

    /** {@code tcp-keepalive}: seconds between TCP keepalive probes; 0 disables. */
    public int tcpKeepalive() {
        return value(Directives.TCP_KEEPALIVE).intValue();
    }

    // ---------------------------------------------------------------- TLS/SSL

    /** {@code tls-port}: the TLS listener's port; 0 for none. */
    public int tlsPort() {
        return value(Directives.TLS_PORT).intValue();
    }

    /** {@code tls-cert-file}: the server certificate (chain), PEM. */
    public String tlsCertFile() {
        return value(Directives.TLS_CERT_FILE);
    }

    /** {@code tls-key-file}: the server's private key, PEM (PKCS#8, or PKCS#1 / encrypted with a password). */
    public String tlsKeyFile() {
        return value(Directives.TLS_KEY_FILE);
    }

    /** {@code tls-key-file-pass}: the password of an encrypted key file; empty for none. */
    public String tlsKeyFilePass() {
        return value(Directives.TLS_KEY_FILE_PASS);
    }

    /** {@code tls-ca-cert-file}: CA certificates (PEM) that client certificates are checked against. */
    public String tlsCaCertFile() {
        return value(Directives.TLS_CA_CERT_FILE);
    }

    /** {@code tls-ca-cert-dir}: a directory of CA certificates (PEM files), read in addition to the file. */
    public String tlsCaCertDir() {
        return value(Directives.TLS_CA_CERT_DIR);
    }

    public TlsAuthClients tlsAuthClients() {
        return value(Directives.TLS_AUTH_CLIENTS);
    }

    /** {@code tls-protocols}: space-separated, e.g. "TLSv1.2 TLSv1.3"; empty for Redis's default (both). */
    public String tlsProtocols() {
        return value(Directives.TLS_PROTOCOLS);
    }

    public String tlsCiphers() {
        return value(Directives.TLS_CIPHERS);
    }

    public String tlsCiphersuites() {
        return value(Directives.TLS_CIPHERSUITES);
    }

    public boolean tlsPreferServerCiphers() {
        return value(Directives.TLS_PREFER_SERVER_CIPHERS);
    }

    public boolean tlsSessionCaching() {
        return value(Directives.TLS_SESSION_CACHING);
    }

    public int tlsSessionCacheSize() {
        return value(Directives.TLS_SESSION_CACHE_SIZE).intValue();
    }

    public int tlsSessionCacheTimeout() {
        return value(Directives.TLS_SESSION_CACHE_TIMEOUT).intValue();
    }

    // ---------------------------------------------------------------- GENERAL

    /** {@code pidfile}: file to write the process id to; empty for none. Relative paths: see {@link #pidFilePath()}. */
    public String pidFile() {
        return value(Directives.PIDFILE);
    }

    /** {@link #pidFile()} resolved against {@link #dir()}, or empty when no pid file is wanted. */
    public Optional<Path> pidFilePath() {
        return resolveInDir(pidFile());
    }

    public LogLevel logLevel() {
        return value(Directives.LOGLEVEL);
    }

    /** {@code logfile}: log destination; empty means standard output. Relative paths: see {@link #logFilePath()}. */
    public String logFile() {
        return value(Directives.LOGFILE);
    }

    /** {@link #logFile()} resolved against {@link #dir()}, or empty for standard output. */
    public Optional<Path> logFilePath() {
        return resolveInDir(logFile());
    }

    /** {@code databases}: number of logical databases (SELECT 0..n-1). */
    public int databases() {
        return value(Directives.DATABASES).intValue();
    }

    // ---------------------------------------------------------------- SNAPSHOTTING

    /** {@code save}: the save points; a BGSAVE starts when one is reached (empty: none). */
    public List<SavePoint> save() {
        return value(Directives.SAVE);
    }

    // ---------------------------------------------------------------- REPLICATION

    /** {@code replicaof}: the primary's host and port, or an empty list on a primary. */
    public List<String> replicaof() {
        return value(Directives.REPLICAOF);
    }

    /**
     * REPLICAOF host port / NO ONE: records the new primary (empty for none) so that CONFIG GET and CONFIG REWRITE
     * show it, as Redis's masterhost/masterport do. Not a CONFIG SET: no listener runs.
     */
    public synchronized void replicaof(List<String> hostPort) {
        Object[] next = values.clone();
        next[Directives.REPLICAOF.index] = List.copyOf(hostPort);
        values = next;
    }

    /** The other replication directives: primary credentials, replica-*, repl-*, min-replicas-*. */
    public ReplicationConfig replication() {
        return replication;
    }

    /** {@code dbfilename}: the RDB file's name in {@link #dir()}. */
    public String dbFilename() {
        return value(Directives.DBFILENAME);
    }

    /** {@code stop-writes-on-bgsave-error}: refuse writes (MISCONF) while the last background save failed. */
    public boolean stopWritesOnBgsaveError() {
        return value(Directives.STOP_WRITES_ON_BGSAVE_ERROR);
    }

    /** {@code rdbcompression}: LZF-compress strings in RDB files. */
    public boolean rdbCompression() {
        return value(Directives.RDBCOMPRESSION);
    }

    /** {@code rdbchecksum}: write (and check on load) the CRC-64 at the end of RDB files. */
    public boolean rdbChecksum() {
        return value(Directives.RDBCHECKSUM);
    }

    /** {@code key-load-delay}: microseconds to pause per key loaded, for tests (see Redis's debugDelay). */
    public int keyLoadDelay() {
        return value(Directives.KEY_LOAD_DELAY).intValue();
    }

    /** {@code rdb-key-save-delay}: microseconds to pause per key a snapshot writes, for tests (see Redis's debugDelay). */
    public int rdbKeySaveDelay() {
        return value(Directives.RDB_KEY_SAVE_DELAY).intValue();
    }

    /** {@code server_cpulist}: the CPUs of the command loop and IO threads (taskset syntax; "" for any). */
    public String serverCpulist() {
        return value(Directives.SERVER_CPULIST);
    }

    /** {@code bio_cpulist}: the CPUs of the background IO threads (AOF fsync, memory return). */
    public String bioCpulist() {
        return value(Directives.BIO_CPULIST);
    }

    /** {@code aof_rewrite_cpulist}: the CPUs of an AOF rewrite's writer thread. */
    public String aofRewriteCpulist() {
        return value(Directives.AOF_REWRITE_CPULIST);
    }

    /** {@code bgsave_cpulist}: the CPUs of a BGSAVE's writer thread (also the one a full sync's BGSAVE uses). */
    public String bgsaveCpulist() {
        return value(Directives.BGSAVE_CPULIST);
    }

    /** {@code rdb-del-sync-files}: delete RDB files made only for replication, when no persistence would keep them. */
    public boolean rdbDelSyncFiles() {
        return value(Directives.RDB_DEL_SYNC_FILES);
    }

    /** {@code dir}: absolute working directory; relative pidfile and logfile paths are resolved against it. */
    public Path dir() {
        return Path.of(value(Directives.DIR));
    }

    // ---------------------------------------------------------------- SECURITY

    /** {@code requirepass}: the default user's password; empty means no AUTH required. */
    public String requirepass() {
        return value(Directives.REQUIREPASS);
    }

    /** {@code enable-debug-command}: who may run DEBUG (immutable). */
    public ProtectedAction enableDebugCommand() {
        return value(Directives.ENABLE_DEBUG_COMMAND);
    }

    /** {@code aclfile}: where ACL LOAD and ACL SAVE read and write users; empty for none (immutable). */
    public String aclfile() {
        return value(Directives.ACLFILE);
    }

    /** {@code acllog-max-len}: the most entries ACL LOG keeps. */
    public long acllogMaxLen() {
        return value(Directives.ACLLOG_MAX_LEN);
    }

    /** {@code acl-pubsub-default}: true when new users start with {@code allchannels}. */
    public boolean aclPubsubAllChannels() {
        return value(Directives.ACL_PUBSUB_DEFAULT) == AclPubsubDefault.ALLCHANNELS;
    }

    /** {@code user} lines of the config, in file order; the server's ACL applies them. */
    public List<ConfigUser> users() {
        return users;
    }

    /**
     * Tells CONFIG REWRITE how to list the users as they are when it runs ({@code user name rules}
     * lines); it writes none when an {@code aclfile} keeps them.
     */
    public synchronized void currentUsers(java.util.function.Supplier<List<String>> lines) {
        this.currentUsers = Objects.requireNonNull(lines, "lines");
    }

    /**
     * {@code rename-command} lines of the config, in file order. The server applies them to its command table and
     * rejects unknown commands (see {@link RenamedCommand}).
     */
    public List<RenamedCommand> renamedCommands() {
        return renamedCommands;
    }

    // ---------------------------------------------------------------- CLIENTS

    /** {@code maxclients}: maximum number of connected clients (up to 2^32-1, hence long). */
    public long maxclients() {
        return value(Directives.MAXCLIENTS);
    }

    // ---------------------------------------------------------------- MEMORY MANAGEMENT

    /** {@code maxmemory}: memory limit in bytes; 0 means no limit. */
    public long maxmemory() {
        return value(Directives.MAXMEMORY);
    }

    public MaxmemoryPolicy maxmemoryPolicy() {
        return value(Directives.MAXMEMORY_POLICY);
    }

    /** {@code maxmemory-samples}: keys sampled per eviction attempt. */
    public int maxmemorySamples() {
        return value(Directives.MAXMEMORY_SAMPLES).intValue();
    }

    /** {@code maxmemory-eviction-tenacity}: 0..100, how long one eviction pass may run. */
    public int maxmemoryEvictionTenacity() {
        return value(Directives.MAXMEMORY_EVICTION_TENACITY).intValue();
    }

    // ---------------------------------------------------------------- LAZY FREEING

    public boolean lazyfreeLazyEviction() {
        return value(Directives.LAZYFREE_LAZY_EVICTION);
    }

    public boolean lazyfreeLazyExpire() {
        return value(Directives.LAZYFREE_LAZY_EXPIRE);
    }

    public boolean lazyfreeLazyServerDel() {
        return value(Directives.LAZYFREE_LAZY_SERVER_DEL);
    }

    public boolean lazyfreeLazyUserDel() {
        return value(Directives.LAZYFREE_LAZY_USER_DEL);
    }

    public boolean lazyfreeLazyUserFlush() {
        return value(Directives.LAZYFREE_LAZY_USER_FLUSH);
    }

    // ---------------------------------------------------------------- THREADS, AOF, SCRIPTING, CLUSTER

    /** {@code io-threads}: Netty IO threads; 1 lets the command loop do the IO itself. */
    public int ioThreads() {
        return value(Directives.IO_THREADS).intValue();
    }

    /** {@code appendonly}: whether writes are logged to the append-only file. */
    public boolean appendonly() {
        return value(Directives.APPENDONLY);
    }

    /** {@code appendfilename}: the prefix of the AOF's file names in {@link #appenddirname()}. */
    public String appendfilename() {
        return value(Directives.APPENDFILENAME);
    }

    /** {@code appenddirname}: the AOF's directory, inside {@link #dir()}. */
    public String appenddirname() {
        return value(Directives.APPENDDIRNAME);
    }

    /** {@code appendfsync}: when the AOF is fsynced. */
    public AppendFsync appendfsync() {
        return value(Directives.APPENDFSYNC);
    }

    /** {@code auto-aof-rewrite-percentage}: growth over the last rewrite's size that triggers a rewrite; 0 never. */
    public long autoAofRewritePercentage() {
        return value(Directives.AUTO_AOF_REWRITE_PERCENTAGE);
    }

    /** {@code auto-aof-rewrite-min-size}: no automatic rewrite below this size. */
    public long autoAofRewriteMinSize() {
        return value(Directives.AUTO_AOF_REWRITE_MIN_SIZE);
    }

    /** {@code aof-load-truncated}: load an AOF whose last file ends inside a command, cutting it there. */
    public boolean aofLoadTruncated() {
        return value(Directives.AOF_LOAD_TRUNCATED);
    }

    /** {@code aof-use-rdb-preamble}: write the rewrite's base in RDB format. */
    public boolean aofUseRdbPreamble() {
        return value(Directives.AOF_USE_RDB_PREAMBLE);
    }

    /** {@code aof-timestamp-enabled}: annotate the AOF with {@code #TS:} lines. */
    public boolean aofTimestampEnabled() {
        return value(Directives.AOF_TIMESTAMP_ENABLED);
    }

    /** {@code busy-reply-threshold} (alias {@code lua-time-limit}): ms before a long script gets BUSY replies. */
    public long busyReplyThreshold() {
        return value(Directives.BUSY_REPLY_THRESHOLD);
    }

    /** The cluster-* directives. */
    public ClusterConfig cluster() {
        return cluster;
    }

    // ---------------------------------------------------------------- SLOW LOG, LATENCY, NOTIFICATIONS

    /** {@code slowlog-log-slower-than}: microseconds; -1 disables the slow log, 0 logs every command. */
    public long slowlogLogSlowerThan() {
        return value(Directives.SLOWLOG_LOG_SLOWER_THAN);
    }

    public long slowlogMaxLen() {
        return value(Directives.SLOWLOG_MAX_LEN);
    }

    /** {@code latency-monitor-threshold}: milliseconds; 0 disables the latency monitor. */
    public long latencyMonitorThreshold() {
        return value(Directives.LATENCY_MONITOR_THRESHOLD);
    }

    /**
     * {@code maxmemory-clients} as a byte limit on the memory of all clients together: the bytes
     * given, or the percentage of {@code maxmemory} (none while maxmemory is 0), raised to 128 KB
     * so a bad setting cannot cut every client off, as Redis does; 0 when client eviction is off.
     */
    public long maxmemoryClients() {
        long value = value(Directives.MAXMEMORY_CLIENTS);
        long limit;
        if (value < 0 && maxmemory() > 0) {
            limit = (long) ((double) maxmemory() * -value / 100);
        } else if (value > 0) {
            limit = value;
        } else {
            return 0;
        }
        return Math.max(limit, 128 * 1024);
    }

    /** {@code tracking-table-max-keys}: the most keys CLIENT TRACKING's table holds before invalidating some; 0 for no limit. */
    public long trackingTableMaxKeys() {
        return value(Directives.TRACKING_TABLE_MAX_KEYS);
    }

    /** {@code latency-tracking}: whether each command's latency goes into its histogram (INFO latencystats). */
    public boolean latencyTracking() {
        return value(Directives.LATENCY_TRACKING);
    }

    /** A percentile as CONFIG GET and INFO latencystats print it: {@code 50}, {@code 99.9}. */
    public static String percentileText(double percentile) {
        return SpecialTypes.Percentiles.text(percentile);
    }

    /** {@code latency-tracking-info-percentiles}: the percentiles INFO latencystats prints, 0 to 100. */
    public List<Double> latencyTrackingInfoPercentiles() {
        return value(Directives.LATENCY_TRACKING_INFO_PERCENTILES);
    }

    /** {@code notify-keyspace-events} as a bit set of {@link NotifyKeyspaceEvents} flags; 0 when disabled. */
    public int notifyKeyspaceEvents() {
        return value(Directives.NOTIFY_KEYSPACE_EVENTS);
    }

    // ---------------------------------------------------------------- ADVANCED CONFIG

    public long hashMaxListpackEntries() {
        return value(Directives.HASH_MAX_LISTPACK_ENTRIES);
    }

    /** {@code stream-node-max-bytes}: a stream node is closed before it reaches this size; 0 = no limit. */
    public long streamNodeMaxBytes() {
        return value(Directives.STREAM_NODE_MAX_BYTES);
    }

    /** {@code stream-node-max-entries}: entries (live or deleted) per stream node; 0 = no limit. */
    public long streamNodeMaxEntries() {
        return value(Directives.STREAM_NODE_MAX_ENTRIES);
    }

    public long hashMaxListpackValue() {
        return value(Directives.HASH_MAX_LISTPACK_VALUE);
    }

    /** {@code list-max-listpack-size}: positive = max entries per node, -1..-5 = max node size 4kb..64kb. */
    public int listMaxListpackSize() {
        return value(Directives.LIST_MAX_LISTPACK_SIZE).intValue();
    }

    public int listCompressDepth() {
        return value(Directives.LIST_COMPRESS_DEPTH).intValue();
    }

    public long setMaxIntsetEntries() {
        return value(Directives.SET_MAX_INTSET_ENTRIES);
    }

    public long setMaxListpackEntries() {
        return value(Directives.SET_MAX_LISTPACK_ENTRIES);
    }

    public long setMaxListpackValue() {
        return value(Directives.SET_MAX_LISTPACK_VALUE);
    }

    public long zsetMaxListpackEntries() {
        return value(Directives.ZSET_MAX_LISTPACK_ENTRIES);
    }

    public long zsetMaxListpackValue() {
        return value(Directives.ZSET_MAX_LISTPACK_VALUE);
    }

    /**
     * {@code hll-sparse-max-bytes}: the longest a sparse HyperLogLog may grow (header included)
     * before PFADD / PFMERGE convert it to the dense encoding.
     */
    public long hllSparseMaxBytes() {
        return value(Directives.HLL_SPARSE_MAX_BYTES);
    }

    public ClientOutputBufferLimits clientOutputBufferLimits() {
        return value(Directives.CLIENT_OUTPUT_BUFFER_LIMIT);
    }

    /** {@code client-query-buffer-limit}: bytes a client's unparsed input may grow to before it is closed. */
    public long clientQueryBufferLimit() {
        return value(Directives.CLIENT_QUERY_BUFFER_LIMIT);
    }

    /** {@code proto-max-bulk-len}: largest bulk string a request may carry, in bytes. */
    public long protoMaxBulkLen() {
        return value(Directives.PROTO_MAX_BULK_LEN);
    }

    /** {@code hz}: cron frequency, already capped to 1..500. */
    public int hz() {
        return value(Directives.HZ).intValue();
    }

    public boolean dynamicHz() {
        return value(Directives.DYNAMIC_HZ);
    }

    public int lfuLogFactor() {
        return value(Directives.LFU_LOG_FACTOR).intValue();
    }

    /** {@code lfu-decay-time}: minutes per LFU counter decay step. */
    public int lfuDecayTime() {
        return value(Directives.LFU_DECAY_TIME).intValue();
    }

    /** {@code active-expire-effort}: 1..10, how hard the active expire cycle works. */
    public int activeExpireEffort() {
        return value(Directives.ACTIVE_EXPIRE_EFFORT).intValue();
    }

    // ---------------------------------------------------------------- EXPIRY (Ebb)

    public ExpiryStrategy expiryStrategy() {
        return value(Directives.EXPIRY_STRATEGY);
    }

    /**
     * {@code active-expire-slice-us}: length, in microseconds, of one slice of the slow
     * active-expire cycle (I/O is served between slices); it also cuts a fast cycle (whose length
     * comes from {@code active-expire-effort}) and bounds the cron's rehash step.
     */
    public int activeExpireSliceMicros() {
        return value(Directives.ACTIVE_EXPIRE_SLICE_US).intValue();
    }

    // ---------------------------------------------------------------- generic access

    /** The config file this configuration was loaded from (absolute), if any. */
    public Optional<Path> configFile() {
        return Optional.ofNullable(configFile);
    }

    /** The value of a directive or alias as CONFIG GET prints it, or empty if there is no such directive. */
    public Optional<String> valueOf(String name) {
        Directive<?> directive = Directives.lookup(name);
        return directive == null ? Optional.empty() : Optional.of(directive.format(values[directive.index]));
    }

    /** True if {@code name} is a directive whose value is a secret ({@code requirepass}); redact its CONFIG SET value. */
    public boolean isSensitive(String name) {
        Directive<?> directive = Directives.lookup(name);
        return directive != null && directive.sensitive;
    }

    /**
     * CONFIG GET: the directives matching any of {@code patterns}, each once, with values as Redis prints them.
     * A pattern without {@code * ? [} is looked up exactly (case-insensitively) and answered under the spelling
     * given; a glob is matched case-insensitively against every name and alias (Redis 7 lists aliases such as
     * {@code lua-time-limit} as entries of their own). Cost: O(patterns x directives).
     */
    public List<Map.Entry<String, String>> configGet(String... patterns) {
        Object[] snapshot = values;
        Map<String, Map.Entry<String, String>> matches = new LinkedHashMap<>();
        for (String pattern : patterns) {
            if (!Glob.hasWildcards(pattern)) {
                Directive<?> directive = Directives.lookup(pattern);
                if (directive != null) {
                    matches.putIfAbsent(ScalarTypes.lower(pattern),
                            Map.entry(pattern, directive.format(snapshot[directive.index])));
                }
                continue;
            }
            Glob glob = Glob.compile(pattern, true);
            for (String name : Directives.allNames()) {
                if (!matches.containsKey(name) && glob.matches(name.getBytes(StandardCharsets.ISO_8859_1))) {
                    Directive<?> directive = Directives.lookup(name);
                    matches.put(name, Map.entry(name, directive.format(snapshot[directive.index])));
                }
            }
        }
        return List.copyOf(matches.values());
    }

    /**
     * CONFIG SET: sets every {@code name value} pair, all or none, as Redis 7 does: unknown names, immutable
     * directives, duplicates and bad values are found before anything changes; listeners run afterwards and a
     * refusal rolls every value back.
     *
     * @param nameValuePairs {@code [name1, value1, name2, value2, ...]}; multi-argument values ({@code save},
     *     {@code client-output-buffer-limit}) are one space-separated string as on the wire
     * @throws ConfigCommandException with Redis's error text
     */
    public synchronized void configSet(List<String> nameValuePairs) throws ConfigCommandException {
        ConfigSet.run(this, nameValuePairs);
    }

    /**
     * CONFIG REWRITE: rewrites the file this configuration was loaded from, keeping its comments and layout.
     *
     * @throws ConfigCommandException {@code ERR The server is running without a config file}, or the I/O error
     */
    public synchronized void configRewrite() throws ConfigCommandException {
        if (configFile == null) {
            throw new ConfigCommandException("ERR The server is running without a config file");
        }
        configRewrite(configFile);
    }

    /** CONFIG REWRITE into {@code file}; see {@link ConfigRewriter} for the rules. */
    public synchronized void configRewrite(Path file) throws ConfigCommandException {
        try {
            ConfigRewriter.rewriteFile(file, values, aclfile().isEmpty() ? currentUsers.get() : List.of());
        } catch (IOException e) {
            throw new ConfigCommandException("ERR Rewriting config file: " + ConfigLoader.describe(e));
        }
    }

    /**
     * Registers {@code listener} to run after a CONFIG SET changes the directive {@code name} (or its alias); see
     * {@link ConfigListener}. A listener registered for several directives runs once per CONFIG SET.
     *
     * @throws IllegalArgumentException if there is no such directive
     */
    public synchronized void onChange(String name, ConfigListener listener) {
        Objects.requireNonNull(listener, "listener");
        Directive<?> directive = Directives.lookup(name);
        if (directive == null) {
            throw new IllegalArgumentException("unknown config directive: name=" + name);
        }
        if (directive.mutability != Mutability.MUTABLE) {
            throw new IllegalArgumentException("config directive cannot change at runtime: name=" + name);
        }
        listeners.computeIfAbsent(directive, d -> new ArrayList<>()).add(listener);
    }

    /** Like {@link #onChange(String, ConfigListener)} for an action that cannot fail. */
    public void onChange(String name, Runnable action) {
        Objects.requireNonNull(action, "action");
        onChange(name, config -> action.run());
    }

    @Override
    public String toString() {
        return "ServerConfig[file=" + configFile + ", port=" + port() + "]";
    }

    <T> T value(Directive<T> directive) {
        return directive.cast(values[directive.index]);
    }

    Object[] snapshot() {
        return values;
    }

    void publish(Object[] newValues) {
        values = newValues;
    }

    List<ConfigListener> listenersOf(Directive<?> directive) {
        return listeners.getOrDefault(directive, List.of());
    }

    static void logRestoreFailure(ConfigListener listener, ConfigApplyException e) {
        LOG.warn("Failed restoring configuration after a refused CONFIG SET: listener={}, reason={}",
                listener, e.getMessage());
    }

    private Optional<Path> resolveInDir(String file) {
        if (file.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(dir().resolve(file));
    }
}
