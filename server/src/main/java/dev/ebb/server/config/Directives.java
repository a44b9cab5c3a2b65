package dev.ebb.server.config;

import dev.ebb.server.config.Directive.Mutability;
import dev.ebb.server.config.ScalarTypes.Bool;
import dev.ebb.server.config.ScalarTypes.Directory;
import dev.ebb.server.config.ScalarTypes.Enumeration;
import dev.ebb.server.config.ScalarTypes.Int;
import dev.ebb.server.config.ScalarTypes.Memory;
import dev.ebb.server.config.ScalarTypes.Text;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The config table: every directive Ebb knows, with Redis 7.2's names, aliases, defaults and ranges, in the order
 * of the sections of {@code conf/ebb.conf}. It is the single source of truth for the file parser, the command line,
 * CONFIG GET/SET/REWRITE and the typed getters of {@link ServerConfig}.
 *
 * <p>The table checks itself when this class loads: a name or alias used twice, or a default that does not survive
 * its own type's write-then-read, fails class initialization, so a bad row breaks every test at once rather than a
 * server in production.
 *
 * <p>Where Ebb deliberately differs from Redis the row says so. Immutable and thread-safe.
 */
final class Directives {
    private static final long INT_MAX = Integer.MAX_VALUE;
    private static final long INT_MIN = Integer.MIN_VALUE;
    private static final long UINT_MAX = 4294967295L;
    private static final long LONG_MAX = Long.MAX_VALUE;
    private static final long MB = 1024L * 1024;

    private static final List<Directive<?>> TABLE = new ArrayList<>();

    // NETWORK
    /** Ebb: immutable (Redis rebinds on CONFIG SET); the default is redis.conf's, not Redis's compiled "* -::*". */
    static final Directive<List<String>> BIND = add("bind", new SpecialTypes.Bind(),
            List.of("127.0.0.1", "-::1"), Mutability.IMMUTABLE);
    static final Directive<Boolean> PROTECTED_MODE = add("protected-mode", Bool.yesNo(), true, Mutability.MUTABLE);
    /** Ebb: immutable (Redis re-listens on CONFIG SET). */
    static final Directive<Long> PORT = add("port", Int.range(0, 65535), 6379L, Mutability.IMMUTABLE);
    static final Directive<Long> TCP_BACKLOG = add("tcp-backlog", Int.range(0, INT_MAX), 511L, Mutability.IMMUTABLE);
    static final Directive<Long> TIMEOUT = add("timeout", Int.range(0, INT_MAX), 0L, Mutability.MUTABLE);
    static final Directive<Long> TCP_KEEPALIVE = add("tcp-keepalive", Int.range(0, INT_MAX), 300L, Mutability.MUTABLE);

    // TLS/SSL (Redis 7.2's names and defaults; the tls-* files are read again by every CONFIG SET of one of them)
    /**
     * 0: no TLS listener. With {@code port 0} and a TLS port, Ebb listens on TLS only, as Redis does. Ebb: immutable,
     * like {@code port} (Redis re-listens on CONFIG SET).
     */
    static final Directive<Long> TLS_PORT = add("tls-port", Int.range(0, 65535), 0L, Mutability.IMMUTABLE);
    static final Directive<String> TLS_CERT_FILE = add("tls-cert-file", Text.any(), "", Mutability.MUTABLE);
    static final Directive<String> TLS_KEY_FILE = add("tls-key-file", Text.any(), "", Mutability.MUTABLE);
    static final Directive<String> TLS_KEY_FILE_PASS = add(new Spec<>("tls-key-file-pass", Text.any(), "",
            Mutability.MUTABLE).sensitive());
    static final Directive<String> TLS_CA_CERT_FILE = add("tls-ca-cert-file", Text.any(), "", Mutability.MUTABLE);
    static final Directive<String> TLS_CA_CERT_DIR = add("tls-ca-cert-dir", Text.any(), "", Mutability.MUTABLE);
    static final Directive<TlsAuthClients> TLS_AUTH_CLIENTS = add("tls-auth-clients",
            Enumeration.of(TlsAuthClients.class), TlsAuthClients.YES, Mutability.MUTABLE);
    /** Empty: TLSv1.2 and TLSv1.3, Redis's default. */
    static final Directive<String> TLS_PROTOCOLS = add("tls-protocols", Text.any(), "", Mutability.MUTABLE);
    /** TLSv1.2 cipher list, OpenSSL syntax (colon-separated); empty: the provider's defaults. */
    static final Directive<String> TLS_CIPHERS = add("tls-ciphers", Text.any(), "", Mutability.MUTABLE);
    /** TLSv1.3 cipher suites, colon-separated; empty: the provider's defaults. */
    static final Directive<String> TLS_CIPHERSUITES = add("tls-ciphersuites", Text.any(), "", Mutability.MUTABLE);
    static final Directive<Boolean> TLS_PREFER_SERVER_CIPHERS = add("tls-prefer-server-ciphers", Bool.yesNo(), false,
            Mutability.MUTABLE);
    static final Directive<Boolean> TLS_SESSION_CACHING = add("tls-session-caching", Bool.yesNo(), true,
            Mutability.MUTABLE);
    static final Directive<Long> TLS_SESSION_CACHE_SIZE = add("tls-session-cache-size", Int.range(0, INT_MAX), 20480L,
            Mutability.MUTABLE);
    static final Directive<Long> TLS_SESSION_CACHE_TIMEOUT = add("tls-session-cache-timeout", Int.range(0, INT_MAX),
            300L, Mutability.MUTABLE);

