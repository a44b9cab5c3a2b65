package dev.ebb.storage.types;

import dev.ebb.storage.Dict;
import dev.ebb.storage.MemoryEstimated;
import dev.ebb.storage.Values;

/**
 * A Redis hash: binary-safe fields to binary-safe values, in one of Redis's two encodings.
 *
 * <p><b>listpack</b> (compact): fields and values alternate, in insertion order, as entries of
 * one exactly sized {@code byte[]} ({@link PackedEntries}: a length byte or two and the bytes);
 * look-ups walk it and writes copy it, O(total bytes), which for the at most
 * {@code hash-max-listpack-entries} (128) short pairs is a few cache lines. Reads copy the field
 * or value out.
 * <b>hashtable</b>: a {@link Dict} from field to value, O(1) expected per operation.
 *
 * <p>A hash starts compact and converts, once and for good as in Redis, when it would hold more
 * than {@code maxEntries} pairs or a field or value longer than {@code maxValueBytes}; the
 * thresholds are passed on each write so CONFIG SET takes effect for later writes.
 *
 * <p><b>Memory.</b> {@link #memoryBytes()} is O(1): the object and the packed array, or the
 * object, the dict's slot arrays and the field and value arrays kept as a running sum.
 *
 * <p>Not thread-safe: owned by the command loop thread like the rest of the keyspace.
 */
public final class HashValue implements MemoryEstimated {
    private static final long OBJECT_BYTES = 32;
    /** Past this many packed bytes the hash converts whatever the thresholds say (Redis: listpack safety limit). */
    private static final int MAX_PACKED_BYTES = 1 << 30;

    private byte[] packed = PackedEntries.EMPTY;
    private int packedPairs;
    private Dict<byte[]> table;
    /** Field and value arrays of the hashtable encoding; 0 while packed. */
    private long payloadBytes;

    /** Whether the hash is in the compact ({@code listpack}) encoding. */
    public boolean isCompact() {
        return table == null;
    }

    /** Number of fields. O(1). */
    public int size() {
        return table == null ? packedPairs : table.size();
    }

    /** The value of {@code field}, or null (compact: a copy). O(n) compact, O(1) expected large. */
    public byte[] get(byte[] field) {
        if (table != null) {
            return table.get(field);
        }
        int at = indexOf(field);
        return at < 0 ? null : PackedEntries.copyOut(packed, PackedEntries.next(packed, at));
    }

