package dev.ebb.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.util.ThreadPlacement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Redis's CPU affinity directives ({@code server_cpulist}, {@code bio_cpulist}, {@code aof_rewrite_cpulist},
 * {@code bgsave_cpulist}): their list syntax, CONFIG GET/SET as in Redis 7.2.4, and the threads they pin.
 */
class CpuAffinityTest {
    @TempDir
    Path dir;

    private static BitSet cpus(int... numbers) {
        BitSet set = new BitSet();
        for (int n : numbers) {
            set.set(n);
        }
        return set;
    }

    @Test
    void cpuListsParseAsRedisAndTasksetDo() {
        assertEquals(cpus(0, 2, 3), ThreadPlacement.parseCpuList("0,2-3"));
        assertEquals(cpus(0, 2, 4, 6), ThreadPlacement.parseCpuList("0-7:2"));
        assertEquals(cpus(5), ThreadPlacement.parseCpuList("5"));
        assertEquals(cpus(1, 4, 7, 9), ThreadPlacement.parseCpuList("1-7:3,9"));
        for (String bad : new String[] {"", "3-1", "0-4:0", "a", "1,", ",1", "5:2", "0-", "-1", "1 ", "0-3:x"}) {
            assertNull(ThreadPlacement.parseCpuList(bad), "'" + bad + "' is ignored, as Redis ignores it");
        }
    }

    @Test
    void configGetShowsThemAndConfigSetRefusesThemAsRedisDoes() throws Exception {
        try (EbbServer ebb = EbbServer.start(ServerConfig.fromText("port 0\nsave \"\"\ndir " + dir
                + "\nbgsave_cpulist \"0-1\"\nserver_cpulist bogus\n"));
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            Map<String, String> got = j.configGet("*cpulist*");
            assertEquals(Map.of("server_cpulist", "bogus", "bio_cpulist", "", "aof_rewrite_cpulist", "",
                    "bgsave_cpulist", "0-1"), got);
            JedisDataException e = assertThrows(JedisDataException.class, () -> j.configSet("server_cpulist", "0"));
            assertEquals("ERR CONFIG SET failed (possibly related to argument 'server_cpulist') - can't set immutable config",
                    e.getMessage());
            e = assertThrows(JedisDataException.class, () -> j.configSet("server-cpulist", "0"));
            assertEquals("ERR Unknown option or number of arguments for CONFIG SET - 'server-cpulist'", e.getMessage());
            assertEquals("PONG", j.ping(), "an unparsable list leaves the loop where it was, serving");
        }
    }

    @Test
    void eachListPinsItsThreads() throws Exception {
        assumeTrue(SnapshotWriterPriorityTest.onPath("taskset"), "needs Linux's /proc/thread-self and taskset on the PATH");
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs to tell a pinned thread from others");
        String last = Integer.toString(Runtime.getRuntime().availableProcessors() - 1);
        String conf = "port 0\nsave \"\"\ndir " + dir + "\nappendonly yes\nappendfsync everysec\n"
                + "server_cpulist 0\nbio_cpulist " + last + "\naof_rewrite_cpulist " + last + "\nbgsave_cpulist " + last + "\n";
        try (EbbServer ebb = EbbServer.start(ServerConfig.fromText(conf));
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            for (int i = 0; i < 200; i++) {
                j.set("k" + i, "v" + i);
            }
            awaitAffinity("ebb-loop", "0");
            awaitAffinity("ebb-aof-fsync", last);
            // 20 ms a key: each background write runs for seconds, long enough to look at its thread.
            j.configSet("rdb-key-save-delay", "20000");
            assertEquals("Background saving started", j.bgsave());
            awaitAffinity("ebb-bgsave", last);
            j.configSet("rdb-key-save-delay", "0");
            assertEquals("ok", RdbRoundTripTest.awaitBgsave(j));
            j.configSet("rdb-key-save-delay", "20000");
            j.bgrewriteaof();
            awaitAffinity("ebb-aof-rewrite", last);
            j.configSet("rdb-key-save-delay", "0");
            AofTesting.awaitRewrite(j);
        }
    }

    /**
     * Waits until a thread named {@code name}* is allowed exactly {@code cpus} (threads of servers other tests
     * left behind may share the name, unpinned: each is allowed every CPU).
     */
    private static void awaitAffinity(String name, String cpus) throws Exception {
        long deadline = System.currentTimeMillis() + RdbRoundTripTest.WAIT_MS;
        List<String> seen = affinityOf(name);
        while (!seen.contains(cpus) && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
            seen = affinityOf(name);
        }
        assertTrue(seen.contains(cpus), name + " pinned to " + cpus + ": " + seen);
    }

    /** Cpus_allowed_list of each of this process's threads whose name starts with {@code name}. */
    private static List<String> affinityOf(String name) throws IOException {
        List<String> lists = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    if (!Files.readString(task.resolve("comm")).trim().startsWith(name)) {
                        continue;
                    }
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("Cpus_allowed_list:")) {
                            lists.add(line.substring("Cpus_allowed_list:".length()).trim());
                        }
                    }
                } catch (IOException gone) {
                    // the thread ended meanwhile
                }
            }
        }
        return lists;
    }
}
