package dev.ebb.storage.types;

import dev.ebb.storage.Dict;
import dev.ebb.storage.EntryTable;
import dev.ebb.storage.LongDict;
import dev.ebb.storage.MemoryEstimated;
import dev.ebb.storage.PairEntry;
import dev.ebb.storage.Values;
import java.util.function.Consumer;

/**
 * A Redis hash: binary-safe fields to binary-safe values, in one of Redis's encodings, with an
 * optional time to live per field (Redis 7.4's hash field expiry).
 *
 * <p><b>Compact</b> ({@code listpack}, or {@code listpackex} once a field has had a TTL, as Redis
 * reports it): pairs in insertion order in one exactly sized {@code byte[]} ({@link HashPack}: a
 * volatile field carries its expiry inline, 8 bytes, a persistent one nothing); look-ups walk it
 * and writes copy it, O(total bytes), which for the at most {@code hash-max-listpack-entries} (128)
 * short pairs is a few cache lines. Reads copy the field or value out.
 * <b>hashtable</b>: an {@link EntryTable} of fields, each packed with its value into one array
 * ({@link PairEntry}), O(1) expected per operation; reads copy the field or value out. Volatile
 * fields also have an entry in a {@link LongDict} (a copy of the field to its expiry) and in a
 * {@link FieldExpiryHeap} (sharing that copy), so the earliest expiry is known exactly and due
 * fields leave in bounded steps, earliest first; a persistent field costs nothing there.
 *
 * <p>A hash starts compact and converts, once and for good as in Redis, when it would hold more
 * than {@code maxEntries} pairs or a field or value longer than {@code maxValueBytes}; the
 * thresholds are passed on each write so CONFIG SET takes effect for later writes.
 *
 * <p><b>Field expiry.</b> A field is expired when {@code nowMs > expiry}, as keys are. Nothing
 * here reads a clock or deletes a field on its own: {@link #expireFields} removes due fields
 * (called by the database's lazy and active field expiry), the {@code nowMs} read methods skip
 * fields that are due but not yet removed, and the plain ones ({@link #get(byte[])},
 * {@link #forEach}) see every stored field. {@link #put} removes a field's TTL (HSET), as in Redis;
 * {@link #putKeepTtl} keeps it (HINCRBY).
 *
 * <p><b>Memory.</b> {@link #memoryBytes()} is O(1): the object and the packed array, or the
 * object, the table's slot arrays, the entry arrays kept as a running sum, and the TTL dict and
 * heap (with their field copies).
 *
 * <p>Not thread-safe: owned by the command loop thread like the rest of the keyspace.
 */
public final class HashValue implements MemoryEstimated {
    /** {@link #fieldExpiry} of a field that does not exist. */
    public static final long NO_FIELD = -2;
    /** {@link #fieldExpiry} of a field without a time to live. */
    public static final long NO_TTL = HashPack.NO_TTL;
    /** {@link #earliestExpiry} of a hash without volatile fields. */
    public static final long NO_EXPIRY = Long.MAX_VALUE;

    private static final long OBJECT_BYTES = 48;
    private static final long MISSING = Long.MIN_VALUE;
    /** Heap entries left behind by changed TTLs beyond the live ones before the heap is compacted. */
    private static final int STALE_SLACK = 16;
    /** Past this many packed bytes the hash converts whatever the thresholds say (Redis: listpack safety limit). */
    private static final int MAX_PACKED_BYTES = 1 << 30;

    private byte[] packed = PackedEntries.EMPTY;
    private int packedPairs;
    private int packedVolatile;
    /** Once a field had a TTL the compact hash reports {@code listpackex}, as Redis's stays listpackEx. */
    private boolean everVolatile;
    private long packedMin = NO_EXPIRY;
    private boolean packedMinStale;

    private EntryTable table;
    /** Entry arrays of the hashtable encoding; 0 while packed. */
    private long payloadBytes;
    private LongDict ttls;
    private FieldExpiryHeap heap;
    private int staleHeapEntries;

