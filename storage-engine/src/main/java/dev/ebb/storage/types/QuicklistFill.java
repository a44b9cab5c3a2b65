package dev.ebb.storage.types;

/**
 * The node limits of {@code list-max-listpack-size} (Redis's quicklist fill): negative values
 * are a size class of 4, 8, 16, 32 or 64 KB per node, positive values a count of entries per node
 * (with an 8 KB safety limit on the size), as quicklist.c's quicklistNodeExceedsLimit. Stateless;
 * thread-safe.
 */
final class QuicklistFill {
    private static final int SIZE_SAFETY_LIMIT = 8192;
    private static final long[] OPTIMIZATION_LEVEL = {4096, 8192, 16384, 32768, 65536};

    private QuicklistFill() {
    }

    /** Size limit of one node for {@code fill} (quicklistNodeLimit), or -1 when the limit is a count. */
    static long sizeLimit(int fill) {
        return fill >= 0 ? -1 : OPTIMIZATION_LEVEL[Math.min(-fill - 1, OPTIMIZATION_LEVEL.length - 1)];
    }

    /** Count limit of one node for {@code fill}, or -1 when the limit is a size. */
    static long countLimit(int fill) {
        return fill < 0 ? -1 : fill == 0 ? 1 : fill;
    }

    /** Whether a node of {@code newBytes} listpack bytes and {@code newCount} entries is past {@code fill}'s limit. */
    static boolean exceedsLimit(int fill, long newBytes, long newCount) {
        long limit = sizeLimit(fill);
        if (limit >= 0) {
            return newBytes > limit;
        }
        return newBytes > SIZE_SAFETY_LIMIT || newCount > countLimit(fill);
    }
}
