package dev.ebb.storage.expiry;

import dev.ebb.storage.Database;
import dev.ebb.storage.LongDict;
import dev.ebb.storage.Values;
import java.util.Arrays;

/**
 * The exact baseline: a binary min-heap of (expiry time, key), so each loop examines the keys
 * that expire first and never a key that is still alive, except the one that ends the loop.
 *
 * <p>Idea: the heap is fed by {@link #expireSet}; entries are not removed when an expiry changes
 * or goes away (that would need a key-to-position index). Instead an entry is checked against
 * {@code expires} when it reaches the top: if the key's current expiry differs (changed,
 * persisted, deleted) the entry is stale and dropped without counting as a sample. A loop pops at
 * most {@code 20 * maxKeys} entries, so a run of stale entries cannot stall it.
 *
 * <p>Costs: O(log n) per expiry set, O(1) per removal, O(log n) per popped entry. Stale entries
 * cost memory (and keep deleted key arrays reachable) until popped, so when they outnumber the
 * live ones (and there are more than {@value #COMPACT_MIN_ENTRIES} entries) the heap is rebuilt
 * from {@code expires} in O(n) — amortized O(1) per change, but a single rebuild of a large heap
 * is a pause that the sampling strategies never have. That pause, the per-key memory (about 12
 * bytes plus slack) and the log-n updates are what this baseline is measured for.
 */
final class ExactExpiry implements ExpiryStrategy {
    static final int COMPACT_MIN_ENTRIES = 1024;
    private static final int INITIAL_CAPACITY = 16;
    private static final long MISSING = Long.MIN_VALUE;

    private long[] whens = new long[INITIAL_CAPACITY];
    private byte[][] keys = new byte[INITIAL_CAPACITY][];
    private int size;
    private boolean inLoop;
    private final LongDict.Visitor rebuildCollector = this::append;

    @Override
    public String name() {
        return ExpiryStrategyKind.EXACT.configName();
    }

    @Override
    public void expireSet(Database db, byte[] key, long whenMs) {
        if (size == whens.length) {
            whens = Arrays.copyOf(whens, size * 2);
            keys = Arrays.copyOf(keys, size * 2);
        }
        whens[size] = whenMs;
        keys[size] = key;
        siftUp(size++);
        compactIfMostlyStale(db);
    }

    @Override
    public void expireRemoved(Database db, byte[] key) {
        compactIfMostlyStale(db);
    }

    @Override
    public void cleared(Database db) {
        reset(INITIAL_CAPACITY);
    }

    @Override
    public void sampleLoop(Database db, int maxKeys, long nowMs, ExpireSample out) {
        LongDict expires = db.expires();
        int maxPops = maxKeys * BucketCursorExpiry.BUCKETS_PER_KEY;
        inLoop = true;
        try {
            for (int pops = 0; out.sampled < maxKeys && size > 0 && pops < maxPops; pops++) {
                byte[] key = keys[0];
                long when = whens[0];
                if (expires.get(key, MISSING) != when) {
                    pop();
                    continue;
                }
                if (nowMs <= when) {
                    out.record(when - nowMs, false);
                    return;
                }
                pop();
                out.record(when - nowMs, db.expireIfNeeded(key, nowMs));
            }
        } finally {
            inLoop = false;
        }
        compactIfMostlyStale(db);
    }

    /** Entries in the heap, stale ones included (tests, telemetry). */
    int heapSize() {
        return size;
    }

    @Override
    public long memoryBytes() {
        return Values.arrayBytes(whens.length, Long.BYTES) + Values.arrayBytes(keys.length, Values.REFERENCE_BYTES);
    }

    private void compactIfMostlyStale(Database db) {
        if (inLoop) {
            return;
        }
        int live = db.expiresSize();
        if (live == 0) {
            if (size > 0) {
                reset(INITIAL_CAPACITY);
            }
            return;
        }
        if (size <= COMPACT_MIN_ENTRIES || size - live <= live) {
            return;
        }
        reset(Math.max(INITIAL_CAPACITY, live + (live >> 1)));
        db.expires().forEach(rebuildCollector);
        for (int i = (size >>> 1) - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    private void reset(int capacity) {
        whens = new long[capacity];
        keys = new byte[capacity][];
        size = 0;
    }

    private void append(byte[] key, long whenMs) {
        whens[size] = whenMs;
        keys[size] = key;
        size++;
    }

    private void pop() {
        int last = --size;
        whens[0] = whens[last];
        keys[0] = keys[last];
        keys[last] = null;
        if (last > 0) {
            siftDown(0);
        }
    }

    private void siftUp(int i) {
        long when = whens[i];
        byte[] key = keys[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (whens[parent] <= when) {
                break;
            }
            whens[i] = whens[parent];
            keys[i] = keys[parent];
            i = parent;
        }
        whens[i] = when;
        keys[i] = key;
    }

    private void siftDown(int i) {
        long when = whens[i];
        byte[] key = keys[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && whens[right] < whens[child]) {
                child = right;
            }
            if (when <= whens[child]) {
                break;
            }
            whens[i] = whens[child];
            keys[i] = keys[child];
            i = child;
        }
        whens[i] = when;
        keys[i] = key;
    }
}