    /** Whether the hash is in a compact encoding ({@code listpack} or {@code listpackex}). */
    public boolean isCompact() {
        return table == null;
    }

    /** Redis's name of the encoding: {@code listpack}, {@code listpackex} or {@code hashtable}. */
    public String encodingName() {
        return table != null ? "hashtable" : everVolatile ? "listpackex" : "listpack";
    }

    /** Number of stored fields, expired-but-not-removed ones included. O(1). */
    public int size() {
        return table == null ? packedPairs : table.size();
    }

    /** Number of fields with a time to live, due ones included. O(1). */
    public int volatileCount() {
        return table == null ? packedVolatile : ttls == null ? 0 : ttls.size();
    }

    /** Number of fields not expired at {@code nowMs}: O(1) unless some are due, then O(n). */
    public int liveSize(long nowMs) {
        if (earliestExpiry() >= nowMs) {
            return size();
        }
        int[] live = new int[1];
        forEachLive(nowMs, (f, v) -> live[0]++);
        return live[0];
    }

    /** The value of {@code field}, expired or not, or null (compact: a copy). O(n) compact, O(1) expected large. */
    public byte[] get(byte[] field) {
        if (table != null) {
            int h = table.find(field);
            return h < 0 ? null : PairEntry.copyValue(table.entryAt(h));
        }
        int at = indexOf(field);
        return at < 0 ? null : HashPack.copyValue(packed, at);
    }

    /** As {@link #get(byte[])}, null for a field expired at {@code nowMs}. */
    public byte[] get(byte[] field, long nowMs) {
        if (table != null) {
            int h = table.find(field);
            return h < 0 || isDue(ttlOf(field), nowMs) ? null : PairEntry.copyValue(table.entryAt(h));
        }
        int at = indexOf(field);
        return at < 0 || isDue(HashPack.expiry(packed, at), nowMs) ? null : HashPack.copyValue(packed, at);
    }

    /** The field's absolute expiry in unix ms, {@link #NO_TTL} or {@link #NO_FIELD}. Expired fields still count. */
    public long fieldExpiry(byte[] field) {
        if (table != null) {
            if (table.find(field) < 0) {
                return NO_FIELD;
            }
            long when = ttlOf(field);
            return when == MISSING ? NO_TTL : when;
        }
        int at = indexOf(field);
        return at < 0 ? NO_FIELD : HashPack.expiry(packed, at);
    }

    private long ttlOf(byte[] field) {
        return ttls == null || ttls.isEmpty() ? MISSING : ttls.get(field, MISSING);
    }

    private static boolean isDue(long when, long nowMs) {
        return when >= 0 && nowMs > when;
    }

    /**
     * Sets {@code field} to {@code value} and removes its time to live (HSET), converting to the
     * hashtable encoding first if the hash would cross a threshold.
     *
     * @return true if the field is new
     */
    public boolean put(byte[] field, byte[] value, long maxEntries, long maxValueBytes) {
        return store(field, value, NO_TTL, false, maxEntries, maxValueBytes);
    }

    /** As {@link #put} but an existing field keeps its time to live (HINCRBY, HINCRBYFLOAT). */
    public boolean putKeepTtl(byte[] field, byte[] value, long maxEntries, long maxValueBytes) {
        return store(field, value, NO_TTL, true, maxEntries, maxValueBytes);
    }

    /**
     * As {@link #put} with the field's expiry set to {@code expiry} (unix ms, at least 0), or
     * removed when it is {@link #NO_TTL} (HSETEX).
     */
    public boolean putWithExpiry(byte[] field, byte[] value, long expiry, long maxEntries, long maxValueBytes) {
        if (expiry < NO_TTL) {
            throw new IllegalArgumentException("expiry must be NO_TTL or a unix time: expiry=" + expiry);
        }
        return store(field, value, expiry, false, maxEntries, maxValueBytes);
    }

