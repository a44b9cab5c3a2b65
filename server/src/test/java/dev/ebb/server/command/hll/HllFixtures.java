package dev.ebb.server.command.hll;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * HLL values recorded from redis-server 7.2.4 (src/test/resources/hll): GET after PFADD of
 * {@code element:0 … element:N-1}, 500 elements per PFADD, hll-sparse-max-bytes 3000, no PFCOUNT
 * (so the cache is marked invalid). PFCOUNT answered 997 for the sparse one and 19986 for the dense.
 */
final class HllFixtures {
    static final String SPARSE_1000 = "redis-7.2.4-sparse-1000.bin";
    static final long SPARSE_1000_COUNT = 997;
    static final String DENSE_20000 = "redis-7.2.4-dense-20000.bin";
    static final long DENSE_20000_COUNT = 19986;

    private HllFixtures() {
    }

    static byte[] load(String name) {
        try (InputStream in = HllFixtures.class.getResourceAsStream("/hll/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource /hll/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fixtures' element {@code i}. */
    static byte[] element(int i) {
        return ("element:" + i).getBytes(StandardCharsets.US_ASCII);
    }

    /** A sketch given elements 0..n-1, as the fixtures were built. */
    static HllSketch built(int n, long sparseMaxBytes) {
        HllSketch hll = HllSketch.create(sparseMaxBytes);
        for (int i = 0; i < n; i++) {
            hll.add(element(i));
        }
        hll.invalidateCache();
        return hll;
    }
}
