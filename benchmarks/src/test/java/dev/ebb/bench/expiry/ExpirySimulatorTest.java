package dev.ebb.bench.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.storage.expiry.ExpiryStrategyKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExpirySimulatorTest {
    private static final long SEED = 42;

    /** A small run: 300 writes a second for 20 s, 10% overwrites, 50 reads a second, a row per tick. */
    private static SimulationScenario small(TtlPattern ttl, ExpiryStrategyKind strategy) {
        int horizon = (int) (20 + ttl.maxTtlMs() / 1000 + 30);
        return new SimulationScenario(ttl, 300, 20, 10, 50, horizon, 100, strategy, CyclePreset.DEFAULT,
                SimulationScenario.DEFAULT_EXAMINE_NANOS, SimulationScenario.DEFAULT_DELETE_NANOS, SEED);
    }

    private static SimulationResult run(SimulationScenario scenario) {
        return new ExpirySimulator(scenario).run();
    }

    @Test
    void sameSeedShouldGiveTheSameCsvForEveryStrategy() {
        for (ExpiryStrategyKind strategy : ExpiryStrategyKind.values()) {
            SimulationScenario scenario = small(TtlPattern.JITTERED, strategy);

            SimulationResult first = run(scenario);
            SimulationResult second = run(scenario);

            assertEquals(ExpirySimulation.timelineCsv(List.of(first)), ExpirySimulation.timelineCsv(List.of(second)),
                    strategy.configName());
            assertEquals(first.summaryCsv(), second.summaryCsv(), strategy.configName());
        }
    }

    @Test
    void anotherSeedShouldGiveAnotherRun() {
        SimulationScenario scenario = small(TtlPattern.UNIFORM, ExpiryStrategyKind.SAMPLING);

        String first = ExpirySimulation.timelineCsv(List.of(run(scenario)));
        String other = ExpirySimulation.timelineCsv(List.of(run(scenario.withSeed(SEED + 1))));

        assertNotEquals(first, other);
    }

    @Test
    void staleCountShouldStayInRangeAndEveryKeyShouldBeReclaimedEventually() {
        for (TtlPattern ttl : TtlPattern.values()) {
            for (ExpiryStrategyKind strategy : ExpiryStrategyKind.values()) {
                String label = ttl.label() + "/" + strategy.configName();

                SimulationResult result = run(small(ttl, strategy));

                for (SimulationRow row : result.rows()) {
                    assertTrue(row.staleKeys() >= 0 && row.staleKeys() <= row.volatileKeys(), label + " " + row);
                    assertTrue(row.peakStaleKeys() >= row.staleKeys(), label + " " + row);
                    assertTrue(row.peakStaleOlderThanPeriod() <= row.peakStaleKeys(), label + " " + row);
                }
                SimulationRow last = result.rows().get(result.rows().size() - 1);
                assertEquals(0, last.volatileKeys(), label);
                assertEquals(0, last.staleKeys(), label);
                assertTrue(result.drainedAtMillis() > 0, label);
                assertTrue(result.activeExpired() + result.lazyExpired() >= result.keysCreated(), label);
                assertTrue(result.keysExamined() >= result.activeExpired(), label);
            }
        }
    }

    @Test
    void exactShouldNeverHoldAKeyMoreThanOneTickAfterItExpired() {
        for (TtlPattern ttl : new TtlPattern[] {TtlPattern.UNIFORM, TtlPattern.JITTERED}) {
            SimulationResult result = run(small(ttl, ExpiryStrategyKind.EXACT));

            for (SimulationRow row : result.rows()) {
                assertEquals(0, row.peakStaleOlderThanPeriod(), ttl.label() + " " + row);
            }
            assertTrue(result.activeExpired() > 0, ttl.label());
        }
    }

    @Test
    void samplingShouldHoldStaleKeysLongerThanExact() {
        SimulationResult sampling = run(small(TtlPattern.JITTERED, ExpiryStrategyKind.SAMPLING));
        SimulationResult exact = run(small(TtlPattern.JITTERED, ExpiryStrategyKind.EXACT));

        assertTrue(sampling.staleKeySeconds() > exact.staleKeySeconds(),
                sampling.staleKeySeconds() + " vs " + exact.staleKeySeconds());
        assertTrue(sampling.rows().stream().anyMatch(row -> row.peakStaleOlderThanPeriod() > 0));
    }

    @Test
    void massExpiryShouldBeWorkedOffInSlicesWithinTheirBudget() {
        SimulationScenario scenario = new SimulationScenario(TtlPattern.MASS, 5_000, 20, 0, 0, 120, 100,
                ExpiryStrategyKind.SAMPLING, CyclePreset.DEFAULT, SimulationScenario.DEFAULT_EXAMINE_NANOS,
                SimulationScenario.DEFAULT_DELETE_NANOS, SEED);
        long sliceMicros = CyclePreset.DEFAULT.config().sliceMicros();
        long longestLoopMicros = CyclePreset.DEFAULT.config().keysPerLoop()
                * (scenario.examineNanos() + scenario.deleteNanos()) / 1000;

        SimulationResult result = run(scenario);

        assertEquals(100_000, result.keysCreated());
        assertEquals(100_000, result.activeExpired());
        assertTrue(result.rows().stream().mapToLong(SimulationRow::timeCapped).sum() > 0);
        assertTrue(result.longestPauseMicros() <= sliceMicros + longestLoopMicros, "" + result.longestPauseMicros());
        assertTrue(result.longestPauseMicros() >= sliceMicros - longestLoopMicros, "" + result.longestPauseMicros());
    }
}