    private boolean store(byte[] field, byte[] value, long expiry, boolean keepTtl, long maxEntries,
            long maxValueBytes) {
        if (table == null && (field.length > maxValueBytes || value.length > maxValueBytes
                || (long) packed.length + HashPack.pairSize(field, value, Long.MAX_VALUE) > MAX_PACKED_BYTES)) {
            convertToTable();
        }
        if (table != null) {
            byte[] entry = PairEntry.of(field, value);
            byte[] old = table.put(field, entry);
            if (old == null) {
                payloadBytes += Values.byteArrayBytes(entry.length);
                if (expiry != NO_TTL) {
                    setTableTtl(field, expiry);
                }
                return true;
            }
            payloadBytes += Values.byteArrayBytes(entry.length) - Values.byteArrayBytes(old.length);
            if (!keepTtl) {
                if (expiry == NO_TTL) {
                    removeTableTtl(field);
                } else {
                    setTableTtl(field, expiry);
                }
            }
            return false;
        }
        int at = indexOf(field);
        if (at >= 0) {
            long oldExpiry = HashPack.expiry(packed, at);
            long newExpiry = keepTtl ? oldExpiry : expiry;
            packed = HashPack.splice(packed, at, HashPack.next(packed, at), field, value, newExpiry);
            packedTtlChanged(oldExpiry, newExpiry);
            return false;
        }
        if (packedPairs + 1 > maxEntries) {
            convertToTable();
            return store(field, value, expiry, keepTtl, maxEntries, maxValueBytes);
        }
        packed = HashPack.splice(packed, packed.length, packed.length, field, value, expiry);
        packedPairs++;
        packedTtlChanged(NO_TTL, expiry);
        return true;
    }

    private void packedTtlChanged(long oldExpiry, long newExpiry) {
        if (oldExpiry == newExpiry) {
            return;
        }
        if (oldExpiry != NO_TTL) {
            packedVolatile--;
            packedMinStale = true;
        }
        if (newExpiry != NO_TTL) {
            packedVolatile++;
            everVolatile = true;
            if (!packedMinStale) {
                packedMin = Math.min(packedMin, newExpiry);
            }
        }
    }

    /** Sets a hashtable field's expiry; a field new to the TTL dict is stored there as a copy, which the heap shares. */
    private void setTableTtl(byte[] field, long when) {
        if (ttls == null) {
            ttls = new LongDict(Seeds.next());
            heap = new FieldExpiryHeap();
        }
        int h = ttls.find(field);
        byte[] stored;
        if (h >= 0) {
            if (ttls.valueAt(h) == when) {
                return;
            }
            staleHeapEntries++;
            ttls.setValueAt(h, when);
            stored = ttls.keyAt(h);
        } else {
            stored = field.clone();
            ttls.put(stored, when);
        }
        heap.push(when, stored);
        compactHeapIfStale();
    }

    private boolean removeTableTtl(byte[] field) {
        if (ttls == null || !ttls.remove(field)) {
            return false;
        }
        if (ttls.isEmpty()) {
            ttls = null;
            heap = null;
            staleHeapEntries = 0;
        } else {
            staleHeapEntries++;
            compactHeapIfStale();
        }
        return true;
    }

    private void compactHeapIfStale() {
        if (staleHeapEntries > ttls.size() + STALE_SLACK) {
            LongDict t = ttls;
            heap.rebuild((when, field) -> t.get(field, MISSING) == when);
            staleHeapEntries = 0;
        }
    }

    /**
     * Sets the expiry of an existing field (HEXPIRE and family).
     *
     * @param when absolute unix ms, at least 0
     * @return false if the field does not exist
     */
    public boolean setFieldExpiry(byte[] field, long when) {
        if (when < 0) {
            throw new IllegalArgumentException("field expiry must not be negative: when=" + when);
        }
        if (table != null) {
            if (table.find(field) < 0) {
                return false;
            }
            setTableTtl(field, when);
            return true;
        }
        int at = indexOf(field);
        if (at < 0) {
            return false;
        }
        long old = HashPack.expiry(packed, at);
        packed = HashPack.splice(packed, at, HashPack.next(packed, at), field, HashPack.copyValue(packed, at), when);
        packedTtlChanged(old, when);
        return true;
    }

