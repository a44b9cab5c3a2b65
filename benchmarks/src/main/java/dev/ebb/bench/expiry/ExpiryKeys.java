package dev.ebb.bench.expiry;

import dev.ebb.storage.Database;
import dev.ebb.storage.NanoClock;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Keys, values, times and database set-up shared by the expiry benchmarks. Keys are
 * {@code "key:" + n} (5 to 12 bytes) and every value is one shared 32-byte array, as in
 * {@code DictBenchmark}, so the figures measure the keyspace rather than value allocation.
 * Time stands still at {@link #NOW_MS}: a live key expires in 5 to 6 minutes, an expired one
 * expired 1 to 61 seconds ago.
 */
final class ExpiryKeys {
    /** The benchmarks' fixed unix time in ms (2023-11-14), passed to every database call. */
    static final long NOW_MS = 1_700_000_000_000L;
    /** The common jittered TTL pattern: 300 s plus up to 60 s. */
    static final long LIVE_TTL_MS = 300_000;
    static final int TTL_JITTER_MS = 60_000;
    /** Probe keys cycled through: enough to defeat the caches, few enough to keep the heap small. */
    static final int MAX_PROBES = 1 << 20;

    static final byte[] VALUE = new byte[32];
    private static final byte[] PREFIX = "key:".getBytes(StandardCharsets.US_ASCII);

    private ExpiryKeys() {
    }

    static byte[] key(int n) {
        return ("key:" + n).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The {@code n} of a key made by {@link #key}: lets an expiry listener find the expiry time it
     * needs to restore a key. O(key length), no allocation.
     */
    static int idOf(byte[] key) {
        int n = 0;
        for (int i = PREFIX.length; i < key.length; i++) {
            n = n * 10 + (key[i] - '0');
        }
        return n;
    }

    /**
     * {@code min(size, MAX_PROBES)} fresh key arrays (equal in content to stored keys, not the same
     * instances, as a server gets them from the wire), of ids chosen by {@code idPicker}, in random
     * order.
     */
    static byte[][] probes(int size, long seed, IdPicker idPicker) {
        int count = Math.min(size, MAX_PROBES);
        byte[][] probes = new byte[count][];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < count; i++) {
            probes[i] = key(idPicker.pick(random));
        }
        return probes;
    }

    /** A live expiry time, {@code NOW + 300 s + rand(60 s)}. */
    static long liveWhen(SplittableRandom random) {
        return NOW_MS + LIVE_TTL_MS + random.nextInt(TTL_JITTER_MS);
    }

    /** An expiry time that has passed, 1 to 61 s ago. */
    static long expiredWhen(SplittableRandom random) {
        return NOW_MS - 1000 - random.nextInt(TTL_JITTER_MS);
    }

    /** Finishes any incremental resize of both dicts, so a benchmark starts from a table at rest. */
    static void finishRehash(Database db) {
        while (db.rehashFor(Long.MAX_VALUE / 4, NanoClock.SYSTEM) > 0) {
            // Each call migrates until done or out of budget; the budget is effectively unlimited.
        }
    }

    /** Chooses a key id for a probe. */
    @FunctionalInterface
    interface IdPicker {
        int pick(SplittableRandom random);
    }
}
