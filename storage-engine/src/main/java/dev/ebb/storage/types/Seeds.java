package dev.ebb.storage.types;

import java.util.concurrent.ThreadLocalRandom;

/** Hash seeds for the dicts inside aggregate values: each value's table gets its own random seed. */
final class Seeds {
    private Seeds() {
    }

    static long next() {
        return ThreadLocalRandom.current().nextLong();
    }
}