    /** Removes a field's time to live (HPERSIST); returns true if it had one. */
    public boolean persistField(byte[] field) {
        if (table != null) {
            return removeTableTtl(field);
        }
        int at = indexOf(field);
        if (at < 0 || !HashPack.isVolatile(packed, at)) {
            return false;
        }
        long old = HashPack.expiry(packed, at);
        packed = HashPack.splice(packed, at, HashPack.next(packed, at), field, HashPack.copyValue(packed, at), NO_TTL);
        packedTtlChanged(old, NO_TTL);
        return true;
    }

    /** Removes {@code field} and its TTL; returns true if it was there. Compact: O(n), keeps insertion order. */
    public boolean remove(byte[] field) {
        if (table != null) {
            byte[] removed = table.remove(field);
            if (removed == null) {
                return false;
            }
            payloadBytes -= Values.byteArrayBytes(removed.length);
            removeTableTtl(field);
            return true;
        }
        int at = indexOf(field);
        if (at < 0) {
            return false;
        }
        long old = HashPack.expiry(packed, at);
        packed = HashPack.splice(packed, at, HashPack.next(packed, at), null, null, NO_TTL);
        packedPairs--;
        packedTtlChanged(old, NO_TTL);
        return true;
    }

    /**
     * The earliest expiry among the volatile fields, or {@link #NO_EXPIRY}. Compact: O(1) after
     * a walk when a TTL was removed since the last call; large: O(1) amortized (stale heap entries
     * met at the top are dropped).
     */
    public long earliestExpiry() {
        if (table == null) {
            if (packedVolatile == 0) {
                return NO_EXPIRY;
            }
            if (packedMinStale) {
                long min = NO_EXPIRY;
                byte[] p = packed;
                for (int at = 0; at < p.length; at = HashPack.next(p, at)) {
                    long when = HashPack.expiry(p, at);
                    if (when != NO_TTL && when < min) {
                        min = when;
                    }
                }
                packedMin = min;
                packedMinStale = false;
            }
            return packedMin;
        }
        if (ttls == null) {
            return NO_EXPIRY;
        }
        dropStaleTop();
        return heap.size() == 0 ? NO_EXPIRY : heap.topWhen();
    }

    private void dropStaleTop() {
        while (heap.size() > 0 && ttls.get(heap.topField(), MISSING) != heap.topWhen()) {
            heap.pop();
            staleHeapEntries = Math.max(0, staleHeapEntries - 1);
        }
    }

    /**
     * Removes up to {@code limit} fields expired at {@code nowMs} (compact: one pass, O(bytes);
     * large: earliest first, O(log n) each). The hash may end up empty; the caller deletes it.
     *
     * @return the number of fields removed
     */
    public int expireFields(long nowMs, int limit) {
        return expireFields(nowMs, limit, null);
    }

    /** As {@link #expireFields(long, int)}, handing each removed field to {@code removed} (may be null). */
    public int expireFields(long nowMs, int limit, Consumer<byte[]> removed) {
        if (earliestExpiry() >= nowMs || limit <= 0) {
            return 0;
        }
        return table == null ? expirePacked(nowMs, limit, removed) : expireTable(nowMs, limit, removed);
    }

