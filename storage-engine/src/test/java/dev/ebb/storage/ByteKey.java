package dev.ebb.storage;

import java.util.Arrays;

/**
 * A {@code byte[]} compared by content, for {@code HashMap}-based models of the dicts in tests. The hash code
 * covers the length and at most the first and last 64 bytes, so 1 MB keys stay cheap to look up.
 */
final class ByteKey {

    final byte[] bytes;
    private final int hash;

    ByteKey(final byte[] bytes) {
        this.bytes = bytes;
        final int edge = Math.min(64, bytes.length);
        this.hash = 31 * (31 * bytes.length + Arrays.hashCode(Arrays.copyOf(bytes, edge)))
            + Arrays.hashCode(Arrays.copyOfRange(bytes, bytes.length - edge, bytes.length));
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof ByteKey && hash == ((ByteKey) other).hash
            && Arrays.equals(bytes, ((ByteKey) other).bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return bytes.length > 32 ? "ByteKey[" + bytes.length + " bytes]" : "ByteKey" + Arrays.toString(bytes);
    }
}
