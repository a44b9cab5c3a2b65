package dev.ebb.server.command;

import dev.ebb.server.Client;
import dev.ebb.server.MemoryGuard;
import dev.ebb.server.config.MaxmemoryPolicy;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.storage.types.RawString;
import dev.ebb.storage.types.UnsharedString;

/**
 * Reading, storing and growing string values. A string value is a plain {@code byte[]} of exactly
 * its length (SET, INCR … store those), a {@link RawString} with spare capacity (APPEND, SETRANGE,
 * SETBIT, BITOP and BITFIELD store those, as Redis's "raw" sds), or an {@link UnsharedString} (an
 * integer Redis would not share, or INCRBYFLOAT's integral text); readers go through
 * {@link #array} and {@link #length} and never assume one or the other.
 *
 * <p>The storing routines ({@link #stored}, {@link #fromLong}, {@link #fromFloatText},
 * {@link #duplicate}) pick the form that makes OBJECT ENCODING and OBJECT REFCOUNT answer as Redis
 * 7.2 would for the same history: a {@code byte[]} holding a canonical integer in 0..9999 stands
 * for one of Redis's shared integers, which it hands out only while sharing is allowed
 * ({@link #sharesIntegers}).
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
    /** Redis shares one object for each integer string in [0, 10000) (OBJ_SHARED_INTEGERS). */
    private static final long SHARED_INTEGERS = 10_000;

    private Strings() {
    }

    /** Whether a stored value is a string. */
    static boolean isString(Object v) {
        return v instanceof byte[] || v instanceof RawString || v instanceof UnsharedString;
    }

    /** The string's length in bytes; 0 for null (a missing key reads as the empty string). */
    static int length(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof RawString) {
            return ((RawString) v).length();
        }
        return v instanceof UnsharedString ? ((UnsharedString) v).bytes().length : ((byte[]) v).length;
    }

    /**
     * The array holding the string in its first {@link #length} bytes (more bytes may follow); an
     * empty array for null. Read only: never write into it.
     */
    static byte[] array(Object v) {
        if (v == null) {
            return EMPTY;
        }
        if (v instanceof RawString) {
            return ((RawString) v).bytes();
        }
        return v instanceof UnsharedString ? ((UnsharedString) v).bytes() : (byte[]) v;
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
     * The form in which SET, MSET, GETSET, APPEND to a new key … store {@code value} (Redis's
     * tryObjectEncoding): the array itself, except a shared-range integer while sharing is not
     * allowed, which becomes an unshared int. O(1).
     */
    static Object stored(Client c, byte[] value) {
        if (!sharesIntegers(c.server().config()) && isSharedRange(value)) {
            return new UnsharedString(value, true);
        }
        return value;
    }

    /** The form in which INCR, DECR, INCRBY and DECRBY store their result: always "int". */
    static Object fromLong(Client c, long v) {
        byte[] text = StringCommands.decimalBytes(v);
        if (v >= 0 && v < SHARED_INTEGERS && !sharesIntegers(c.server().config())) {
            return new UnsharedString(text, true);
        }
        return text;
    }

    /**
     * The form in which INCRBYFLOAT stores the text it printed: Redis keeps that text as a string
     * ("embstr" when short), never as an integer, even when it reads as one ("3").
     */
    static Object fromFloatText(byte[] text) {
        return Types.readsAsInteger(text) ? new UnsharedString(text, false) : text;
    }

    /**
     * A duplicate of a stored string for COPY, as Redis's dupStringObject: same encoding, never
     * shared (an integer copy has reference count 1), sharing no spare capacity with the source.
     */
    static Object duplicate(Object v) {
        if (v instanceof RawString) {
            return ((RawString) v).copy();
        }
        if (v instanceof byte[] && isSharedRange((byte[]) v)) {
            return new UnsharedString((byte[]) v, true);
        }
        return v;
    }

    /** The string as a raw (edited) string, as Redis's dbUnshareStringValue leaves it. */
    static RawString raw(Object v) {
        if (v instanceof RawString) {
            return (RawString) v;
        }
        byte[] exact = exact(v);
        return new RawString(exact == array(v) ? exact.clone() : exact, exact.length);
    }

    /** Whether {@code v} is one of Redis's shared integer objects (OBJECT REFCOUNT 2147483647). */
    static boolean isSharedInteger(Object v) {
        return v instanceof byte[] && isSharedRange((byte[]) v);
    }

    /**
     * Whether new integers in 0..9999 may be Redis's shared objects: not while a maxmemory limit is
     * set with an LRU or LFU policy, which need a per-key access time (MAXMEMORY_FLAG_NO_SHARED_INTEGERS).
     */
    static boolean sharesIntegers(ServerConfig config) {
        MaxmemoryPolicy p = config.maxmemoryPolicy();
        boolean perKeyAccess = p == MaxmemoryPolicy.ALLKEYS_LRU || p == MaxmemoryPolicy.VOLATILE_LRU
                || p == MaxmemoryPolicy.ALLKEYS_LFU || p == MaxmemoryPolicy.VOLATILE_LFU;
        return config.maxmemory() == 0 || !perKeyAccess;
    }

    /** Whether {@code text} is a canonical integer in [0, 10000). */
    private static boolean isSharedRange(byte[] text) {
        if (!Types.readsAsInteger(text)) {
            return false;
        }
        long n = Arguments.parseLong(text);
        return n >= 0 && n < SHARED_INTEGERS;
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
