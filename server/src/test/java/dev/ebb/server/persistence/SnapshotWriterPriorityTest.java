package dev.ebb.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ebb.server.EbbServer;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.server.util.ThreadPlacement;
import dev.ebb.storage.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * A BGSAVE's writer thread runs behind the command loop (nice {@link WriterPriority#NICE} and
 * SCHED_IDLE, given the ordinary policy back when starved), and the loader sizes its tables from RESIZEDB only as far as the file
 * can fill them.
 */
class SnapshotWriterPriorityTest {
    @TempDir
    Path dir;

    /** Whether Linux's /proc/thread-self exists and {@code tool} is an executable on the PATH. */
    static boolean onPath(String tool) {
        if (!Files.exists(Path.of("/proc/thread-self"))) {
            return false;
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }

    /** Whether this process has CAP_SYS_NICE (bit 23 of CapEff in /proc/self/status). */
    private static boolean mayRaisePriority() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("CapEff:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 23)) != 0;
            }
        }
        return false;
    }

    /** The nice values of this process's threads whose name starts with {@code name} (/proc/self/task/T/stat). */
    private static List<Integer> niceOfThreads(String name) throws IOException {
        return statOfThreads(name, 16);
    }

    /** Field {@code index} (counted from the state, field 3, as 0) of each stat of the threads named {@code name}*. */
    private static List<Integer> statOfThreads(String name, int index) throws IOException {
        List<Integer> values = new ArrayList<>();
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
                values.add(Integer.parseInt(fields[index]));
            }
        }
        return values;
    }

    /** The scheduling policies (0 SCHED_OTHER, 5 SCHED_IDLE) of the threads named {@code name}*. */
    private static List<Integer> policyOfThreads(String name) throws IOException {
        return statOfThreads(name, 38);
    }

    private static void awaitStat(String name, List<Integer> expected, boolean policy) throws Exception {
        long deadline = System.currentTimeMillis() + RdbRoundTripTest.WAIT_MS;
        List<Integer> seen = policy ? policyOfThreads(name) : niceOfThreads(name);
        while (!seen.equals(expected) && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
            seen = policy ? policyOfThreads(name) : niceOfThreads(name);
        }
        assertEquals(expected, seen, (policy ? "policy" : "nice") + " of " + name);
    }

    @Test
    void bgsaveWriterThreadShouldRunNicedUnderSchedIdle() throws Exception {
        assumeTrue(onPath("renice") && onPath("chrt"), "needs Linux's /proc/thread-self, renice and chrt on the PATH");
        try (EbbServer ebb = EbbServer.start(ServerConfig.fromText("port 0\nsave \"\"\ndir " + dir + "\n"));
                Jedis j = new Jedis("127.0.0.1", ebb.port())) {
            for (int i = 0; i < 200; i++) {
                j.set("k" + i, "v" + i);
            }
            // 20 ms a key: the save runs for seconds, long enough to look at its thread.
            j.configSet("rdb-key-save-delay", "20000");
            assertEquals("Background saving started", j.bgsave());
            awaitStat("ebb-bgsave", List.of(WriterPriority.NICE), false);
            awaitStat("ebb-bgsave", List.of(WriterPriority.SCHED_IDLE), true);
            List<Integer> loop = niceOfThreads("ebb-loop");
            assertTrue(!loop.isEmpty() && loop.stream().allMatch(n -> n == 0), "the loop keeps its priority: " + loop);
            assertTrue(policyOfThreads("ebb-loop").stream().allMatch(p -> p == 0), "the loop keeps SCHED_OTHER");
            j.configSet("rdb-key-save-delay", "0");
            assertEquals("ok", RdbRoundTripTest.awaitBgsave(j));
            assertTrue(Files.exists(dir.resolve("dump.rdb")));
        }
    }

    @Test
    void starvedMeansRunningLittleWhileRunnable() {
        long second = 1_000_000_000L;
        assertTrue(WriterPriority.starved(10_000_000L, second, 10, 10), "runnable, no CPU given");
        assertTrue(WriterPriority.starved(10_000_000L, second, 5, 10), "runnable half the time");
        assertTrue(!WriterPriority.starved(10_000_000L, second, 1, 10), "asleep (a slow disk): not starved");
        assertTrue(!WriterPriority.starved(200_000_000L, second, 10, 10), "runs a fifth of the time");
        assertTrue(!WriterPriority.starved(0, second, 0, 10), "blocked all the second");
    }

    /**
     * Three SCHED_IDLE writers, each with keys waiting: one spins on a CPU that a SCHED_OTHER thread keeps
     * busy (runnable, never run: lifted), one is blocked (runs as little, but is not runnable: left alone
     * however long, as a writer waiting on a slow disk), and one has finished (left alone).
     */
    @Test
    void starvedWriterShouldGetTheOrdinaryPolicyBackAndASleepingOrFinishedOneNot() throws Exception {
        assumeTrue(onPath("renice") && onPath("chrt") && onPath("taskset"),
                "needs Linux's /proc/thread-self, renice, chrt and taskset on the PATH");
        assumeTrue(mayRaisePriority(), "lifting SCHED_IDLE needs CAP_SYS_NICE (root)");
        String cpu = Integer.toString(firstAllowedCpu());
        AtomicBoolean end = new AtomicBoolean();
        CountDownLatch ended = new CountDownLatch(1);
        AtomicBoolean sleeperDone = new AtomicBoolean();
        long[] tids = new long[3];
        boolean[] pinned = new boolean[2];
        CountDownLatch lowered = new CountDownLatch(3);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int n = i;
            threads.add(daemon("test-writer-" + n, () -> {
                if (n == 0) {
                    pinned[0] = ThreadPlacement.pinCurrentThread(cpu, "test writer");
                }
                tids[n] = WriterPriority.lowerCurrentThread();
                lowered.countDown();
                if (n == 0) {
                    while (!end.get()) {
                        Thread.onSpinWait();
                    }
                } else {
                    awaitQuietly(ended);
                }
            }));
        }
        CountDownLatch busy = new CountDownLatch(1);
        threads.add(daemon("test-busy", () -> {
            pinned[1] = ThreadPlacement.pinCurrentThread(cpu, "test spinner");
            busy.countDown();
            while (!end.get()) {
                Thread.onSpinWait();
            }
        }));
        try {
            lowered.await();
            busy.await();
            assertTrue(pinned[0] && pinned[1], "the spinning writer and the busy thread share CPU " + cpu);
            assertTrue(tids[0] > 0 && tids[1] > 0 && tids[2] > 0, "SCHED_IDLE set");
            awaitStat("test-writer-", List.of(WriterPriority.SCHED_IDLE, WriterPriority.SCHED_IDLE,
                    WriterPriority.SCHED_IDLE), true);
            Thread starved = WriterPriority.watch(tids[0], "test-writer-0", progress(() -> false));
            Thread sleeping = WriterPriority.watch(tids[1], "test-writer-1", progress(sleeperDone::get));
            Thread done = WriterPriority.watch(tids[2], "test-writer-2", progress(() -> true));
            starved.join(WriterPriority.STARVED_SECONDS * 3000L);
            done.join(3000);
            assertTrue(!starved.isAlive() && !done.isAlive(), "those watches ended");
            assertEquals(List.of(0), policyOfThreads("test-writer-0"), "starved: SCHED_OTHER again");
            assertEquals(List.of(WriterPriority.NICE), niceOfThreads("test-writer-0"), "at the lowered nice value");
            Thread.sleep(2000);
            assertTrue(sleeping.isAlive(), "the sleeper's watch still watches, " + (WriterPriority.STARVED_SECONDS + 2)
                    + " s on");
            assertEquals(List.of(WriterPriority.SCHED_IDLE), policyOfThreads("test-writer-1"), "asleep: left alone");
            assertEquals(List.of(WriterPriority.SCHED_IDLE), policyOfThreads("test-writer-2"), "finished: left alone");
            sleeperDone.set(true);
            sleeping.join(3000);
            assertTrue(!sleeping.isAlive(), "a watch ends with its writer");
        } finally {
            end.set(true);
            ended.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The lowest CPU this process may run on (Cpus_allowed_list in /proc/self/status). */
    private static int firstAllowedCpu() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return ThreadPlacement.parseCpuList(line.substring(18).trim()).nextSetBit(0);
            }
        }
        return 0;
    }

    private static WriterPriority.Progress progress(BooleanSupplier finished) {
        return new WriterPriority.Progress() {
            @Override
            public boolean keysWaiting() {
                return true;
            }

            @Override
            public boolean finished() {
                return finished.getAsBoolean();
            }
        };
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
