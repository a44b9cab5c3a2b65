package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ebb.storage.expiry.ActiveExpireCycle;
import dev.ebb.storage.expiry.ExpireCycleConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The slot index of a {@link Database} against a model (key to expiry, grouped by slot) under random
 * sequences of every insert and delete path: SET with and without a TTL, dbAdd, DEL, lazy expiry, the active
 * expire cycle, eviction, FLUSHDB, SWAPDB, and the main dict's incremental resizes. Time is a manual clock.
 */
class SlotIndexPropertyTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long NO_TTL = -1;
    private static final NanoClock FROZEN = () -> 0L;
    private static final ExpireCycleConfig UNSLICED = ExpireCycleConfig.defaults().withSliceMicros(25_000);

    /** Keys spread over all slots, as CRC16 spreads them. */
    private static final SlotFunction SPREAD = key -> Arrays.hashCode(key) & (SlotIndex.SLOTS - 1);
    /** Keys in four slots, as four hash tags would put them: large sets that grow and shrink. */
    private static final SlotFunction NARROW = key -> (Arrays.hashCode(key) & 3) * 4096 + 7;

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void countsAndListingsShouldFollowRandomOperationsWithKeysSpreadOverAllSlots() {
        new Run(SPREAD, 11, 20_000).go(40_000);
    }

    @Test
    void countsAndListingsShouldFollowRandomOperationsWithKeysInFourSlots() {
        new Run(NARROW, 12, 6_000).go(30_000);
    }

    @Test
    void indexSlotsShouldIndexTheKeysAlreadyPresent() {
        Database db = new Database(0, 5);
        for (int i = 0; i < 3000; i++) {
            db.setKey(key("k" + i), new byte[1], T0);
        }

        db.indexSlots(NARROW);

        SlotIndex index = db.slotIndex();
        assertEquals(3000, index.size());
        int total = 0;
        for (int slot : new int[] {7, 4096 + 7, 8192 + 7, 12288 + 7}) {
            total += index.count(slot);
            for (byte[] k : index.keys(slot, Integer.MAX_VALUE)) {
                assertEquals(slot, NARROW.slotOf(k));
                assertTrue(db.hasEntry(k));
            }
        }
        assertEquals(3000, total);
        assertThrows(IllegalStateException.class, () -> db.indexSlots(NARROW));
    }

    @Test
    void swapWithADatabaseWithoutAnIndexShouldLeaveTheIndexWithItsDatabaseOverTheNewKeys() {
        Database indexed = new Database(0, 1);
        indexed.indexSlots(NARROW);
        indexed.setKey(key("old"), new byte[1], T0);
        Database fresh = new Database(0, 2);
        for (int i = 0; i < 500; i++) {
            fresh.setKey(key("new" + i), new byte[1], T0);
        }

        indexed.swapWith(fresh);

        assertEquals(null, fresh.slotIndex());
        assertEquals(500, indexed.slotIndex().size());
        int total = 0;
        for (int slot : new int[] {7, 4096 + 7, 8192 + 7, 12288 + 7}) {
            for (byte[] k : indexed.slotIndex().keys(slot, Integer.MAX_VALUE)) {
                assertTrue(indexed.hasEntry(k));
                total++;
            }
        }
        assertEquals(500, total);
        fresh.swapWith(indexed);
        assertEquals(null, fresh.slotIndex());
        assertEquals(1, indexed.slotIndex().size());
        assertEquals(1, indexed.slotIndex().keys(NARROW.slotOf(key("old")), 5).length);
    }

    @Test
    void memoryShouldCountTheIndexAndReturnToItsFixedArraysWhenEmpty() {
        Database plain = new Database(0, 9);
        Database indexed = new Database(0, 9);
        indexed.indexSlots(SPREAD);
        long fixed = indexed.slotIndex().memoryBytes();
        assertEquals(fixed, indexed.usedMemory() - plain.usedMemory());

        for (int i = 0; i < 50_000; i++) {
            plain.setKey(key("k" + i), new byte[8], T0);
            indexed.setKey(key("k" + i), new byte[8], T0);
        }

        long perKey = (indexed.usedMemory() - plain.usedMemory() - fixed) / 50_000;
        assertEquals(indexed.slotIndex().memoryBytes(), indexed.usedMemory() - plain.usedMemory());
        assertTrue(perKey >= 4 && perKey <= 40, "index bytes per key: " + perKey);
        for (int i = 0; i < 50_000; i++) {
            indexed.delete(key("k" + i));
        }
        assertEquals(fixed, indexed.slotIndex().memoryBytes());
    }

    @Test
    void keysShouldReturnAtMostTheCountAndRefuseBadArguments() {
        Database db = new Database(0, 3);
        db.indexSlots(NARROW);
        for (int i = 0; i < 100; i++) {
            db.setKey(key("{t}" + i * 4), new byte[1], T0);
        }
        SlotIndex index = db.slotIndex();
        int slot = NARROW.slotOf(key("{t}0"));

        byte[][] some = index.keys(slot, 3);

        assertEquals(3, some.length);
        assertEquals(index.count(slot), index.keys(slot, 1_000_000).length);
        assertEquals(0, index.keys(slot, 0).length);
        assertEquals(0, index.keys(0, 10).length);
        assertThrows(IllegalArgumentException.class, () -> index.count(SlotIndex.SLOTS));
        assertThrows(IllegalArgumentException.class, () -> index.keys(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> index.keys(1, -1));
    }

    /** One random run: two indexed databases (for SWAPDB) and their models. */
    private static final class Run {
        private final SlotFunction slots;
        private final SplittableRandom random;
        private final int keySpace;
        private final Database[] dbs = new Database[2];
        private final List<Map<ByteKey, Long>> models = new ArrayList<>();
        private final Evictor evictor = new Evictor();
        private long now = T0;

        Run(SlotFunction slots, long seed, int keySpace) {
            this.slots = slots;
            this.random = new SplittableRandom(seed);
            this.keySpace = keySpace;
            for (int i = 0; i < 2; i++) {
                dbs[i] = new Database(i, seed + i);
                dbs[i].indexSlots(slots);
                models.add(new HashMap<>());
            }
        }

        void go(int operations) {
            for (int op = 0; op < operations; op++) {
                byte[] k = key("key:" + random.nextInt(keySpace));
                // A fresh instance for every call: the index must follow the stored instance, not the caller's.
                step(random.nextInt(1000), k);
                checkSlot(0, slots.slotOf(k));
                if (op % 2000 == 0) {
                    checkAll(0);
                    checkAll(1);
                }
            }
            checkAll(0);
            checkAll(1);
            drain();
        }

        private void step(int dice, byte[] k) {
            Database db = dbs[0];
            Map<ByteKey, Long> model = models.get(0);
            if (dice < 350) {
                db.setKey(k, new byte[1 + random.nextInt(40)], now);
                model.put(new ByteKey(k), NO_TTL);
            } else if (dice < 450) {
                long when = now + random.nextInt(3000);
                db.setWithExpire(k, new byte[4], now, when);
                model.put(new ByteKey(k), when);
            } else if (dice < 550) {
                if (db.lookupWrite(k, now) == null) {
                    model.remove(new ByteKey(k));
                    db.add(k, new byte[2], now);
                    model.put(new ByteKey(k), NO_TTL);
                }
            } else if (dice < 750) {
                if (!db.expireIfNeeded(k, now)) {
                    db.delete(k);
                }
                model.remove(new ByteKey(k));
            } else if (dice < 900) {
                now += random.nextInt(200);
                db.lookupRead(k, now);
                Long when = model.get(new ByteKey(k));
                if (when != null && when != NO_TTL && now > when) {
                    model.remove(new ByteKey(k));
                }
            } else if (dice < 930) {
                new ActiveExpireCycle(new Database[] {db}, UNSLICED, FROZEN).runSlow(now);
                reconcile(0, true);
            } else if (dice < 950) {
                evictor.evict(new Database[] {db}, EvictionPolicy.ALLKEYS_RANDOM, db.usedMemory() * 9 / 10, 5, now,
                        Long.MAX_VALUE, FROZEN);
                reconcile(0, false);
            } else if (dice < 953) {
                db.flush();
                model.clear();
            } else if (dice < 965) {
                dbs[0].swapWith(dbs[1]);
                models.add(models.remove(0));
            } else if (dice < 985) {
                db.rehashFor(Long.MAX_VALUE, FROZEN);
            } else {
                deleteMany(db, model);
            }
        }

        /** Deletes about half of the keys, so the main dict and the slot sets shrink. */
        private void deleteMany(Database db, Map<ByteKey, Long> model) {
            for (ByteKey key : new ArrayList<>(model.keySet())) {
                if (random.nextBoolean()) {
                    db.delete(key.bytes.clone());
                    model.remove(key);
                }
            }
        }

        /** Drops from the model the keys the database dropped; with {@code expiredOnly}, they must have expired. */
        private void reconcile(int which, boolean expiredOnly) {
            Database db = dbs[which];
            Map<ByteKey, Long> model = models.get(which);
            model.entrySet().removeIf(e -> {
                if (db.hasEntry(e.getKey().bytes)) {
                    return false;
                }
                if (expiredOnly) {
                    assertTrue(e.getValue() != NO_TTL && now > e.getValue(), "only expired keys go: " + e.getKey());
                }
                return true;
            });
            assertEquals(model.size(), db.size());
        }

        private void checkSlot(int which, int slot) {
            SlotIndex index = dbs[which].slotIndex();
            Set<ByteKey> expected = new HashSet<>();
            for (ByteKey key : models.get(which).keySet()) {
                if (slots.slotOf(key.bytes) == slot) {
                    expected.add(key);
                }
            }
            assertEquals(expected.size(), index.count(slot), "count of slot " + slot);
            byte[][] listed = index.keys(slot, expected.size() + 5);
            Set<ByteKey> got = new HashSet<>();
            for (byte[] k : listed) {
                assertNotNull(k);
                got.add(new ByteKey(k));
            }
            assertEquals(expected, got, "keys of slot " + slot);
            assertEquals(Math.min(2, expected.size()), index.keys(slot, 2).length);
        }

        private void checkAll(int which) {
            Map<Integer, Set<ByteKey>> bySlot = new HashMap<>();
            for (ByteKey key : models.get(which).keySet()) {
                bySlot.computeIfAbsent(slots.slotOf(key.bytes), s -> new HashSet<>()).add(key);
            }
            SlotIndex index = dbs[which].slotIndex();
            assertEquals(models.get(which).size(), index.size());
            assertEquals(dbs[which].size(), index.size());
            for (int slot = 0; slot < SlotIndex.SLOTS; slot++) {
                Set<ByteKey> expected = bySlot.getOrDefault(slot, Set.of());
                assertEquals(expected.size(), index.count(slot), "count of slot " + slot);
                if (!expected.isEmpty()) {
                    Set<ByteKey> got = new HashSet<>();
                    for (byte[] k : index.keys(slot, Integer.MAX_VALUE)) {
                        got.add(new ByteKey(k));
                    }
                    assertEquals(expected, got, "keys of slot " + slot);
                }
            }
        }

        /** Deletes every key one by one: the index ends empty, with only its fixed arrays. */
        private void drain() {
            for (int which = 0; which < 2; which++) {
                Database db = dbs[which];
                for (ByteKey key : new ArrayList<>(models.get(which).keySet())) {
                    assertNotNull(db.delete(key.bytes.clone()));
                }
                models.get(which).clear();
                checkAll(which);
                SlotIndex index = db.slotIndex();
                assertSame(index, db.slotIndex());
                assertEquals(new SlotIndex(slots).memoryBytes(), index.memoryBytes());
            }
        }
    }
}
