package dev.ebb.server.config;

/** {@code maxmemory-policy}: which keys to evict when {@code maxmemory} is reached, in Redis's order. */
public enum MaxmemoryPolicy implements ConfigEnum {
    /** Approximated LRU among keys with an expire set. */
    VOLATILE_LRU("volatile-lru"),
    /** Approximated LFU among keys with an expire set. */
    VOLATILE_LFU("volatile-lfu"),
    /** A random key among those with an expire set. */
    VOLATILE_RANDOM("volatile-random"),
    /** The key with the nearest expire time. */
    VOLATILE_TTL("volatile-ttl"),
    /** Approximated LRU among all keys. */
    ALLKEYS_LRU("allkeys-lru"),
    /** Approximated LFU among all keys. */
    ALLKEYS_LFU("allkeys-lfu"),
    /** A random key among all keys. */
    ALLKEYS_RANDOM("allkeys-random"),
    /** Evict nothing; writes that need memory fail with an OOM error. */
    NOEVICTION("noeviction");

    private final String configName;

    MaxmemoryPolicy(String configName) {
        this.configName = configName;
    }

    @Override
    public String configName() {
        return configName;
    }
}
