package dev.ebb.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The heap safety net watches only the pools that hold what survives collections. */
class MemoryGuardPoolsTest {
    @Test
    void oldGenerationPoolsOfEveryCollectorShouldBeWatched() {
        for (String pool : new String[] {"G1 Old Gen", "PS Old Gen", "Tenured Gen", "ZHeap", "ZGC Old Generation",
                "Shenandoah"}) {
            assertTrue(MemoryGuard.holdsSurvivors(pool), pool);
        }
    }

    @Test
    void edenAndSurvivorSpacesShouldNotBeWatched() {
        // A ParallelGC survivor space is routinely full right after a young collection; watching
        // it refused every write with OOM on a nearly empty heap.
        for (String pool : new String[] {"PS Eden Space", "PS Survivor Space", "G1 Eden Space", "G1 Survivor Space",
                "Eden Space", "Survivor Space", "ZGC Young Generation"}) {
            assertFalse(MemoryGuard.holdsSurvivors(pool), pool);
        }
    }
}
