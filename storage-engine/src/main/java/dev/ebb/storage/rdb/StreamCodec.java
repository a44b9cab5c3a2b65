package dev.ebb.storage.rdb;

import dev.ebb.storage.stream.ConsumerGroup;
import dev.ebb.storage.stream.PendingEntry;
import dev.ebb.storage.stream.StreamConsumer;
import dev.ebb.storage.stream.StreamId;
import dev.ebb.storage.stream.StreamNode;
import dev.ebb.storage.stream.StreamValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A stream in the RDB encoding of Redis 7.2's rdbSaveObject / rdbLoadObject. Written as
 * STREAM_LISTPACKS_3:
 *
 * <pre>
 *   nodes  {master ID (16 bytes, ms and seq big-endian)  listpack}*
 *   length  last-id(ms seq)  first-id  max-deleted-id  entries-added
 *   groups  {name  last-id  entries-read
 *            PEL {ID (16 bytes)  delivery-time (ms LE)  delivery-count}*
 *            consumers {name  seen-time  active-time  PEL {ID (16 bytes)}*}*}*
 * </pre>
 *
 * Every count and number is an RDB length (entries-read -1 as the 64-bit all-ones length).
 * Reading also accepts STREAM_LISTPACKS (no first/max-deleted IDs, entries-added or entries-read:
 * computed as Redis does) and STREAM_LISTPACKS_2 (no consumer active-time: the seen-time is used).
 * Node listpacks are validated element by element; a consumer's pending ID missing from its
 * group's PEL, or a group PEL entry owned by no consumer, is corruption. Stateless.
 */
final class StreamCodec {
    private static final int ID_BYTES = 16;

    private StreamCodec() {
    }

    static void write(RdbOutput out, StreamValue s) throws IOException {
        StreamNode[] nodes = s.nodes();
        out.writeLength(nodes.length);
        for (StreamNode node : nodes) {
            out.writeString(idBytes(node.masterId()));
            out.writeString(node.listpackBytes());
        }
        out.writeLength(s.length());
        writeId(out, s.lastId());
        writeId(out, s.firstId());
        writeId(out, s.maxDeletedId());
        out.writeLength(s.entriesAdded());
        out.writeLength(s.groupCount());
        for (ConsumerGroup g : s.groups()) {
            out.writeString(g.name);
            writeId(out, g.lastId);
            out.writeLength(g.entriesRead);
            out.writeLength(g.pel.size());
            for (PendingEntry p : g.pel.values()) {
                byte[] id = idBytes(p.id);
                out.writeBytes(id, 0, id.length);
                out.writeMillis(p.deliveryTime);
                out.writeLength(p.deliveryCount);
            }
            out.writeLength(g.consumers.size());
            for (StreamConsumer c : g.consumers.values()) {
                out.writeString(c.name);
                out.writeMillis(c.seenTime);
                out.writeMillis(c.activeTime);
                out.writeLength(c.pel.size());
                for (StreamId id : c.pel.keySet()) {
                    byte[] raw = idBytes(id);
                    out.writeBytes(raw, 0, raw.length);
                }
            }
        }
    }

    static StreamValue read(RdbInput in, int type) throws IOException {
        long nodeCount = in.readLength();
        List<StreamNode> nodes = new ArrayList<>((int) Math.min(nodeCount, 1024));
        StreamId previous = null;
        for (long i = 0; i < nodeCount; i++) {
            byte[] key = in.readString();
            if (key.length != ID_BYTES) {
                throw corrupt(in, "Stream node key entry is not the size of a stream ID");
            }
            StreamId master = idOf(key);
            if (previous != null && master.compareTo(previous) <= 0) {
                throw corrupt(in, "Stream node keys out of order");
            }
            previous = master;
            byte[] lp = in.readString();
            try {
                ListpackReader r = new ListpackReader(lp);
                if (!r.hasNext()) {
                    throw corrupt(in, "Empty listpack inside stream");
                }
                while (r.hasNext()) {
                    r.next();
                }
                nodes.add(StreamNode.fromListpack(master, lp));
            } catch (RdbException | IllegalArgumentException e) {
                throw corrupt(in, "Stream listpack integrity check failed: " + e.getMessage());
            }
        }
        long length = in.readLength();
        StreamId lastId = readId(in);
        StreamId firstId;
        StreamId maxDeleted;
        long entriesAdded;
        if (type >= RdbConstants.TYPE_STREAM_LISTPACKS_2) {
            firstId = readId(in);
            maxDeleted = readId(in);
            entriesAdded = in.readUnsignedLength();
        } else {
            firstId = StreamId.MIN;
            maxDeleted = StreamId.MIN;
            entriesAdded = length;
        }
        StreamValue s = StreamValue.restore(nodes, length, lastId, firstId, maxDeleted, entriesAdded);
        if (type < RdbConstants.TYPE_STREAM_LISTPACKS_2 && length > 0) {
            s = StreamValue.restore(nodes, length, lastId, s.edgeId(false), maxDeleted, entriesAdded);
        }
        long groups = in.readLength();
        for (long i = 0; i < groups; i++) {
            readGroup(in, type, s);
        }
        return s;
    }

