package dev.ebb.storage.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ExpireCycleConfigTest {

    @Test
    void effortOneShouldBeRedisDefaults() {
        ExpireCycleConfig c = ExpireCycleConfig.forEffort(1, 10);

        assertEquals(20, c.keysPerLoop());
        assertEquals(10, c.acceptableStalePercent());
        assertEquals(25, c.slowCycleCpuPercent());
        assertEquals(1000, c.fastCycleDurationMicros());
        assertEquals(16, c.dbsPerCall());
        assertEquals(16, c.timeCheckInterval());
        assertEquals(c, ExpireCycleConfig.defaults());
    }

    @Test
    void effortShouldScaleAsRedis7() {
        ExpireCycleConfig five = ExpireCycleConfig.forEffort(5, 10);
        ExpireCycleConfig ten = ExpireCycleConfig.forEffort(10, 10);

        assertEquals(40, five.keysPerLoop());
        assertEquals(6, five.acceptableStalePercent());
        assertEquals(33, five.slowCycleCpuPercent());
        assertEquals(2000, five.fastCycleDurationMicros());
        assertEquals(65, ten.keysPerLoop());
        assertEquals(1, ten.acceptableStalePercent());
        assertEquals(43, ten.slowCycleCpuPercent());
        assertEquals(3250, ten.fastCycleDurationMicros());
    }

    @Test
    void slowBudgetShouldBeTheCpuShareOfTheCronPeriod() {
        assertEquals(25_000_000, ExpireCycleConfig.forEffort(1, 10).slowCycleBudgetNanos());
        assertEquals(250_000_000, ExpireCycleConfig.forEffort(1, 1).slowCycleBudgetNanos());
        assertEquals(500_000, ExpireCycleConfig.forEffort(1, 500).slowCycleBudgetNanos());
        assertEquals(43_000_000, ExpireCycleConfig.forEffort(10, 10).slowCycleBudgetNanos());
        assertEquals(1_000_000, ExpireCycleConfig.defaults().fastCycleBudgetNanos());
        assertEquals(250_000, ExpireCycleConfig.defaults().sliceNanos());
    }

    @Test
    void withersShouldChangeOnlyTheirField() {
        ExpireCycleConfig c = ExpireCycleConfig.defaults().withHz(100).withSliceMicros(500);

        assertEquals(100, c.hz());
        assertEquals(500, c.sliceMicros());
        assertEquals(20, c.keysPerLoop());
        assertEquals(2_500_000, c.slowCycleBudgetNanos());
    }

    @Test
    void outOfRangeValuesShouldBeRejectedByName() {
        IllegalArgumentException effort = assertThrows(IllegalArgumentException.class,
                () -> ExpireCycleConfig.forEffort(11, 10));
        IllegalArgumentException hz = assertThrows(IllegalArgumentException.class,
                () -> ExpireCycleConfig.defaults().withHz(0));
        IllegalArgumentException stale = assertThrows(IllegalArgumentException.class,
                () -> new ExpireCycleConfig(10, 20, 101, 25, 1000, 1000, 16, 16));

        assertTrue(effort.getMessage().contains("effort=11"), effort.getMessage());
        assertTrue(hz.getMessage().contains("hz=0"), hz.getMessage());
        assertTrue(stale.getMessage().contains("acceptableStalePercent=101"), stale.getMessage());
    }

    @Test
    void unknownStrategyNameShouldBeRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ExpiryStrategyKind.fromConfigName("lru"));

        assertTrue(e.getMessage().contains("name=lru"), e.getMessage());
    }
}
