package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Sizing an empty table for a known key count (RDB loading's RESIZEDB) and the one-probe insert it uses. */
class DictPresizeTest {

    private static byte[] key(int i) {
        return ("key:" + i).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void presizedTableShouldTakeItsKeysWithoutResizing() {
        Dict<Integer> dict = new Dict<>(3);
        dict.presize(100_000);
        int capacity = dict.capacity();

        for (int i = 0; i < 100_000; i++) {
            assertNull(dict.putIfAbsent(key(i), i, i));
            assertFalse(dict.isRehashing(), "resize started at key " + i);
        }

        assertEquals(capacity, dict.capacity());
        assertEquals(1 << 18, capacity, "the same capacity growing would have reached");
        assertEquals(0, dict.aheadBytes(), "no grown arrays asked for ahead");
        for (int i = 0; i < 100_000; i++) {
            assertEquals(i, dict.get(key(i)));
        }
    }

    @Test
    void presizeShouldLeaveATableWithKeysAlone() {
        Dict<Integer> dict = new Dict<>(5);
        dict.put(key(1), 1);
        int capacity = dict.capacity();

        dict.presize(1_000_000);

        assertEquals(capacity, dict.capacity());
        assertEquals(1, dict.get(key(1)));
    }

    @Test
    void putIfAbsentShouldKeepThePresentValueAndMeta() {
        Dict<String> dict = new Dict<>(9);
        assertNull(dict.putIfAbsent(key(1), "a", 7));

        assertEquals("a", dict.putIfAbsent(key(1), "b", 9));

        int handle = dict.find(key(1));
        assertEquals("a", dict.valueAt(handle));
        assertEquals(7, dict.metaAt(handle));
        assertEquals(1, dict.size());
    }

    @Test
    void databaseTryAddShouldRefuseAPresentKeyAndAddShouldThrow() {
        Database db = new Database(0, 11);
        db.presize(10, 2);

        assertTrue(db.tryAdd(key(1), key(100), 0));
        db.setExpire(key(1), 5_000);
        long used = db.usedMemory();

        assertFalse(db.tryAdd(key(1), key(200), 0));
        assertThrows(IllegalStateException.class, () -> db.add(key(1), key(300), 0));

        assertEquals("key:100", new String((byte[]) db.lookupReadNoTouch(key(1), 0), StandardCharsets.US_ASCII));
        assertEquals(5_000, db.getExpire(key(1)));
        assertEquals(used, db.usedMemory());
        assertEquals(1, db.size());
    }
}
