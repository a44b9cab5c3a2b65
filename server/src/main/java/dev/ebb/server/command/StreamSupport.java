package dev.ebb.server.command;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.server.pubsub.Notifications;
import dev.ebb.storage.stream.ConsumerGroup;
import dev.ebb.storage.stream.StreamConsumer;
import dev.ebb.storage.stream.StreamEntry;
import dev.ebb.storage.stream.StreamId;
import dev.ebb.storage.stream.StreamValue;
import java.nio.charset.StandardCharsets;

/**
 * What the stream families share: parsing IDs as Redis's streamGenericParseIDOrReply does
 * ({@code -}, {@code +}, {@code ms}, {@code ms-seq}, {@code ms-*}, the {@code (} exclusive prefix),
 * typed look-ups that answer WRONGTYPE themselves, the reply of an entry, and the end of a write
 * (memory, WATCH, keyspace event). Stateless.
 */
final class StreamSupport {
    /** Redis copies an ID argument into a 128-byte buffer: longer ones are invalid. */
    private static final int MAX_ID_CHARS = 127;

    private StreamSupport() {
    }

    /** An ID argument of XADD: the ID and whether its sequence was given (false for {@code ms-*}). */
    record IdArg(StreamId id, boolean seqGiven) {
    }

    /**
     * Parses an ID; a missing sequence is {@code missingSeq}. With {@code strict} the bare
     * {@code -} and {@code +} are refused. With {@code seqStar} the {@code ms-*} form is accepted
     * (XADD). Null if invalid (nothing replied).
     */
    static IdArg parse(byte[] arg, long missingSeq, boolean strict, boolean seqStar) {
        if (arg.length > MAX_ID_CHARS) {
            return null;
        }
        if (arg.length == 1 && (arg[0] == '-' || arg[0] == '+')) {
            if (strict) {
                return null;
            }
            return new IdArg(arg[0] == '-' ? StreamId.MIN : StreamId.MAX, true);
        }
        int dash = -1;
        for (int i = 0; i < arg.length; i++) {
            if (arg[i] == '-') {
                dash = i;
                break;
            }
        }
        // Redis cuts the C string at the first NUL.
        int end = arg.length;
        for (int i = 0; i < arg.length; i++) {
            if (arg[i] == 0) {
                end = i;
                break;
            }
        }
        if (dash >= end) {
            dash = -1;
        }
        long[] out = new long[1];
        if (!unsigned(arg, 0, dash < 0 ? end : dash, out)) {
            return null;
        }
        long ms = out[0];
        if (dash < 0) {
            return new IdArg(new StreamId(ms, missingSeq), true);
        }
        if (seqStar && end - dash - 1 == 1 && arg[dash + 1] == '*') {
            return new IdArg(new StreamId(ms, 0), false);
        }
        if (!unsigned(arg, dash + 1, end, out)) {
            return null;
        }
        return new IdArg(new StreamId(ms, out[0]), true);
    }

    /** The IDs {@code argv[from..]} (XDEL, XACK), each strict; null after replying to the first invalid one. */
    static StreamId[] strictIdsOrReply(Client c, byte[][] argv, int from) {
        StreamId[] ids = new StreamId[argv.length - from];
        for (int j = from; j < argv.length; j++) {
            ids[j - from] = strictIdOrReply(c, argv[j], 0);
            if (ids[j - from] == null) {
                return null;
            }
        }
        return ids;
    }

    /** A strict ID (no {@code -} / {@code +}), or null after replying the invalid-ID error. */
    static StreamId strictIdOrReply(Client c, byte[] arg, long missingSeq) {
        IdArg id = parse(arg, missingSeq, true, false);
        if (id == null) {
            c.reply().error(Errors.STREAM_INVALID_ID);
            return null;
        }
        return id.id();
    }

    /**
     * A range bound of XRANGE, XPENDING, XAUTOCLAIM: {@code -}, {@code +}, an ID (the missing
     * sequence is 0 for a start, max for an end), or {@code (ID} exclusive (moved one step in).
     * Null after replying an error.
     */
    static StreamId boundOrReply(Client c, byte[] arg, boolean start) {
        boolean exclusive = arg.length > 1 && arg[0] == '(';
        long missing = start ? 0 : -1L;
        IdArg parsed = exclusive ? parse(java.util.Arrays.copyOfRange(arg, 1, arg.length), missing, true, false)
                : parse(arg, missing, false, false);
        if (parsed == null) {
            c.reply().error(Errors.STREAM_INVALID_ID);
            return null;
        }
        StreamId id = parsed.id();
        if (exclusive) {
            id = start ? id.next() : id.previous();
            if (id == null) {
                c.reply().error(start ? Errors.STREAM_INVALID_START : Errors.STREAM_INVALID_END);
                return null;
            }
        }
        return id;
    }