    /**
     * Sets {@code field} to {@code value}, converting to the hashtable encoding first if the hash
     * would cross a threshold. In the hashtable the arrays are stored as given: callers must not
     * modify them later.
     *
     * @return true if the field is new
     */
    public boolean put(byte[] field, byte[] value, long maxEntries, long maxValueBytes) {
        if (table == null && (field.length > maxValueBytes || value.length > maxValueBytes
                || (long) packed.length + PackedEntries.entrySize(field) + PackedEntries.entrySize(value)
                        > MAX_PACKED_BYTES)) {
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
        int at = indexOf(field);
        if (at >= 0) {
            int valueAt = PackedEntries.next(packed, at);
            packed = PackedEntries.splice(packed, valueAt, PackedEntries.next(packed, valueAt), value);
            return false;
        }
        if (packedPairs + 1 > maxEntries) {
            convertToTable();
            return put(field, value, maxEntries, maxValueBytes);
        }
        packed = PackedEntries.splice(packed, packed.length, packed.length, field, value);
        packedPairs++;
        return true;
    }

    /** Removes {@code field}; returns true if it was there. Compact: O(n), keeps insertion order. */
    public boolean remove(byte[] field) {
        if (table != null) {
            int h = table.find(field);
            if (h < 0) {
                return false;
            }
            byte[] removedField = table.keyAt(h);
            byte[] removedValue = table.remove(field);
            payloadBytes -= Values.byteArrayBytes(removedField.length) + Values.byteArrayBytes(removedValue.length);
            return true;
        }
        int at = indexOf(field);
        if (at < 0) {
            return false;
        }
        packed = PackedEntries.splice(packed, at, PackedEntries.next(packed, PackedEntries.next(packed, at)));
        packedPairs--;
        return true;
    }

    /**
     * Visits every field and value once (compact: insertion order, as copies). O(n); the visitor
     * must not modify the hash.
     */
    public void forEach(Dict.Visitor<byte[]> visitor) {
        if (table != null) {
            table.forEach(visitor);
            return;
        }
        byte[] p = packed;
        for (int at = 0; at < p.length; ) {
            int valueAt = PackedEntries.next(p, at);
            visitor.visit(PackedEntries.copyOut(p, at), PackedEntries.copyOut(p, valueAt));
            at = PackedEntries.next(p, valueAt);
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
     * A random pair's position for {@link #fieldAt}/{@link #valueAt}. Compact: uniform over
     * {@code random}. Large: the dict's uniformly random key ({@link Dict#fairRandomHandle}). O(1)
     * expected.
     *
     * @param random a random long from the caller's source
     * @return an opaque position, valid until the next write, or -1 if empty
     */
    public int randomPosition(long random) {
        if (table != null) {
            return table.fairRandomHandle();
        }
        return packedPairs == 0 ? -1 : (int) Long.remainderUnsigned(random, packedPairs);
    }

    /** The field at a position from {@link #randomPosition} (compact: a copy, found in O(n)). */
    public byte[] fieldAt(int position) {
        return table != null ? table.keyAt(position) : PackedEntries.copyOut(packed, pairOffset(position));
    }

    /** The value at a position from {@link #randomPosition} (compact: a copy, found in O(n)). */
    public byte[] valueAt(int position) {
        if (table != null) {
            return table.valueAt(position);
        }
        return PackedEntries.copyOut(packed, PackedEntries.next(packed, pairOffset(position)));
    }

    @Override
    public long memoryBytes() {
        if (table == null) {
            return OBJECT_BYTES + Values.byteArrayBytes(packed.length);
        }
        return OBJECT_BYTES + table.memoryBytes() + payloadBytes;
    }

    /** A deep copy (COPY): hashtable arrays are immutable once stored, so they are shared; the containers are not. */
    public HashValue copy() {
        HashValue copy = new HashValue();
        if (table == null) {
            copy.packed = packed.clone();
            copy.packedPairs = packedPairs;
        } else {
            copy.table = new Dict<>(Seeds.next());
            table.forEach(copy.table::put);
            copy.payloadBytes = payloadBytes;
        }
        return copy;
    }

    /** Offset of the field entry equal to {@code field}, or -1. */
    private int indexOf(byte[] field) {
        byte[] p = packed;
        for (int at = 0; at < p.length; ) {
            if (PackedEntries.equalsAt(p, at, field)) {
                return at;
            }
            at = PackedEntries.next(p, PackedEntries.next(p, at));
        }
        return -1;
    }

    private int pairOffset(int pair) {
        int at = 0;
        for (int i = 0; i < pair; i++) {
            at = PackedEntries.next(packed, PackedEntries.next(packed, at));
        }
        return at;
    }

    /**
     * Redis 7.2's hashTypeTryConversion for a hash about to take {@code newFields} fields: a
     * listpack past {@code maxEntries} becomes a hashtable now, even if the fields turn out to be
     * there already. O(n) when it converts.
     */
    public void convertForNewFields(long newFields, long maxEntries) {
        if (isCompact() && newFields > maxEntries) {
            convertToTable();
        }
    }

    private void convertToTable() {
        Dict<byte[]> t = new Dict<>(Seeds.next());
        long bytes = 0;
        byte[] p = packed;
        for (int at = 0; at < p.length; ) {
            int valueAt = PackedEntries.next(p, at);
            byte[] field = PackedEntries.copyOut(p, at);
            byte[] value = PackedEntries.copyOut(p, valueAt);
            t.put(field, value);
            bytes += Values.byteArrayBytes(field.length) + Values.byteArrayBytes(value.length);
            at = PackedEntries.next(p, valueAt);
        }
        table = t;
        payloadBytes = bytes;
        packed = null;
        packedPairs = 0;
    }
}
