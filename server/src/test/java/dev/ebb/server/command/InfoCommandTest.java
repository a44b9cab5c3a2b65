package dev.ebb.server.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
            assertEquals(server.get("run_id"), replication.get("master_replid"));
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
}