    // GENERAL
    /** Ebb: only "no"; a JVM cannot fork itself into the background. */
    static final Directive<Boolean> DAEMONIZE = add("daemonize",
            Bool.onlyNo("Ebb cannot daemonize (a JVM cannot fork): use 'daemonize no' and a service manager"),
            false, Mutability.IMMUTABLE);
    static final Directive<String> PIDFILE = add("pidfile", Text.any(), "", Mutability.IMMUTABLE);
    static final Directive<LogLevel> LOGLEVEL = add("loglevel", Enumeration.of(LogLevel.class), LogLevel.NOTICE,
            Mutability.MUTABLE);
    static final Directive<String> LOGFILE = add("logfile", Text.any(), "", Mutability.IMMUTABLE);
    static final Directive<Long> DATABASES = add("databases", Int.range(1, INT_MAX), 16L, Mutability.IMMUTABLE);

    // SNAPSHOTTING
    /** Redis 7's default save points: after an hour and 1 change, 5 minutes and 100, a minute and 10000. */
    static final Directive<List<SavePoint>> SAVE = add("save", new SpecialTypes.Save(),
            List.of(new SavePoint(3600, 1), new SavePoint(300, 100), new SavePoint(60, 10000)), Mutability.MUTABLE);
    static final Directive<Boolean> STOP_WRITES_ON_BGSAVE_ERROR = add("stop-writes-on-bgsave-error", Bool.yesNo(),
            true, Mutability.MUTABLE);
    static final Directive<Boolean> RDBCOMPRESSION = add("rdbcompression", Bool.yesNo(), true, Mutability.MUTABLE);
    static final Directive<Boolean> RDBCHECKSUM = add("rdbchecksum", Bool.yesNo(), true, Mutability.IMMUTABLE);
    static final Directive<String> DBFILENAME = add("dbfilename", Text.fileName(), "dump.rdb", Mutability.PROTECTED);
    static final Directive<Boolean> RDB_DEL_SYNC_FILES = add("rdb-del-sync-files", Bool.yesNo(), false,
            Mutability.MUTABLE);
    /** Redis's hidden test knob: microseconds to pause per key loaded (negative: 1 us once per that many keys). */
    static final Directive<Long> KEY_LOAD_DELAY = add("key-load-delay", Int.range(INT_MIN, INT_MAX), 0L,
            Mutability.MUTABLE);
    /** Redis's hidden test knob: microseconds to pause per key a snapshot writes (BGSAVE, AOF rewrite). */
    static final Directive<Long> RDB_KEY_SAVE_DELAY = add("rdb-key-save-delay", Int.range(INT_MIN, INT_MAX), 0L,
            Mutability.MUTABLE);
    static final Directive<String> DIR = add("dir", new Directory(),
            Path.of("").toAbsolutePath().normalize().toString(), Mutability.PROTECTED);

