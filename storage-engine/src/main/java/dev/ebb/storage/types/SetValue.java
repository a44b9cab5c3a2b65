package dev.ebb.storage.types;

import dev.ebb.storage.Dict;
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
 *   <li><b>listpack</b>: up to {@code set-max-listpack-entries} short members in a packed
 *       {@code byte[][]}, linear look-up.</li>
 *   <li><b>hashtable</b>: a {@link Dict} of members, O(1) expected.</li>
 * </ul>
 *
 * <p>Conversions follow Redis 7.2: an intset that grows past {@code maxIntsetEntries} becomes a
 * hashtable; adding a non-integer to an intset makes a listpack if the result fits the listpack
 * limits, else a hashtable; a listpack past its limits becomes a hashtable. Sets never convert
 * back to a smaller encoding.
 *
 * <p><b>Memory.</b> {@link #memoryBytes()} is O(1), kept as a running sum of member arrays plus
 * the current container. Not thread-safe: owned by the command loop thread.
 */
public final class SetValue implements MemoryEstimated {
    private static final long OBJECT_BYTES = 40;
    private static final int INITIAL = 4;

    private long[] ints = new long[INITIAL];
    private byte[][] packed;
    private Dict<Boolean> table;
    private int count;
    private long payloadBytes;

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
            return v != IntegerText.NOT_AN_INTEGER && Arrays.binarySearch(ints, 0, count, v) >= 0;
        }
        if (packed != null) {
            return indexOf(member) >= 0;
        }
        return table.containsKey(member);
    }

    /**
     * Adds {@code member} (stored as given, do not modify it later), converting the encoding first
     * when a threshold would be crossed.
     *
     * @return true if it was not a member
     */
    public boolean add(byte[] member, long maxIntsetEntries, long maxListpackEntries, long maxListpackValue) {
        if (ints != null) {
            long v = IntegerText.parse(member);
            if (v != IntegerText.NOT_AN_INTEGER) {
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
            if (count < maxListpackEntries && member.length <= maxListpackValue) {
                if (count == packed.length) {
                    packed = Arrays.copyOf(packed, Math.max(INITIAL, count * 2));
                }
                packed[count++] = member;
                payloadBytes += Values.byteArrayBytes(member.length);
                return true;
            }
            convertToTable();
        }
        if (table.put(member, Boolean.TRUE) != null) {
            return false;
        }
        payloadBytes += Values.byteArrayBytes(member.length);
        return true;
    }

    /** Removes {@code member}; returns true if it was one. */
    public boolean remove(byte[] member) {
        if (ints != null) {
            long v = IntegerText.parse(member);
            int at = v == IntegerText.NOT_AN_INTEGER ? -1 : Arrays.binarySearch(ints, 0, count, v);
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
            removePackedAt(at);
            return true;
        }
        int h = table.find(member);
        if (h < 0) {
            return false;
        }
        byte[] stored = table.keyAt(h);
        table.remove(member);
        payloadBytes -= Values.byteArrayBytes(stored.length);
        return true;
    }

    /** Visits every member once; intset in ascending order. O(n); must not modify the set. */
    public void forEach(Consumer<byte[]> visitor) {
        if (ints != null) {
            for (int i = 0; i < count; i++) {
                visitor.accept(IntegerText.bytes(ints[i]));
            }
        } else if (packed != null) {
            for (int i = 0; i < count; i++) {
                visitor.accept(packed[i]);
            }
        } else {
            table.forEach((member, ignored) -> visitor.accept(member));
        }
    }

    /** One SSCAN step: compact encodings return everything and cursor 0; hashtable uses the dict's scan guarantee. */
    public long scan(long cursor, Consumer<byte[]> visitor) {
        if (table != null) {
            return table.scan(cursor, (member, ignored) -> visitor.accept(member));
        }
        forEach(visitor);
        return 0;
    }

    /**
     * A random member, or null if empty. Compact encodings: uniform over {@code random}. Hashtable:
     * the dict's random key, O(1) expected with the bounded bias of {@link Dict#randomHandle}.
     */
    public byte[] randomMember(long random) {
        if (table != null) {
            return table.randomKey();
        }
        if (count == 0) {
            return null;
        }
        int at = (int) Long.remainderUnsigned(random, count);
        return ints != null ? IntegerText.bytes(ints[at]) : packed[at];
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
        long container;
        if (ints != null) {
            container = Values.arrayBytes(ints.length, Long.BYTES);
        } else if (packed != null) {
            container = Values.arrayBytes(packed.length, Values.REFERENCE_BYTES);
        } else {
            container = table.memoryBytes();
        }
        return OBJECT_BYTES + container + payloadBytes;
    }

    /** A copy sharing no mutable state (member arrays are immutable once stored). */
    public SetValue copy() {
        SetValue copy = new SetValue();
        copy.count = count;
        copy.payloadBytes = payloadBytes;
        copy.ints = ints == null ? null : Arrays.copyOf(ints, ints.length);
        copy.packed = packed == null ? null : Arrays.copyOf(packed, packed.length);
        if (table != null) {
            copy.table = new Dict<>(Seeds.next());
            table.forEach(copy.table::put);
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

    private int indexOf(byte[] member) {
        for (int i = 0; i < count; i++) {
            if (Arrays.equals(packed[i], member)) {
                return i;
            }
        }
        return -1;
    }

    private void removePackedAt(int at) {
        payloadBytes -= Values.byteArrayBytes(packed[at].length);
        System.arraycopy(packed, at + 1, packed, at, count - at - 1);
        packed[--count] = null;
    }

    private void convertIntsToPacked() {
        byte[][] p = new byte[Math.max(INITIAL, count + 1)][];
        for (int i = 0; i < count; i++) {
            p[i] = IntegerText.bytes(ints[i]);
            payloadBytes += Values.byteArrayBytes(p[i].length);
        }
        packed = p;
        ints = null;
    }

    private void convertToTable() {
        Dict<Boolean> t = new Dict<>(Seeds.next());
        if (ints != null) {
            for (int i = 0; i < count; i++) {
                byte[] m = IntegerText.bytes(ints[i]);
                t.put(m, Boolean.TRUE);
                payloadBytes += Values.byteArrayBytes(m.length);
            }
        } else {
            for (int i = 0; i < count; i++) {
                t.put(packed[i], Boolean.TRUE);
            }
        }
        table = t;
        ints = null;
        packed = null;
        count = 0;
    }
}
