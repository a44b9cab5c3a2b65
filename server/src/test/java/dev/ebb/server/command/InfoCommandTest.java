package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.server.Client;
import dev.ebb.server.Server;
import dev.ebb.server.embedded.EbbExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.SafeEncoder;

/** INFO: layout, section selection and the numbers behind the fields. */
class InfoCommandTest {
    @RegisterExtension
    static final EbbExtension ebb = new EbbExtension().manualClock();

    /** What redis-server 7.0 prints for INFO and INFO all. */
    private static final List<String> DEFAULT_SECTIONS = List.of("Server", "Clients", "Memory", "Persistence",
            "Stats", "Replication", "CPU", "Modules", "Errorstats", "Cluster", "Keyspace");
    private static final List<String> ALL_SECTIONS = List.of("Server", "Clients", "Memory", "Persistence", "Stats",
            "Replication", "CPU", "Modules", "Commandstats", "Errorstats", "Latencystats", "Cluster", "Keyspace");

    /**
     * Every field redis-server 7.2.4 prints for INFO everything (less per-command, per-error and
     * per-database lines), in its order, without the few InfoCommand names as not yet answered.
     */
    private static final List<String> REDIS_FIELDS = List.of(
            "redis_version", "redis_git_sha1", "redis_git_dirty", "redis_build_id", "redis_mode", "os",
            "arch_bits", "monotonic_clock", "multiplexing_api", "atomicvar_api", "gcc_version", "process_id",
            "process_supervised", "run_id", "tcp_port", "server_time_usec", "uptime_in_seconds", "uptime_in_days",
            "hz", "configured_hz", "lru_clock", "executable", "config_file", "io_threads_active",
            "listener0", "connected_clients", "cluster_connections", "maxclients", "client_recent_max_input_buffer", "client_recent_max_output_buffer",
            "blocked_clients", "tracking_clients", "clients_in_timeout_table", "total_blocking_keys", "total_blocking_keys_on_nokey", "used_memory",
            "used_memory_human", "used_memory_rss", "used_memory_rss_human", "used_memory_peak", "used_memory_peak_human", "used_memory_peak_perc",
            "used_memory_overhead", "used_memory_startup", "used_memory_dataset", "used_memory_dataset_perc", "allocator_allocated", "allocator_active",
            "allocator_resident", "total_system_memory", "total_system_memory_human", "used_memory_scripts_eval", "number_of_cached_scripts", "number_of_functions",
            "number_of_libraries", "used_memory_vm_functions", "used_memory_functions", "used_memory_scripts", "used_memory_scripts_human", "maxmemory",
            "maxmemory_human", "maxmemory_policy", "allocator_frag_ratio", "allocator_frag_bytes", "allocator_rss_ratio", "allocator_rss_bytes",
            "rss_overhead_ratio", "rss_overhead_bytes", "mem_fragmentation_ratio", "mem_fragmentation_bytes", "mem_not_counted_for_evict", "mem_replication_backlog",
            "mem_total_replication_buffers", "mem_clients_slaves", "mem_clients_normal", "mem_cluster_links", "mem_aof_buffer", "mem_allocator",
            "active_defrag_running", "lazyfree_pending_objects", "lazyfreed_objects", "loading", "async_loading", "current_cow_peak",
            "current_cow_size", "current_cow_size_age", "current_fork_perc", "current_save_keys_processed", "current_save_keys_total", "rdb_changes_since_last_save", "rdb_bgsave_in_progress",
            "rdb_last_save_time", "rdb_last_bgsave_status", "rdb_last_bgsave_time_sec", "rdb_current_bgsave_time_sec", "rdb_saves", "rdb_last_cow_size",
            "rdb_last_load_keys_expired", "rdb_last_load_keys_loaded", "aof_enabled", "aof_rewrite_in_progress", "aof_rewrite_scheduled", "aof_last_rewrite_time_sec",
            "aof_current_rewrite_time_sec", "aof_last_bgrewrite_status", "aof_rewrites", "aof_rewrites_consecutive_failures", "aof_last_write_status", "aof_last_cow_size",
            "module_fork_in_progress", "module_fork_last_cow_size", "total_connections_received", "total_commands_processed", "instantaneous_ops_per_sec", "total_net_input_bytes",
            "total_net_output_bytes", "total_net_repl_input_bytes", "total_net_repl_output_bytes", "instantaneous_input_kbps", "instantaneous_output_kbps", "instantaneous_input_repl_kbps",
            "instantaneous_output_repl_kbps", "rejected_connections", "sync_full", "sync_partial_ok", "sync_partial_err", "expired_keys",
            "expired_stale_perc", "expired_time_cap_reached_count", "expire_cycle_cpu_milliseconds", "evicted_keys", "evicted_clients", "keyspace_hits",
            "keyspace_misses", "pubsub_channels", "pubsub_patterns", "pubsubshard_channels", "latest_fork_usec", "total_forks",
            "migrate_cached_sockets", "slave_expires_tracked_keys", "active_defrag_hits", "active_defrag_misses", "active_defrag_key_hits", "active_defrag_key_misses",
            "total_active_defrag_time", "current_active_defrag_time", "tracking_total_keys", "tracking_total_items", "tracking_total_prefixes", "unexpected_error_replies",
            "total_error_replies", "dump_payload_sanitizations", "acl_access_denied_auth", "acl_access_denied_cmd",
            "acl_access_denied_key", "acl_access_denied_channel", "role", "connected_slaves", "master_failover_state", "master_replid",
            "master_replid2", "master_repl_offset", "second_repl_offset", "repl_backlog_active", "repl_backlog_size", "repl_backlog_first_byte_offset",
            "repl_backlog_histlen", "used_cpu_sys", "used_cpu_user", "used_cpu_sys_children", "used_cpu_user_children", "used_cpu_sys_main_thread",
            "used_cpu_user_main_thread", "cluster_enabled");
    /** Ebb's own fields, beside Redis's. */
    private static final Set<String> EBB_FIELDS = Set.of("ebb_version", "java_version", "jvm_heap_used",
            "jvm_heap_committed", "jvm_heap_max", "jvm_memory_returns", "jvm_direct_memory", "client_output_buffer_limit_disconnections",
            "expired_subkeys");

