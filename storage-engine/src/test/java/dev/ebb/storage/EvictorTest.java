package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EvictorTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final NanoClock FROZEN = () -> 0L;

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value() {
        return new byte[100];
    }

    @Test
    void allkeysLruShouldEvictTheKeysNotAccessedRecently() {
        Database db = new Database(0, 42);
        for (int i = 0; i < 2000; i++) {
            db.setKey(key("k" + i), value(), T0);
        }
        for (int i = 0; i < 1000; i++) {
            db.lookupRead(key("k" + i), T0 + 60_000);
        }
        long limit = db.usedMemory() * 6 / 10;

        Evictor.Outcome outcome = new Evictor().evict(new Database[] {db}, EvictionPolicy.ALLKEYS_LRU, limit, 5,
                T0 + 60_000, Long.MAX_VALUE, FROZEN);

        assertEquals(Evictor.Outcome.OK, outcome);
        assertTrue(db.usedMemory() <= limit);
        int recentKept = 0;
        for (int i = 0; i < 1000; i++) {
            recentKept += db.exists(key("k" + i), T0 + 60_000) ? 1 : 0;
        }
        assertTrue(recentKept > 950, "recently used keys kept: " + recentKept);
    }

    @Test
    void volatilePoliciesShouldNeverEvictPersistentKeys() {
        for (EvictionPolicy policy : new EvictionPolicy[] {EvictionPolicy.VOLATILE_LRU, EvictionPolicy.VOLATILE_LFU,
                EvictionPolicy.VOLATILE_RANDOM, EvictionPolicy.VOLATILE_TTL}) {
            Database db = new Database(0, 7);
            db.trackFrequency(policy.usesLfu(), 10, 1);
            for (int i = 0; i < 500; i++) {
                db.setKey(key("p" + i), value(), T0);
                db.setKey(key("v" + i), value(), T0);
                db.setExpire(key("v" + i), T0 + 1_000_000 + i);
            }
            Evictor evictor = new Evictor();

            Evictor.Outcome outcome = evictor.evict(new Database[] {db}, policy, 0, 5, T0, Long.MAX_VALUE, FROZEN);

            assertEquals(Evictor.Outcome.FAIL, outcome, policy.name());
            assertEquals(500, db.size(), policy.name());
            assertEquals(0, db.expiresSize(), policy.name());
            assertEquals(500, evictor.evictedKeys(), policy.name());
        }
    }

    @Test
    void volatileTtlShouldEvictTheKeysThatExpireSoonestFirst() {
        Database db = new Database(0, 3);
        for (int i = 0; i < 1000; i++) {
            db.setKey(key("v" + i), value(), T0);
            db.setExpire(key("v" + i), T0 + 10_000 + i * 1000L);
        }
        long limit = db.usedMemory() / 2;

        new Evictor().evict(new Database[] {db}, EvictionPolicy.VOLATILE_TTL, limit, 5, T0, Long.MAX_VALUE, FROZEN);

        int lateKept = 0;
        for (int i = 500; i < 1000; i++) {
            lateKept += db.exists(key("v" + i), T0) ? 1 : 0;
        }
        // Sampled, so not exact: a random policy would keep about 250 of them.
        assertTrue(lateKept > 350, "keys with the latest expiry kept: " + lateKept);
    }

    @Test
    void allkeysLfuShouldKeepTheFrequentlyUsedKeys() {
        Database db = new Database(0, 11);
        db.trackFrequency(true, 10, 1);
        for (int i = 0; i < 1000; i++) {
            db.setKey(key("k" + i), value(), T0);
        }
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 300; i++) {
                db.lookupRead(key("k" + i), T0);
            }
        }
        long limit = db.usedMemory() / 2;

        new Evictor().evict(new Database[] {db}, EvictionPolicy.ALLKEYS_LFU, limit, 5, T0, Long.MAX_VALUE, FROZEN);

        int hotKept = 0;
        for (int i = 0; i < 300; i++) {
            hotKept += db.exists(key("k" + i), T0) ? 1 : 0;
        }
        assertTrue(hotKept > 280, "frequently used keys kept: " + hotKept);
    }

    @Test
    void noevictionShouldFailAndRemoveNothing() {
        Database db = new Database(0, 1);
        db.setKey(key("a"), value(), T0);

        Evictor.Outcome outcome = new Evictor().evict(new Database[] {db}, EvictionPolicy.NOEVICTION, 0, 5, T0,
                Long.MAX_VALUE, FROZEN);

        assertEquals(Evictor.Outcome.FAIL, outcome);
        assertEquals(1, db.size());
    }

    @Test
    void evictShouldStopWhenItsTimeBudgetIsSpent() {
        Database db = new Database(0, 5);
        for (int i = 0; i < 1000; i++) {
            db.setKey(key("k" + i), value(), T0);
        }
        long[] now = {0};
        NanoClock ticking = () -> now[0] += 1000;

        Evictor.Outcome outcome = new Evictor().evict(new Database[] {db}, EvictionPolicy.ALLKEYS_RANDOM, 0, 5, T0,
                500, ticking);

        assertEquals(Evictor.Outcome.RUNNING, outcome);
        assertEquals(1000 - 16, db.size());
    }

    @Test
    void lfuCounterShouldStartAtFiveGrowLogarithmicallyAndDecayPerMinute() {
        int meta = LfuCounter.initial(T0);
        assertEquals(5, LfuCounter.decayed(meta, T0, 1));

        int incremented = LfuCounter.accessed(meta, T0, 10, 1, 0.0);
        int notIncremented = LfuCounter.accessed(LfuCounter.accessed(meta, T0, 10, 1, 0.0), T0, 10, 1, 0.5);

        assertEquals(6, LfuCounter.decayed(incremented, T0, 1));
        assertEquals(6, LfuCounter.decayed(notIncremented, T0, 1));
        assertEquals(3, LfuCounter.decayed(incremented, T0 + 3 * 60_000, 1));
        assertEquals(5, LfuCounter.decayed(incremented, T0 + 3 * 60_000, 2));
        assertEquals(0, LfuCounter.decayed(incremented, T0 + 600 * 60_000, 1));
        assertEquals(6, LfuCounter.decayed(incremented, T0 + 600 * 60_000, 0));
    }

    @Test
    void databaseShouldReportTheLfuFrequencyOfAKey() {
        Database db = new Database(0, 9);
        db.trackFrequency(true, 0, 1);
        db.setKey(key("k"), value(), T0);

        for (int i = 0; i < 10; i++) {
            db.lookupRead(key("k"), T0);
        }

        assertEquals(15, db.lfuFrequency(key("k"), T0));
        assertEquals(-1, db.lfuFrequency(key("missing"), T0));
    }
}