    // REPLICATION (the primary's side)
    static final Directive<Long> REPL_DISKLESS_SYNC_DELAY = add("repl-diskless-sync-delay", Int.range(0, INT_MAX), 5L,
            Mutability.MUTABLE);
    static final Directive<Boolean> REPL_DISKLESS_SYNC = add("repl-diskless-sync", Bool.yesNo(), true,
            Mutability.MUTABLE);
    static final Directive<Long> REPL_DISKLESS_SYNC_MAX_REPLICAS = add("repl-diskless-sync-max-replicas",
            Int.range(0, INT_MAX), 0L, Mutability.MUTABLE);
    static final Directive<Long> REPL_PING_REPLICA_PERIOD = add(new Spec<>("repl-ping-replica-period",
            Int.range(1, INT_MAX), 10L, Mutability.MUTABLE).alias("repl-ping-slave-period"));
    static final Directive<Long> REPL_TIMEOUT = add("repl-timeout", Int.range(1, INT_MAX), 60L, Mutability.MUTABLE);
    static final Directive<Long> REPL_BACKLOG_SIZE = add("repl-backlog-size", Memory.range(1, LONG_MAX), MB,
            Mutability.MUTABLE);
    static final Directive<Long> REPL_BACKLOG_TTL = add("repl-backlog-ttl", Int.range(0, LONG_MAX), 3600L,
            Mutability.MUTABLE);
    static final Directive<Long> MIN_REPLICAS_TO_WRITE = add(new Spec<>("min-replicas-to-write",
            Int.range(0, INT_MAX), 0L, Mutability.MUTABLE).alias("min-slaves-to-write"));
    static final Directive<Long> MIN_REPLICAS_MAX_LAG = add(new Spec<>("min-replicas-max-lag",
            Int.range(0, INT_MAX), 10L, Mutability.MUTABLE).alias("min-slaves-max-lag"));
    // REPLICATION (the replica side; Redis's names, aliases and defaults)
    /**
     * Empty: a primary. Ebb as Redis: REPLICAOF changes it at run time (CONFIG GET and REWRITE show it), CONFIG SET
     * refuses it.
     */
    static final Directive<List<String>> REPLICAOF = add(new Spec<>("replicaof", new SpecialTypes.ReplicaOf(),
            List.of(), Mutability.IMMUTABLE).alias("slaveof"));
    static final Directive<String> MASTERAUTH = add(new Spec<>("masterauth", Text.any(), "", Mutability.MUTABLE)
            .sensitive());
    static final Directive<String> MASTERUSER = add("masteruser", Text.any(), "", Mutability.MUTABLE);
    static final Directive<Boolean> REPLICA_SERVE_STALE_DATA = add(new Spec<>("replica-serve-stale-data",
            Bool.yesNo(), true, Mutability.MUTABLE).alias("slave-serve-stale-data"));
    static final Directive<Boolean> REPLICA_READ_ONLY = add(new Spec<>("replica-read-only", Bool.yesNo(), true,
            Mutability.MUTABLE).alias("slave-read-only"));
    /** Ebb: only "disabled" (the RDB goes to a temp file in dir, then loads into fresh databases that swap in). */
    static final Directive<ReplDisklessLoad> REPL_DISKLESS_LOAD = add("repl-diskless-load",
            Enumeration.of(ReplDisklessLoad.class), ReplDisklessLoad.DISABLED, Mutability.MUTABLE);
    static final Directive<Long> REPLICA_PRIORITY = add(new Spec<>("replica-priority", Int.range(0, INT_MAX), 100L,
            Mutability.MUTABLE).alias("slave-priority"));
    static final Directive<Boolean> REPLICA_ANNOUNCED = add("replica-announced", Bool.yesNo(), true,
            Mutability.MUTABLE);
    static final Directive<String> REPLICA_ANNOUNCE_IP = add(new Spec<>("replica-announce-ip", Text.any(), "",
            Mutability.MUTABLE).alias("slave-announce-ip"));
    static final Directive<Long> REPLICA_ANNOUNCE_PORT = add(new Spec<>("replica-announce-port", Int.range(0, 65535),
            0L, Mutability.MUTABLE).alias("slave-announce-port"));

