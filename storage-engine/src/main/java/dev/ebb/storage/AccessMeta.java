package dev.ebb.storage;

/**
 * What a database's 24-bit per-key dict meta records and how it moves: by default the last access time
 * in seconds modulo 2^24 ({@link #lruClock}), as Redis's {@code lru} field; after
 * {@link #configure} with {@code lfu} true an {@link LfuCounter} with Redis's {@code lfu-log-factor} and
 * {@code lfu-decay-time}, as Redis's 24-bit {@code lru} field holds under an LFU policy. Idle times are
 * taken modulo 2^24 too, so they are exact up to 194 days and wrap after that, as in Redis. On a switch
 * existing keys' metas are reinterpreted, not converted, so they take a while to become meaningful, as in
 * Redis. Owns the LFU coin-flip random state. Pure arithmetic on metas; the database
 * reads and writes them. Command-loop thread only, like its {@link Database}.
 */
final class AccessMeta {
    private boolean lfu;
    private int logFactor = 10;
    private int decayMinutes = 1;
    private long randomState;

    AccessMeta(long seed) {
        this.randomState = seed;
    }

    void configure(boolean lfu, int logFactor, int decayMinutes) {
        if (logFactor < 0 || decayMinutes < 0) {
            throw new IllegalArgumentException("LFU parameters must not be negative: logFactor=" + logFactor
                    + ", decayMinutes=" + decayMinutes);
        }
        this.lfu = lfu;
        this.logFactor = logFactor;
        this.decayMinutes = decayMinutes;
    }

    boolean lfu() {
        return lfu;
    }

    /** The meta of a key accessed at {@code nowMs} whose meta was {@code meta}. */
    int accessed(int meta, long nowMs) {
        if (!lfu) {
            return lruClock(nowMs);
        }
        randomState += SipHash.GOLDEN_GAMMA;
        double random = (SipHash.splitMix64(randomState) >>> 11) * 0x1.0p-53;
        return LfuCounter.accessed(meta, nowMs, logFactor, decayMinutes, random);
    }

    /** The meta of a key created at {@code nowMs}. */
    int initial(long nowMs) {
        return lfu ? LfuCounter.initial(nowMs) : lruClock(nowMs);
    }

    /** The meta of a key overwritten at {@code nowMs}: an LFU counter is kept and counts as an access. */
    int overwritten(int oldMetaOrNegative, long nowMs) {
        if (!lfu) {
            return lruClock(nowMs);
        }
        return oldMetaOrNegative < 0 ? LfuCounter.initial(nowMs) : accessed(oldMetaOrNegative, nowMs);
    }

    /** The LFU counter held by {@code meta} after decay at {@code nowMs}. */
    int frequency(int meta, long nowMs) {
        return LfuCounter.decayed(meta, nowMs, decayMinutes);
    }

    /**
     * Redis's objectSetLRUOrLFU: the meta recording {@code lfuFreq} (LFU) or an access
     * {@code lruIdleSeconds} before now (LRU), or -1 when the value for the current mode is negative.
     */
    int fromAccessInfo(long lruIdleSeconds, int lfuFreq, long nowMs) {
        if (lfu) {
            return lfuFreq < 0 ? -1 : LfuCounter.withCounter(Math.min(lfuFreq, LfuCounter.MAX_COUNTER), nowMs);
        }
        if (lruIdleSeconds < 0) {
            return -1;
        }
        long stamp = (lruClock(nowMs) - lruIdleSeconds) % (Dict.META_MASK + 1L);
        return (int) (stamp < 0 ? stamp + Dict.META_MASK + 1L : stamp);
    }

    /** The access-time stamp kept in the dict meta: unix seconds modulo 2^24 (Redis's LRU_CLOCK_MAX + 1). */
    static int lruClock(long nowMs) {
        return (int) (nowMs / 1000) & Dict.META_MASK;
    }

    /** Seconds since the access stamped {@code stamp}, modulo 2^24 as Redis's estimateObjectIdleTime. */
    static int idleSeconds(int stamp, long nowMs) {
        return (lruClock(nowMs) - stamp) & Dict.META_MASK;
    }
}
