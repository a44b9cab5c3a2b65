package dev.ebb.storage.types;

import java.util.Arrays;

/**
 * A binary min-heap of (expiry, field) for a large hash's volatile fields, so the hash knows its
 * earliest field expiry exactly and can expire its due fields in bounded steps, earliest first.
 *
 * <p><b>Lazy deletion.</b> An entry is not removed when its field's TTL changes or the field is
 * deleted; the owner checks an entry against the field's current TTL when it reaches the top
 * ({@link HashValue} drops it there). Stale entries are counted by the owner, which calls
 * {@link #rebuild} when they outnumber the live ones, so the heap stays at most about twice the
 * number of volatile fields.
 *
 * <p>Costs: {@link #push} and {@link #pop} O(log n); {@link #rebuild} O(n). Memory: 12 bytes an
 * entry (a {@code long} and a reference) plus the arrays' slack. Not thread-safe.
 */
final class FieldExpiryHeap {
    private static final int INITIAL_CAPACITY = 16;

    private long[] whens = new long[INITIAL_CAPACITY];
    private byte[][] fields = new byte[INITIAL_CAPACITY][];
    private int size;

    int size() {
        return size;
    }

    long topWhen() {
        return whens[0];
    }

    byte[] topField() {
        return fields[0];
    }

    void push(long when, byte[] field) {
        if (size == whens.length) {
            whens = Arrays.copyOf(whens, size * 2);
            fields = Arrays.copyOf(fields, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (whens[parent] <= when) {
                break;
            }
            whens[i] = whens[parent];
            fields[i] = fields[parent];
            i = parent;
        }
        whens[i] = when;
        fields[i] = field;
    }

    void pop() {
        int last = --size;
        long when = whens[last];
        byte[] field = fields[last];
        fields[last] = null;
        if (last > 0) {
            siftDown(0, when, field);
        }
    }

    private void siftDown(int i, long when, byte[] field) {
        int n = size;
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && whens[child + 1] < whens[child]) {
                child++;
            }
            if (whens[child] >= when) {
                break;
            }
            whens[i] = whens[child];
            fields[i] = fields[child];
            i = child;
        }
        whens[i] = when;
        fields[i] = field;
    }

    /** Keeps only the entries {@code live} accepts and restores the heap order, O(n). */
    void rebuild(EntryFilter live) {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (live.keep(whens[i], fields[i])) {
                whens[kept] = whens[i];
                fields[kept] = fields[i];
                kept++;
            }
        }
        Arrays.fill(fields, kept, size, null);
        size = kept;
        int capacity = Math.max(INITIAL_CAPACITY, Integer.highestOneBit(Math.max(1, kept)) * 2);
        if (capacity < whens.length / 2) {
            whens = Arrays.copyOf(whens, capacity);
            fields = Arrays.copyOf(fields, capacity);
        }
        for (int i = (size >>> 1) - 1; i >= 0; i--) {
            siftDown(i, whens[i], fields[i]);
        }
    }

    long memoryBytes() {
        return 2L * 16 + (long) whens.length * Long.BYTES + (long) fields.length * 4;
    }

    /** Decides which entries {@link #rebuild} keeps. */
    @FunctionalInterface
    interface EntryFilter {
        boolean keep(long when, byte[] field);
    }
}
