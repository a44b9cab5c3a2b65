package dev.ebb.storage.expiry;

import static dev.ebb.storage.expiry.ActiveExpireCycleTest.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.storage.Database;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The same correctness contract for every {@link ExpiryStrategyKind}: active expiry removes
 * exactly the keys whose expiry has passed, never a live one, and follows every way an expiry
 * can change (overwrite, persist, delete, re-expire, flush, swap).
 */
class ExpiryStrategyConformanceTest {
    private static final int MAX_CYCLES = 5_000;

    @ParameterizedTest
    @EnumSource(ExpiryStrategyKind.class)
    void activeExpiryShouldRemoveExactlyTheExpiredKeysAsTimeAdvances(ExpiryStrategyKind kind) {
        Random random = new Random(99);
        Database db = new Database(0, 17, kind);
        Map<String, Long> expiries = new HashMap<>();
        Set<String> notified = new TreeSet<>();
        db.setExpiryListener((d, k) -> notified.add(text(k)));
        for (int i = 0; i < 2000; i++) {
            String name = "k" + i;
            db.setKey(key(name), key(name), 0);
            if (i % 5 != 0) {
                long when = 1 + random.nextInt(1000);
                db.setExpire(key(name), when);
                expiries.put(name, when);
            }
        }
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, ExpireCycleConfig.defaults(),
                new SteppingNanoClock(0));

        for (long now = 0; now <= 1100; now += 50) {
            int cycles = cycleUntilNoExpiredKeyRemains(cycle, db, now);

            assertTrue(cycles < MAX_CYCLES, kind + " left expired keys at now=" + now);
            assertEquals(expectedAlive(2000, expiries, now), aliveKeys(db), "now=" + now);
        }

        assertEquals(new TreeSet<>(expiries.keySet()), notified);
        assertEquals(400, db.size());
        assertEquals(1600, db.expiredKeys());
    }

    @ParameterizedTest
    @EnumSource(ExpiryStrategyKind.class)
    void expiryChangesShouldBeFollowed(ExpiryStrategyKind kind) {
        Database db = new Database(0, 3, kind);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, ExpireCycleConfig.defaults(),
                new SteppingNanoClock(0));
        for (int i = 0; i < 50; i++) {
            for (String prefix : List.of("persisted", "overwritten", "extended", "readded", "shortened", "kept")) {
                byte[] k = key(prefix + i);
                db.setKey(k, k, 0);
                db.setExpire(k, 100);
            }
        }
        for (int i = 0; i < 50; i++) {
            db.persist(key("persisted" + i));
            db.setKey(key("overwritten" + i), key("x"), 1);
            db.setExpire(key("extended" + i), 500);
            db.delete(key("readded" + i));
            db.setKey(key("readded" + i), key("y"), 1);
            db.setExpire(key("shortened" + i), 50);
        }

        cycleUntilNoExpiredKeyRemains(cycle, db, 75);
        int afterShortened = db.size();
        cycleUntilNoExpiredKeyRemains(cycle, db, 200);
        Set<String> afterFirstDeadline = aliveKeys(db);
        cycleUntilNoExpiredKeyRemains(cycle, db, 600);
        Set<String> afterSecondDeadline = aliveKeys(db);

        assertEquals(250, afterShortened);
        assertEquals(200, afterFirstDeadline.size());
        assertTrue(afterFirstDeadline.contains("extended7"));
        assertFalse(afterFirstDeadline.contains("kept7"));
        assertEquals(150, afterSecondDeadline.size());
        assertTrue(afterSecondDeadline.containsAll(List.of("persisted0", "overwritten0", "readded0")));
        assertEquals(0, db.expiresSize());
    }

    @ParameterizedTest
    @EnumSource(ExpiryStrategyKind.class)
    void flushShouldResetTheStrategyState(ExpiryStrategyKind kind) {
        Database db = new Database(0, 3, kind);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {db}, ExpireCycleConfig.defaults(),
                new SteppingNanoClock(0));
        ActiveExpireCycleTest.fill(db, "old", 500, 10);
        cycle.runSlow(5);

        db.flush();
        ActiveExpireCycleTest.fill(db, "new", 300, 20);
        ActiveExpireCycleTest.fillPersistent(db, "plain", 10);
        cycleUntilNoExpiredKeyRemains(cycle, db, 15);
        int beforeDeadline = db.size();
        cycleUntilNoExpiredKeyRemains(cycle, db, 21);

        assertEquals(310, beforeDeadline);
        assertEquals(10, db.size());
        assertEquals(300, db.expiredKeys());
    }

    @ParameterizedTest
    @EnumSource(ExpiryStrategyKind.class)
    void swappedDatabasesShouldExpireTheirNewContents(ExpiryStrategyKind kind) {
        Database a = new Database(0, 1, kind);
        Database b = new Database(1, 2, kind);
        ActiveExpireCycleTest.fill(a, "a", 200, 10);
        ActiveExpireCycleTest.fill(b, "b", 100, 1000);
        ActiveExpireCycle cycle = new ActiveExpireCycle(new Database[] {a, b}, ExpireCycleConfig.defaults(),
                new SteppingNanoClock(0));

        a.swapWith(b);
        for (int i = 0; i < MAX_CYCLES && b.size() > 0; i++) {
            cycle.runSlow(11);
        }

        assertEquals(100, a.size());
        assertEquals(0, b.size());
        assertEquals(200, b.expiredKeys());
        assertEquals(0, a.expiredKeys());
    }

    @ParameterizedTest
    @EnumSource(ExpiryStrategyKind.class)
    void strategyShouldReportItsConfigName(ExpiryStrategyKind kind) {
        ExpiryStrategy strategy = kind.newStrategy();

        assertEquals(kind.configName(), strategy.name());
        assertEquals(kind, ExpiryStrategyKind.fromConfigName(kind.configName().toUpperCase()));
    }

    /** Runs slow cycles at {@code now} until no key in expires has passed its time; returns how many. */
    static int cycleUntilNoExpiredKeyRemains(ActiveExpireCycle cycle, Database db, long now) {
        int cycles = 0;
        while (countExpired(db, now) > 0 && cycles < MAX_CYCLES) {
            cycle.runSlow(now);
            cycles++;
        }
        return cycles;
    }

    /** Expired keys still stored, read straight from expires (a lookup would expire them). */
    static int countExpired(Database db, long now) {
        int[] count = {0};
        db.expires().forEach((k, when) -> {
            if (now > when) {
                count[0]++;
            }
        });
        return count[0];
    }

    private static Set<String> aliveKeys(Database db) {
        Set<String> keys = new TreeSet<>();
        List<byte[]> seen = new ArrayList<>();
        long cursor = 0;
        do {
            cursor = db.scan(cursor, Long.MIN_VALUE, (k, v) -> seen.add(k));
        } while (cursor != 0);
        for (byte[] k : seen) {
            keys.add(text(k));
        }
        return keys;
    }

    private static Set<String> expectedAlive(int n, Map<String, Long> expiries, long now) {
        Set<String> alive = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            Long when = expiries.get("k" + i);
            if (when == null || now <= when) {
                alive.add("k" + i);
            }
        }
        return alive;
    }

    private static String text(byte[] k) {
        return new String(k, StandardCharsets.UTF_8);
    }
}