    private static Jedis connect() {
        return new Jedis(ebb.host(), ebb.port());
    }

    private static String info(Jedis j, String... sections) {
        ProtocolCommand command = () -> SafeEncoder.encode("INFO");
        return SafeEncoder.encode((byte[]) j.sendCommand(command, sections));
    }

    private static List<String> headers(String info) {
        List<String> headers = new ArrayList<>();
        for (String line : info.split("\r\n")) {
            if (line.startsWith("# ")) {
                headers.add(line.substring(2));
            }
        }
        return headers;
    }

    private static Map<String, String> fields(String info) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : info.split("\r\n")) {
            int colon = line.indexOf(':');
            if (!line.startsWith("#") && colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    private static long number(Jedis j, String section, String field) {
        return Long.parseLong(fields(info(j, section)).get(field));
    }

    @Test
    void everythingShouldListRedis724FieldsInItsOrder() {
        try (Jedis j = connect()) {
            j.set("k", "v");

            List<String> names = new ArrayList<>();
            for (String name : fields(info(j, "everything")).keySet()) {
                if (!EBB_FIELDS.contains(name) && !name.matches("(cmdstat_|errorstat_|latency_percentiles_|db\\d).*")) {
                    names.add(name);
                }
            }

            assertEquals(REDIS_FIELDS, names);
        }
    }

    @Test
    void defaultInfoShouldHaveEverySectionInRedisOrderWithCrlfLines() {
        try (Jedis j = connect()) {
            String info = j.info();

            assertEquals(DEFAULT_SECTIONS, headers(info));
            assertTrue(info.startsWith("# Server\r\nredis_version:" + Server.REDIS_VERSION + "\r\n"), info);
            assertTrue(info.endsWith("\r\n"));
            assertFalse(info.replace("\r\n", "").contains("\n"), "only CRLF line endings");
            assertTrue(info.contains("\r\n\r\n# Clients\r\n"), "an empty line between sections");
            assertEquals(List.copyOf(fields(info).keySet()), List.copyOf(fields(info(j, "default")).keySet()),
                    "default is the same fields, in the same order, as no argument");
            assertEquals(ALL_SECTIONS, headers(info(j, "all")));
            assertEquals(ALL_SECTIONS, headers(info(j, "EVERYTHING")));
            assertEquals(List.of("Commandstats", "Keyspace"), headers(info(j, "keyspace", "commandstats")));
            assertEquals(ALL_SECTIONS, headers(info(j, "default", "commandstats", "latencystats")),
                    "default plus two by name");
        }
    }

    @Test
    void sectionsShouldComeOnceAndInRedisOrderWhateverWasAsked() {
        try (Jedis j = connect()) {
            assertEquals(List.of("Server"), headers(info(j, "server")));
            assertEquals(List.of("Server", "Clients"), headers(info(j, "CLIENTS", "server", "Server", "nosuch")));
            assertEquals(List.of("CPU", "Keyspace"), headers(info(j, "keyspace", "cpu")));
            assertEquals("", info(j, "nosuch"));
            assertFalse(info(j, "server").contains("\r\n\r\n"));
        }
    }

    @Test
    void serverSectionShouldDescribeThisProcess() {
        try (Jedis j = connect()) {
            Map<String, String> server = fields(info(j, "server"));

            assertEquals(Server.REDIS_VERSION, server.get("redis_version"));
            assertEquals("standalone", server.get("redis_mode"));
            assertEquals(String.valueOf(ebb.port()), server.get("tcp_port"));
            assertEquals(String.valueOf(ProcessHandle.current().pid()), server.get("process_id"));
            assertTrue(server.get("run_id").matches("[0-9a-f]{40}"), server.get("run_id"));
            assertEquals("10", server.get("hz"));
            assertEquals("", server.get("config_file"));
            assertEquals("0", server.get("io_threads_active"));
        }
    }

    @Test
    void uptimeShouldFollowTheServerClock() {
        try (Jedis j = connect()) {
            long before = number(j, "server", "uptime_in_seconds");

            ebb.advanceClock(2 * 86_400_000L + 5_000);

            Map<String, String> server = fields(info(j, "server"));
            assertEquals(before + 2 * 86_400 + 5, Long.parseLong(server.get("uptime_in_seconds")));
            assertTrue(Long.parseLong(server.get("uptime_in_days")) >= 2);
        }
    }

    @Test
    void clientsSectionShouldCountConnections() {
        try (Jedis a = connect(); Jedis b = connect()) {
            b.ping();
            a.ping();

            AtomicLong registered = new AtomicLong();
            AtomicReference<String> reported = new AtomicReference<>();
            ebb.server().runOnLoop(s -> {
                registered.set(s.clients().size());
                reported.set(InfoCommand.text(s.clients().iterator().next(), Set.of("clients")));
            });
            assertTrue(registered.get() >= 2);
            assertEquals(String.valueOf(registered.get()), fields(reported.get()).get("connected_clients"));
            assertEquals(10000, number(a, "clients", "maxclients"));
            assertEquals(0, number(a, "clients", "blocked_clients"));
        }
    }

    @Test
    void usedMemoryShouldBeTheKeyspaceEstimateAndGrowWithData() {
        try (Jedis j = connect()) {
            long empty = number(j, "memory", "used_memory");
            for (int i = 0; i < 100; i++) {
                j.set("key:" + i, "x".repeat(100));
            }

            Map<String, String> memory = fields(info(j, "memory"));

            long used = Long.parseLong(memory.get("used_memory"));
            AtomicLong sum = new AtomicLong();
            AtomicReference<String> reported = new AtomicReference<>();
            ebb.server().runOnLoop(s -> {
                long total = 0;
                for (int i = 0; i < s.databases(); i++) {
                    total += s.db(i).usedMemory();
                }
                sum.set(total);
                Client any = s.clients().iterator().next();
                reported.set(fields(InfoCommand.text(any, Set.of("memory"))).get("used_memory"));
            });
            assertEquals(String.valueOf(sum.get()), reported.get(), "INFO is the sum of the databases' estimates");
            assertTrue(used > empty + 100 * 100, used + " vs " + empty);
            assertEquals(InfoCommand.bytesToHuman(used), memory.get("used_memory_human"));
            assertTrue(Long.parseLong(memory.get("used_memory_peak")) >= used);
            assertTrue(Long.parseLong(memory.get("used_memory_rss")) > 0);
            assertEquals("noeviction", memory.get("maxmemory_policy"));
        }
    }

    @Test
    void memoryFieldsShouldBeTheProcessesFiguresAndAgreeWithEachOther() {
        try (Jedis j = connect()) {
            for (int i = 0; i < 200; i++) {
                j.set("rss:" + i, "x".repeat(1000));
            }

            Map<String, String> m = fields(info(j, "memory"));

            long used = Long.parseLong(m.get("used_memory"));
            long rss = Long.parseLong(m.get("used_memory_rss"));
            long allocated = Long.parseLong(m.get("allocator_allocated"));
            long active = Long.parseLong(m.get("allocator_active"));
            long resident = Long.parseLong(m.get("allocator_resident"));
            long direct = Long.parseLong(m.get("jvm_direct_memory"));
            assertTrue(rss > 0 && resident > 0 && resident <= rss, rss + " / " + resident);
            assertEquals(String.format(Locale.ROOT, "%.2f", (double) rss / used), m.get("mem_fragmentation_ratio"));
            assertEquals(rss - used, Long.parseLong(m.get("mem_fragmentation_bytes")));
            assertTrue(allocated > 0 && allocated <= active, allocated + " / " + active);
            assertTrue(active >= Long.parseLong(m.get("jvm_heap_committed")) + direct, "active counts the heap and Netty");
            assertTrue(Long.parseLong(m.get("jvm_heap_used")) <= allocated);
            assertEquals(active - allocated, Long.parseLong(m.get("allocator_frag_bytes")));
            assertEquals(String.format(Locale.ROOT, "%.2f", (double) active / allocated), m.get("allocator_frag_ratio"));
            assertEquals(resident - active, Long.parseLong(m.get("allocator_rss_bytes")));
            assertEquals(rss - resident, Long.parseLong(m.get("rss_overhead_bytes")));
            assertEquals(String.format(Locale.ROOT, "%.2f", (double) rss / resident), m.get("rss_overhead_ratio"));
            assertTrue(Long.parseLong(m.get("used_memory_peak")) >= used);
        }
    }

    @Test
    void maxmemoryFieldsShouldFollowConfigSet() {
        try (Jedis j = connect()) {
            j.configSet("maxmemory", "3mb");
            try {
                Map<String, String> memory = fields(info(j, "memory"));

                assertEquals("3145728", memory.get("maxmemory"));
                assertEquals("3.00M", memory.get("maxmemory_human"));
            } finally {
                j.configSet("maxmemory", "0");
            }
        }
    }

    @Test
    void bytesToHumanShouldFormatAsRedis() {
        assertEquals("0B", InfoCommand.bytesToHuman(0));
        assertEquals("1023B", InfoCommand.bytesToHuman(1023));
        assertEquals("1.00K", InfoCommand.bytesToHuman(1024));
        assertEquals("1.50M", InfoCommand.bytesToHuman(1024 * 1024 * 3 / 2));
        assertEquals("2.00G", InfoCommand.bytesToHuman(2L << 30));
        assertEquals("1.00T", InfoCommand.bytesToHuman(1L << 40));
        assertEquals("1.00P", InfoCommand.bytesToHuman(1L << 50));
    }

    @Test
    void statsShouldCountHitsMissesExpiriesAndErrors() {
        try (Jedis j = connect()) {
            j.configResetStat();
            j.set("present", "v");
            j.set("short", "v", SetParams.setParams().px(10));

            j.get("present");
            j.get("present");
            j.get("absent");
            ebb.advanceClock(11);
            assertNull(j.get("short"));

            Map<String, String> stats = fields(info(j, "stats"));
            assertEquals("2", stats.get("keyspace_hits"));
            assertEquals("2", stats.get("keyspace_misses"));
            assertEquals("1", stats.get("expired_keys"));
            assertEquals("0", stats.get("rejected_connections"));
            assertTrue(stats.get("instantaneous_input_kbps").matches("\\d+\\.\\d{2}"));
            assertTrue(Long.parseLong(stats.get("total_commands_processed")) >= 6);
            assertTrue(Long.parseLong(stats.get("total_net_input_bytes")) > 0);
            assertTrue(stats.containsKey("expired_stale_perc"));
            assertTrue(stats.containsKey("expire_cycle_cpu_milliseconds"));
        }
    }

    @Test
    void keyspaceShouldListOnlyDatabasesWithKeys() {
        try (Jedis j = connect()) {
            assertEquals("# Keyspace\r\n", info(j, "keyspace"));

            j.set("a", "1");
            j.set("b", "2", SetParams.setParams().ex(100));
            j.select(3);
            j.set("c", "3");

            String keyspace = info(j, "keyspace");
            List<String> lines = Arrays.asList(keyspace.split("\r\n"));
            assertEquals(3, lines.size(), keyspace);
            assertTrue(lines.get(1).matches("db0:keys=2,expires=1,avg_ttl=\\d+"), lines.get(1));
            assertEquals("db3:keys=1,expires=0,avg_ttl=0", lines.get(2));
        }
    }

    @Test
    void persistenceAndReplicationShouldReportAMasterThatNeverSaved() {
        try (Jedis j = connect()) {
            Map<String, String> persistence = fields(info(j, "persistence"));
            Map<String, String> replication = fields(info(j, "replication"));
            Map<String, String> server = fields(info(j, "server"));

            assertEquals("0", persistence.get("loading"));
            assertEquals("0", persistence.get("aof_enabled"));
            assertEquals("0", persistence.get("rdb_saves"));
            assertEquals(String.valueOf(j.lastsave()), persistence.get("rdb_last_save_time"));
            assertEquals("master", replication.get("role"));
            assertEquals("0", replication.get("connected_slaves"));
            assertTrue(replication.get("master_replid").matches("[0-9a-f]{40}"));
            assertNotEquals(server.get("run_id"), replication.get("master_replid"), "a replication id of its own, as Redis");
            assertEquals("0", replication.get("master_repl_offset"));
            assertEquals("0", replication.get("repl_backlog_active"));
        }
    }

    @Test
    void cpuSectionShouldReportSecondsWithSixDecimals() {
        try (Jedis j = connect()) {
            Map<String, String> cpu = fields(info(j, "cpu"));

            assertEquals(List.of("used_cpu_sys", "used_cpu_user", "used_cpu_sys_children", "used_cpu_user_children",
                    "used_cpu_sys_main_thread", "used_cpu_user_main_thread"), new ArrayList<>(cpu.keySet()));
            for (String value : cpu.values()) {
                assertTrue(value.matches("\\d+\\.\\d{6}"), value);
            }
            assertTrue(Double.parseDouble(cpu.get("used_cpu_user")) > 0);
        }
    }

    @Test
    void resp3ClientsShouldGetVerbatimText() throws IOException {
        try (RespTestSocket s = new RespTestSocket(ebb)) {
            s.call("HELLO", "3");

            String reply = s.call("INFO", "server");

            assertTrue(reply.matches("(?s)=\\d+\r\ntxt:# Server\r\nredis_version:.*\r\n\r\n"), reply);
        }
    }

    @Test
    void clientsShouldCountBlockingKeysAndBlockedClientsWithATimeout() throws Exception {
        try (java.net.Socket forever = new java.net.Socket(ebb.host(), ebb.port());
                java.net.Socket timed = new java.net.Socket(ebb.host(), ebb.port());
                Jedis j = connect()) {
            forever.getOutputStream().write("BLPOP q1 q2 0\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            timed.getOutputStream().write("BLPOP q2 q3 100\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

            Map<String, String> clients = fields(info(j, "clients"));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!clients.get("blocked_clients").equals("2") && System.nanoTime() < deadline) {
                Thread.sleep(10);
                clients = fields(info(j, "clients"));
            }

            assertEquals("2", clients.get("blocked_clients"));
            assertEquals("3", clients.get("total_blocking_keys"));
            assertEquals("1", clients.get("clients_in_timeout_table"));
            assertEquals("0", clients.get("total_blocking_keys_on_nokey"));
        }
    }
}