    /**
     * Redis's string2ull over arg[from, to): a canonical decimal, or else what C's strtoull takes
     * whole (leading blanks, a sign, leading zeros; a '-' negates modulo 2^64), never past 2^64-1.
     */
    private static boolean unsigned(byte[] arg, int from, int to, long[] out) {
        if (from >= to) {
            return false;
        }
        byte[] part = java.util.Arrays.copyOfRange(arg, from, to);
        try {
            long v = Arguments.parseLong(part);
            if (v < 0) {
                return false;
            }
            out[0] = v;
            return true;
        } catch (NumberFormatException e) {
            // strtoull's wider syntax below
        }
        int i = from;
        while (i < to && (arg[i] == ' ' || (arg[i] >= '\t' && arg[i] <= '\r'))) {
            i++;
        }
        boolean negative = false;
        if (i < to && (arg[i] == '+' || arg[i] == '-')) {
            negative = arg[i] == '-';
            i++;
        }
        if (i >= to) {
            return false;
        }
        long v = 0;
        for (; i < to; i++) {
            int d = arg[i] - '0';
            if (d < 0 || d > 9) {
                return false;
            }
            if (Long.compareUnsigned(v, Long.divideUnsigned(-1L - d, 10)) > 0) {
                return false;
            }
            v = v * 10 + d;
        }
        out[0] = negative ? -v : v;
        return true;
    }

    static byte[] idBytes(StreamId id) {
        return id.toString().getBytes(StandardCharsets.US_ASCII);
    }

    static void replyId(RespWriter w, StreamId id) {
        w.bulk(idBytes(id));
    }

    /** An entry as Redis replies it: [id, [field, value, ...]]. */
    static void replyEntry(RespWriter w, StreamEntry e) {
        w.arrayHeader(2);
        replyId(w, e.id());
        byte[][] fields = e.fields();
        byte[][] values = e.values();
        w.arrayHeader(fields.length * 2);
        for (int i = 0; i < fields.length; i++) {
            w.bulk(fields[i]);
            w.bulk(values[i]);
        }
    }

    /** The stream at {@code key} for a read: the stream, null if missing, {@link Values#WRONG_TYPE} after replying. */
    static Object readOrReply(Client c, byte[] key) {
        return Aggregates.lookupReadOrReply(c, key, StreamValue.class);
    }

    /** As {@link #readOrReply} for a command that writes. */
    static Object writeOrReply(Client c, byte[] key) {
        return Aggregates.lookupWriteOrReply(c, key, StreamValue.class);
    }

    /**
     * Ends a change of a stored stream: memory, WATCH signal and the stream keyspace event
     * {@code event}. A stream is never deleted when it empties.
     */
    static void changed(Client c, byte[] key, StreamValue s, long before, String event) {
        Aggregates.changed(c, key, s, before, false, NotifyKeyspaceEvents.STREAM, event);
    }

    /** Publishes a stream keyspace event without a value change to account for. */
    static void notify(Client c, byte[] key, String event) {
        Notifications.notify(c, NotifyKeyspaceEvents.STREAM, event, key);
    }

    /**
     * The consumer {@code name} of group {@code g}, created (with the "xgroup-createconsumer"
     * event) if missing, as Redis's XREADGROUP, XCLAIM and XAUTOCLAIM do.
     */
    static StreamConsumer consumerOrCreate(Client c, byte[] key, ConsumerGroup g, byte[] name) {
        StreamConsumer consumer = g.consumer(name);
        if (consumer == null) {
            consumer = g.createConsumer(name, c.server().nowMs());
            notify(c, key, "xgroup-createconsumer");
        }
        return consumer;
    }

    /** A null reply for a missing value: RESP2 null bulk, RESP3 null. */
    static void replyNull(Client c) {
        c.reply().nullBulk();
    }
}