    // SECURITY
    static final Directive<String> REQUIREPASS = add(new Spec<>("requirepass", Text.any(), "", Mutability.MUTABLE)
            .sensitive());
    /** Redis 7's default "no" refuses DEBUG; "local" allows it from loopback connections only. */
    static final Directive<ProtectedAction> ENABLE_DEBUG_COMMAND = add("enable-debug-command",
            Enumeration.of(ProtectedAction.class), ProtectedAction.NO, Mutability.IMMUTABLE);

    static final Directive<String> ACLFILE = add("aclfile", Text.any(), "", Mutability.IMMUTABLE);
    static final Directive<Long> ACLLOG_MAX_LEN = add("acllog-max-len", Int.range(0, LONG_MAX), 128L,
            Mutability.MUTABLE);
    static final Directive<AclPubsubDefault> ACL_PUBSUB_DEFAULT = add("acl-pubsub-default",
            Enumeration.of(AclPubsubDefault.class), AclPubsubDefault.RESETCHANNELS, Mutability.MUTABLE);

    // CLIENTS
    static final Directive<Long> MAXCLIENTS = add("maxclients", Int.range(1, UINT_MAX), 10000L, Mutability.MUTABLE);

    // MEMORY MANAGEMENT
    static final Directive<Long> MAXMEMORY = add("maxmemory", Memory.range(0, LONG_MAX), 0L, Mutability.MUTABLE);
    static final Directive<MaxmemoryPolicy> MAXMEMORY_POLICY = add("maxmemory-policy",
            Enumeration.of(MaxmemoryPolicy.class), MaxmemoryPolicy.NOEVICTION, Mutability.MUTABLE);
    static final Directive<Long> MAXMEMORY_SAMPLES = add("maxmemory-samples", Int.range(1, INT_MAX), 5L,
            Mutability.MUTABLE);
    static final Directive<Long> MAXMEMORY_EVICTION_TENACITY = add("maxmemory-eviction-tenacity", Int.range(0, 100),
            10L, Mutability.MUTABLE);
    /** Bytes, or a percentage of maxmemory kept as its negative (Redis's encoding). */
    static final Directive<Long> MAXMEMORY_CLIENTS = add("maxmemory-clients", ScalarTypes.MemoryOrPercent.of(), 0L,
            Mutability.MUTABLE);

    // LAZY FREEING
    static final Directive<Boolean> LAZYFREE_LAZY_EVICTION = lazyfree("lazyfree-lazy-eviction");
    static final Directive<Boolean> LAZYFREE_LAZY_EXPIRE = lazyfree("lazyfree-lazy-expire");
    static final Directive<Boolean> LAZYFREE_LAZY_SERVER_DEL = lazyfree("lazyfree-lazy-server-del");
    static final Directive<Boolean> LAZYFREE_LAZY_USER_DEL = lazyfree("lazyfree-lazy-user-del");
    static final Directive<Boolean> LAZYFREE_LAZY_USER_FLUSH = lazyfree("lazyfree-lazy-user-flush");

    // THREADED I/O
    static final Directive<Long> IO_THREADS = add("io-threads", Int.range(1, 128), 1L, Mutability.IMMUTABLE);

