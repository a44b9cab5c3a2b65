package dev.ebb.storage.types;

import dev.ebb.storage.MemoryEstimated;
import dev.ebb.storage.Values;

/**
 * A string whose encoding Redis would not derive from its bytes alone. A plain {@code byte[]}
 * reports what SET gives its bytes (a canonical 64-bit integer is "int", and one in 0..9999 one of
 * Redis's shared objects); two other histories keep the same bytes differently in Redis, and this
 * class marks them:
 *
 * <ul>
 *   <li>{@linkplain #isIntEncoded() int-encoded} but not shared (reference count 1): a copy of an
 *       integer (COPY), or an integer stored while a maxmemory limit with an LRU or LFU policy
 *       forbids shared integers;</li>
 *   <li>not int-encoded although the text reads as an integer: INCRBYFLOAT's integral results,
 *       which Redis keeps as the plain ("embstr") string it printed.</li>
 * </ul>
 *
 * <p>Immutable (the array is taken over and never written), so a copy may share this object.
 * Memory: the object (16 bytes) plus its array. Thread safety: immutable, but as every stored
 * value it is used by the loop thread only.
 */
public final class UnsharedString implements MemoryEstimated {
    /** Header (12) + array reference (4); the boolean fits in the alignment slack. */
    private static final long OBJECT_BYTES = 16;

    private final byte[] bytes;
    private final boolean intEncoded;

    /** Wraps {@code bytes} (taken over, not copied), the whole array being the string. */
    public UnsharedString(byte[] bytes, boolean intEncoded) {
        this.bytes = bytes;
        this.intEncoded = intEncoded;
    }

    /** The string, exactly its length. Read only. */
    public byte[] bytes() {
        return bytes;
    }

    /** Whether Redis holds this string as an integer ("int") rather than as text. */
    public boolean isIntEncoded() {
        return intEncoded;
    }

    @Override
    public long memoryBytes() {
        return OBJECT_BYTES + Values.byteArrayBytes(bytes.length);
    }
}
