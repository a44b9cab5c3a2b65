package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DatabaseTest {
    private static final long T0 = 1_700_000_000_000L;

    private final List<String> expired = new ArrayList<>();
    private Database db;

    @BeforeEach
    void setUp() {
        db = new Database(3, 42);
        db.setExpiryListener((d, key) -> {
            assertSame(db, d);
            expired.add(text(key));
        });
    }

    @Test
    void lookupReadShouldSeeKeyUntilItsExpiryTimeAndNotAfter() {
        db.setKey(key("k"), val("v"), T0);
        db.setExpire(key("k"), T0 + 100);

        Object atExpiry = db.lookupRead(key("k"), T0 + 100);
        Object after = db.lookupRead(key("k"), T0 + 101);

        assertArrayEquals(val("v"), (byte[]) atExpiry);
        assertNull(after);
        assertEquals(0, db.size());
        assertEquals(0, db.expiresSize());
        assertEquals(1, db.expiredKeys());
        assertEquals(List.of("k"), expired);
    }

    @Test
    void everyLookupPathShouldDeleteAnExpiredKey() {
        List<java.util.function.Predicate<byte[]>> paths = List.of(
                k -> db.lookupRead(k, T0 + 10) == null,
                k -> db.lookupReadNoTouch(k, T0 + 10) == null,
                k -> db.lookupWrite(k, T0 + 10) == null,
                k -> !db.exists(k, T0 + 10),
                k -> db.idleMs(k, T0 + 10) == -1,
                k -> db.expireIfNeeded(k, T0 + 10));

        for (int i = 0; i < paths.size(); i++) {
            byte[] k = key("k" + i);
            db.setKey(k, val("v"), T0);
            db.setExpire(k, T0 + 5);

            assertTrue(paths.get(i).test(key("k" + i)), "path " + i);
            assertEquals(0, db.size(), "path " + i);
        }

        assertEquals(paths.size(), db.expiredKeys());
        assertEquals(List.of("k0", "k1", "k2", "k3", "k4", "k5"), expired);
    }

    @Test
    void lookupsShouldNotExpireKeysWithoutTtlOrWithFutureTtl() {
        db.setKey(key("plain"), val("1"), T0);
        db.setKey(key("later"), val("2"), T0);
        db.setExpire(key("later"), T0 + 1000);

        assertTrue(db.exists(key("plain"), T0 + 999));
        assertTrue(db.exists(key("later"), T0 + 999));
        assertFalse(db.expireIfNeeded(key("later"), T0 + 1000));
        assertFalse(db.expireIfNeeded(key("missing"), T0 + 5000));
        assertEquals(0, db.expiredKeys());
    }

    @Test
    void setKeyShouldRemoveTheTtlOfAnExistingKey() {
        db.setKey(key("k"), val("a"), T0);
        db.setExpire(key("k"), T0 + 10);

        db.setKey(key("k"), val("b"), T0 + 1);

        assertEquals(Database.NO_EXPIRE, db.getExpire(key("k")));
        assertEquals(0, db.expiresSize());
        assertArrayEquals(val("b"), (byte[]) db.lookupRead(key("k"), T0 + 1000));
    }

    @Test
    void setWithExpireShouldReplaceValueAndTtlOfNewLiveAndExpiredKeys() {
        db.setKey(key("live"), val("a"), T0);
        db.setExpire(key("live"), T0 + 10);
        db.setKey(key("stale"), val("a"), T0);
        db.setExpire(key("stale"), T0 + 1);
        long memoryBefore = db.usedMemory();

        db.setWithExpire(key("live"), val("b"), T0 + 5, T0 + 500);
        db.setWithExpire(key("stale"), val("b"), T0 + 5, T0 + 600);
        db.setWithExpire(key("new"), val("b"), T0 + 5, T0 + 700);

        assertEquals(T0 + 500, db.getExpire(key("live")));
        assertEquals(T0 + 600, db.getExpire(key("stale")));
        assertEquals(T0 + 700, db.getExpire(key("new")));
        assertEquals(3, db.size());
        assertEquals(3, db.expiresSize());
        assertEquals(List.of("stale"), expired);
        assertTrue(db.usedMemory() > memoryBefore);
        assertArrayEquals(val("b"), (byte[]) db.lookupRead(key("live"), T0 + 500));
        assertNull(db.lookupRead(key("live"), T0 + 501));
        assertThrows(IllegalArgumentException.class,
                () -> db.setWithExpire(key("x"), val("b"), T0, Long.MIN_VALUE));
        assertFalse(db.exists(key("x"), T0));
    }

    @Test
    void setKeepTtlShouldKeepTheTtlOfAnExistingKey() {
        db.setKey(key("k"), val("a"), T0);
        db.setExpire(key("k"), T0 + 10);

        db.setKeepTtl(key("k"), val("b"), T0 + 1);

        assertEquals(T0 + 10, db.getExpire(key("k")));
        assertArrayEquals(val("b"), (byte[]) db.lookupRead(key("k"), T0 + 10));
        assertNull(db.lookupRead(key("k"), T0 + 11));
    }

    @Test
    void settingAnExpiredKeyShouldExpireItFirstAndCreateAFreshKey() {
        db.setKey(key("a"), val("old"), T0);
        db.setExpire(key("a"), T0 + 1);
        db.setKey(key("b"), val("old"), T0);
        db.setExpire(key("b"), T0 + 1);

        db.setKey(key("a"), val("new"), T0 + 2);
        db.setKeepTtl(key("b"), val("new"), T0 + 2);

        assertEquals(List.of("a", "b"), expired);
        assertEquals(Database.NO_EXPIRE, db.getExpire(key("a")));
        assertEquals(Database.NO_EXPIRE, db.getExpire(key("b")));
        assertEquals(2, db.size());
    }

    @Test
    void addShouldInsertAnAbsentKey() {
        db.add(key("k"), val("v"), T0);

        assertArrayEquals(val("v"), (byte[]) db.lookupRead(key("k"), T0));
    }

    @Test
    void addShouldRejectAnExistingKeyAndLeaveTheDatabaseUnchanged() {
        db.setKey(key("k"), val("v"), T0);
        long memory = db.usedMemory();

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> db.add(key("k"), val("other"), T0));

        assertTrue(e.getMessage().contains("key=k"), e.getMessage());
        assertArrayEquals(val("v"), (byte[]) db.lookupRead(key("k"), T0));
        assertEquals(memory, db.usedMemory());
    }

    @Test
    void deleteShouldRemoveValueAndTtlAndReturnTheOldValue() {
        db.setKey(key("k"), val("v"), T0);
        db.setExpire(key("k"), T0 + 10);

        Object removed = db.delete(key("k"));
        Object again = db.delete(key("k"));

        assertArrayEquals(val("v"), (byte[]) removed);
        assertNull(again);
        assertEquals(0, db.size());
        assertEquals(0, db.expiresSize());
        assertEquals(0, db.expiredKeys());
    }

    @Test
    void setExpireShouldStoreTheMainDictKeyInstance() {
        byte[] stored = key("shared");
        db.setKey(stored, val("v"), T0);

        db.setExpire(key("shared"), T0 + 10);
        db.setExpire(key("shared"), T0 + 20);

        LongDict expires = db.expires();
        assertSame(stored, expires.keyAt(expires.find(key("shared"))));
        assertEquals(T0 + 20, db.getExpire(key("shared")));
        assertEquals(1, db.expiresSize());
    }

    @Test
    void setExpireShouldRejectAMissingKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> db.setExpire(new byte[] {'a', 0, (byte) 0xff}, T0));

        assertTrue(e.getMessage().contains("key=a\\x00\\xff"), e.getMessage());
        assertEquals(0, db.expiresSize());
    }

    @Test
    void persistShouldRemoveTheTtlOnlyWhenThereIsOne() {
        db.setKey(key("k"), val("v"), T0);
        db.setExpire(key("k"), T0 + 10);

        assertTrue(db.persist(key("k")));
        assertFalse(db.persist(key("k")));
        assertFalse(db.persist(key("missing")));
        assertEquals(Database.NO_EXPIRE, db.getExpire(key("k")));
        assertNotNull(db.lookupRead(key("k"), T0 + 1000));
    }

    @Test
    void randomKeyShouldReturnNullOnAnEmptyDatabase() {
        assertNull(db.randomKey(T0));
    }

    @Test
    void randomKeyShouldSkipAndDeleteExpiredKeys() {
        for (int i = 0; i < 50; i++) {
            db.setKey(key("dead" + i), val("v"), T0);
            db.setExpire(key("dead" + i), T0);
        }
        db.setKey(key("alive"), val("v"), T0);

        byte[] k = db.randomKey(T0 + 1);

        assertEquals("alive", text(k));
        assertEquals(db.expiredKeys(), expired.size());
        assertEquals(51 - db.expiredKeys(), db.size());
    }

    @Test
    void randomKeyShouldGiveUpAfterBoundedTriesOnAnAllExpiredDatabase() {
        int n = 1000;
        for (int i = 0; i < n; i++) {
            db.setKey(key("k" + i), val("v"), T0);
            db.setExpire(key("k" + i), T0);
        }

        byte[] k = db.randomKey(T0 + 1);

        assertNull(k);
        assertEquals(Database.RANDOM_KEY_MAX_TRIES, db.expiredKeys());
        assertEquals(n - Database.RANDOM_KEY_MAX_TRIES, db.size());
    }

    @Test
    void randomKeyShouldEmptyASmallAllExpiredDatabaseAndReturnNull() {
        for (int i = 0; i < 30; i++) {
            db.setKey(key("k" + i), val("v"), T0);
            db.setExpire(key("k" + i), T0);
        }

        assertNull(db.randomKey(T0 + 1));
        assertEquals(0, db.size());
        assertEquals(30, db.expiredKeys());
    }

    @Test
    void scanShouldVisitLiveKeysAndDeleteExpiredOnes() {
        Set<String> live = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            db.setKey(key("k" + i), val("v" + i), T0);
            if (i % 3 == 0) {
                db.setExpire(key("k" + i), T0 + 5);
            } else {
                live.add("k" + i);
            }
        }
        Set<String> seen = new HashSet<>();

        long cursor = 0;
        int steps = 0;
        do {
            cursor = db.scan(cursor, T0 + 6, (k, v) -> {
                assertEquals("v" + text(k).substring(1), text((byte[]) v));
                seen.add(text(k));
            });
            steps++;
        } while (cursor != 0 && steps < 100_000);

        assertEquals(live, seen);
        assertEquals(200, db.size());
        assertEquals(100, db.expiredKeys());
        assertEquals(0, db.expiresSize());
    }

    @Test
    void idleTimeShouldCountFromTheLastTouchingAccess() {
        db.setKey(key("k"), val("v"), T0);

        long idleAfterSet = db.idleMs(key("k"), T0 + 5_000);
        db.lookupReadNoTouch(key("k"), T0 + 6_000);
        db.exists(key("k"), T0 + 6_000);
        long idleAfterNoTouch = db.idleMs(key("k"), T0 + 7_000);
        db.lookupRead(key("k"), T0 + 8_000);
        long idleAfterRead = db.idleMs(key("k"), T0 + 11_000);
        db.lookupWrite(key("k"), T0 + 12_000);
        long idleAfterWrite = db.idleMs(key("k"), T0 + 12_000);

        assertEquals(5_000, idleAfterSet);
        assertEquals(7_000, idleAfterNoTouch);
        assertEquals(3_000, idleAfterRead);
        assertEquals(0, idleAfterWrite);
        assertEquals(-1, db.idleMs(key("missing"), T0));
    }

    @Test
    void overwritingAKeyShouldResetItsIdleTime() {
        db.setKey(key("k"), val("a"), T0);

        db.setKey(key("k"), val("b"), T0 + 60_000);

        assertEquals(1_000, db.idleMs(key("k"), T0 + 61_000));
    }

    @Test
    void idleTimeShouldSurviveTheWrapOfThe24BitSecondsClock() {
        long beforeWrap = ((1L << 24) * 100 - 3) * 1000;
        db.setKey(key("k"), val("v"), beforeWrap);

        long idle = db.idleMs(key("k"), beforeWrap + 10_000);

        assertEquals(10_000, idle);
    }

    @Test
    void idleTimeShouldWrapAfter2To24SecondsAsRedisDoes() {
        db.setKey(key("k"), val("v"), T0);

        assertEquals(((1L << 24) - 1) * 1000, db.idleMs(key("k"), T0 + ((1L << 24) - 1) * 1000), "194 days");
        assertEquals(4_000, db.idleMs(key("k"), T0 + ((1L << 24) + 4) * 1000), "wrapped");
    }

    @Test
    void flushShouldDropEverythingButKeepTheExpiredCounter() {
        long emptyMemory = db.usedMemory();
        for (int i = 0; i < 100; i++) {
            db.setKey(key("k" + i), val("v"), T0);
            db.setExpire(key("k" + i), T0 + i);
        }
        db.lookupRead(key("k0"), T0 + 1);

        long removed = db.flush();

        assertEquals(99, removed);
        assertEquals(0, db.size());
        assertEquals(0, db.expiresSize());
        assertEquals(0, db.avgTtlMs());
        assertEquals(1, db.expiredKeys());
        assertEquals(emptyMemory, db.usedMemory());
        db.setKey(key("k1"), val("v"), T0);
        db.setExpire(key("k1"), T0 + 1);
        assertEquals(T0 + 1, db.getExpire(key("k1")));
    }

    @Test
    void swapWithShouldExchangeContentsButNotIds() {
        Database other = new Database(7, 99);
        db.setKey(key("mine"), val("1"), T0);
        db.setExpire(key("mine"), T0 + 10);
        other.setKey(key("theirs"), val("2"), T0);
        long myMemory = db.usedMemory();
        long theirMemory = other.usedMemory();

        db.swapWith(other);

        assertEquals(3, db.id());
        assertEquals(7, other.id());
        assertNull(db.lookupRead(key("mine"), T0));
        assertArrayEquals(val("2"), (byte[]) db.lookupRead(key("theirs"), T0));
        assertEquals(T0 + 10, other.getExpire(key("mine")));
        assertEquals(theirMemory, db.usedMemory());
        assertEquals(myMemory, other.usedMemory());
    }

    @Test
    void recordTtlSampleShouldKeepRedisRunningAverage() {
        db.recordTtlSample(10_000);
        long first = db.avgTtlMs();
        db.recordTtlSample(20_000);

        assertEquals(10_000, first);
        assertEquals(10_000 / 50 * 49 + 20_000 / 50, db.avgTtlMs());
    }

    @Test
    void avgTtlShouldResetWhenTheLastVolatileKeyGoes() {
        db.setKey(key("k"), val("v"), T0);
        db.setExpire(key("k"), T0 + 10);
        db.recordTtlSample(10);

        db.persist(key("k"));

        assertEquals(0, db.avgTtlMs());
    }

    @Test
    void rehashForShouldFinishPendingResizesWithinAGenerousBudget() {
        int i = 0;
        while (!db.expires().isRehashing() && i < 100_000) {
            db.setKey(key("k" + i), val("v"), T0);
            db.setExpire(key("k" + i), T0 + 1000);
            i++;
        }
        assertTrue(db.expires().isRehashing());
        long memoryWhileRehashing = db.usedMemory();

        int work = 0;
        for (int round = 0; round < 1000 && db.expires().isRehashing(); round++) {
            work += db.rehashFor(1_000_000_000L, NanoClock.SYSTEM);
        }

        assertTrue(work > 0);
        assertFalse(db.expires().isRehashing());
        assertTrue(db.usedMemory() < memoryWhileRehashing, "old slot arrays are released");
    }

    @Test
    void constructorShouldRejectANegativeId() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Database(-1, 0));

        assertTrue(e.getMessage().contains("id=-1"), e.getMessage());
    }

    static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] val(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
