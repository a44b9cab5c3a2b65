package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The give-back rule, with the collection run synchronously so each decision is known when cron returns. */
class MemoryReturnTest {
    private static final long MB = 1024L * 1024;

    private final AtomicInteger collections = new AtomicInteger();
    private long committed = 512 * MB;
    private final MemoryReturn memoryReturn = new MemoryReturn(() -> committed, collections::incrementAndGet,
            Runnable::run, true, false);

    @Test
    void shouldCollectOnceWhenUsedMemoryHalves() {
        memoryReturn.cron(200 * MB, 0, 0, 0);

        assertFalse(memoryReturn.cron(101 * MB, 0, 0, 100), "not yet half");
        assertTrue(memoryReturn.cron(1 * MB, 0, 0, 200));
        assertFalse(memoryReturn.cron(1 * MB, 0, 0, 6_000), "nothing more went");
        assertEquals(1, collections.get());
        assertEquals(1, memoryReturn.returns());
    }

    @Test
    void shouldWaitFiveSecondsBetweenReturns() {
        memoryReturn.cron(200 * MB, 0, 0, 0);
        assertTrue(memoryReturn.cron(0, 0, 0, 100));
        memoryReturn.cron(200 * MB, 0, 0, 200);

        assertFalse(memoryReturn.cron(0, 0, 0, 4_000));
        assertTrue(memoryReturn.cron(0, 0, 0, 5_100));
        assertEquals(2, collections.get());
    }

    @Test
    void shouldNotCollectForSmallDropsOrASmallHeap() {
        memoryReturn.cron(10 * MB, 0, 0, 0);
        assertFalse(memoryReturn.cron(0, 0, 0, 100), "a drop under 16 MB");

        memoryReturn.cron(100 * MB, 0, 0, 200);
        committed = 32 * MB;
        assertFalse(memoryReturn.cron(0, 0, 0, 300), "heap under 64 MB committed");
        assertEquals(0, collections.get());
    }

    @Test
    void purgeShouldCollectAtOnceWhateverTheThresholds() {
        committed = 32 * MB;

        assertTrue(memoryReturn.purge(0));
        assertTrue(memoryReturn.purge(10));

        assertEquals(2, collections.get());
        assertEquals(2, memoryReturn.returns());
    }

    @Test
    void purgeShouldNotStartASecondCollectionWhileOneRuns() {
        java.util.List<Runnable> queued = new java.util.ArrayList<>();
        MemoryReturn deferred = new MemoryReturn(() -> committed, collections::incrementAndGet, queued::add, true, false);

        assertTrue(deferred.purge(0));
        assertFalse(deferred.purge(1), "one is running");
        queued.get(0).run();
        assertTrue(deferred.purge(2));

        assertEquals(1, collections.get());
    }

    @Test
    void theCronShouldNotCollectWhereSystemGcStopsTheWorld() {
        MemoryReturn manualOnly = new MemoryReturn(() -> committed, collections::incrementAndGet, Runnable::run, false, false);
        manualOnly.cron(200 * MB, 0, 0, 0);

        assertFalse(manualOnly.cron(0, 0, 0, 100), "a stop-the-world System.gc() is never started by the cron");
        assertTrue(manualOnly.purge(200), "MEMORY PURGE still asks for it");
        assertEquals(1, collections.get());
    }

    @Test
    void underG1TheCronShouldReturnWhatALoadLeftOnceTheLoopIsQuiet() {
        MemoryReturn g1 = new MemoryReturn(() -> committed, collections::incrementAndGet, Runnable::run, true, true);
        committed = 950 * MB;

        assertFalse(g1.cron(100 * MB, 0, 0, 0), "the load is running");
        assertFalse(g1.cron(120 * MB, 100_000, 4_000_000, 100), "100,000 commands in 100 ms");
        assertFalse(g1.cron(120 * MB, 100_010, 4_000_400, 200), "quiet for 100 ms only");
        assertFalse(g1.cron(120 * MB, 100_020, 4_000_800, 500));
        assertTrue(g1.cron(120 * MB, 100_030, 4_001_200, 600), "quiet for 500 ms, 950 MB committed for 120 MB of data");
        assertEquals(1, collections.get());

        committed = 140 * MB;
        assertFalse(g1.cron(120 * MB, 100_040, 4_001_600, 60_700), "the heap fits the data now");
        committed = 950 * MB;
        assertFalse(g1.cron(120 * MB, 100_050, 4_002_000, 30_000), "at most once a minute");
        assertTrue(g1.cron(120 * MB, 100_060, 4_002_400, 60_700));
        assertEquals(2, collections.get());
    }

    @Test
    void theGrowthReturnShouldWaitForDataAndForTheClientsToSlowDown() {
        MemoryReturn g1 = new MemoryReturn(() -> committed, collections::incrementAndGet, Runnable::run, true, true);
        committed = 377 * MB;

        assertFalse(g1.cron(1 * MB, 0, 0, 10_000), "a fresh server's initial heap holds no data to speak of");
        long commands = 0;
        long bytes = 0;
        for (long t = 10_100; t < 20_000; t += 100) {
            commands += 200; // 2,000 small commands a second
            bytes += 200 * 40;
            assertFalse(g1.cron(100 * MB, commands, bytes, t), "busy at " + t);
        }
        for (long t = 20_000; t < 30_000; t += 100) {
            commands++; // a load of large batches: one command a tick, 10 MB a second
            bytes += 1_000_000;
            assertFalse(g1.cron(100 * MB, commands, bytes, t), "reading at " + t);
        }
        MemoryReturn notG1 = new MemoryReturn(() -> committed, collections::incrementAndGet, Runnable::run, true,
                false);
        assertFalse(notG1.cron(100 * MB, 0, 0, 10_000), "ZGC and Shenandoah do not shrink at a cycle's end");
        assertEquals(0, collections.get());
    }

    @Test
    void systemGcShouldCountAsConcurrentOnlyUnderZgcShenandoahOrG1WithTheFlag() {
        List<String> g1 = List.of("G1 Young Generation", "G1 Old Generation");
        assertTrue(MemoryReturn.concurrentExplicitGc(g1, true));
        assertFalse(MemoryReturn.concurrentExplicitGc(g1, false));
        assertFalse(MemoryReturn.concurrentExplicitGc(List.of("PS Scavenge", "PS MarkSweep"), true));
        assertFalse(MemoryReturn.concurrentExplicitGc(List.of("Copy", "MarkSweepCompact"), true));
        assertTrue(MemoryReturn.concurrentExplicitGc(List.of("ZGC Cycles", "ZGC Pauses"), false));
        assertTrue(MemoryReturn.concurrentExplicitGc(List.of("ZGC Minor Cycles", "ZGC Major Cycles"), false));
        assertTrue(MemoryReturn.concurrentExplicitGc(List.of("Shenandoah Pauses", "Shenandoah Cycles"), false));
    }
}
