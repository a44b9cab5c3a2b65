package dev.ebb.server.command;

import dev.ebb.server.Client;
import dev.ebb.server.MemoryGuard;
import dev.ebb.storage.types.RawString;

/**
 * Reading and growing stored string values. A string value is either a plain {@code byte[]} of
 * exactly its length (SET, INCR … store those) or a {@link RawString} with spare capacity (APPEND,
 * SETRANGE and SETBIT store those, as Redis's "raw" sds); readers go through {@link #array} and
 * {@link #length} and never assume one or the other.
 *
 * <p>The growing routines keep {@link RawString}'s invariant: bytes already stored are never
 * written; appending goes into spare capacity, and any change to existing bytes is made in a fresh
 * array. Fresh arrays come from {@link MemoryGuard#tryAllocate}, so a string the heap cannot hold
 * is refused with OOM instead of raising OutOfMemoryError; greedy capacity is given up before that.
 *
 * <p>Stateless; loop thread only (it touches stored values).
 */
final class Strings {
    private static final byte[] EMPTY = new byte[0];

    private Strings() {
    }

    /** Whether a stored value is a string. */
    static boolean isString(Object v) {
        return v instanceof byte[] || v instanceof RawString;
    }

    /** The string's length in bytes; 0 for null (a missing key reads as the empty string). */
    static int length(Object v) {
        if (v == null) {
            return 0;
        }
        return v instanceof RawString ? ((RawString) v).length() : ((byte[]) v).length;
    }

    /**
     * The array holding the string in its first {@link #length} bytes (more bytes may follow); an
     * empty array for null. Read only: never write into it.
     */
    static byte[] array(Object v) {
        if (v == null) {
            return EMPTY;
        }
        return v instanceof RawString ? ((RawString) v).bytes() : (byte[]) v;
    }

    /**
     * The string as an array of exactly its length: the stored array itself when it is one, else a
     * copy (O(length)). For readers that need {@code array.length} to be the length.
     */
    static byte[] exact(Object v) {
        byte[] a = array(v);
        int n = length(v);
        return a.length == n ? a : java.util.Arrays.copyOf(a, n);
    }

    /**
     * Replies the string as a bulk string, straight from the stored array (a large one by reference,
     * which the invariant that stored bytes never change makes safe); nil for null.
     */
    static void reply(Client c, Object v) {
        if (v == null) {
            c.reply().nullBulk();
        } else {
            c.reply().bulkRef(array(v), 0, length(v));
        }
    }

    /**
     * APPEND's new value: {@code current} (null for none) followed by {@code tail}, in the spare
     * capacity when it fits, else in a fresh array with greedy capacity. Null after replying OOM.
     * The caller has checked the length limit.
     */
    static RawString appendOrReply(Client c, Object current, byte[] tail) {
        if (current instanceof RawString && ((RawString) current).spare() >= tail.length) {
            return ((RawString) current).appendInPlace(tail);
        }
        int length = length(current);
        int newLength = length + tail.length;
        byte[] grown = allocateOrReply(c, RawString.greedyCapacity(newLength), newLength);
        if (grown == null) {
            return null;
        }
        System.arraycopy(array(current), 0, grown, 0, length);
        System.arraycopy(tail, 0, grown, length, tail.length);
        return new RawString(grown, newLength);
    }

    /**
     * SETRANGE's (and SETBIT's) new value: {@code current} (null for none) with {@code patch} written
     * at {@code offset}, zero-padded up to it. Writing at or past the end extends the string in its
     * spare capacity when it fits; anything else writes into a fresh array (with greedy capacity if
     * the string grows, as Redis's sdsgrowzero; exact for a new key, as Redis's sdsnewlen). Null
     * after replying OOM. The caller has checked the length limit.
     */
    static RawString setRangeOrReply(Client c, Object current, int offset, byte[] patch) {
        int length = length(current);
        int end = offset + patch.length;
        if (current instanceof RawString && offset >= length && end <= ((RawString) current).bytes().length) {
            return ((RawString) current).extendInPlace(offset).appendInPlace(patch);
        }
        int newLength = Math.max(length, end);
        int capacity = current == null ? newLength
                : newLength > length ? RawString.greedyCapacity(newLength) : array(current).length;
        byte[] fresh = allocateOrReply(c, capacity, newLength);
        if (fresh == null) {
            return null;
        }
        System.arraycopy(array(current), 0, fresh, 0, length);
        System.arraycopy(patch, 0, fresh, offset, patch.length);
        return new RawString(fresh, newLength);
    }

    /**
     * A zeroed array of {@code capacity} bytes if the heap can take it, else of {@code minimum}
     * bytes; null after replying OOM when not even that fits.
     */
    private static byte[] allocateOrReply(Client c, int capacity, int minimum) {
        byte[] array = MemoryGuard.tryAllocate(capacity);
        if (array == null && minimum < capacity) {
            array = MemoryGuard.tryAllocate(minimum);
        }
        if (array == null) {
            c.reply().error(Errors.OOM);
        }
        return array;
    }
}