    // APPEND ONLY MODE
    static final Directive<Boolean> APPENDONLY = add("appendonly", Bool.yesNo(), false, Mutability.MUTABLE);
    static final Directive<String> APPENDFILENAME = add("appendfilename",
            Text.baseName("appendfilename can't be a path, just a filename"), "appendonly.aof", Mutability.IMMUTABLE);
    static final Directive<String> APPENDDIRNAME = add("appenddirname",
            Text.baseName("appenddirname can't be a path, just a dirname"), "appendonlydir", Mutability.IMMUTABLE);
    static final Directive<AppendFsync> APPENDFSYNC = add("appendfsync", Enumeration.of(AppendFsync.class),
            AppendFsync.EVERYSEC, Mutability.MUTABLE);
    /** Ebb: accepted; a rewrite never runs alongside fsyncs (the loop writes the base itself). */
    static final Directive<Boolean> NO_APPENDFSYNC_ON_REWRITE = add("no-appendfsync-on-rewrite", Bool.yesNo(), false,
            Mutability.MUTABLE);
    static final Directive<Long> AUTO_AOF_REWRITE_PERCENTAGE = add("auto-aof-rewrite-percentage",
            Int.range(0, INT_MAX), 100L, Mutability.MUTABLE);
    static final Directive<Long> AUTO_AOF_REWRITE_MIN_SIZE = add("auto-aof-rewrite-min-size",
            Memory.range(0, LONG_MAX), 64 * MB, Mutability.MUTABLE);
    static final Directive<Boolean> AOF_LOAD_TRUNCATED = add("aof-load-truncated", Bool.yesNo(), true,
            Mutability.MUTABLE);
    static final Directive<Boolean> AOF_USE_RDB_PREAMBLE = add("aof-use-rdb-preamble", Bool.yesNo(), true,
            Mutability.MUTABLE);
    static final Directive<Boolean> AOF_TIMESTAMP_ENABLED = add("aof-timestamp-enabled", Bool.yesNo(), false,
            Mutability.MUTABLE);
    /** Ebb: accepted; the base is fsynced once when written. */
    static final Directive<Boolean> AOF_REWRITE_INCREMENTAL_FSYNC = add("aof-rewrite-incremental-fsync", Bool.yesNo(),
            true, Mutability.MUTABLE);

    // LUA SCRIPTING / BUSY REPLY
    static final Directive<Long> BUSY_REPLY_THRESHOLD = add(new Spec<>("busy-reply-threshold",
            Int.range(0, LONG_MAX), 5000L, Mutability.MUTABLE).alias("lua-time-limit"));

    // CLUSTER
    static final Directive<Boolean> CLUSTER_ENABLED = add("cluster-enabled", Bool.yesNo(), false,
            Mutability.IMMUTABLE);
    static final Directive<String> CLUSTER_CONFIG_FILE = add("cluster-config-file", Text.any(), "nodes.conf",
            Mutability.IMMUTABLE);
    static final Directive<Long> CLUSTER_PORT = add("cluster-port", Int.range(0, 65535), 0L, Mutability.IMMUTABLE);
    static final Directive<Long> CLUSTER_NODE_TIMEOUT = add("cluster-node-timeout", Int.range(0, LONG_MAX), 15000L,
            Mutability.MUTABLE);
    static final Directive<Boolean> CLUSTER_REQUIRE_FULL_COVERAGE = add("cluster-require-full-coverage",
            Bool.yesNo(), true, Mutability.MUTABLE);
    static final Directive<Boolean> CLUSTER_ALLOW_READS_WHEN_DOWN = add("cluster-allow-reads-when-down",
            Bool.yesNo(), false, Mutability.MUTABLE);
    static final Directive<Boolean> CLUSTER_ALLOW_PUBSUBSHARD_WHEN_DOWN = add("cluster-allow-pubsubshard-when-down",
            Bool.yesNo(), true, Mutability.MUTABLE);
    static final Directive<Long> CLUSTER_LINK_SENDBUF_LIMIT = add("cluster-link-sendbuf-limit",
            Memory.range(0, LONG_MAX), 0L, Mutability.MUTABLE);
    static final Directive<String> CLUSTER_ANNOUNCE_IP = add("cluster-announce-ip", Text.any(), "",
            Mutability.MUTABLE);
    static final Directive<Long> CLUSTER_ANNOUNCE_PORT = add("cluster-announce-port", Int.range(0, 65535), 0L,
            Mutability.MUTABLE);
    static final Directive<Long> CLUSTER_ANNOUNCE_BUS_PORT = add("cluster-announce-bus-port", Int.range(0, 65535),
            0L, Mutability.MUTABLE);
    static final Directive<Long> CLUSTER_ANNOUNCE_TLS_PORT = add("cluster-announce-tls-port", Int.range(0, 65535),
            0L, Mutability.MUTABLE);
    static final Directive<String> CLUSTER_ANNOUNCE_HOSTNAME = add("cluster-announce-hostname", Text.any(), "",
            Mutability.MUTABLE);
    static final Directive<String> CLUSTER_ANNOUNCE_HUMAN_NODENAME = add("cluster-announce-human-nodename",
            Text.any(), "", Mutability.MUTABLE);

