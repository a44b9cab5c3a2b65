package dev.ebb.bench.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.storage.Database;
import dev.ebb.storage.expiry.ExpiryStrategyKind;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The write benchmark's baselines must be real indexes: they reclaim exactly the expired keys. */
class ExpiryIndexBaselinesTest {
    private static final long NOW = 1_700_000_000_000L;
    private static final int KEYS = 5_000;

    /** {@code KEYS} volatile keys expiring over 0..600 s, each one rewritten twice with a new expiry (so the wheel rebuilds). */
    private static long[] fill(Database db, IndexUnderTest index) {
        long[] whenOf = new long[KEYS];
        SplittableRandom random = new SplittableRandom(3);
        for (int pass = 0; pass < 3; pass++) {
            for (int i = 0; i < KEYS; i++) {
                byte[] key = ExpiryKeys.key(i);
                long when = NOW + 1 + random.nextInt(600_000);
                long old = db.getExpire(key);
                db.setKey(key, ExpiryKeys.VALUE, NOW);
                db.setExpire(key, when);
                index.set(db, key, old, when);
                whenOf[i] = when;
            }
        }
        return whenOf;
    }

    private static void assertReclaimsExactlyTheExpiredKeys(IndexUnderTest index) {
        Database db = new Database(0, 1, ExpiryStrategyKind.SAMPLING);
        long[] whenOf = fill(db, index);
        long at = NOW + 300_000;

        int reclaimed = index.reclaim(db, at);

        int expected = 0;
        for (int i = 0; i < KEYS; i++) {
            boolean expired = at > whenOf[i];
            if (expired) {
                expected++;
            }
            assertEquals(!expired, db.exists(ExpiryKeys.key(i), NOW), "key " + i);
        }
        assertEquals(expected, reclaimed);
        assertEquals(KEYS - expected, db.size());
        assertEquals(KEYS - expected, index.reclaim(db, NOW + 700_000));
        assertEquals(0, db.size());
    }

    @Test
    void treeMapShouldReclaimExactlyTheExpiredKeys() {
        TreeMapExpiryIndex treeMap = new TreeMapExpiryIndex();

        assertReclaimsExactlyTheExpiredKeys(new IndexUnderTest() {
            @Override
            public void set(Database db, byte[] key, long oldWhen, long when) {
                if (oldWhen != Database.NO_EXPIRE) {
                    assertTrue(treeMap.remove(key, oldWhen));
                }
                treeMap.add(key, when);
            }

            @Override
            public int reclaim(Database db, long nowMs) {
                return treeMap.reclaim(db, nowMs);
            }
        });
        assertEquals(0, treeMap.size());
    }

    @Test
    void timerWheelShouldReclaimExactlyTheExpiredKeysThroughRebuildsAndTurns() {
        TimerWheelExpiryIndex wheel = new TimerWheelExpiryIndex(1024, 100, NOW);

        assertReclaimsExactlyTheExpiredKeys(new IndexUnderTest() {
            @Override
            public void set(Database db, byte[] key, long oldWhen, long when) {
                wheel.add(db, key, when);
            }

            @Override
            public int reclaim(Database db, long nowMs) {
                return wheel.reclaim(db, nowMs);
            }
        });
        assertEquals(0, wheel.entries());
    }

    @Test
    void timerWheelShouldRebuildWhenStaleEntriesOutnumberLiveOnes() {
        Database db = new Database(0, 1, ExpiryStrategyKind.SAMPLING);
        TimerWheelExpiryIndex wheel = new TimerWheelExpiryIndex(64, 100, NOW);
        byte[] key = ExpiryKeys.key(1);
        db.setKey(key, ExpiryKeys.VALUE, NOW);

        for (int i = 0; i < 3 * TimerWheelExpiryIndex.COMPACT_MIN_ENTRIES; i++) {
            db.setExpire(key, NOW + 1000 + i);
            wheel.add(db, key, NOW + 1000 + i);
        }

        assertTrue(wheel.entries() <= TimerWheelExpiryIndex.COMPACT_MIN_ENTRIES + 1, "entries " + wheel.entries());
    }

    @Test
    void treeMapRemoveShouldReportAKeyItDoesNotHold() {
        TreeMapExpiryIndex treeMap = new TreeMapExpiryIndex();
        treeMap.add(ExpiryKeys.key(1), NOW);

        assertFalse(treeMap.remove(ExpiryKeys.key(2), NOW));
        assertFalse(treeMap.remove(ExpiryKeys.key(1), NOW + 1));
        assertTrue(treeMap.remove(ExpiryKeys.key(1), NOW));
        assertEquals(0, treeMap.size());
    }

    /** The two baselines behind one face for the shared check. */
    private interface IndexUnderTest {
        void set(Database db, byte[] key, long oldWhen, long when);

        int reclaim(Database db, long nowMs);
    }
}
