package dev.ebb.storage.rdb;

import dev.ebb.storage.stream.StreamValue;
import dev.ebb.storage.types.HashValue;
import dev.ebb.storage.types.IntegerText;
import dev.ebb.storage.types.ListValue;
import dev.ebb.storage.types.RawString;
import dev.ebb.storage.types.SetValue;
import dev.ebb.storage.types.UnsharedString;
import dev.ebb.storage.zset.SortedSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes one stored value as Redis 7.2's rdbSaveObjectType + rdbSaveObject would for the encoding
 * OBJECT ENCODING reports in Ebb:
 *
 * <ul>
 *   <li>strings ({@code byte[]}, {@link RawString}, {@link UnsharedString}): STRING, integer-encoded,
 *       LZF or raw ({@link RdbOutput#writeString});</li>
 *   <li>lists: LIST_QUICKLIST_2, one packed listpack node per quicklist node (a listpack list is a
 *       single node), nodes split as Ebb's quicklist shape says;</li>
 *   <li>sets: SET_INTSET, SET_LISTPACK or SET (a count and the members);</li>
 *   <li>sorted sets: ZSET_LISTPACK (member, score pairs ascending) or ZSET_2 (members from the
 *       highest score down, binary doubles, as Redis saves its skiplist);</li>
 *   <li>hashes: HASH_LISTPACK or HASH (a count and field, value pairs); a hash with field TTLs
 *       as Redis 7.4 writes it: HASH_LISTPACK_EX (the minimum expiry, then a listpack of field,
 *       value, ttl triplets ordered by ttl, 0 for none, last) or HASH_METADATA (the minimum expiry,
 *       a count, then ttl - min + 1 or 0 for none, field and value per field). Fields already
 *       expired at the writer's time are left out.</li>
 *   <li>streams: STREAM_LISTPACKS_3 ({@link StreamCodec}).</li>
 * </ul>
 *
 * <p>Costs: O(size of the value); a listpack encoding is built in a reusable buffer first. Not
 * thread-safe; one instance per output.
 */
final class ValueWriter {
    private final RdbOutput out;
    private final ListpackWriter listpack = new ListpackWriter();
    private final long nowMs;

    /** {@code nowMs}: fields whose expiry is before it are not written (0 keeps them all). */
    ValueWriter(RdbOutput out, long nowMs) {
        this.out = out;
        this.nowMs = nowMs;
    }

    /** The RDB type byte Ebb writes for {@code value}. */
    static int typeOf(Object value) {
        if (value instanceof byte[] || value instanceof RawString || value instanceof UnsharedString) {
            return RdbConstants.TYPE_STRING;
        }
        if (value instanceof ListValue) {
            return RdbConstants.TYPE_LIST_QUICKLIST_2;
        }
        if (value instanceof SetValue set) {
            return switch (set.encodingName()) {
                case "intset" -> RdbConstants.TYPE_SET_INTSET;
                case "listpack" -> RdbConstants.TYPE_SET_LISTPACK;
                default -> RdbConstants.TYPE_SET;
            };
        }
        if (value instanceof SortedSet zset) {
            return zset.encoding().equals("listpack") ? RdbConstants.TYPE_ZSET_LISTPACK : RdbConstants.TYPE_ZSET_2;
        }
        if (value instanceof HashValue hash) {
            if (hash.volatileCount() > 0) {
                return hash.isCompact() ? RdbConstants.TYPE_HASH_LISTPACK_EX : RdbConstants.TYPE_HASH_METADATA;
            }
            return hash.isCompact() ? RdbConstants.TYPE_HASH_LISTPACK : RdbConstants.TYPE_HASH;
        }
        if (value instanceof StreamValue) {
            return RdbConstants.TYPE_STREAM_LISTPACKS_3;
        }
        throw new IllegalArgumentException("no RDB encoding for value class: "
                + (value == null ? "null" : value.getClass().getName()));
    }

    /** The type byte and the value (a DUMP payload's body). */
    void write(Object value) throws IOException {
        int type = typeOf(value);
        out.writeByte(type);
        writeBody(type, value);
    }

    /** The value alone, in the encoding of {@code type} (from {@link #typeOf}). */
    void writeBody(int type, Object value) throws IOException {
        switch (type) {
            case RdbConstants.TYPE_STRING -> writeStringValue(value);
            case RdbConstants.TYPE_LIST_QUICKLIST_2 -> writeList((ListValue) value);
            case RdbConstants.TYPE_SET_INTSET -> writeIntset((SetValue) value);
            case RdbConstants.TYPE_SET_LISTPACK -> {
                listpack.reset();
                ((SetValue) value).forEach(listpack::append);
                out.writeString(listpack.toBytes());
            }
            case RdbConstants.TYPE_SET -> {
                SetValue set = (SetValue) value;
                out.writeLength(set.size());
                forEachIo(set, out::writeString);
            }
            case RdbConstants.TYPE_ZSET_LISTPACK -> {
                listpack.reset();
                ((SortedSet) value).forEach((member, score) -> {
                    listpack.append(member);
                    listpack.append(Scores.format(score));
                });
                out.writeString(listpack.toBytes());
            }
            case RdbConstants.TYPE_ZSET_2 -> writeSkiplist((SortedSet) value);
            case RdbConstants.TYPE_HASH_LISTPACK -> {
                listpack.reset();
                ((HashValue) value).forEach((field, v) -> {
                    listpack.append(field);
                    listpack.append(v);
                });
                out.writeString(listpack.toBytes());
            }
            case RdbConstants.TYPE_HASH_LISTPACK_EX -> writeListpackEx((HashValue) value);
            case RdbConstants.TYPE_HASH_METADATA -> writeMetadata((HashValue) value);
            case RdbConstants.TYPE_STREAM_LISTPACKS_3 -> StreamCodec.write(out, (StreamValue) value);
            default -> writeHashtable((HashValue) value);
        }
    }

    private void writeStringValue(Object value) throws IOException {
        if (value instanceof byte[] b) {
            out.writeString(b);
        } else if (value instanceof RawString r) {
            out.writeString(r.bytes(), 0, r.length());
        } else {
            out.writeString(((UnsharedString) value).bytes());
        }
    }

    /**
     * Redis 7.2's rdbSaveObject for a list (listpack or quicklist alike): the node count, then each
     * node as a packed container, its listpack as a string, or as an LZF blob when the node is
     * compressed (the list's own compressed bytes, written as they are).
     */
    private void writeList(ListValue list) throws IOException {
        out.writeLength(list.nodeCount());
        list.writeNodes(new ListValue.NodeSink() {
            @Override
            public void listpack(byte[] buf, int off, int len) throws IOException {
                out.writeLength(RdbConstants.QUICKLIST_NODE_PACKED);
                out.writeString(buf, off, len);
            }

            @Override
            public void compressed(byte[] lzf, long listpackBytes) throws IOException {
                out.writeLength(RdbConstants.QUICKLIST_NODE_PACKED);
                out.writeLzfBlob(lzf, lzf.length, (int) listpackBytes);
            }
        });
    }

    private void writeIntset(SetValue set) throws IOException {
        long[] values = new long[set.size()];
        int[] n = {0};
        set.forEach(member -> values[n[0]++] = IntegerText.parse(member));
        out.writeString(Intset.encode(values, n[0]));
    }

    private void writeSkiplist(SortedSet zset) throws IOException {
        out.writeLength(zset.size());
        if (zset.size() == 0) {
            return;
        }
        IOException[] failed = {null};
        zset.visitRange(0, zset.size() - 1, true, (member, score) -> {
            if (failed[0] == null) {
                try {
                    out.writeString(member);
                    out.writeBinaryDouble(score);
                } catch (IOException e) {
                    failed[0] = e;
                }
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
    }

    private void writeHashtable(HashValue hash) throws IOException {
        out.writeLength(hash.size());
        IOException[] failed = {null};
        hash.forEach((field, v) -> {
            if (failed[0] == null) {
                try {
                    out.writeString(field);
                    out.writeString(v);
                } catch (IOException e) {
                    failed[0] = e;
                }
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
    }

    /** A field kept for writing with its expiry ({@link HashValue#NO_TTL} for none). */
    private record TimedField(byte[] field, byte[] value, long expiry) {
    }

    /** The fields not expired at {@code nowMs}, ordered as Redis's listpackEx: by expiry, persistent ones last. */
    private List<TimedField> liveFields(HashValue hash) {
        List<TimedField> fields = new ArrayList<>(hash.size());
        hash.forEachWithExpiry((field, value, expiry) -> {
            if (expiry == HashValue.NO_TTL || expiry >= nowMs) {
                fields.add(new TimedField(field, value, expiry));
            }
        });
        fields.sort(Comparator.comparingLong(f -> f.expiry == HashValue.NO_TTL ? Long.MAX_VALUE : f.expiry));
        return fields;
    }

    /** The earliest expiry of {@code fields} (sorted by {@link #liveFields}), 0 if none has one. */
    private static long minExpiry(List<TimedField> fields) {
        return fields.isEmpty() || fields.get(0).expiry == HashValue.NO_TTL ? 0 : fields.get(0).expiry;
    }

    private void writeListpackEx(HashValue hash) throws IOException {
        List<TimedField> fields = liveFields(hash);
        out.writeMillis(minExpiry(fields));
        listpack.reset();
        for (TimedField f : fields) {
            listpack.append(f.field);
            listpack.append(f.value);
            listpack.appendInteger(f.expiry == HashValue.NO_TTL ? RdbConstants.FIELD_NO_TTL : f.expiry);
        }
        out.writeString(listpack.toBytes());
    }

    private void writeMetadata(HashValue hash) throws IOException {
        List<TimedField> fields = liveFields(hash);
        long min = minExpiry(fields);
        out.writeMillis(min);
        out.writeLength(fields.size());
        for (TimedField f : fields) {
            out.writeLength(f.expiry == HashValue.NO_TTL ? RdbConstants.FIELD_NO_TTL : f.expiry - min + 1);
            out.writeString(f.field);
            out.writeString(f.value);
        }
    }

    private interface IoConsumer {
        void accept(byte[] b) throws IOException;
    }

    private static void forEachIo(SetValue set, IoConsumer consumer) throws IOException {
        IOException[] failed = {null};
        set.forEach(member -> {
            if (failed[0] == null) {
                try {
                    consumer.accept(member);
                } catch (IOException e) {
                    failed[0] = e;
                }
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
    }
}
