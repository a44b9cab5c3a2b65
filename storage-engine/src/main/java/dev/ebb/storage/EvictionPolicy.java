package dev.ebb.storage;

/**
 * Which keys {@link Evictor} removes when memory is over the limit ({@code maxmemory-policy}).
 * The storage engine's own copy of the names, so that it needs nothing from the server's config.
 */
public enum EvictionPolicy {
    VOLATILE_LRU(true, Kind.LRU),
    VOLATILE_LFU(true, Kind.LFU),
    VOLATILE_RANDOM(true, Kind.RANDOM),
    VOLATILE_TTL(true, Kind.TTL),
    ALLKEYS_LRU(false, Kind.LRU),
    ALLKEYS_LFU(false, Kind.LFU),
    ALLKEYS_RANDOM(false, Kind.RANDOM),
    NOEVICTION(false, Kind.NONE);

    /** How candidates are ranked. */
    enum Kind { LRU, LFU, RANDOM, TTL, NONE }

    private final boolean volatileOnly;
    private final Kind kind;

    EvictionPolicy(boolean volatileOnly, Kind kind) {
        this.volatileOnly = volatileOnly;
        this.kind = kind;
    }

    /** Whether only keys with a time to live are candidates. */
    public boolean volatileOnly() {
        return volatileOnly;
    }

    /** Whether keys keep an LFU counter (rather than an access time) in their meta under this policy. */
    public boolean usesLfu() {
        return kind == Kind.LFU;
    }

    Kind kind() {
        return kind;
    }
}
