package dev.ebb.storage.expiry;

import static dev.ebb.storage.expiry.ActiveExpireCycleTest.fill;
import static dev.ebb.storage.expiry.ActiveExpireCycleTest.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.storage.Database;
import org.junit.jupiter.api.Test;

/** Properties that set the bucket-cursor and exact strategies apart from random sampling. */
class StrategySpecificsTest {
    /** One loop per database per cycle, whatever it finds. */
    private static final ExpireCycleConfig ONE_LOOP = new ExpireCycleConfig(10, 20, 100, 25, 1000, 25_000, 16, 16);

    @Test
    void bucketCursorShouldReachEveryExpiredKeyWithinOnePassOfTheTable() {
        Database db = new Database(0, 5, ExpiryStrategyKind.BUCKET_CURSOR);
        fill(db, "live", 1000, 1_000_000);
        fill(db, "dead", 10, 0);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, ONE_LOOP, new SteppingNanoClock(0));

        // Each loop examines at least 20 keys in cursor order (all keys of the buckets it visits),
        // so ceil(1010 / 20) = 51 loops pass over the whole table once.
        int cycles = 0;
        while (db.expiresSize() > 1000 && cycles < 51) {
            cycle.runSlow(1);
            cycles++;
        }

        assertEquals(1000, db.size());
        assertTrue(cycles <= 51, "cycles=" + cycles);
    }

    @Test
    void bucketCursorShouldRememberItsPositionPerDatabase() {
        Database db = new Database(0, 5, ExpiryStrategyKind.BUCKET_CURSOR);
        fill(db, "live", 1000, 1_000_000);
        BucketCursorExpiry strategy = (BucketCursorExpiry) db.expiryStrategy();
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, ONE_LOOP, new SteppingNanoClock(0));

        cycle.runSlow(1);
        long afterOne = strategy.cursor();
        cycle.runSlow(1);

        assertTrue(afterOne != 0);
        assertTrue(strategy.cursor() != afterOne);
        assertTrue(cycle.lastCycleSampled() >= 20);
        db.flush();
        assertEquals(0, strategy.cursor());
    }

    @Test
    void exactShouldRemoveEveryExpiredKeyInOneCycleAndExamineOneLiveKey() {
        Database db = new Database(0, 5, ExpiryStrategyKind.EXACT);
        fill(db, "dead", 1000, 10);
        fill(db, "live", 1000, 1000);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, ExpireCycleConfig.defaults(),
                new SteppingNanoClock(0));

        cycle.runSlow(11);

        assertEquals(1000, db.size());
        assertEquals(1000, cycle.lastCycleExpired());
        assertEquals(51, cycle.lastCycleLoops());
        assertEquals(1001, cycle.lastCycleSampled());
    }

    @Test
    void exactShouldExpireKeysInExpiryOrder() {
        Database db = new Database(0, 5, ExpiryStrategyKind.EXACT);
        for (int i = 0; i < 100; i++) {
            byte[] k = key("k" + i);
            db.setKey(k, k, 0);
            db.setExpire(k, 1000 - i * 10L);
        }
        StringBuilder order = new StringBuilder();
        db.setExpiryListener((d, k) -> order.append(new String(k)).append(' '));
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, ONE_LOOP, new SteppingNanoClock(0));

        cycle.runSlow(2000);

        assertTrue(order.toString().startsWith("k99 k98 k97 "), order.toString());
        assertTrue(order.toString().endsWith("k81 k80 "), order.toString());
    }

    @Test
    void exactHeapShouldStayBoundedUnderRepeatedExpiryChanges() {
        Database db = new Database(0, 5, ExpiryStrategyKind.EXACT);
        ExactExpiry heap = (ExactExpiry) db.expiryStrategy();
        fill(db, "k", 100, 50);

        for (int round = 0; round < 200; round++) {
            for (int i = 0; i < 100; i++) {
                db.setExpire(key("k" + i), 100 + round);
            }
        }

        assertTrue(heap.heapSize() <= ExactExpiry.COMPACT_MIN_ENTRIES + 2 * 100, "heap=" + heap.heapSize());
        for (int i = 0; i < 100; i++) {
            db.persist(key("k" + i));
        }
        assertEquals(0, heap.heapSize());
    }

    @Test
    void exactShouldSkipStaleEntriesWithoutCountingThemAsSamples() {
        Database db = new Database(0, 5, ExpiryStrategyKind.EXACT);
        fill(db, "moved", 30, 10);
        fill(db, "live", 5, 500);
        for (int i = 0; i < 30; i++) {
            db.setExpire(key("moved" + i), 400);
        }
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, ONE_LOOP, new SteppingNanoClock(0));

        cycle.runSlow(100);

        assertEquals(35, db.size());
        assertEquals(1, cycle.lastCycleSampled());
        assertEquals(0, cycle.lastCycleExpired());
    }
}
