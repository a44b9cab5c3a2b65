package dev.ebb.storage;

import java.util.function.ToLongFunction;

/**
 * The keyspace's seeded {@link SipHash}, reachable from the benchmarks (which live in another package) so
 * that a {@code HashMap} baseline can pay for the same hash-flooding resistance as the {@link Dict}. Part of
 * the benchmarks jar only: the storage engine keeps {@link SipHash} package-private.
 */
public final class KeyedHashes {

    private KeyedHashes() {
    }

    /**
     * SipHash-1-2 keyed by {@code seed}, as a {@link Dict} created with that seed hashes its keys.
     *
     * @param seed the seed
     * @return the hash function; thread-safe
     */
    public static ToLongFunction<byte[]> sipHash(final long seed) {
        return new SipHash(seed)::hash;
    }
}
