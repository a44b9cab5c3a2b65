package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.server.config.ServerConfig;
import dev.ebb.storage.stream.StreamId;
import dev.ebb.storage.stream.StreamValue;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The stream family's entry commands: XADD, XRANGE, XREVRANGE, XLEN, XDEL, XTRIM, XSETID over
 * {@link StreamValue}. XADD and XTRIM share the trimming options ({@link #parseAddOrTrim}, Redis's
 * streamParseAddOrTrimArgsOrReply); reads go through {@link StreamValue#forEach}. Groups are
 * {@link StreamGroupCommands}, reads with blocking {@link StreamReadCommands}, XINFO
 * {@link StreamInfoCommands}.
 */
public final class StreamCommands {
    /** Redis caps the default LIMIT of an approximate trim between these. */
    private static final long APPROX_LIMIT_MIN = 10_000;
    private static final long APPROX_LIMIT_MAX = 1_000_000;

    private StreamCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        CommandGroup g = CommandGroup.STREAM;
        return List.of(
                spec("xadd", -5, WRITE | DENYOOM | FAST, 1, 1, 1, StreamCommands::xadd)
                        .doc(g, "5.0.0", "Appends a new message to a stream. Creates the key if it doesn't exist.",
                                "key [NOMKSTREAM] [<MAXLEN | MINID> [= | ~] threshold [LIMIT count]]"
                                        + " <* | id> field value [field value ...]"),
                spec("xrange", -4, READONLY, 1, 1, 1, StreamCommands::xrange)
                        .doc(g, "5.0.0", "Returns the messages from a stream within a range of IDs.",
                                "key start end [COUNT count]"),
                spec("xrevrange", -4, READONLY, 1, 1, 1, StreamCommands::xrevrange)
                        .doc(g, "5.0.0", "Returns the messages from a stream within a range of IDs in reverse"
                                + " order.", "key end start [COUNT count]"),
                spec("xlen", 2, READONLY | FAST, 1, 1, 1, StreamCommands::xlen)
                        .doc(g, "5.0.0", "Return the number of messages in a stream.", "key"),
                spec("xdel", -3, WRITE | FAST, 1, 1, 1, StreamCommands::xdel)
                        .doc(g, "5.0.0", "Returns the number of messages after removing them from a stream.",
                                "key id [id ...]"),
                spec("xtrim", -4, WRITE, 1, 1, 1, StreamCommands::xtrim)
                        .doc(g, "5.0.0", "Deletes messages from the beginning of a stream.",
                                "key <MAXLEN | MINID> [= | ~] threshold [LIMIT count]"),
                spec("xsetid", -3, WRITE | DENYOOM | FAST, 1, 1, 1, StreamCommands::xsetid)
                        .doc(g, "5.0.0", "An internal command for replicating stream values.",
                                "key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id]"));
    }

    // ---------------------------------------------------------------- trimming options

    /** The options of XADD / XTRIM. {@code idIndex} is where XADD's ID is (the fields follow it). */
    static final class AddTrimArgs {
        boolean maxlenStrategy;
        boolean minidStrategy;
        long maxlen;
        StreamId minId;
        boolean approx;
        long limit;
        boolean noMkstream;
        StreamId id;
        boolean seqGiven = true;
        int idIndex;
        /** Where MAXLEN's or MINID's threshold is in argv (after the {@code ~} or {@code =}, if any). */
        int thresholdIndex;

        boolean trims() {
            return maxlenStrategy || minidStrategy;
        }
    }

    /** Parses XADD's (with {@code xadd}) or XTRIM's options; null after replying an error. */
    static AddTrimArgs parseAddOrTrim(Client c, byte[][] argv, boolean xadd) {
        AddTrimArgs a = new AddTrimArgs();
        boolean limitGiven = false;
        int i = 2;
        for (; i < argv.length; i++) {
            int more = argv.length - 1 - i;
            byte[] opt = argv[i];
            if (xadd && opt.length == 1 && opt[0] == '*') {
                break;
            } else if (Arguments.is(opt, "maxlen") && more > 0) {
                if (a.trims()) {
                    c.reply().error(Errors.STREAM_MAXLEN_AND_MINID);
                    return null;
                }
                i = approxMarker(a, argv, i, more);
                a.thresholdIndex = i + 1;
                long n = Arguments.longOrReply(c, argv[i + 1]);
                if (n == Arguments.INVALID) {
                    return null;
                }
                if (n < 0) {
                    c.reply().error(Errors.STREAM_MAXLEN_NEGATIVE);
                    return null;
                }
                a.maxlen = n;
                a.maxlenStrategy = true;
                i++;
            } else if (Arguments.is(opt, "minid") && more > 0) {
                if (a.trims()) {
                    c.reply().error(Errors.STREAM_MAXLEN_AND_MINID);
                    return null;
                }
                i = approxMarker(a, argv, i, more);
                a.thresholdIndex = i + 1;
                a.minId = StreamSupport.strictIdOrReply(c, argv[i + 1], 0);
                if (a.minId == null) {
                    return null;
                }
                a.minidStrategy = true;
                i++;
            } else if (Arguments.is(opt, "limit") && more > 0) {
                long n = Arguments.longOrReply(c, argv[i + 1]);
                if (n == Arguments.INVALID) {
                    return null;
                }
                if (n < 0) {
                    c.reply().error(Errors.STREAM_LIMIT_NEGATIVE);
                    return null;
                }
                a.limit = n;
                limitGiven = true;
                i++;
            } else if (xadd && Arguments.is(opt, "nomkstream")) {
                a.noMkstream = true;
            } else if (xadd) {
                StreamSupport.IdArg id = StreamSupport.parse(opt, 0, true, true);
                if (id == null) {
                    c.reply().error(Errors.STREAM_INVALID_ID);
                    return null;
                }
                a.id = id.id();
                a.seqGiven = id.seqGiven();
                break;
            } else {
                c.reply().error(Errors.SYNTAX);
                return null;
            }
        }
        if (a.limit != 0 && !a.trims()) {
            c.reply().error(Errors.STREAM_LIMIT_WITHOUT_STRATEGY);
            return null;
        }
        if (!xadd && !a.trims()) {
            c.reply().error(Errors.STREAM_XTRIM_WITHOUT_STRATEGY);
            return null;
        }
        if (c.mustObey()) {
            // The primary (or the run that wrote the AOF) trimmed already and sent the exact result.
            a.limit = 0;
        } else if (limitGiven) {
            if (!a.approx) {
                c.reply().error(Errors.STREAM_LIMIT_WITHOUT_APPROX);
                return null;
            }
        } else if (a.approx) {
            long limit = 100 * c.server().config().streamNodeMaxEntries();
            a.limit = limit <= 0 ? APPROX_LIMIT_MIN : Math.min(limit, APPROX_LIMIT_MAX);
        }
        a.idIndex = i;
        return a;
    }

    /** Consumes a {@code ~} or {@code =} after MAXLEN/MINID; returns the index before the threshold. */
    private static int approxMarker(AddTrimArgs a, byte[][] argv, int i, int more) {
        a.approx = false;
        byte[] next = argv[i + 1];
        if (more >= 2 && next.length == 1 && (next[0] == '~' || next[0] == '=')) {
            a.approx = next[0] == '~';
            return i + 1;
        }
        return i;
    }

    private static long trim(StreamValue s, AddTrimArgs a) {
        return s.trim(a.maxlenStrategy ? a.maxlen : 0, a.minidStrategy ? a.minId : null, a.approx, a.limit);
    }

    // ---------------------------------------------------------------- XADD

    static void xadd(Client c, byte[][] argv) {
        AddTrimArgs a = parseAddOrTrim(c, argv, true);
        if (a == null) {
            return;
        }
        int fieldPos = a.idIndex + 1;
        int pairs = argv.length - fieldPos;
        if (pairs < 2 || pairs % 2 == 1) {
            c.reply().error(Errors.wrongArity("xadd"));
            return;
        }
        if (a.id != null && a.seqGiven && a.id.isMin()) {
            c.reply().error(Errors.STREAM_ID_ZERO);
            return;
        }
        byte[] key = argv[1];
        Object found = StreamSupport.writeOrReply(c, key);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null && a.noMkstream) {
            StreamSupport.replyNull(c);
            return;
        }
        StreamValue s = found == null ? new StreamValue() : (StreamValue) found;
        if (s.lastId().isMax()) {
            c.reply().error(Errors.STREAM_EXHAUSTED);
            return;
        }
        StreamId id = nextId(s, a, c.server().nowMs());
        if (id == null || id.compareTo(s.lastId()) <= 0) {
            c.reply().error(Errors.STREAM_ID_TOO_SMALL);
            return;
        }
        ServerConfig config = c.server().config();
        long before = s.memoryBytes();
        s.append(id, argv, fieldPos, argv.length, config.streamNodeMaxEntries(), config.streamNodeMaxBytes());
        StreamSupport.replyId(c.reply(), id);
        if (found == null) {
            Aggregates.created(c, key, s, dev.ebb.server.config.NotifyKeyspaceEvents.STREAM, "xadd");
            before = s.memoryBytes();
        } else {
            StreamSupport.changed(c, key, s, before, "xadd");
            before = s.memoryBytes();
        }
        if (a.trims() && trim(s, a) > 0) {
            StreamSupport.changed(c, key, s, before, "xtrim");
        }
        if (c.server().propagation().active()) {
            // As Redis: replicas and the AOF get the ID this XADD generated, not "*" or "ms-*",
            // and an approximate trim as the exact one it turned out to be.
            byte[][] propagated = argv.clone();
            propagated[a.idIndex] = StreamSupport.idBytes(id);
            if (a.approx) {
                exactTrim(propagated, s, a);
            }
            c.server().propagation().rewrite(propagated);
        }
        c.server().blockingKeys().signalKeyAsReady(c.db(), key);
    }

    /**
     * Rewrites {@code MAXLEN|MINID ~ threshold} in a copy of argv as {@code = <what is left>}: the
     * stream's length, or its first entry's ID (the largest ID when it is empty), so that a replica
     * or an AOF replay trims exactly what this node's node-granular trim removed (Redis's
     * streamRewriteApproxSpecifier and streamRewriteTrimArgument).
     */
    private static void exactTrim(byte[][] propagated, StreamValue s, AddTrimArgs a) {
        propagated[a.thresholdIndex - 1] = new byte[] {'='};
        if (a.maxlenStrategy) {
            propagated[a.thresholdIndex] = Long.toString(s.length()).getBytes(StandardCharsets.US_ASCII);
        } else {
            StreamId first = s.length() == 0 ? StreamId.MAX : s.edgeId(false);
            propagated[a.thresholdIndex] = StreamSupport.idBytes(first);
        }
    }

    /** The ID XADD assigns: the given one, {@code ms-*} completed, or one from the clock; null if none fits. */
    private static StreamId nextId(StreamValue s, AddTrimArgs a, long nowMs) {
        StreamId last = s.lastId();
        if (a.id != null) {
            if (a.seqGiven) {
                return a.id;
            }
            if (last.ms() == a.id.ms()) {
                return last.seq() == -1L ? null : new StreamId(last.ms(), last.seq() + 1);
            }
            return a.id;
        }
        if (Long.compareUnsigned(nowMs, last.ms()) > 0) {
            return new StreamId(nowMs, 0);
        }
        return last.next();
    }

    // ---------------------------------------------------------------- XRANGE, XREVRANGE, XLEN

    static void xrange(Client c, byte[][] argv) {
        range(c, argv, false);
    }

    static void xrevrange(Client c, byte[][] argv) {
        range(c, argv, true);
    }

    private static void range(Client c, byte[][] argv, boolean rev) {
        StreamId start = StreamSupport.boundOrReply(c, rev ? argv[3] : argv[2], true);
        if (start == null) {
            return;
        }
        StreamId end = StreamSupport.boundOrReply(c, rev ? argv[2] : argv[3], false);
        if (end == null) {
            return;
        }
        long count = -1;
        for (int j = 4; j < argv.length; j++) {
            if (Arguments.is(argv[j], "count") && j + 1 < argv.length) {
                count = Arguments.longOrReply(c, argv[j + 1]);
                if (count == Arguments.INVALID) {
                    return;
                }
                count = Math.max(count, 0);
                j++;
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        Object found = StreamSupport.readOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().emptyArray();
            return;
        }
        if (count == 0) {
            c.reply().nullArray();
            return;
        }
        replyRange(c.reply(), (StreamValue) found, start, end, count < 0 ? 0 : count, rev);
    }

    /**
     * Replies the entries in [start, end] (at most {@code count}, 0 = all) as an array, written
     * straight from the node bytes: a counting pass for the array length, then the entries.
     */
    static void replyRange(RespWriter w, StreamValue s, StreamId start, StreamId end, long count, boolean rev) {
        long n = s.countRange(start, end, count);
        w.arrayHeader((int) n);
        if (n > 0) {
            s.writeRange(start, end, rev, count, new ReplySink(w));
        }
    }

    /** Writes entries handed over by {@link StreamValue#writeRange} as [id, [field, value ...]]. */
    private static final class ReplySink implements StreamValue.EntrySink {
        private final RespWriter w;

        ReplySink(RespWriter w) {
            this.w = w;
        }

        @Override
        public void begin(long ms, long seq, int pairs) {
            w.arrayHeader(2);
            w.bulk(Long.toUnsignedString(ms) + "-" + Long.toUnsignedString(seq));
            w.arrayHeader(2 * pairs);
        }

        @Override
        public void bytes(byte[] buf, int off, int len) {
            w.bulk(buf, off, len);
        }

        @Override
        public void integer(long v) {
            w.bulk(v);
        }
    }

    static void xlen(Client c, byte[][] argv) {
        Object found = StreamSupport.readOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        c.reply().integer(found == null ? 0 : ((StreamValue) found).length());
    }

    // ---------------------------------------------------------------- XDEL, XTRIM, XSETID

    static void xdel(Client c, byte[][] argv) {
        Object found = StreamSupport.writeOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().integer(0);
            return;
        }
        StreamId[] ids = StreamSupport.strictIdsOrReply(c, argv, 2);
        if (ids == null) {
            return;
        }
        StreamValue s = (StreamValue) found;
        long before = s.memoryBytes();
        int deleted = 0;
        for (StreamId id : ids) {
            if (s.delete(id)) {
                deleted++;
            }
        }
        if (deleted > 0) {
            StreamSupport.changed(c, argv[1], s, before, "xdel");
        }
        c.reply().integer(deleted);
    }

    static void xtrim(Client c, byte[][] argv) {
        AddTrimArgs a = parseAddOrTrim(c, argv, false);
        if (a == null) {
            return;
        }
        Object found = StreamSupport.writeOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().integer(0);
            return;
        }
        StreamValue s = (StreamValue) found;
        long before = s.memoryBytes();
        long deleted = trim(s, a);
        if (deleted > 0) {
            StreamSupport.changed(c, argv[1], s, before, "xtrim");
            if (a.approx && c.server().propagation().active()) {
                byte[][] propagated = argv.clone();
                exactTrim(propagated, s, a);
                c.server().propagation().rewrite(propagated);
            }
        }
        c.reply().integer(deleted);
    }

    static void xsetid(Client c, byte[][] argv) {
        StreamId id = StreamSupport.strictIdOrReply(c, argv[2], 0);
        if (id == null) {
            return;
        }
        long entriesAdded = -1;
        StreamId maxDeleted = StreamId.MIN;
        for (int i = 3; i < argv.length; i += 2) {
            boolean more = i + 1 < argv.length;
            if (more && Arguments.is(argv[i], "entriesadded")) {
                entriesAdded = Arguments.longOrReply(c, argv[i + 1]);
                if (entriesAdded == Arguments.INVALID) {
                    return;
                }
                if (entriesAdded < 0) {
                    c.reply().error(Errors.STREAM_ENTRIES_ADDED_NEGATIVE);
                    return;
                }
            } else if (more && Arguments.is(argv[i], "maxdeletedid")) {
                maxDeleted = StreamSupport.strictIdOrReply(c, argv[i + 1], 0);
                if (maxDeleted == null) {
                    return;
                }
                if (id.compareTo(maxDeleted) < 0) {
                    c.reply().error(Errors.STREAM_XSETID_BELOW_GIVEN_MAX_DELETED);
                    return;
                }
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        Object found = StreamSupport.writeOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().error(Errors.NO_SUCH_KEY);
            return;
        }
        StreamValue s = (StreamValue) found;
        if (id.compareTo(s.maxDeletedId()) < 0) {
            c.reply().error(Errors.STREAM_XSETID_BELOW_MAX_DELETED);
            return;
        }
        if (s.length() > 0) {
            if (id.compareTo(s.edgeId(true)) < 0) {
                c.reply().error(Errors.STREAM_XSETID_BELOW_TOP);
                return;
            }
            if (entriesAdded != -1 && s.length() > entriesAdded) {
                c.reply().error(Errors.STREAM_XSETID_ENTRIES_ADDED);
                return;
            }
        }
        s.setLastId(id, entriesAdded, maxDeleted.isMin() ? null : maxDeleted);
        c.reply().ok();
        StreamSupport.notify(c, argv[1], "xsetid");
    }
}
