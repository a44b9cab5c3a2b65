package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.server.ServerStats;
import dev.ebb.server.config.ServerVersion;
import dev.ebb.server.script.Functions;
import dev.ebb.storage.Database;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * INFO [section …]: the server's state as Redis's {@code field:value} text, CRLF line endings,
 * {@code # Section} headers, sections separated by an empty line, in Redis's order whatever order
 * they were asked in. {@code default}, {@code all} and {@code everything} give every section Ebb
 * has; an unknown section gives nothing. RESP3 clients get it as verbatim text.
 *
 * <p>Sections and what their numbers are, where Ebb differs from Redis:
 * <ul>
 *   <li><b>memory</b>: {@code used_memory} is the keyspace's own estimate (sum of
 *       {@link Database#usedMemory()}), not the process's allocations; {@code used_memory_rss} is
 *       the process's resident set ({@code VmRSS}); {@code mem_fragmentation_ratio} is that over
 *       {@code used_memory}, as Redis computes it; the {@code allocator_*} and {@code rss_overhead_*}
 *       fields are the JVM heap plus Netty's direct memory and the anonymous resident memory
 *       ({@link ProcessMemory}). {@code used_memory_peak} is the highest {@code used_memory} seen by INFO
 *       and by the cron (every tick, as Redis samples it). The {@code jvm_*} fields are Ebb's ({@code jvm_direct_memory}: Netty's
 *       direct memory, counted in {@code allocator_active}).</li>
 *   <li><b>persistence</b>: the RDB fields come from {@link dev.ebb.server.persistence.Persistence}:
 *       {@code rdb_changes_since_last_save} counts changed keys (Redis counts per command), and the
 *       {@code cow} fields report the pre-images a BGSAVE holds for its save thread, Ebb's
 *       counterpart of fork's copy-on-write. The AOF fields report that nothing ever happened.</li>
 *   <li><b>cpu</b>: {@code used_cpu_*} from {@code /proc/self/stat} (all JVM threads, GC included;
 *       summed thread times where there is no /proc); the {@code _main_thread} fields are the
 *       command loop thread's own.</li>
 *   <li><b>replication</b>: a primary's replicas (ReplicationPrimary), ids, offsets and backlog.</li>
 *   <li>{@code blocked_clients} counts clients in BLPOP and friends.</li>
 *   <li>Redis 7.2.4's fields, in its order, are all present except those Ebb cannot yet answer
 *       truthfully: {@code used_memory_lua}, {@code used_memory_vm_eval}, {@code used_memory_vm_total}
 *       (memory) and, in stats,
 *       {@code total_eviction_exceeded_time}, {@code current_eviction_exceeded_time},
 *       {@code total_reads_processed},
 *       {@code total_writes_processed}, {@code io_threaded_*}, {@code reply_buffer_*},
 *       {@code eventloop_*} and {@code acl_access_denied_*}. Fields of what Ebb does not have
 *       (fork, replication, defrag, tracking) are 0 or Redis's idle value.
 *       {@code client_output_buffer_limit_disconnections} and the {@code jvm_*} fields are Ebb's.</li>
 *   <li><b>commandstats</b> and <b>latencystats</b> (only with {@code all}, {@code everything}
 *       or by name, as in Redis) and <b>errorstats</b>: see {@link dev.ebb.server.CommandStats}
 *       and {@link dev.ebb.server.ErrorStats}.</li>
 * </ul>
 * Costs: O(databases + clients) plus two small /proc reads; only ever run on the command loop.
 */
public final class InfoCommand {
    private static final String[] SECTIONS = {
        "server", "clients", "memory", "persistence", "stats", "replication", "cpu", "modules", "commandstats",
        "errorstats", "latencystats", "cluster", "keyspace",
    };
    /** Left out of a plain INFO (and INFO default), as Redis leaves them out. */
    private static final Set<String> NOT_DEFAULT = Set.of("commandstats", "latencystats");
    /** Redis's default {@code repl-backlog-size}; Ebb has no backlog and no such directive yet. */
    private static final long REPL_BACKLOG_SIZE = 1024 * 1024;
    private static final int CLOCK_TICKS_PER_SECOND = 100;
    private static final Path PROC_STAT = Path.of("/proc/self/stat");
    /** Redis's LRU clock: seconds, 24 bits ({@code LRU_CLOCK_MAX}). */
    private static final long LRU_CLOCK_MAX = (1 << 24) - 1;

    private InfoCommand() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("info", -1, LOADING | STALE, 0, 0, 0, InfoCommand::info)
                        .doc(CommandGroup.SERVER, "1.0.0", "Returns information and statistics about the server.",
                                "[section [section ...]]")
                        .complexity("O(1)"));
    }

    static void info(Client c, byte[][] argv) {
        Set<String> wanted = new HashSet<>();
        if (argv.length == 1) {
            wanted.add("default");
        }
        for (int i = 1; i < argv.length; i++) {
            wanted.add(Arguments.text(argv[i]).toLowerCase(Locale.ROOT));
        }
        c.reply().verbatim(text(c, wanted));
    }

    /**
     * The INFO text of every section in {@code wanted}, in Redis's order: section names, or
     * {@code default} (all but commandstats and latencystats), {@code all} or {@code everything}
     * (all of them).
     */
    static String text(Client c, Set<String> wanted) {
        boolean all = wanted.contains("all") || wanted.contains("everything");
        boolean defaults = wanted.contains("default");
        StringBuilder out = new StringBuilder(4096);
        int written = 0;
        for (String section : SECTIONS) {
            boolean include = all || wanted.contains(section) || (defaults && !NOT_DEFAULT.contains(section));
            if (!include) {
                continue;
            }
            if (written++ > 0) {
                out.append("\r\n");
            }
            appendSection(out, section, c);
        }
        return out.toString();
    }

    private static void appendSection(StringBuilder out, String section, Client c) {
        Server s = c.server();
        switch (section) {
            case "server" -> server(out, s, c);
            case "clients" -> clients(out, s);
            case "memory" -> memory(out, s);
            case "persistence" -> persistence(out, s);
            case "stats" -> stats(out, s);
            case "replication" -> replication(out, s);
            case "cpu" -> cpu(out);
            case "modules" -> out.append("# Modules\r\n");
            case "commandstats" -> {
                out.append("# Commandstats\r\n");
                s.commandStats().appendInfo(out);
            }
            case "errorstats" -> {
                out.append("# Errorstats\r\n");
                s.errorStats().appendInfo(out);
            }
            case "latencystats" -> {
                out.append("# Latencystats\r\n");
                s.commandStats().appendLatencyInfo(out, s.config().latencyTrackingInfoPercentiles());
            }
            case "cluster" -> {
                out.append("# Cluster\r\n");
                field(out, "cluster_enabled", c.server().clusterEnabled() ? 1 : 0);
            }
            case "keyspace" -> keyspace(out, s);
            default -> throw new IllegalArgumentException("no such INFO section: " + section);
        }
    }

    /** {@code tcp_port} is read from the asking connection's local address: the port actually bound. */
    private static void server(StringBuilder out, Server s, Client c) {
        long uptimeSeconds = Math.max(0, (s.nowMs() - s.startMs()) / 1000);
        out.append("# Server\r\n");
        field(out, "redis_version", Server.REDIS_VERSION);
        // Not built from Redis's git: Redis prints these zeros when built outside a git checkout.
        field(out, "redis_git_sha1", "00000000");
        field(out, "redis_git_dirty", 0);
        field(out, "redis_build_id", String.format(Locale.ROOT, "%016x", ServerVersion.ebbVersion().hashCode() & 0xffffffffL));
        field(out, "redis_mode", s.clusterEnabled() ? "cluster" : "standalone");
        field(out, "os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + machine());
        field(out, "arch_bits", System.getProperty("sun.arch.data.model", "64"));
        field(out, "monotonic_clock", "System.nanoTime");
        field(out, "multiplexing_api", io.netty.channel.epoll.Epoll.isAvailable() ? "epoll" : "nio");
        field(out, "atomicvar_api", "java.util.concurrent.atomic");
        field(out, "gcc_version", "0.0.0");
        field(out, "process_id", ProcessHandle.current().pid());
        field(out, "process_supervised", "no");
        field(out, "run_id", s.runId());
        String port = c.laddr().substring(c.laddr().lastIndexOf(':') + 1);
        field(out, "tcp_port", port);
        field(out, "server_time_usec", s.nowMs() * 1000);
        field(out, "uptime_in_seconds", uptimeSeconds);
        field(out, "uptime_in_days", uptimeSeconds / 86400);
        field(out, "hz", s.hz());
        field(out, "configured_hz", s.config().hz());
        field(out, "lru_clock", (s.nowMs() / 1000) & LRU_CLOCK_MAX);
        field(out, "executable", ProcessHandle.current().info().command().orElse(""));
        field(out, "config_file", s.config().configFile().map(Path::toString).orElse(""));
        field(out, "io_threads_active", s.config().ioThreads() > 1 ? 1 : 0);
        StringBuilder listener = new StringBuilder("name=tcp");
        for (String address : s.config().bind()) {
            listener.append(",bind=").append(address);
        }
        field(out, "listener0", listener.append(",port=").append(port));
        field(out, "ebb_version", ServerVersion.ebbVersion());
        field(out, "java_version", System.getProperty("java.version"));
    }

    /** {@code os.arch} as uname names it. */
    private static String machine() {
        String arch = System.getProperty("os.arch");
        return arch.equals("amd64") ? "x86_64" : arch;
    }

    /**
     * {@code client_recent_max_input_buffer} / {@code _output_buffer} are the largest query buffer
     * and reply backlog of the connected clients now (Redis keeps the largest of the last few
     * seconds). {@code total_blocking_keys_on_nokey} counts the keys XREADGROUP clients wait on.
     */
    private static void clients(StringBuilder out, Server s) {
        long maxInput = 0;
        long maxOutput = 0;
        for (Client client : s.clients()) {
            if (client.decoder() != null) {
                maxInput = Math.max(maxInput, client.decoder().queryBufferBytes() + client.decoder().queryBufferFree());
            }
            maxOutput = Math.max(maxOutput, client.outputBytes());
        }
        out.append("# Clients\r\n");
        field(out, "connected_clients", s.clients().size());
        field(out, "cluster_connections", 0);
        field(out, "maxclients", s.config().maxclients());
        field(out, "client_recent_max_input_buffer", maxInput);
        field(out, "client_recent_max_output_buffer", maxOutput);
        field(out, "blocked_clients", s.blockingKeys().blockedClients());
        field(out, "tracking_clients", s.tracking().clients());
        field(out, "clients_in_timeout_table", s.blockingKeys().clientsWithTimeout());
        field(out, "total_blocking_keys", s.blockingKeys().blockingKeys());
        field(out, "total_blocking_keys_on_nokey", s.blockingKeys().blockingKeysOnNoKey());
    }

    /**
     * Redis 7.2.4's memory fields in its order, from the same {@link MemoryCommands.Overhead} as
     * MEMORY STATS (see there for what each is in Ebb). Left out: Redis's {@code used_memory_lua},
     * {@code used_memory_vm_eval} and {@code used_memory_vm_total}, as LuaJ's memory is not
     * separable from the JVM heap (so {@code used_memory_vm_functions} is 0 too);
     * {@code used_memory_scripts_eval} is the script cache's source bytes, {@code used_memory_functions}
     * the libraries' code and function names.
     */
    private static void memory(StringBuilder out, Server s) {
        MemoryCommands.Overhead m = MemoryCommands.overhead(s);
        ProcessMemory p = m.process();
        long used = m.total();
        long peak = m.peak();
        long maxmemory = s.config().maxmemory();
        out.append("# Memory\r\n");
        field(out, "used_memory", used);
        field(out, "used_memory_human", bytesToHuman(used));
        field(out, "used_memory_rss", p.rss());
        field(out, "used_memory_rss_human", bytesToHuman(p.rss()));
        field(out, "used_memory_peak", peak);
        field(out, "used_memory_peak_human", bytesToHuman(peak));
        field(out, "used_memory_peak_perc", String.format(Locale.ROOT, "%.2f%%", peak == 0 ? 0 : 100.0 * used / peak));
        field(out, "used_memory_overhead", m.overheadTotal());
        field(out, "used_memory_startup", m.startup());
        field(out, "used_memory_dataset", m.dataset());
        field(out, "used_memory_dataset_perc", String.format(Locale.ROOT, "%.2f%%", m.datasetPerc()));
        field(out, "allocator_allocated", p.allocated());
        field(out, "allocator_active", p.active());
        field(out, "allocator_resident", p.resident());
        long total = totalSystemMemory();
        field(out, "total_system_memory", total);
        field(out, "total_system_memory_human", bytesToHuman(total));
        field(out, "used_memory_scripts_eval", m.luaCaches());
        field(out, "number_of_cached_scripts", s.scripting().cachedScripts());
        Functions functions = s.scripting().functions();
        field(out, "number_of_functions", functions.functionCount());
        field(out, "number_of_libraries", functions.libraryCount());
        field(out, "used_memory_vm_functions", 0);
        field(out, "used_memory_functions", functions.memory());
        field(out, "used_memory_scripts", m.luaCaches() + functions.memory());
        field(out, "used_memory_scripts_human", bytesToHuman(m.luaCaches() + functions.memory()));
        field(out, "maxmemory", maxmemory);
        field(out, "maxmemory_human", bytesToHuman(maxmemory));
        field(out, "maxmemory_policy", s.config().maxmemoryPolicy().configName());
        field(out, "allocator_frag_ratio", ratio(p.allocatorFragRatio()));
        field(out, "allocator_frag_bytes", p.active() - p.allocated());
        field(out, "allocator_rss_ratio", ratio(p.allocatorRssRatio()));
        field(out, "allocator_rss_bytes", p.resident() - p.active());
        field(out, "rss_overhead_ratio", ratio(p.rssOverheadRatio()));
        field(out, "rss_overhead_bytes", p.rss() - p.resident());
        field(out, "mem_fragmentation_ratio", ratio(m.fragmentation()));
        field(out, "mem_fragmentation_bytes", p.rss() - used);
        field(out, "mem_not_counted_for_evict", 0);
        field(out, "mem_replication_backlog", 0);
        field(out, "mem_total_replication_buffers", 0);
        field(out, "mem_clients_slaves", 0);
        field(out, "mem_clients_normal", m.clientsNormal());
        field(out, "mem_cluster_links", 0);
        field(out, "mem_aof_buffer", 0);
        field(out, "mem_allocator", "jvm");
        field(out, "active_defrag_running", 0);
        // Ebb frees by dropping references, so nothing ever waits for a lazy-free thread.
        field(out, "lazyfree_pending_objects", 0);
        field(out, "lazyfreed_objects", s.stats().lazyfreedObjects());
        field(out, "jvm_heap_used", p.heapUsed());
        field(out, "jvm_heap_committed", p.heapCommitted());
        field(out, "jvm_heap_max", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax());
        field(out, "jvm_memory_returns", s.memoryGuard().memoryReturns());
        field(out, "jvm_direct_memory", p.directActive());
    }

    private static String ratio(double r) {
        return String.format(Locale.ROOT, "%.2f", r);
    }

    /** INFO's {@code used_memory}: the keyspace estimate of every database. */
    static long usedMemory(Server s) {
        long used = 0;
        for (int i = 0; i < s.databases(); i++) {
            used += s.db(i).usedMemory();
        }
        return used;
    }

    private static void persistence(StringBuilder out, Server s) {
        out.append("# Persistence\r\n");
        s.persistence().appendInfo(out, s.nowMs());
        s.aof().infoFields((name, value) -> field(out, name, value));
        field(out, "module_fork_in_progress", 0);
        field(out, "module_fork_last_cow_size", 0);
        s.aof().enabledInfoFields((name, value) -> field(out, name, value));
    }

    private static void stats(StringBuilder out, Server s) {
        ServerStats st = s.stats();
        long expired = 0;
        long expiredSubkeys = 0;
        for (int i = 0; i < s.databases(); i++) {
            expired += s.db(i).expiredKeys();
            expiredSubkeys += s.db(i).volatileHashes().expiredSubkeys();
        }
        out.append("# Stats\r\n");
        field(out, "total_connections_received", st.totalConnectionsReceived());
        field(out, "total_commands_processed", st.totalCommandsProcessed());
        field(out, "instantaneous_ops_per_sec", st.instantaneousOpsPerSec());
        field(out, "total_net_input_bytes", st.netInputBytes());
        field(out, "total_net_output_bytes", st.netOutputBytes());
        field(out, "total_net_repl_input_bytes", 0);
        field(out, "total_net_repl_output_bytes", 0);
        field(out, "instantaneous_input_kbps", String.format(Locale.ROOT, "%.2f", st.instantaneousInputKbps()));
        field(out, "instantaneous_output_kbps", String.format(Locale.ROOT, "%.2f", st.instantaneousOutputKbps()));
        field(out, "instantaneous_input_repl_kbps", "0.00");
        field(out, "instantaneous_output_repl_kbps", "0.00");
        field(out, "rejected_connections", st.rejectedConnections());
        s.replicationPrimary().appendSyncStats(out);
        field(out, "expired_subkeys", expiredSubkeys);
        field(out, "expired_keys", expired);
        field(out, "expired_stale_perc", String.format(Locale.ROOT, "%.2f", s.expireCycle().expiredStalePerc()));
        field(out, "expired_time_cap_reached_count", s.expireCycle().expiredTimeCapReachedCount());
        field(out, "expire_cycle_cpu_milliseconds", s.expireCycle().expireCycleCpuMilliseconds());
        field(out, "evicted_keys", s.memoryGuard().evictedKeys());
        field(out, "evicted_clients", s.stats().evictedClients());
        field(out, "keyspace_hits", st.keyspaceHits());
        field(out, "keyspace_misses", st.keyspaceMisses());
        field(out, "pubsub_channels", s.pubsub().channelCount());
        field(out, "pubsub_patterns", s.pubsub().numpat());
        field(out, "pubsubshard_channels", s.pubsub().shardChannelCount());
        field(out, "latest_fork_usec", 0);
        field(out, "total_forks", 0);
        field(out, "migrate_cached_sockets", s.migrateSockets().size());
        field(out, "slave_expires_tracked_keys", 0);
        field(out, "active_defrag_hits", 0);
        field(out, "active_defrag_misses", 0);
        field(out, "active_defrag_key_hits", 0);
        field(out, "active_defrag_key_misses", 0);
        field(out, "total_active_defrag_time", 0);
        field(out, "current_active_defrag_time", 0);
        field(out, "tracking_total_keys", s.tracking().totalKeys());
        field(out, "tracking_total_items", s.tracking().totalItems());
        field(out, "tracking_total_prefixes", s.tracking().totalPrefixes());
        field(out, "unexpected_error_replies", st.unexpectedErrorReplies());
        field(out, "total_error_replies", s.errorStats().total());
        field(out, "dump_payload_sanitizations", 0); // no DUMP/RESTORE yet
        field(out, "client_output_buffer_limit_disconnections", st.clientOutputBufferLimitDisconnections());
        dev.ebb.server.acl.AclLog acl = s.acl().log();
        field(out, "acl_access_denied_auth", acl.denied(dev.ebb.server.acl.Acl.DENIED_AUTH));
        field(out, "acl_access_denied_cmd", acl.denied(dev.ebb.server.acl.Acl.DENIED_CMD));
        field(out, "acl_access_denied_key", acl.denied(dev.ebb.server.acl.Acl.DENIED_KEY));
        field(out, "acl_access_denied_channel", acl.denied(dev.ebb.server.acl.Acl.DENIED_CHANNEL));
    }

    private static void replication(StringBuilder out, Server s) {
        out.append("# Replication\r\n");
        dev.ebb.server.replication.PrimaryLink link = s.primaryLink();
        if (link.active()) {
            field(out, "role", "slave");
            link.appendInfo(out);
        } else {
            field(out, "role", "master");
        }
        s.replicationPrimary().appendReplicaLines(out);
        field(out, "master_failover_state", s.replicationPrimary().failover().stateName());
        dev.ebb.server.replication.ReplicationState r = s.replication();
        dev.ebb.server.replication.ReplicationBacklog backlog = r.backlog();
        field(out, "master_replid", r.replid());
        field(out, "master_replid2", r.replid2());
        field(out, "master_repl_offset", r.offset());
        field(out, "second_repl_offset", r.secondOffset());
        field(out, "repl_backlog_active", backlog == null ? 0 : 1);
        field(out, "repl_backlog_size", backlog == null ? REPL_BACKLOG_SIZE : backlog.size());
        field(out, "repl_backlog_first_byte_offset", backlog == null ? 0 : backlog.firstByteOffset());
        field(out, "repl_backlog_histlen", backlog == null ? 0 : backlog.histlen());
    }

    private static void cpu(StringBuilder out) {
        double[] process = processCpuSeconds();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double loopUser = 0;
        double loopSys = 0;
        if (threads.isCurrentThreadCpuTimeSupported()) {
            long cpu = threads.getCurrentThreadCpuTime();
            long user = threads.getCurrentThreadUserTime();
            loopUser = user / 1e9;
            loopSys = Math.max(0, cpu - user) / 1e9;
        }
        out.append("# CPU\r\n");
        field(out, "used_cpu_sys", seconds(process[1]));
        field(out, "used_cpu_user", seconds(process[0]));
        field(out, "used_cpu_sys_children", seconds(0));
        field(out, "used_cpu_user_children", seconds(0));
        field(out, "used_cpu_sys_main_thread", seconds(loopSys));
        field(out, "used_cpu_user_main_thread", seconds(loopUser));
    }

    private static String seconds(double seconds) {
        return String.format(Locale.ROOT, "%.6f", seconds);
    }

    /** Only databases holding keys, as {@code db0:keys=N,expires=M,avg_ttl=T}. */
    private static void keyspace(StringBuilder out, Server s) {
        out.append("# Keyspace\r\n");
        for (int i = 0; i < s.databases(); i++) {
            Database db = s.db(i);
            if (db.size() > 0) {
                out.append("db").append(i)
                        .append(":keys=").append(db.size())
                        .append(",expires=").append(db.expiresSize())
                        .append(",avg_ttl=").append(db.avgTtlMs())
                        .append("\r\n");
            }
        }
    }

    private static void field(StringBuilder out, String name, Object value) {
        out.append(name).append(':').append(value).append("\r\n");
    }

    private static void field(StringBuilder out, String name, long value) {
        out.append(name).append(':').append(value).append("\r\n");
    }

    /** Redis's bytesToHuman: {@code 1023B}, {@code 1.00K}, {@code 1.50M} … */
    static String bytesToHuman(long n) {
        double d = n;
        if (n < 1024) {
            return n + "B";
        } else if (n < 1024L * 1024) {
            return String.format(Locale.ROOT, "%.2fK", d / 1024);
        } else if (n < 1024L * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.2fM", d / (1024 * 1024));
        } else if (n < 1024L * 1024 * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.2fG", d / (1024L * 1024 * 1024));
        } else if (n < 1024L * 1024 * 1024 * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.2fT", d / (1024L * 1024 * 1024 * 1024));
        } else if (n < 1024L * 1024 * 1024 * 1024 * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.2fP", d / (1024L * 1024 * 1024 * 1024 * 1024));
        }
        return n + "B";
    }

    private static long totalSystemMemory() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getTotalMemorySize();
        }
        return 0;
    }

    /**
     * {user, system} CPU seconds of the whole process: {@code utime}/{@code stime} of
     * {@code /proc/self/stat} (in clock ticks, 100 a second on Linux), or else the summed user and
     * total CPU times of the live threads.
     */
    private static double[] processCpuSeconds() {
        try {
            String stat = Files.readString(PROC_STAT, StandardCharsets.US_ASCII);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            long utime = Long.parseLong(fields[11]);
            long stime = Long.parseLong(fields[12]);
            return new double[] {(double) utime / CLOCK_TICKS_PER_SECOND, (double) stime / CLOCK_TICKS_PER_SECOND};
        } catch (IOException | RuntimeException unavailable) {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long user = 0;
            long cpu = 0;
            if (threads.isThreadCpuTimeSupported()) {
                for (long id : threads.getAllThreadIds()) {
                    user += Math.max(0, threads.getThreadUserTime(id));
                    cpu += Math.max(0, threads.getThreadCpuTime(id));
                }
            }
            return new double[] {user / 1e9, Math.max(0, cpu - user) / 1e9};
        }
    }
}
