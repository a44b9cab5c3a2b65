package dev.ebb.storage.types;

import dev.ebb.storage.EntryTable;
import dev.ebb.storage.MemoryEstimated;
import dev.ebb.storage.Values;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A Redis set of binary-safe members, in one of Redis 7.2's three encodings.
 *
 * <ul>
 *   <li><b>intset</b>: every member is a canonical 64-bit integer; a sorted {@code long[]},
 *       binary search, O(log n) look-up and O(n) insert/remove (array shift). Redis packs 16/32/64
 *       bit widths; Ebb always uses 64, so small intsets take more memory than Redis's.</li>
 *   <li><b>listpack</b>: up to {@code set-max-listpack-entries} short members as length-prefixed
 *       entries of one exactly sized {@code byte[]} ({@link PackedEntries}); linear look-up,
 *       writes copy the array, reads copy members out.</li>
 *   <li><b>hashtable</b>: an {@link EntryTable} of members, O(1) expected: the member arrays
 *       themselves and 5 bytes a slot (a reference and a tag), nothing else per member.</li>
 * </ul>
 *
 * <p>Conversions follow Redis 7.2: an intset that grows past {@code maxIntsetEntries} becomes a
 * hashtable; adding a non-integer to an intset makes a listpack if the result fits the listpack
 * limits, else a hashtable; a listpack past its limits becomes a hashtable. Sets never convert
 * back to a smaller encoding.
 *
 * <p><b>Memory.</b> {@link #memoryBytes()} is O(1): the object and the current container, plus
 * for the hashtable the member arrays kept as a running sum. Not thread-safe: owned by the command loop thread.
 */
public final class SetValue implements MemoryEstimated {
    private static final long OBJECT_BYTES = 40;
    private static final int INITIAL = 4;
    /** Past this many packed bytes the set converts whatever the thresholds say. */
    private static final int MAX_PACKED_BYTES = 1 << 30;

    private long[] ints = new long[INITIAL];
    private byte[] packed;
    private EntryTable table;
    /** Members of the intset or listpack; the dict counts its own. */
    private int count;
    /** Member arrays of the hashtable encoding; 0 otherwise. */
    private long payloadBytes;

    /** An empty intset; {@link #sized} picks the encoding for a known number of members to come. */
    public SetValue() {
    }

    /**
     * An empty set in the encoding Redis 7.2's setTypeCreate picks for {@code sizeHint} members of
     * which {@code first} is one (SADD's and SMOVE's new sets): intset if {@code first} is an integer
     * and the hint fits {@code maxIntsetEntries}, else listpack if the hint fits
     * {@code maxListpackEntries}, else hashtable, even if repeated members leave fewer. O(1).
     */
    public static SetValue sized(byte[] first, long sizeHint, long maxIntsetEntries, long maxListpackEntries) {
        SetValue set = new SetValue();
        if (IntegerText.isInteger(IntegerText.parse(first), first) && sizeHint <= maxIntsetEntries) {
            return set;
        }
        if (sizeHint <= maxListpackEntries) {
            set.packed = PackedEntries.EMPTY;
            set.ints = null;
        } else {
            set.convertToTable();
        }
        return set;
    }

    /**
     * An empty set in the listpack encoding even for integer members (a set loaded from a listpack
     * stays one, as in Redis). O(1).
     */
    public static SetValue listpack() {
        SetValue set = new SetValue();
        set.packed = PackedEntries.EMPTY;
        set.ints = null;
        return set;
    }

    /**
     * Redis 7.2's setTypeMaybeConvert for an existing set about to take {@code sizeHint} members:
     * an intset past {@code maxIntsetEntries} or a listpack past {@code maxListpackEntries}
     * becomes a hashtable now, even if the members turn out to be there already. O(n) when it
     * converts.
     *
     * @return whether it converted
     */
    public boolean convertForSizeHint(long sizeHint, long maxIntsetEntries, long maxListpackEntries) {
        if ((packed != null && sizeHint > maxListpackEntries) || (ints != null && sizeHint > maxIntsetEntries)) {
            convertToTable();
            return true;
        }
        return false;
    }

    /**
     * A hashtable set's members moved into a new listpack set, converting as adding them would
     * (Redis's SPOP moving the few members it leaves into a new set); other encodings are left as
     * they are. O(n).
     */
    public void repackHashtable(long maxIntsetEntries, long maxListpackEntries, long maxListpackValue) {
        if (table == null) {
            return;
        }
        java.util.List<byte[]> members = new java.util.ArrayList<>(table.size());
        table.forEach(members::add);
        table = null;
        payloadBytes = 0;
        ints = null;
        packed = PackedEntries.EMPTY;
        count = 0;
        for (byte[] member : members) {
            add(member, maxIntsetEntries, maxListpackEntries, maxListpackValue);
        }
    }

    /** OBJECT ENCODING's name for the current encoding: {@code intset}, {@code listpack} or {@code hashtable}. */
    public String encodingName() {
        return ints != null ? "intset" : packed != null ? "listpack" : "hashtable";
    }

    public int size() {
        return table != null ? table.size() : count;
    }

    public boolean contains(byte[] member) {
        if (ints != null) {
            long v = IntegerText.parse(member);
            return IntegerText.isInteger(v, member) && Arrays.binarySearch(ints, 0, count, v) >= 0;
        }
        if (packed != null) {
            return indexOf(member) >= 0;
        }
        return table.find(member) >= 0;
    }

    /**
     * Adds {@code member} (in the hashtable stored as given: do not modify it later), converting
     * the encoding first when a threshold would be crossed.
     *
     * @return true if it was not a member
     */
    public boolean add(byte[] member, long maxIntsetEntries, long maxListpackEntries, long maxListpackValue) {
        if (ints != null) {
            long v = IntegerText.parse(member);
            if (IntegerText.isInteger(v, member)) {
                int at = Arrays.binarySearch(ints, 0, count, v);
                if (at >= 0) {
                    return false;
                }
                insertInt(-at - 1, v);
                if (count > maxIntsetEntries) {
                    convertToTable();
                }
                return true;
            }
            if (count < maxListpackEntries && member.length <= maxListpackValue
                    && maxIntDigits() <= maxListpackValue) {
                convertIntsToPacked();
            } else {
                convertToTable();
            }
        }
        if (packed != null) {
            if (indexOf(member) >= 0) {
                return false;
            }
            if (count < maxListpackEntries && member.length <= maxListpackValue
                    && (long) packed.length + PackedEntries.entrySize(member) <= MAX_PACKED_BYTES) {
                packed = PackedEntries.splice(packed, packed.length, packed.length, member);
                count++;
                return true;
            }
            convertToTable();
        }
        if (table.putIfAbsent(member, member) != null) {
            return false;
        }
        payloadBytes += Values.byteArrayBytes(member.length);
        return true;
    }

    /** Removes {@code member}; returns true if it was one. */
    public boolean remove(byte[] member) {
        if (ints != null) {
            long v = IntegerText.parse(member);
            int at = IntegerText.isInteger(v, member) ? Arrays.binarySearch(ints, 0, count, v) : -1;
            if (at < 0) {
                return false;
            }
            System.arraycopy(ints, at + 1, ints, at, count - at - 1);
            count--;
            return true;
        }
        if (packed != null) {
            int at = indexOf(member);
            if (at < 0) {
                return false;
            }
            packed = PackedEntries.splice(packed, at, PackedEntries.next(packed, at));
            count--;
            return true;
        }
        byte[] stored = table.remove(member);
        if (stored == null) {
            return false;
        }
        payloadBytes -= Values.byteArrayBytes(stored.length);
        return true;
    }

    /** Visits every member once; intset in ascending order, listpack in insertion order. O(n); must not modify the set. */
    public void forEach(Consumer<byte[]> visitor) {
        if (ints != null) {
            for (int i = 0; i < count; i++) {
                visitor.accept(IntegerText.bytes(ints[i]));
            }
        } else if (packed != null) {
            byte[] p = packed;
            for (int at = 0; at < p.length; at = PackedEntries.next(p, at)) {
                visitor.accept(PackedEntries.copyOut(p, at));
            }
        } else {
            table.forEach(visitor);
        }
    }

    /** One SSCAN step: compact encodings return everything and cursor 0; hashtable uses the table's scan guarantee. */
    public long scan(long cursor, Consumer<byte[]> visitor) {
        if (table != null) {
            return table.scan(cursor, visitor);
        }
        forEach(visitor);
        return 0;
    }

    /**
     * A uniformly random member, or null if empty. Compact encodings: uniform over {@code random}
     * (listpack: O(n) walk). Hashtable: the table's {@link EntryTable#fairRandomHandle}, O(1) expected.
     */
    public byte[] randomMember(long random) {
        if (table != null) {
            int handle = table.fairRandomHandle();
            return handle < 0 ? null : table.entryAt(handle);
        }
        if (count == 0) {
            return null;
        }
        int index = (int) Long.remainderUnsigned(random, count);
        if (ints != null) {
            return IntegerText.bytes(ints[index]);
        }
        int at = 0;
        for (int i = 0; i < index; i++) {
            at = PackedEntries.next(packed, at);
        }
        return PackedEntries.copyOut(packed, at);
    }

    /** Removes and returns a random member (SPOP), or null if empty. Same distribution as {@link #randomMember}. */
    public byte[] popRandom(long random) {
        byte[] member = randomMember(random);
        if (member != null) {
            remove(member);
        }
        return member;
    }

    @Override
    public long memoryBytes() {
        if (ints != null) {
            return OBJECT_BYTES + Values.arrayBytes(ints.length, Long.BYTES);
        }
        if (packed != null) {
            return OBJECT_BYTES + Values.byteArrayBytes(packed.length);
        }
        return OBJECT_BYTES + table.memoryBytes() + payloadBytes;
    }

    /** A copy sharing no mutable state (hashtable member arrays are immutable once stored). */
    public SetValue copy() {
        SetValue copy = new SetValue();
        copy.count = count;
        copy.payloadBytes = payloadBytes;
        copy.ints = ints == null ? null : Arrays.copyOf(ints, ints.length);
        copy.packed = packed == null ? null : packed.clone();
        if (table != null) {
            copy.table = table.copy();
        }
        return copy;
    }

    private void insertInt(int at, long v) {
        if (count == ints.length) {
            ints = Arrays.copyOf(ints, count * 2);
        }
        System.arraycopy(ints, at, ints, at + 1, count - at);
        ints[at] = v;
        count++;
    }

    private int maxIntDigits() {
        if (count == 0) {
            return 0;
        }
        return Math.max(Long.toString(ints[0]).length(), Long.toString(ints[count - 1]).length());
    }

    /** Offset of the entry equal to {@code member}, or -1. */
    private int indexOf(byte[] member) {
        byte[] p = packed;
        for (int at = 0; at < p.length; at = PackedEntries.next(p, at)) {
            if (PackedEntries.equalsAt(p, at, member)) {
                return at;
            }
        }
        return -1;
    }

    private void convertIntsToPacked() {
        byte[][] members = new byte[count][];
        for (int i = 0; i < count; i++) {
            members[i] = IntegerText.bytes(ints[i]);
        }
        packed = PackedEntries.splice(PackedEntries.EMPTY, 0, 0, members);
        ints = null;
    }

    private void convertToTable() {
        EntryTable t = EntryTable.forMembers(Seeds.next());
        long bytes = 0;
        if (ints != null) {
            for (int i = 0; i < count; i++) {
                byte[] m = IntegerText.bytes(ints[i]);
                t.put(m, m);
                bytes += Values.byteArrayBytes(m.length);
            }
        } else {
            byte[] p = packed;
            for (int at = 0; at < p.length; at = PackedEntries.next(p, at)) {
                byte[] m = PackedEntries.copyOut(p, at);
                t.put(m, m);
                bytes += Values.byteArrayBytes(m.length);
            }
        }
        table = t;
        payloadBytes = bytes;
        ints = null;
        packed = null;
        count = 0;
    }
}
