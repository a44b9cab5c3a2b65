package dev.ebb.bench.expiry;

import dev.ebb.storage.types.HashValue;

/**
 * Memory per volatile hash field, from {@link HashValue#memoryBytes()} (the estimate MEMORY USAGE
 * and maxmemory use): hashes of {@code n} fields ("field:i", 32-byte values) without TTLs, with
 * every field volatile, and with half of them volatile, in the compact layout (100 fields) and the
 * hashtable (10,000 and 1,000,000). Deterministic; prints one CSV row per case.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.ebb.bench.expiry.HashFieldMemory}.
 */
public final class HashFieldMemory {
    private HashFieldMemory() {
    }

    public static void main(String[] args) {
        System.out.println("fields,encoding,bytes_no_ttl,bytes_all_volatile,bytes_half_volatile,"
                + "per_volatile_field_all,per_volatile_field_half");
        for (int n : new int[] {100, 10_000, 1_000_000}) {
            long plain = build(n, 0).memoryBytes();
            HashValue all = build(n, n);
            long half = build(n, n / 2).memoryBytes();
            System.out.printf("%d,%s,%d,%d,%d,%.1f,%.1f%n", n, all.encodingName(), plain, all.memoryBytes(), half,
                    (all.memoryBytes() - plain) / (double) n, (half - plain) / (double) (n / 2));
        }
    }

    private static HashValue build(int n, int volatileFields) {
        HashValue h = new HashValue();
        byte[] value = new byte[32];
        for (int i = 0; i < n; i++) {
            byte[] field = HashFieldExpiryBenchmarks.field(i);
            if (i < volatileFields) {
                h.putWithExpiry(field, value, 1_800_000_000_000L + i, 128, 64);
            } else {
                h.put(field, value, 128, 64);
            }
        }
        return h;
    }
}