    static final Directive<Long> CLUSTER_REPLICA_VALIDITY_FACTOR = add(new Spec<>("cluster-replica-validity-factor",
            Int.range(0, INT_MAX), 10L, Mutability.MUTABLE).alias("cluster-slave-validity-factor"));
    static final Directive<Boolean> CLUSTER_REPLICA_NO_FAILOVER = add(new Spec<>("cluster-replica-no-failover",
            Bool.yesNo(), false, Mutability.MUTABLE).alias("cluster-slave-no-failover"));
    static final Directive<Long> CLUSTER_MIGRATION_BARRIER = add("cluster-migration-barrier", Int.range(0, INT_MAX),
            1L, Mutability.MUTABLE);
    static final Directive<Boolean> CLUSTER_ALLOW_REPLICA_MIGRATION = add("cluster-allow-replica-migration",
            Bool.yesNo(), true, Mutability.MUTABLE);

    // SLOW LOG
    static final Directive<Long> SLOWLOG_LOG_SLOWER_THAN = add("slowlog-log-slower-than", Int.range(-1, LONG_MAX),
            10000L, Mutability.MUTABLE);
    static final Directive<Long> SLOWLOG_MAX_LEN = add("slowlog-max-len", Int.range(0, LONG_MAX), 128L,
            Mutability.MUTABLE);

    // LATENCY MONITOR
    static final Directive<Long> LATENCY_MONITOR_THRESHOLD = add("latency-monitor-threshold", Int.range(0, LONG_MAX),
            0L, Mutability.MUTABLE);

    // LATENCY TRACKING
    static final Directive<Boolean> LATENCY_TRACKING = add("latency-tracking", Bool.yesNo(), true,
            Mutability.MUTABLE);
    static final Directive<List<Double>> LATENCY_TRACKING_INFO_PERCENTILES = add("latency-tracking-info-percentiles",
            new SpecialTypes.Percentiles(), List.of(50.0, 99.0, 99.9), Mutability.MUTABLE);

    // KEYS TRACKING
    static final Directive<Long> TRACKING_TABLE_MAX_KEYS = add("tracking-table-max-keys", Int.range(0, LONG_MAX),
            1_000_000L, Mutability.MUTABLE);

    // EVENT NOTIFICATION
    static final Directive<Integer> NOTIFY_KEYSPACE_EVENTS = add("notify-keyspace-events",
            new SpecialTypes.KeyspaceEvents(), 0, Mutability.MUTABLE);

