package dev.ebb.storage.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.storage.Database;
import dev.ebb.storage.VolatileHashes;
import dev.ebb.storage.types.HashValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hash fields in the active expire cycle and the database's index of volatile hashes (manual time). */
class HashFieldActiveExpiryTest {
    private static final long NOW = 1_000_000;
    private static final ExpireCycleConfig UNSLICED = ExpireCycleConfig.defaults().withSliceMicros(25_000);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A hash of {@code fields} fields, the first {@code volatileFields} expiring at {@code when}. */
    private static HashValue hash(int fields, int volatileFields, long when, boolean large) {
        HashValue h = new HashValue();
        if (large) {
            h.convertForNewFields(Long.MAX_VALUE, 0);
        }
        for (int i = 0; i < fields; i++) {
            h.put(b("f" + i), b("v" + i), 128, 64);
            if (i < volatileFields) {
                h.setFieldExpiry(b("f" + i), when);
            }
        }
        return h;
    }

    @Test
    void slowCycleShouldReclaimDueFieldsAndDeleteHashesLeftEmpty() {
        Database db = new Database(0, 1);
        List<String> events = new ArrayList<>();
        db.volatileHashes().setListener((d, key, fields, deleted) ->
                events.add(new String(key, StandardCharsets.UTF_8) + ":" + fields.size() + ":" + deleted));
        for (int i = 0; i < 200; i++) {
            db.add(b("all" + i), hash(10, 10, NOW - 1, false), NOW);
            db.add(b("some" + i), hash(10, 4, NOW - 1, false), NOW);
            db.add(b("later" + i), hash(10, 10, NOW + 1000, false), NOW);
        }
        assertEquals(600, db.volatileHashes().size());
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, new SteppingNanoClock(0));

        for (int i = 0; i < 5000 && db.volatileHashes().size() > 200; i++) {
            cycle.runSlow(NOW);
        }

