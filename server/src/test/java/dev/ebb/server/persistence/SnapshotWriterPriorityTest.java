package dev.ebb.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.storage.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * A BGSAVE's writer thread runs at a lower priority than the command loop (nice
 * {@link WriterPriority#NICE}), and the loader sizes its tables from RESIZEDB only as far as the file
 * can fill them.
 */
class SnapshotWriterPriorityTest {
    @TempDir
    Path dir;

    private static boolean reniceAvailable() {
        if (!Files.exists(Path.of("/proc/thread-self"))) {
            return false;
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "renice"))) {
                return true;
            }
        }
        return false;
    }

    /** The nice values of this process's threads whose name starts with {@code name} (/proc/self/task/T/stat). */
    private static List<Integer> niceOfThreads(String name) throws IOException {
        List<Integer> nices = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException gone) {
                    continue;
                }
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                if (!stat.substring(open + 1, close).startsWith(name)) {
                    continue;
                }
                String[] fields = stat.substring(close + 2).split(" ");
                nices.add(Integer.parseInt(fields[16]));
            }
        }
        return nices;
    }

    @Test
    void bgsaveWriterThreadShouldRunNiced() throws Exception {
        assumeTrue(reniceAvailable(), "needs Linux's /proc/thread-self and renice on the PATH");
        try (EbbServer ebb = EbbServer.start(ServerConfig.fromText("port 0\nsave \"\"\ndir " + dir + "\n"));
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            for (int i = 0; i < 200; i++) {
                j.set("k" + i, "v" + i);
            }
            // 20 ms a key: the save runs for seconds, long enough to look at its thread.
            j.configSet("rdb-key-save-delay", "20000");
            assertEquals("Background saving started", j.bgsave());
            long deadline = System.currentTimeMillis() + RdbRoundTripTest.WAIT_MS;
            List<Integer> nices = niceOfThreads("ebb-bgsave");
            while ((nices.isEmpty() || nices.get(0) != WriterPriority.NICE) && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
                nices = niceOfThreads("ebb-bgsave");
            }
            assertEquals(List.of(WriterPriority.NICE), nices);
            List<Integer> loop = niceOfThreads("ebb-loop");
            assertTrue(!loop.isEmpty() && loop.stream().allMatch(n -> n == 0), "the loop keeps its priority: " + loop);
            j.configSet("rdb-key-save-delay", "0");
            assertEquals("ok", RdbRoundTripTest.awaitBgsave(j));
            assertTrue(Files.exists(dir.resolve("dump.rdb")));
        }
    }

    @Test
    void resizeDbHintShouldBeCutToWhatTheFileCanHold() throws Exception {
        Database[] dbs = {new Database(0, 1), new Database(1, 2)};
        RdbLoad load = new RdbLoad(dbs, 0, 0, 300);
        long empty = dbs[1].mainTableBytes();

        load.selectDb(1);
        load.resizeDb(1L << 40, 1L << 40);

        Database sized = new Database(2, 3);
        sized.presize(100, 100);
        long hundredKeys = sized.mainTableBytes();
        assertTrue(dbs[1].mainTableBytes() > empty, "sized for what the file may hold");
        assertEquals(hundredKeys, dbs[1].mainTableBytes(), "at most 300 / 3 keys");
        assertEquals(empty, dbs[0].mainTableBytes(), "the selected database only");
    }
}