    // ADVANCED CONFIG (the listpack thresholds are Redis 7.2's: 7.0 compiled in 512 for hash entries)
    static final Directive<Long> HASH_MAX_LISTPACK_ENTRIES = add(new Spec<>("hash-max-listpack-entries",
            Int.range(0, LONG_MAX), 512L, Mutability.MUTABLE).alias("hash-max-ziplist-entries"));
    static final Directive<Long> HASH_MAX_LISTPACK_VALUE = add(new Spec<>("hash-max-listpack-value",
            Memory.range(0, LONG_MAX), 64L, Mutability.MUTABLE).alias("hash-max-ziplist-value"));
    static final Directive<Long> LIST_MAX_LISTPACK_SIZE = add(new Spec<>("list-max-listpack-size",
            Int.range(INT_MIN, INT_MAX), -2L, Mutability.MUTABLE).alias("list-max-ziplist-size"));
    static final Directive<Long> LIST_COMPRESS_DEPTH = add("list-compress-depth", Int.range(0, INT_MAX), 0L,
            Mutability.MUTABLE);
    static final Directive<Long> SET_MAX_INTSET_ENTRIES = add("set-max-intset-entries", Int.range(0, LONG_MAX), 512L,
            Mutability.MUTABLE);
    static final Directive<Long> SET_MAX_LISTPACK_ENTRIES = add("set-max-listpack-entries", Int.range(0, LONG_MAX),
            128L, Mutability.MUTABLE);
    static final Directive<Long> SET_MAX_LISTPACK_VALUE = add("set-max-listpack-value", Memory.range(0, LONG_MAX),
            64L, Mutability.MUTABLE);
    static final Directive<Long> ZSET_MAX_LISTPACK_ENTRIES = add(new Spec<>("zset-max-listpack-entries",
            Int.range(0, LONG_MAX), 128L, Mutability.MUTABLE).alias("zset-max-ziplist-entries"));
    static final Directive<Long> ZSET_MAX_LISTPACK_VALUE = add(new Spec<>("zset-max-listpack-value",
            Memory.range(0, LONG_MAX), 64L, Mutability.MUTABLE).alias("zset-max-ziplist-value"));
    static final Directive<Long> HLL_SPARSE_MAX_BYTES = add("hll-sparse-max-bytes", Memory.range(0, LONG_MAX),
            3000L, Mutability.MUTABLE);
    static final Directive<Long> STREAM_NODE_MAX_BYTES = add("stream-node-max-bytes", Memory.range(0, LONG_MAX),
            4096L, Mutability.MUTABLE);
    static final Directive<Long> STREAM_NODE_MAX_ENTRIES = add("stream-node-max-entries", Int.range(0, LONG_MAX),
            100L, Mutability.MUTABLE);
    static final Directive<ClientOutputBufferLimits> CLIENT_OUTPUT_BUFFER_LIMIT = add("client-output-buffer-limit",
            new SpecialTypes.OutputBufferLimits(), ClientOutputBufferLimits.DEFAULTS, Mutability.MUTABLE);
    static final Directive<Long> CLIENT_QUERY_BUFFER_LIMIT = add("client-query-buffer-limit",
            Memory.range(MB, LONG_MAX), 1024 * MB, Mutability.MUTABLE);
    static final Directive<Long> PROTO_MAX_BULK_LEN = add("proto-max-bulk-len", Memory.range(MB, LONG_MAX),
            512 * MB, Mutability.MUTABLE);
    /** Accepts 0..INT_MAX and caps to 1..500, as Redis does ("hz is more a hint"). */
    static final Directive<Long> HZ = add("hz", Int.clamped(0, INT_MAX, 1, 500), 10L, Mutability.MUTABLE);
    static final Directive<Boolean> DYNAMIC_HZ = add("dynamic-hz", Bool.yesNo(), true, Mutability.MUTABLE);
    static final Directive<Long> LFU_LOG_FACTOR = add("lfu-log-factor", Int.range(0, INT_MAX), 10L,
            Mutability.MUTABLE);
    static final Directive<Long> LFU_DECAY_TIME = add("lfu-decay-time", Int.range(0, INT_MAX), 1L,
            Mutability.MUTABLE);
    static final Directive<Long> ACTIVE_EXPIRE_EFFORT = add("active-expire-effort", Int.range(1, 10), 1L,
            Mutability.MUTABLE);
    /** CPU affinity lists, with Redis 7.2's underscore names; "" leaves a thread where the OS puts it. */
    static final Directive<String> SERVER_CPULIST = add("server_cpulist", Text.any(), "", Mutability.IMMUTABLE);
    static final Directive<String> BIO_CPULIST = add("bio_cpulist", Text.any(), "", Mutability.IMMUTABLE);
    static final Directive<String> AOF_REWRITE_CPULIST = add("aof_rewrite_cpulist", Text.any(), "",
            Mutability.IMMUTABLE);
    static final Directive<String> BGSAVE_CPULIST = add("bgsave_cpulist", Text.any(), "", Mutability.IMMUTABLE);

    // EXPIRY (Ebb only)
    static final Directive<ExpiryStrategy> EXPIRY_STRATEGY = add("expiry-strategy",
            Enumeration.of(ExpiryStrategy.class), ExpiryStrategy.SAMPLING, Mutability.IMMUTABLE);
    static final Directive<Long> ACTIVE_EXPIRE_SLICE_US = add("active-expire-slice-us", Int.range(100, 25000), 250L,
            Mutability.MUTABLE);

    /** All directives in table order. */
    static final List<Directive<?>> ALL = Collections.unmodifiableList(TABLE);

