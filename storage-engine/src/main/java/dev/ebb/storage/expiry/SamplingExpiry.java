package dev.ebb.storage.expiry;

import dev.ebb.storage.Database;
import dev.ebb.storage.LongDict;

/**
 * Redis's classic active expiry sampler: each loop draws {@code min(maxKeys, size)} random keys of
 * {@code expires} ({@link LongDict#randomHandle()}, O(1) expected each) and deletes the expired
 * ones. A key may be drawn twice in one loop, as with Redis's dictGetRandomKey; the bias of the
 * dict's random slot walk carries over. Keeps no state of its own, so the change hooks are no-ops.
 */
final class SamplingExpiry implements ExpiryStrategy {

    @Override
    public String name() {
        return ExpiryStrategyKind.SAMPLING.configName();
    }

    @Override
    public void expireSet(Database db, byte[] key, long whenMs) {
        // Samples expires directly; nothing to index.
    }

    @Override
    public void expireRemoved(Database db, byte[] key) {
        // Samples expires directly; nothing to index.
    }

    @Override
    public void cleared(Database db) {
        // No state.
    }

    @Override
    public void sampleLoop(Database db, int maxKeys, long nowMs, ExpireSample out) {
        LongDict expires = db.expires();
        int n = Math.min(maxKeys, expires.size());
        for (int i = 0; i < n; i++) {
            int h = expires.randomHandle();
            if (h < 0) {
                return;
            }
            byte[] key = expires.keyAt(h);
            long when = expires.valueAt(h);
            boolean expired = nowMs > when && db.expireIfNeeded(key, nowMs);
            out.record(when - nowMs, expired);
        }
    }

    @Override
    public long memoryBytes() {
        return 0;
    }
}
