package dev.ebb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * {@link Dict} and {@link LongDict} behind one long-valued interface, so each property and scan test runs
 * against both, plus the structural checks every test repeats.
 */
abstract class TableUnderTest {

    final OpenTable table;

    private TableUnderTest(final OpenTable table) {
        this.table = table;
    }

    /** A {@code Dict<Long>}, whose meta int is set to the low bits of each value so it can be checked too. */
    static TableUnderTest dict(final long seed) {
        return new DictSubject(new Dict<>(seed));
    }

    static TableUnderTest longDict(final long seed) {
        return new LongDictSubject(new LongDict(seed));
    }

    /** Inserts or replaces; returns the previous value or null. */
    abstract Long put(byte[] key, long value);

    /** Removes; returns the removed value or null. */
    abstract Long remove(byte[] key);

    abstract Long get(byte[] key);

    /** The value at a handle. */
    abstract long valueAt(int handle);

    /** Reports the entries through the table's public forEach. */
    abstract void forEach(BiConsumer<byte[], Long> visitor);

    /** Reports the entries of one scan step; returns the next cursor. */
    abstract long scan(long cursor, BiConsumer<byte[], Long> visitor);

    /** Bytes of the slot arrays of one table of {@code capacity} slots. */
    abstract long slotArrayBytes(int capacity);

    abstract String name();

    @Override
    public String toString() {
        return name();
    }

    /**
     * Asserts the table holds exactly {@code model}: size, a get of every key, forEach without duplicates, the
     * load-factor bounds and a memory estimate consistent with the capacity.
     */
    final void assertMatches(final Map<ByteKey, Long> model) {
        assertEquals(model.size(), table.size(), "size");
        for (final Map.Entry<ByteKey, Long> entry : model.entrySet()) {
            assertEquals(entry.getValue(), get(entry.getKey().bytes), () -> "get " + entry.getKey());
        }
        final Map<ByteKey, Long> visited = new HashMap<>();
        forEach((key, value) -> assertNull(visited.put(new ByteKey(key), value), "forEach reported a key twice"));
        assertEquals(model, visited, "forEach contents");
        assertLoadAndMemoryBounds();
    }

    /**
     * The live table never passes 3/4 (7/8 for a large one waiting for its grown arrays, see
     * {@link TableSizing#fillLimit}); at rest it is at least 1/10 full (above the minimum capacity).
     */
    final void assertLoadAndMemoryBounds() {
        final int capacity = table.capacity();
        assertTrue(Integer.bitCount(capacity) == 1 && capacity >= OpenTable.MIN_CAPACITY, "capacity " + capacity);
        assertTrue(table.liveCount() <= TableSizing.fillLimit(capacity),
            () -> "live table over its fill limit: " + table.liveCount() + " keys in " + capacity + " slots");
        if (table.isRehashing()) {
            assertTrue(table.memoryBytes() > slotArrayBytes(capacity), "memory during a resize counts both tables");
        } else {
            final int ahead = table.readyAheadCapacity();
            assertEquals(slotArrayBytes(capacity), table.memoryBytes(), "memoryBytes at rest");
            assertEquals(ahead == 0 ? 0 : slotArrayBytes(ahead), table.aheadBytes(),
                "aheadBytes: the next table's arrays if held ready");
            assertTrue(capacity == OpenTable.MIN_CAPACITY || table.size() * 10L >= capacity,
                () -> "sparse table not shrunk: " + table.size() + " keys in " + capacity + " slots");
        }
    }

    private static final class DictSubject extends TableUnderTest {
        private final Dict<Long> dict;

        DictSubject(final Dict<Long> dict) {
            super(dict);
            this.dict = dict;
        }

        @Override
        Long put(final byte[] key, final long value) {
            final Long previous = dict.put(key, value);
            final int handle = dict.find(key);
            if (previous != null) {
                assertEquals(metaOf(previous), dict.metaAt(handle), "meta survives a replace");
            } else {
                assertEquals(0, dict.metaAt(handle), "meta of a new key");
            }
            dict.setMetaAt(handle, (int) value);
            return previous;
        }

        /** The meta this subject stores with {@code value}: its low 24 bits, all a meta keeps. */
        private static int metaOf(final Long value) {
            return (int) value.longValue() & Dict.META_MASK;
        }

        @Override
        Long remove(final byte[] key) {
            final int handle = dict.find(key);
            if (handle >= 0) {
                assertEquals(metaOf(dict.valueAt(handle)), dict.metaAt(handle), "meta moved with entry");
            }
            return dict.remove(key);
        }

        @Override
        Long get(final byte[] key) {
            return dict.get(key);
        }

        @Override
        long valueAt(final int handle) {
            return dict.valueAt(handle);
        }

        @Override
        void forEach(final BiConsumer<byte[], Long> visitor) {
            dict.forEach(visitor::accept);
        }

        @Override
        long scan(final long cursor, final BiConsumer<byte[], Long> visitor) {
            return dict.scan(cursor, visitor::accept);
        }

        @Override
        long slotArrayBytes(final int capacity) {
            return (16 + 8L * capacity) + (16 + 4L * capacity);
        }

        @Override
        String name() {
            return "Dict";
        }
    }

    private static final class LongDictSubject extends TableUnderTest {
        private final LongDict dict;

        LongDictSubject(final LongDict dict) {
            super(dict);
            this.dict = dict;
        }

        @Override
        Long put(final byte[] key, final long value) {
            final Long previous = get(key);
            assertEquals(previous == null, dict.put(key, value), "put reports an insert");
            return previous;
        }

        @Override
        Long remove(final byte[] key) {
            final Long previous = get(key);
            assertEquals(previous != null, dict.remove(key), "remove reports a removal");
            return previous;
        }

        @Override
        Long get(final byte[] key) {
            final long missing = Long.MIN_VALUE;
            final long value = dict.get(key, missing);
            assertEquals(value != missing, dict.containsKey(key), "containsKey agrees with get");
            return value == missing ? null : value;
        }

        @Override
        long valueAt(final int handle) {
            return dict.valueAt(handle);
        }

        @Override
        void forEach(final BiConsumer<byte[], Long> visitor) {
            dict.forEach(visitor::accept);
        }

        @Override
        long scan(final long cursor, final BiConsumer<byte[], Long> visitor) {
            return dict.scan(cursor, visitor::accept);
        }

        @Override
        long slotArrayBytes(final int capacity) {
            return (16 + 4L * capacity) + (16 + 8L * capacity);
        }

        @Override
        String name() {
            return "LongDict";
        }
    }
}
