package dev.ebb.storage.types;

import dev.ebb.storage.Dict;
import dev.ebb.storage.MemoryEstimated;
import dev.ebb.storage.Values;
import java.util.Arrays;

/**
 * A Redis hash: binary-safe fields to binary-safe values, in one of Redis's two encodings.
 *
 * <p><b>listpack</b> (compact): fields and values alternate in one packed {@code byte[][]}
 * ({@code field0, value0, field1, value1 …}) in insertion order; look-ups walk it, O(n), which for
 * the at most {@code hash-max-listpack-entries} (128) pairs is a few cache lines of references.
 * <b>hashtable</b>: a {@link Dict} from field to value, O(1) expected per operation.
 *
 * <p>A hash starts compact and converts, once and for good as in Redis, when it would hold more
 * than {@code maxEntries} pairs or a field or value longer than {@code maxValueBytes}; the
 * thresholds are passed on each write so CONFIG SET takes effect for later writes.
 *
 * <p><b>Memory.</b> {@link #memoryBytes()} is O(1): the object, the packed array or the dict's
 * slot arrays, and the field and value arrays, kept as a running sum.
 *
 * <p>Not thread-safe: owned by the command loop thread like the rest of the keyspace.
 */
public final class HashValue implements MemoryEstimated {
    private static final long OBJECT_BYTES = 32;
    private static final int INITIAL_PAIRS = 4;

    private byte[][] packed = new byte[INITIAL_PAIRS * 2][];
    private int packedPairs;
    private Dict<byte[]> table;
    private long payloadBytes;

    /** Whether the hash is in the compact ({@code listpack}) encoding. */
    public boolean isCompact() {
        return table == null;
    }

    /** Number of fields. O(1). */
    public int size() {
        return table == null ? packedPairs : table.size();
    }

    /** The value of {@code field}, or null. O(n) compact, O(1) expected large. */
    public byte[] get(byte[] field) {
        if (table != null) {
            return table.get(field);
        }
        int i = indexOf(field);
        return i < 0 ? null : packed[i + 1];
    }

    /**
     * Sets {@code field} to {@code value}, converting to the hashtable encoding first if the hash
     * would cross a threshold. The arrays are stored as given: callers must not modify them later.
     *
     * @return true if the field is new
     */
    public boolean put(byte[] field, byte[] value, long maxEntries, long maxValueBytes) {
        if (table == null && (field.length > maxValueBytes || value.length > maxValueBytes)) {
            convertToTable();
        }
        if (table != null) {
            byte[] old = table.put(field, value);
            if (old == null) {
                payloadBytes += Values.byteArrayBytes(field.length) + Values.byteArrayBytes(value.length);
                return true;
            }
            payloadBytes += Values.byteArrayBytes(value.length) - Values.byteArrayBytes(old.length);
            return false;
        }
        int i = indexOf(field);
        if (i >= 0) {
            payloadBytes += Values.byteArrayBytes(value.length) - Values.byteArrayBytes(packed[i + 1].length);
            packed[i + 1] = value;
            return false;
        }
        if (packedPairs + 1 > maxEntries) {
            convertToTable();
            return put(field, value, maxEntries, maxValueBytes);
        }
        if (packedPairs * 2 == packed.length) {
            packed = Arrays.copyOf(packed, packed.length * 2);
        }
        packed[packedPairs * 2] = field;
        packed[packedPairs * 2 + 1] = value;
        packedPairs++;
        payloadBytes += Values.byteArrayBytes(field.length) + Values.byteArrayBytes(value.length);
        return true;
    }

    /** Removes {@code field}; returns true if it was there. Compact: O(n), keeps insertion order. */
    public boolean remove(byte[] field) {
        byte[] removedValue;
        byte[] removedField;
        if (table != null) {
            int h = table.find(field);
            if (h < 0) {
                return false;
            }
            removedField = table.keyAt(h);
            removedValue = table.remove(field);
        } else {
            int i = indexOf(field);
            if (i < 0) {
                return false;
            }
            removedField = packed[i];
            removedValue = packed[i + 1];
            System.arraycopy(packed, i + 2, packed, i, packedPairs * 2 - i - 2);
            packedPairs--;
            packed[packedPairs * 2] = null;
            packed[packedPairs * 2 + 1] = null;
        }
        payloadBytes -= Values.byteArrayBytes(removedField.length) + Values.byteArrayBytes(removedValue.length);
        return true;
    }

    /** Visits every field and value once (compact: insertion order). O(n); the visitor must not modify the hash. */
    public void forEach(Dict.Visitor<byte[]> visitor) {
        if (table != null) {
            table.forEach(visitor);
            return;
        }
        for (int i = 0; i < packedPairs; i++) {
            visitor.visit(packed[i * 2], packed[i * 2 + 1]);
        }
    }

    /**
     * One HSCAN step. Compact: every pair at once and cursor 0, as Redis does for listpacks. Large:
     * the dict's stateless scan with SCAN's guarantee (see {@link Dict#scan}).
     */
    public long scan(long cursor, Dict.Visitor<byte[]> visitor) {
        if (table != null) {
            return table.scan(cursor, visitor);
        }
        forEach(visitor);
        return 0;
    }

    /**
     * The field of a random pair, and its value through {@link #valueOfRandom}, with the same
     * handle. Compact: uniform. Large: the dict's random key (see {@link Dict#randomHandle} for its
     * bounded bias). O(1) expected.
     *
     * @param random a random long from the caller's source
     * @return an opaque position for {@link #fieldAt}/{@link #valueAt}, or -1 if empty
     */
    public int randomPosition(long random) {
        if (table != null) {
            return table.randomHandle();
        }
        return packedPairs == 0 ? -1 : (int) Long.remainderUnsigned(random, packedPairs);
    }

    /** The field at a position from {@link #randomPosition}; valid until the next write. */
    public byte[] fieldAt(int position) {
        return table != null ? table.keyAt(position) : packed[position * 2];
    }

    /** The value at a position from {@link #randomPosition}; valid until the next write. */
    public byte[] valueAt(int position) {
        return table != null ? table.valueAt(position) : packed[position * 2 + 1];
    }

    @Override
    public long memoryBytes() {
        long container = table != null ? table.memoryBytes() : Values.arrayBytes(packed.length, Values.REFERENCE_BYTES);
        return OBJECT_BYTES + container + payloadBytes;
    }

    /** A deep copy (COPY): arrays are immutable once stored, so they are shared; the containers are not. */
    public HashValue copy() {
        HashValue copy = new HashValue();
        if (table == null) {
            copy.packed = Arrays.copyOf(packed, packed.length);
            copy.packedPairs = packedPairs;
        } else {
            copy.table = new Dict<>(Seeds.next());
            table.forEach(copy.table::put);
        }
        copy.payloadBytes = payloadBytes;
        return copy;
    }

    private int indexOf(byte[] field) {
        for (int i = 0; i < packedPairs * 2; i += 2) {
            if (Arrays.equals(packed[i], field)) {
                return i;
            }
        }
        return -1;
    }

    private void convertToTable() {
        Dict<byte[]> t = new Dict<>(Seeds.next());
        for (int i = 0; i < packedPairs; i++) {
            t.put(packed[i * 2], packed[i * 2 + 1]);
        }
        table = t;
        packed = null;
        packedPairs = 0;
    }
}
