package dev.ebb.storage;

import java.util.Arrays;

/**
 * The buffer behind {@link Database#scan}: one step's keys and values are collected from the main dict first
 * and handed to the visitor after the dict walk, so that the visitor may read or modify the database (but not
 * start another scan of it). Allocates nothing once it has grown to the largest bucket run met. Belongs to one
 * database, on the command loop thread.
 */
final class ScanBuffer {
    private static final int INITIAL_CAPACITY = 16;

    private byte[][] keys = new byte[INITIAL_CAPACITY][];
    private Object[] values = new Object[INITIAL_CAPACITY];
    private int count;
    private final Dict.Visitor<Object> collector = this::collect;

    /**
     * One scan step over {@code dict} from {@code cursor}: collects the step's keys, then hands each one that
     * {@link Database#expireIfNeeded} does not expire at {@code nowMs} to {@code visitor}.
     *
     * @return the next cursor, 0 when the iteration is complete
     */
    long step(Database db, Dict<Object> dict, long cursor, long nowMs, Dict.Visitor<Object> visitor) {
        count = 0;
        long next = dict.scan(cursor, collector);
        int collected = count;
        byte[][] stepKeys = keys;
        Object[] stepValues = values;
        for (int i = 0; i < collected; i++) {
            byte[] key = stepKeys[i];
            Object value = stepValues[i];
            stepKeys[i] = null;
            stepValues[i] = null;
            if (!db.expireIfNeeded(key, nowMs)) {
                visitor.visit(key, value);
            }
        }
        count = 0;
        return next;
    }

    private void collect(byte[] key, Object value) {
        if (count == keys.length) {
            keys = Arrays.copyOf(keys, count * 2);
            values = Arrays.copyOf(values, count * 2);
        }
        keys[count] = key;
        values[count] = value;
        count++;
    }
}