    /** Every name and alias, lowercase, to its directive, in table order (each name followed by its aliases). */
    private static final Map<String, Directive<?>> BY_NAME = indexNames(ALL);

    private Directives() {
    }

    /** Looks a name or alias up, case-insensitively; null if unknown. */
    static Directive<?> lookup(String name) {
        return BY_NAME.get(ScalarTypes.lower(name));
    }

    /** Every registered name, canonical names and aliases, lowercase, in table order. */
    static Iterable<String> allNames() {
        return BY_NAME.keySet();
    }

    /** Default values of all directives, indexed like {@link #ALL}; a fresh array on every call. */
    static Object[] defaults() {
        Object[] values = new Object[ALL.size()];
        for (Directive<?> directive : ALL) {
            values[directive.index] = directive.defaultValue;
        }
        return values;
    }

    /**
     * Maps every name and alias to its directive.
     *
     * @throws IllegalStateException naming the duplicate if a name or alias appears twice
     */
    static Map<String, Directive<?>> indexNames(List<Directive<?>> table) {
        Map<String, Directive<?>> byName = new LinkedHashMap<>();
        for (Directive<?> directive : table) {
            register(byName, directive.name, directive);
            for (String alias : directive.aliases) {
                register(byName, alias, directive);
            }
        }
        return Collections.unmodifiableMap(byName);
    }

    private static void register(Map<String, Directive<?>> byName, String name, Directive<?> directive) {
        if (!name.equals(ScalarTypes.lower(name))) {
            throw new IllegalStateException("config directive names must be lowercase: name=" + name);
        }
        Directive<?> previous = byName.putIfAbsent(name, directive);
        if (previous != null) {
            throw new IllegalStateException("duplicate config directive name: name=" + name
                    + ", used by '" + previous.name + "' and '" + directive.name + "'");
        }
    }

    /**
     * Checks that every default is written and read back unchanged by its own type: a check of the table
     * itself, run by {@code DirectivesTest} rather than at every start (it took 40-70 ms of it).
     *
     * @throws IllegalStateException naming the directive whose default does not round-trip
     */
    static void checkDefaults(List<Directive<?>> table) {
        for (Directive<?> directive : table) {
            checkDefault(directive);
        }
    }

    private static <T> void checkDefault(Directive<T> directive) {
        String written = directive.type.fileForm(directive.defaultValue);
        List<String> args = ConfigSyntax.splitArgs(written);
        try {
            T reread = directive.type.parse(args, directive.defaultValue);
            if (!reread.equals(directive.defaultValue)) {
                throw new IllegalStateException("default of '" + directive.name + "' reads back differently: written="
                        + written + ", read=" + reread);
            }
        } catch (InvalidValueException e) {
            throw new IllegalStateException("default of '" + directive.name + "' is invalid: written=" + written
                    + ", reason=" + e.reason(), e);
        }
    }

    private static <T> Directive<T> add(String name, ValueType<T> type, T defaultValue, Mutability mutability) {
        return add(new Spec<>(name, type, defaultValue, mutability));
    }

    private static <T> Directive<T> add(Spec<T> spec) {
        Directive<T> directive = new Directive<>(TABLE.size(), spec.name, spec.aliases, spec.type, spec.defaultValue,
                spec.mutability, spec.sensitive);
        TABLE.add(directive);
        return directive;
    }

    private static Directive<Boolean> lazyfree(String name) {
        return add(name, Bool.yesNo(), false, Mutability.MUTABLE);
    }

    /** The optional parts of a row, so that plain rows stay one short line. */
    private static final class Spec<T> {
        final String name;
        final ValueType<T> type;
        final T defaultValue;
        final Mutability mutability;
        final List<String> aliases = new ArrayList<>();
        boolean sensitive;

        Spec(String name, ValueType<T> type, T defaultValue, Mutability mutability) {
            this.name = name;
            this.type = type;
            this.defaultValue = defaultValue;
            this.mutability = mutability;
        }

        Spec<T> alias(String alias) {
            aliases.add(alias);
            return this;
        }

        Spec<T> sensitive() {
            sensitive = true;
            return this;
        }
    }
}
