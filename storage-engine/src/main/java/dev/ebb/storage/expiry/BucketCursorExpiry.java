package dev.ebb.storage.expiry;

import dev.ebb.storage.Database;
import dev.ebb.storage.LongDict;
import java.util.Arrays;

/**
 * Redis 6+'s active expiry sampler: instead of random keys, each loop walks {@code expires} from
 * a cursor kept per database, one scan step (one home bucket) at a time, examining every key of
 * each bucket, until it has examined {@code maxKeys} keys or visited {@code 20 * maxKeys}
 * buckets. The cursor is the dict's reverse-binary scan cursor, so the walk survives resizes and
 * over successive cycles reaches every volatile key, unlike random sampling which can keep
 * missing a few. A loop over a sparse table may examine no key at all (the cycle then repeats,
 * as in Redis).
 *
 * <p>Each scan step's keys are buffered and examined after the step, so deleting them never
 * disturbs the dict walk. The buffers grow to the largest bucket run met and are reused.
 */
final class BucketCursorExpiry implements ExpiryStrategy {
    /** Buckets visited per loop at most, per key wanted (Redis: {@code max_buckets = num*20}). */
    static final int BUCKETS_PER_KEY = 20;
    private static final int BUFFER_INITIAL = 16;

    private long cursor;
    private byte[][] stepKeys = new byte[BUFFER_INITIAL][];
    private long[] stepWhens = new long[BUFFER_INITIAL];
    private int stepCount;
    private final LongDict.Visitor collector = this::collect;

    @Override
    public String name() {
        return ExpiryStrategyKind.BUCKET_CURSOR.configName();
    }

    @Override
    public void expireSet(Database db, byte[] key, long whenMs) {
        // Walks expires directly; nothing to index.
    }

    @Override
    public void expireRemoved(Database db, byte[] key) {
        // Walks expires directly; nothing to index.
    }

    @Override
    public void cleared(Database db) {
        cursor = 0;
    }

    @Override
    public void sampleLoop(Database db, int maxKeys, long nowMs, ExpireSample out) {
        LongDict expires = db.expires();
        int wanted = Math.min(maxKeys, expires.size());
        long maxBuckets = (long) wanted * BUCKETS_PER_KEY;
        long buckets = 0;
        while (out.sampled < wanted && buckets < maxBuckets) {
            stepCount = 0;
            cursor = expires.scan(cursor, collector);
            buckets++;
            int count = stepCount;
            for (int i = 0; i < count; i++) {
                byte[] key = stepKeys[i];
                long when = stepWhens[i];
                stepKeys[i] = null;
                boolean expired = nowMs > when && db.expireIfNeeded(key, nowMs);
                out.record(when - nowMs, expired);
            }
        }
    }

    private void collect(byte[] key, long whenMs) {
        if (stepCount == stepKeys.length) {
            stepKeys = Arrays.copyOf(stepKeys, stepCount * 2);
            stepWhens = Arrays.copyOf(stepWhens, stepCount * 2);
        }
        stepKeys[stepCount] = key;
        stepWhens[stepCount] = whenMs;
        stepCount++;
    }

    /** The cursor the next loop starts from (tests, telemetry). */
    long cursor() {
        return cursor;
    }

    @Override
    public long memoryBytes() {
        return 0;
    }
}
