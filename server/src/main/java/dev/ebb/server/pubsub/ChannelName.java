package dev.ebb.server.pubsub;

import java.util.Arrays;

/**
 * A channel or pattern name as a hash key: the bytes with their hash computed once. Names are
 * binary-safe, so they stay {@code byte[]}, never {@code String}.
 *
 * <p>Not thread-safe in its probe form ({@link #probe}): the command loop reuses one mutable
 * instance for lookups so that PUBLISH allocates no key; stored instances are never changed.
 */
final class ChannelName {
    private byte[] bytes;
    private int hash;

    ChannelName(byte[] bytes) {
        set(bytes);
    }

    /** Re-points a lookup probe at {@code name}; only for the loop's own reusable probe. */
    ChannelName probe(byte[] name) {
        set(name);
        return this;
    }

    private void set(byte[] name) {
        this.bytes = name;
        this.hash = Arrays.hashCode(name);
    }

    byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChannelName && hash == ((ChannelName) o).hash && Arrays.equals(bytes, ((ChannelName) o).bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