    /**
     * Two passes over the bytes: the first counts what goes and finds the earliest expiry of what
     * stays, so the hash's earliest expiry is known afterwards without a third walk (the active
     * cycle asks for it right after every visit).
     */
    private int expirePacked(long nowMs, int limit, Consumer<byte[]> removedFields) {
        byte[] p = packed;
        int removedBytes = 0;
        int removed = 0;
        long keptMin = NO_EXPIRY;
        for (int at = 0; at < p.length; ) {
            int next = HashPack.next(p, at);
            long when = HashPack.expiry(p, at);
            if (removed < limit && isDue(when, nowMs)) {
                removedBytes += next - at;
                removed++;
            } else if (when != NO_TTL && when < keptMin) {
                keptMin = when;
            }
            at = next;
        }
        byte[] out = new byte[p.length - removedBytes];
        int w = 0;
        int dropped = 0;
        for (int at = 0; at < p.length; ) {
            int next = HashPack.next(p, at);
            if (dropped < removed && isDue(HashPack.expiry(p, at), nowMs)) {
                dropped++;
                if (removedFields != null) {
                    removedFields.accept(HashPack.copyField(p, at));
                }
            } else {
                System.arraycopy(p, at, out, w, next - at);
                w += next - at;
            }
            at = next;
        }
        packed = out;
        packedPairs -= removed;
        packedVolatile -= removed;
        packedMin = keptMin;
        packedMinStale = false;
        return removed;
    }

    private int expireTable(long nowMs, int limit, Consumer<byte[]> removedFields) {
        int removed = 0;
        while (removed < limit && ttls != null) {
            dropStaleTop();
            if (heap.size() == 0 || heap.topWhen() >= nowMs) {
                break;
            }
            byte[] field = heap.topField();
            heap.pop();
            ttls.remove(field);
            byte[] entry = table.remove(field);
            payloadBytes -= Values.byteArrayBytes(entry.length);
            removed++;
            if (removedFields != null) {
                removedFields.accept(field);
            }
            if (ttls.isEmpty()) {
                ttls = null;
                heap = null;
                staleHeapEntries = 0;
            }
        }
        return removed;
    }

    /**
     * Visits every field and value once, expired or not (compact: insertion order, as copies).
     * O(n); the visitor must not modify the hash.
     */
    public void forEach(Dict.Visitor<byte[]> visitor) {
        if (table != null) {
            table.forEach(entry -> visitor.visit(PairEntry.copyField(entry), PairEntry.copyValue(entry)));
            return;
        }
        byte[] p = packed;
        for (int at = 0; at < p.length; at = HashPack.next(p, at)) {
            visitor.visit(HashPack.copyField(p, at), HashPack.copyValue(p, at));
        }
    }

    /** As {@link #forEach}, skipping fields expired at {@code nowMs}. */
    public void forEachLive(long nowMs, Dict.Visitor<byte[]> visitor) {
        if (earliestExpiry() >= nowMs) {
            forEach(visitor);
            return;
        }
        forEachWithExpiry((field, value, expiry) -> {
            if (!isDue(expiry, nowMs)) {
                visitor.visit(field, value);
            }
        });
    }

    /**
     * Visits every field with its value and expiry ({@link #NO_TTL} for a persistent field), due
     * ones included: what a snapshot (RDB) writes. O(n); the visitor must not modify the hash.
     */
    public void forEachWithExpiry(FieldVisitor visitor) {
        if (table != null) {
            table.forEach(entry -> {
                byte[] field = PairEntry.copyField(entry);
                long when = ttlOf(field);
                visitor.visit(field, PairEntry.copyValue(entry), when == MISSING ? NO_TTL : when);
            });
            return;
        }
        byte[] p = packed;
        for (int at = 0; at < p.length; at = HashPack.next(p, at)) {
            visitor.visit(HashPack.copyField(p, at), HashPack.copyValue(p, at), HashPack.expiry(p, at));
        }
    }

    /** As {@link #scan(long, long, Dict.Visitor)} over every stored field, due ones included. */
    public long scan(long cursor, Dict.Visitor<byte[]> visitor) {
        return scan(cursor, Long.MIN_VALUE, visitor);
    }

