package dev.ebb.bench.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The simulation's ground truth ({@link StaleKeyLedger}) and cost model ({@link ModelledCpuClock}). */
class SimulationPartsTest {
    private static final long BASE = 1_000_000;

    @Test
    void ledgerShouldCountKeysWhoseTimeHasPassedAtEachBoundary() {
        StaleKeyLedger ledger = new StaleKeyLedger(BASE, 100, 1000);
        ledger.added(BASE + 50);
        ledger.added(BASE + 99);
        ledger.added(BASE + 100);
        ledger.added(BASE + 250);

        ledger.advanceTo(1);
        long atFirstBoundary = ledger.stale();
        ledger.advanceTo(3);
        long atThirdBoundary = ledger.stale();
        long olderThanAPeriod = ledger.staleOlderThanOnePeriod();
        ledger.removed(BASE + 50);

        assertEquals(2, atFirstBoundary);
        assertEquals(4, atThirdBoundary);
        assertEquals(3, olderThanAPeriod);
        assertEquals(3, ledger.stale());
    }

    @Test
    void ledgerShouldRejectATimeOutsideItsSpan() {
        StaleKeyLedger ledger = new StaleKeyLedger(BASE, 100, 1000);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ledger.added(BASE + 5000));

        assertEquals("expiry time outside the simulated span: whenMs=" + (BASE + 5000), e.getMessage());
    }

    @Test
    void clockShouldChargeEachLoopItsKeysAndDeletionsButNotTheReferenceReading() {
        ModelledCpuClock clock = new ModelledCpuClock(100, 400, deleted -> 20);
        clock.advanceTo(5_000);

        clock.beginCall();
        long reference = clock.nanoTime();
        clock.deleted();
        clock.deleted();
        long afterLoop = clock.nanoTime();
        long afterEmptyRead = clock.nanoTime();
        clock.refundLastCharge();

        assertEquals(5_000, reference);
        assertEquals(5_000 + 20 * 100 + 2 * 400, afterLoop);
        assertEquals(afterLoop + 20 * 100, afterEmptyRead);
        assertEquals(20 * 100 + 2 * 400, clock.chargedNanos());
    }

    @Test
    void clockShouldNotChargeACallForDeletionsMadeBeforeIt() {
        ModelledCpuClock clock = new ModelledCpuClock(100, 400, deleted -> deleted + 1);
        clock.deleted();

        clock.beginCall();
        clock.nanoTime();
        long charged = clock.nanoTime();

        assertEquals(100, charged);
    }

    @Test
    void clockShouldNotGoBackWhenTheWallClockIsBehindTheWork() {
        ModelledCpuClock clock = new ModelledCpuClock(1000, 0, deleted -> 10);
        clock.beginCall();
        clock.nanoTime();
        clock.nanoTime();

        clock.advanceTo(5_000);
        clock.beginCall();

        assertEquals(10_000, clock.nanoTime());
    }
}
