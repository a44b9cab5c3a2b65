package dev.ebb.server.command;

import dev.ebb.storage.zset.SortedSet;
import dev.ebb.storage.types.HashValue;
import dev.ebb.storage.types.ListValue;
import dev.ebb.storage.types.RawString;
import dev.ebb.storage.types.SetValue;
import dev.ebb.storage.types.UnsharedString;
import dev.ebb.storage.stream.StreamValue;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The one place that knows, for every class of stored value, its Redis type name (TYPE, SCAN …
 * TYPE), its OBJECT ENCODING name, and how COPY duplicates it.
 *
 * <p>A value class joins the keyspace with one row in {@link #KINDS}: the class (or an interface
 * its encodings share), the type name, a function giving the current encoding name, and a deep
 * copy. Rows are tried in order with {@code isInstance}; plain {@code byte[]} strings are checked
 * first without a table walk, since they are the common case ({@link RawString} and
 * {@link UnsharedString} are the other string forms, see {@link Strings}).
 *
 * <p>Costs: {@link #typeName} and {@link #encoding} are O(rows) {@code isInstance} checks (a
 * handful), allocation-free. Stateless and thread-safe.
 */
final class Types {
    static final String STRING = "string";
    static final String LIST = "list";
    static final String SET = "set";
    static final String ZSET = "zset";
    static final String HASH = "hash";
    static final String STREAM = "stream";
    /** TYPE's answer for a missing key. */
    static final String NONE = "none";

    /** Redis keeps strings up to this many bytes in one allocation with their header ("embstr"). */
    static final int EMBSTR_MAX_BYTES = 44;
    /** Redis only tries to encode strings of at most this many bytes as integers. */
    static final int INT_MAX_CHARS = 20;

    /** How one class of value is named and copied. */
    private record Kind(Class<?> valueClass, String typeName, Function<Object, String> encoding,
            UnaryOperator<Object> copy) {
    }

    /**
     * Strings stored as {@code byte[]} are immutable (commands that change one store a new value),
     * so a copy can share the array.
     */
    private static final Kind STRING_KIND = new Kind(byte[].class, STRING,
            value -> stringEncoding((byte[]) value), Strings::duplicate);
    /**
     * A string APPEND, SETRANGE or SETBIT edited: always "raw", as in Redis. Its spare capacity
     * belongs to one key, so a copy is a fresh exact-size one (as Redis's dupStringObject).
     */
    private static final Kind RAW_STRING_KIND = new Kind(RawString.class, STRING, value -> "raw",
            value -> ((RawString) value).copy());
    /** An unshared integer or INCRBYFLOAT's integral text (see the class); immutable, so shared by COPY. */
    private static final Kind UNSHARED_STRING_KIND = new Kind(UnsharedString.class, STRING,
            value -> ((UnsharedString) value).isIntEncoded() ? "int" : textEncoding(((UnsharedString) value).bytes()),
            UnaryOperator.identity());

    /** Every value class the keyspace holds; add a row when a new one arrives. */
    private static final List<Kind> KINDS = List.of(STRING_KIND, RAW_STRING_KIND, UNSHARED_STRING_KIND,
            new Kind(SortedSet.class, ZSET, value -> ((SortedSet) value).encoding(),
                    value -> ((SortedSet) value).copy()),
            new Kind(HashValue.class, HASH,
                    value -> ((HashValue) value).encodingName(),
                    value -> ((HashValue) value).copy()),
            new Kind(SetValue.class, SET, value -> ((SetValue) value).encodingName(),
                    value -> ((SetValue) value).copy()),
            new Kind(ListValue.class, LIST, value -> ((ListValue) value).encodingName(),
                    value -> ((ListValue) value).copy()),
            new Kind(StreamValue.class, STREAM, value -> STREAM, value -> ((StreamValue) value).copy()));

    private Types() {
    }

    /** The TYPE name of a stored value ({@code string}, {@code hash} …), or {@code none} for null. */
    static String typeName(Object value) {
        return value == null ? NONE : kind(value).typeName();
    }

    /** The OBJECT ENCODING name of a stored value, as Redis names it. */
    static String encoding(Object value) {
        return kind(value).encoding().apply(value);
    }

    /**
     * A copy of {@code value} that shares no mutable state with it (COPY): changing one never
     * shows in the other.
     */
    static Object copy(Object value) {
        return kind(value).copy().apply(value);
    }

    /** Whether {@code value}'s TYPE name is {@code name}, ignoring ASCII case (SCAN … TYPE). */
    static boolean hasTypeName(Object value, byte[] name) {
        return Arguments.is(name, typeName(value));
    }

    /**
     * The encoding Redis gives a string stored by SET: {@code int} if it is a canonical 64-bit
     * integer of at most 20 characters, {@code embstr} up to 44 bytes, {@code raw} beyond.
     *
     * <p>Strings APPEND, SETRANGE, SETBIT, BITOP and BITFIELD edited, and the HyperLogLogs PFADD,
     * PFMERGE and PFCOUNT store, are {@link RawString}s and report {@code raw}, as in Redis; the
     * histories that give other bytes other encodings are {@link UnsharedString}s.
     */
    static String stringEncoding(byte[] s) {
        return readsAsInteger(s) ? "int" : textEncoding(s);
    }

    /**
     * Whether Redis would hold {@code s} as an integer: a canonical 64-bit integer (no sign but a
     * leading '-', no leading zeros, not "-0") of at most 20 characters.
     */
    static boolean readsAsInteger(byte[] s) {
        return s.length <= INT_MAX_CHARS && Arguments.isLong(s);
    }

    /** A string kept as text: {@code embstr} up to 44 bytes, {@code raw} beyond. */
    private static String textEncoding(byte[] s) {
        return s.length <= EMBSTR_MAX_BYTES ? "embstr" : "raw";
    }

    private static Kind kind(Object value) {
        if (value instanceof byte[]) {
            return STRING_KIND;
        }
        for (Kind k : KINDS) {
            if (k.valueClass().isInstance(value)) {
                return k;
            }
        }
        throw new IllegalStateException("no Types row for stored value class: "
                + (value == null ? "null" : value.getClass().getName()));
    }
}