    private static void readGroup(RdbInput in, int type, StreamValue s) throws IOException {
        byte[] name = in.readString();
        StreamId lastId = readId(in);
        long entriesRead = type >= RdbConstants.TYPE_STREAM_LISTPACKS_2
                ? in.readUnsignedLength() : s.estimateEntriesRead(lastId);
        ConsumerGroup g = s.createGroup(name, lastId, entriesRead);
        if (g == null) {
            throw corrupt(in, "Duplicated consumer group name " + new String(name, java.nio.charset.StandardCharsets.UTF_8));
        }
        long pending = in.readLength();
        for (long j = 0; j < pending; j++) {
            StreamId id = readRawId(in);
            long deliveryTime = in.readLe(8);
            long deliveryCount = in.readUnsignedLength();
            if (g.pel.put(id, new PendingEntry(id, deliveryTime, deliveryCount, null)) != null) {
                throw corrupt(in, "Duplicated global PEL entry loading stream consumer group");
            }
        }
        long consumers = in.readLength();
        for (long j = 0; j < consumers; j++) {
            byte[] cname = in.readString();
            long seen = in.readLe(8);
            long active = type >= RdbConstants.TYPE_STREAM_LISTPACKS_3 ? in.readLe(8) : seen;
            StreamConsumer c = g.createConsumer(cname, seen);
            if (c == null) {
                throw corrupt(in, "Duplicate stream consumer detected");
            }
            c.activeTime = active;
            long owned = in.readLength();
            for (long k = 0; k < owned; k++) {
                StreamId id = readRawId(in);
                PendingEntry p = g.pel.get(id);
                if (p == null || p.consumer != null) {
                    throw corrupt(in, "Consumer entry not found in group global PEL");
                }
                p.consumer = c;
                c.pel.put(id, p);
            }
        }
        for (PendingEntry p : g.pel.values()) {
            if (p.consumer == null) {
                throw corrupt(in, "Stream PEL NACK entry without a consumer");
            }
        }
    }

    private static void writeId(RdbOutput out, StreamId id) throws IOException {
        out.writeLength(id.ms());
        out.writeLength(id.seq());
    }

    private static StreamId readId(RdbInput in) throws IOException {
        long ms = in.readUnsignedLength();
        long seq = in.readUnsignedLength();
        return new StreamId(ms, seq);
    }

    private static StreamId readRawId(RdbInput in) throws IOException {
        byte[] raw = new byte[ID_BYTES];
        in.readFully(raw, 0, ID_BYTES);
        return idOf(raw);
    }

    /** streamEncodeID: ms then seq, each 64-bit big-endian. */
    private static byte[] idBytes(StreamId id) {
        byte[] b = new byte[ID_BYTES];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (id.ms() >>> (56 - 8 * i));
            b[8 + i] = (byte) (id.seq() >>> (56 - 8 * i));
        }
        return b;
    }

    private static StreamId idOf(byte[] b) {
        long ms = 0;
        long seq = 0;
        for (int i = 0; i < 8; i++) {
            ms = (ms << 8) | (b[i] & 0xFF);
            seq = (seq << 8) | (b[8 + i] & 0xFF);
        }
        return new StreamId(ms, seq);
    }

    private static RdbException corrupt(RdbInput in, String what) {
        return RdbException.corrupt(in.consumed(), what);
    }
}
