package dev.ebb.storage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** The reference model for the property tests: a {@code HashMap} plus a list for picking present keys at random. */
final class KeyModel {

    final Map<ByteKey, Long> values = new HashMap<>();
    private final List<ByteKey> present = new ArrayList<>();
    private final Map<ByteKey, Integer> positions = new HashMap<>();

    Long put(final byte[] key, final long value) {
        final ByteKey wrapped = new ByteKey(key);
        final Long previous = values.put(wrapped, value);
        if (previous == null) {
            positions.put(wrapped, present.size());
            present.add(wrapped);
        }
        return previous;
    }

    Long remove(final byte[] key) {
        final ByteKey wrapped = new ByteKey(key);
        final Long previous = values.remove(wrapped);
        if (previous != null) {
            final int position = positions.remove(wrapped);
            final ByteKey last = present.remove(present.size() - 1);
            if (position < present.size()) {
                present.set(position, last);
                positions.put(last, position);
            }
        }
        return previous;
    }

    Long get(final byte[] key) {
        return values.get(new ByteKey(key));
    }

    int size() {
        return values.size();
    }

    /** A present key chosen uniformly; the model must not be empty. */
    byte[] randomPresentKey(final SplittableRandom random) {
        return present.get(random.nextInt(present.size())).bytes;
    }
}
