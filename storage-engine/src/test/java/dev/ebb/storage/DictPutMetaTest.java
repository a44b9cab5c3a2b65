package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DictPutMetaTest {

    private static byte[] key(int i) {
        return ("key:" + i).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void putWithMetaShouldStoreValueAndMetaOnInsertAndReplace() {
        Dict<String> dict = new Dict<>(42);

        assertNull(dict.put(key(1), "a", 7));
        assertEquals("a", dict.put(key(1), "b", 9));

        int handle = dict.find(key(1));
        assertEquals("b", dict.valueAt(handle));
        assertEquals(9, dict.metaAt(handle));
    }

    @Test
    void putWithMetaShouldKeepEveryEntrysMetaAcrossIncrementalGrows() {
        Dict<Integer> dict = new Dict<>(7);

        for (int i = 0; i < 20_000; i++) {
            dict.put(key(i), i, i * 3);
        }

        for (int i = 0; i < 20_000; i++) {
            int handle = dict.find(key(i));
            assertEquals(i, dict.valueAt(handle));
            assertEquals(i * 3, dict.metaAt(handle));
        }
    }
}