        assertEquals(400, db.size());
        assertEquals(200 * 10 + 200 * 4, db.volatileHashes().expiredSubkeys());
        assertEquals(200, db.volatileHashes().size());
        assertNull(db.lookupRead(b("all7"), NOW));
        assertEquals(6, ((HashValue) db.lookupRead(b("some7"), NOW)).size());
        assertEquals(-1, db.volatileHashes().earliestExpiry(b("some7")));
        assertEquals(NOW + 1000, db.volatileHashes().earliestExpiry(b("later7")));
        assertTrue(events.contains("all3:10:true"));
        assertTrue(events.contains("some3:4:false"));
        assertEquals(0, db.expiredKeys());
    }

    @Test
    void largeHashShouldLoseItsFieldsInBoundedSteps() {
        Database db = new Database(0, 1);
        db.add(b("big"), hash(20_000, 20_000, NOW - 1, true), NOW);
        VolatileHashes index = db.volatileHashes();
        ExpireSample sample = new ExpireSample();

        index.sampleLoop(db, 20, NOW, new SteppingNanoClock(0), Long.MAX_VALUE, sample);

        HashValue big = (HashValue) db.lookupRead(b("big"), NOW);
        assertTrue(20_000 - big.size() <= 20 * VolatileHashes.FIELDS_PER_STEP);
        assertTrue(big.size() < 20_000);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, UNSLICED, new SteppingNanoClock(0));
        for (int i = 0; i < 100 && db.size() > 0; i++) {
            cycle.runSlow(NOW);
        }
        assertEquals(0, db.size());
        assertEquals(20_000, db.volatileHashes().expiredSubkeys());
        assertEquals(0, index.size());
    }

    @Test
    void indexShouldFollowDeleteOverwriteFlushAndSwap() {
        Database db = new Database(0, 1);
        Database other = new Database(1, 2);
        db.add(b("h"), hash(3, 1, NOW + 10, false), NOW);

        Object moved = db.delete(b("h"));
        assertEquals(0, db.volatileHashes().size());
        db.add(b("renamed"), moved, NOW);
        assertEquals(NOW + 10, db.volatileHashes().earliestExpiry(b("renamed")));
        db.setKey(b("renamed"), b("a string"), NOW);
        assertEquals(0, db.volatileHashes().size());
        db.setKey(b("h2"), hash(3, 2, NOW + 20, false), NOW);
        assertEquals(NOW + 20, db.volatileHashes().earliestExpiry(b("h2")));
        db.swapWith(other);
        assertEquals(0, db.volatileHashes().size());
        assertEquals(1, other.volatileHashes().size());
        other.flush();
        assertEquals(0, other.volatileHashes().size());
    }

    @Test
    void expireHashFieldsShouldFollowInPlaceChangesReportedByCommands() {
        Database db = new Database(0, 1);
        HashValue h = hash(5, 0, 0, false);
        db.add(b("h"), h, NOW);
        long before = db.usedMemory();

        h.setFieldExpiry(b("f2"), NOW + 5);
        db.hashFieldsChanged(b("h"), h);

        assertEquals(NOW + 5, db.volatileHashes().earliestExpiry(b("h")));
        assertEquals(0, db.expireHashFields(b("h"), NOW + 5, 10));
        long withTtl = db.usedMemory();
        db.adjustMemory(0);
        assertEquals(1, db.expireHashFields(b("h"), NOW + 6, 10));
        assertEquals(4, h.size());
        assertFalse(h.earliestExpiry() != HashValue.NO_EXPIRY);
        assertEquals(0, db.volatileHashes().size());
        assertTrue(db.usedMemory() < withTtl, "memory falls with the expired field");
        assertTrue(before > 0);
    }

    @Test
    void loopShouldStopVisitingHashesOnceTheClockReachesItsDeadline() {
        Database db = new Database(0, 1);
        for (int i = 0; i < 20; i++) {
            db.add(b("h" + i), hash(10, 10, NOW - 1, false), NOW);
        }
        ExpireSample sample = new ExpireSample();

        // Readings after each visit that removed fields: 0, 10, 20, 30 us; the fourth reaches 25 us.
        db.volatileHashes().sampleLoop(db, 20, NOW, new SteppingNanoClock(10_000), 25_000, sample);

        assertEquals(4, sample.sampled());
        assertEquals(4, sample.expired());
        assertEquals(40, db.volatileHashes().expiredSubkeys());
        assertEquals(16, db.size());
    }

    @Test
    void sliceShouldOverrunItsLengthByAtMostOneHashVisit() {
        Database db = new Database(0, 1);
        for (int i = 0; i < 2000; i++) {
            db.add(b("h" + i), hash(100, 100, NOW - 1, false), NOW);
        }
        long visitNanos = 40_000;
        ActiveExpireCycleTest.WorkClock clock = new ActiveExpireCycleTest.WorkClock(visitNanos);
        db.volatileHashes().setListener((d, key, fields, deleted) -> clock.work());
        ExpireCycleConfig config = ExpireCycleConfig.defaults();
        long slice = config.sliceNanos();
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, config, clock);
        // Nothing measured yet, so the cycle would read the clock after 16 loops: before it read the
        // clock after every loop that removed fields, the first slice ran 16 loops of two 100-field
        // visits (the 128-field cap) before its first reading, 1.28 ms.
        long maxSlice = 0;
        int slices = 0;
        for (; slices < 10_000 && db.size() > 0; slices++) {
            long before = cycle.expireCycleCpuNanos();
            if (!cycle.runFast(NOW)) {
                cycle.beginSlow();
                cycle.runSlice(NOW);
            }
            maxSlice = Math.max(maxSlice, cycle.expireCycleCpuNanos() - before);
        }

        assertEquals(0, db.size());
        assertTrue(maxSlice <= slice + visitNanos, "longest slice " + maxSlice + " ns");
        assertEquals(200_000, cycle.activeExpiredFields());
        assertEquals(0, cycle.activeExpiredKeys(), "hashes are not counted as expired keys");
    }
}