    /**
     * One HSCAN step, skipping fields expired at {@code nowMs}. Compact: every pair at once and
     * cursor 0, as Redis does for listpacks. Large: the table's stateless scan with SCAN's guarantee
     * (see {@link EntryTable#scan}).
     */
    public long scan(long cursor, long nowMs, Dict.Visitor<byte[]> visitor) {
        if (table != null) {
            boolean someDue = earliestExpiry() < nowMs;
            return table.scan(cursor, entry -> {
                byte[] field = PairEntry.copyField(entry);
                if (!someDue || !isDue(ttlOf(field), nowMs)) {
                    visitor.visit(field, PairEntry.copyValue(entry));
                }
            });
        }
        forEachLive(nowMs, visitor);
        return 0;
    }

    /**
     * A random pair's position for {@link #fieldAt}/{@link #valueAt}. Compact: uniform over
     * {@code random}. Large: the table's uniformly random entry ({@link EntryTable#fairRandomHandle}). O(1)
     * expected. Due fields not yet removed may be drawn: check with {@link #isExpiredAt}.
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
        return table != null ? PairEntry.copyField(table.entryAt(position))
                : HashPack.copyField(packed, pairOffset(position));
    }

    /** The value at a position from {@link #randomPosition} (compact: a copy, found in O(n)). */
    public byte[] valueAt(int position) {
        return table != null ? PairEntry.copyValue(table.entryAt(position))
                : HashPack.copyValue(packed, pairOffset(position));
    }

    /** Whether the field at a position from {@link #randomPosition} is expired at {@code nowMs}. */
    public boolean isExpiredAt(int position, long nowMs) {
        if (earliestExpiry() >= nowMs) {
            return false;
        }
        return isDue(table != null ? ttlOf(fieldAt(position)) : HashPack.expiry(packed, pairOffset(position)),
                nowMs);
    }

    @Override
    public long memoryBytes() {
        if (table == null) {
            return OBJECT_BYTES + Values.byteArrayBytes(packed.length);
        }
        long bytes = OBJECT_BYTES + table.memoryBytes() + payloadBytes;
        if (ttls != null) {
            bytes += ttls.memoryBytes() + heap.memoryBytes();
        }
        return bytes;
    }

    /** A deep copy (COPY): hashtable entries are immutable once stored, so they are shared; the containers are not. */
    public HashValue copy() {
        HashValue copy = new HashValue();
        copy.everVolatile = everVolatile;
        if (table == null) {
            copy.packed = packed.clone();
            copy.packedPairs = packedPairs;
            copy.packedVolatile = packedVolatile;
            copy.packedMinStale = true;
        } else {
            copy.table = table.copy();
            copy.payloadBytes = payloadBytes;
            if (ttls != null) {
                ttls.forEach(copy::setTableTtl);
            }
        }
        return copy;
    }

    /** Offset of the pair whose field equals {@code field}, or -1. */
    private int indexOf(byte[] field) {
        byte[] p = packed;
        for (int at = 0; at < p.length; at = HashPack.next(p, at)) {
            if (HashPack.fieldEquals(p, at, field)) {
                return at;
            }
        }
        return -1;
    }

    private int pairOffset(int pair) {
        int at = 0;
        for (int i = 0; i < pair; i++) {
            at = HashPack.next(packed, at);
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
        EntryTable t = EntryTable.forPairs(Seeds.next());
        long bytes = 0;
        byte[] p = packed;
        table = t;
        for (int at = 0; at < p.length; at = HashPack.next(p, at)) {
            byte[] field = HashPack.copyField(p, at);
            byte[] entry = PairEntry.of(field, HashPack.copyValue(p, at));
            t.put(field, entry);
            bytes += Values.byteArrayBytes(entry.length);
            long when = HashPack.expiry(p, at);
            if (when != NO_TTL) {
                setTableTtl(field, when);
            }
        }
        payloadBytes = bytes;
        packed = null;
        packedPairs = 0;
        packedVolatile = 0;
    }

    /** Receives a field, its value and its expiry ({@link #NO_TTL} if none). */
    @FunctionalInterface
    public interface FieldVisitor {
        void visit(byte[] field, byte[] value, long expiry);
    }
}
