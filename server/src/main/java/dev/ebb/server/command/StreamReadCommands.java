package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.BLOCKING;
import static dev.ebb.server.command.CommandFlags.MOVABLE_KEYS;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.storage.stream.ConsumerGroup;
import dev.ebb.storage.stream.PendingEntry;
import dev.ebb.storage.stream.StreamConsumer;
import dev.ebb.storage.stream.StreamEntry;
import dev.ebb.storage.stream.StreamId;
import dev.ebb.storage.stream.StreamValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * XREAD and XREADGROUP, one routine as in Redis. The arguments are parsed once
 * ({@link #parseOrReply}: options, then per key its type, group and ID); {@link #serve} answers
 * with every stream that has something, or returns false. With BLOCK and nothing to serve the
 * client waits on {@link dev.ebb.server.BlockingKeys} with {@link #serve} as its retry, run again
 * when an XADD (or anything else writing the key) signals it: Redis 7.2's re-execution of the
 * blocked command. {@code $} is fixed to the stream's last ID when the command first runs, so a
 * retry waits for what came after it. XREADGROUP waiters are also retried when their key is
 * deleted or changes type, so they answer NOGROUP or WRONGTYPE as Redis does; a group destroyed
 * while they wait signals the key too ({@link StreamGroupCommands}).
 *
 * <p>Reply: RESP2 an array of [key, entries] pairs; RESP3 a map of key to entries. Inside MULTI
 * or a script no client blocks: the answer is the timeout reply (null) at once.
 */
public final class StreamReadCommands {
    /** The ID given as {@code >}: only entries never delivered to the group. */
    private static final StreamId UNDELIVERED = StreamId.MAX;

    private StreamReadCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        CommandGroup g = CommandGroup.STREAM;
        return List.of(
                spec("xread", -4, READONLY | BLOCKING | MOVABLE_KEYS, 0, 0, 0, StreamReadCommands::xread)
                        .keys(StreamReadCommands::streamKeys)
                        .doc(g, "5.0.0", "Returns messages from multiple streams with IDs greater than the ones"
                                + " requested. Blocks until a message is available otherwise.",
                                "[COUNT count] [BLOCK milliseconds] STREAMS key [key ...] id [id ...]"),
                spec("xreadgroup", -7, WRITE | BLOCKING | MOVABLE_KEYS, 0, 0, 0, StreamReadCommands::xreadgroup)
                        .keys(StreamReadCommands::streamKeys)
                        .doc(g, "5.0.0", "Returns new or historical messages from a stream for a consumer in a"
                                + " group. Blocks until a message is available otherwise.",
                                "GROUP group consumer [COUNT count] [BLOCK milliseconds] [NOACK] STREAMS key"
                                        + " [key ...] id [id ...]"));
    }

    /** The keys of XREAD/XREADGROUP: the first half of the arguments after STREAMS. */
    static int[] streamKeys(byte[][] argv) {
        for (int i = 1; i < argv.length; i++) {
            if (Arguments.is(argv[i], "streams")) {
                int n = (argv.length - i - 1) / 2;
                int[] keys = new int[n];
                for (int k = 0; k < n; k++) {
                    keys[k] = i + 1 + k;
                }
                return keys;
            }
        }
        return new int[0];
    }

    /** A parsed XREAD / XREADGROUP. */
    private static final class ReadArgs {
        long timeoutMs = -1;
        long count;
        boolean noack;
        byte[] group;
        byte[] consumer;
        byte[][] keys;
        StreamId[] ids;
    }

    static void xread(Client c, byte[][] argv) {
        read(c, argv, false);
    }

    static void xreadgroup(Client c, byte[][] argv) {
        read(c, argv, true);
    }

    private static void read(Client c, byte[][] argv, boolean xreadgroup) {
        ReadArgs a = parseOrReply(c, argv, xreadgroup);
        if (a == null || serve(c, a)) {
            return;
        }
        if (a.timeoutMs < 0) {
            c.reply().nullArray();
            return;
        }
        if (c.denyBlocking()) {
            c.reply().nullArray();
            return;
        }
        long deadline = a.timeoutMs == 0 ? 0 : c.server().nowMs() + a.timeoutMs;
        c.server().blockingKeys().block(c, a.keys, deadline, StreamValue.class, client -> serve(client, a),
                client -> client.reply().nullArray(), true, xreadgroup);
    }

    private static ReadArgs parseOrReply(Client c, byte[][] argv, boolean xreadgroup) {
        ReadArgs a = new ReadArgs();
        String name = xreadgroup ? "xreadgroup" : "xread";
        int streamsArg = 0;
        int streams = 0;
        for (int i = 1; i < argv.length; i++) {
            int more = argv.length - i - 1;
            byte[] o = argv[i];
            if (Arguments.is(o, "block") && more > 0) {
                if (c.inScript()) {
                    c.reply().error(Errors.streamBlockInScript(argv[0]));
                    return null;
                }
                i++;
                a.timeoutMs = timeoutOrReply(c, argv[i]);
                if (a.timeoutMs < 0) {
                    return null;
                }
            } else if (Arguments.is(o, "count") && more > 0) {
                i++;
                long n = Arguments.longOrReply(c, argv[i]);
                if (n == Arguments.INVALID) {
                    return null;
                }
                a.count = Math.max(n, 0);
            } else if (Arguments.is(o, "streams") && more > 0) {
                streamsArg = i + 1;
                streams = argv.length - streamsArg;
                if (streams % 2 != 0) {
                    c.reply().error(Errors.streamUnbalanced(name, xreadgroup ? '>' : '$'));
                    return null;
                }
                streams /= 2;
                break;
            } else if (Arguments.is(o, "group") && more >= 2) {
                if (!xreadgroup) {
                    c.reply().error(Errors.STREAM_GROUP_ONLY_XREADGROUP);
                    return null;
                }
                a.group = argv[i + 1];
                a.consumer = argv[i + 2];
                i += 2;
            } else if (Arguments.is(o, "noack")) {
                if (!xreadgroup) {
                    c.reply().error(Errors.STREAM_NOACK_ONLY_XREADGROUP);
                    return null;
                }
                a.noack = true;
            } else {
                c.reply().error(Errors.SYNTAX);
                return null;
            }
        }
        if (streamsArg == 0) {
            c.reply().error(Errors.SYNTAX);
            return null;
        }
        if (xreadgroup && a.group == null) {
            c.reply().error(Errors.STREAM_MISSING_GROUP);
            return null;
        }
        a.keys = Arrays.copyOfRange(argv, streamsArg, streamsArg + streams);
        a.ids = new StreamId[streams];
        for (int k = 0; k < streams; k++) {
            byte[] key = a.keys[k];
            byte[] idArg = argv[streamsArg + streams + k];
            Object o = c.db().lookupRead(key, c.server().nowMs());
            if (o != null && !(o instanceof StreamValue)) {
                c.reply().error(Errors.WRONGTYPE);
                return null;
            }
            StreamValue s = (StreamValue) o;
            if (a.group != null && (s == null || s.group(a.group) == null)) {
                c.reply().error(Errors.noGroupXreadgroup(key, a.group));
                return null;
            }
            if (idArg.length == 1 && idArg[0] == '$') {
                if (xreadgroup) {
                    c.reply().error(Errors.STREAM_DOLLAR_IN_XREADGROUP);
                    return null;
                }
                a.ids[k] = s == null ? StreamId.MIN : s.lastId();
            } else if (idArg.length == 1 && idArg[0] == '>') {
                if (!xreadgroup) {
                    c.reply().error(Errors.STREAM_GT_IN_XREAD);
                    return null;
                }
                a.ids[k] = UNDELIVERED;
            } else {
                a.ids[k] = StreamSupport.strictIdOrReply(c, idArg, 0);
                if (a.ids[k] == null) {
                    return null;
                }
            }
        }
        return a;
    }

    /** BLOCK's milliseconds: -1 after replying an error. */
    private static long timeoutOrReply(Client c, byte[] arg) {
        long ms;
        try {
            ms = Arguments.parseLong(arg);
        } catch (NumberFormatException e) {
            c.reply().error(Errors.TIMEOUT_NOT_INTEGER);
            return -1;
        }
        if (ms < 0) {
            c.reply().error(Errors.TIMEOUT_NEGATIVE);
            return -1;
        }
        return ms;
    }

    /**
     * The serving step: replies with every stream that has entries for the reader (or, for
     * XREADGROUP with an ID, its consumer's history) and returns true; returns true after an
     * error reply (a key of another type, a missing group); false, without a reply, if nothing
     * can be served now.
     */
    private static boolean serve(Client c, ReadArgs a) {
        int n = a.keys.length;
        long now = c.server().nowMs();
        StreamValue[] streams = new StreamValue[n];
        ConsumerGroup[] groups = new ConsumerGroup[n];
        for (int k = 0; k < n; k++) {
            Object o = c.db().lookupRead(a.keys[k], now);
            if (o != null && !(o instanceof StreamValue)) {
                c.reply().error(Errors.WRONGTYPE);
                return true;
            }
            streams[k] = (StreamValue) o;
            if (a.group != null) {
                groups[k] = streams[k] == null ? null : streams[k].group(a.group);
                if (groups[k] == null) {
                    c.reply().error(Errors.noGroupXreadgroup(a.keys[k], a.group));
                    return true;
                }
            }
        }
        List<Object[]> served = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            StreamValue s = streams[k];
            if (s == null) {
                continue;
            }
            if (a.group == null) {
                List<StreamEntry> entries = after(s, a.ids[k], a.count);
                if (!entries.isEmpty()) {
                    served.add(new Object[] {a.keys[k], entries});
                }
                continue;
            }
            ConsumerGroup g = groups[k];
            long before = s.memoryBytes();
            StreamConsumer consumer = StreamSupport.consumerOrCreate(c, a.keys[k], g, a.consumer);
            consumer.seenTime = now;
            if (!a.ids[k].equals(UNDELIVERED)) {
                served.add(new Object[] {a.keys[k], history(s, consumer, a.ids[k], a.count, now)});
                c.db().adjustMemory(s.memoryBytes() - before);
                continue;
            }
            List<StreamEntry> entries = after(s, g.lastId, a.count);
            if (!entries.isEmpty()) {
                deliver(c, a.keys[k], s, g, consumer, entries, a.noack, now);
                served.add(new Object[] {a.keys[k], entries});
            }
            c.db().adjustMemory(s.memoryBytes() - before);
        }
        if (served.isEmpty()) {
            return false;
        }
        RespWriter w = c.reply();
        if (c.protocol() == 3) {
            w.mapHeader(served.size());
        } else {
            w.arrayHeader(served.size());
        }
        for (Object[] one : served) {
            if (c.protocol() != 3) {
                w.arrayHeader(2);
            }
            w.bulk((byte[]) one[0]);
            @SuppressWarnings("unchecked")
            List<Object> entries = (List<Object>) one[1];
            w.arrayHeader(entries.size());
            for (Object e : entries) {
                if (e instanceof StreamEntry entry) {
                    StreamSupport.replyEntry(w, entry);
                } else {
                    w.arrayHeader(2);
                    StreamSupport.replyId(w, (StreamId) e);
                    w.nullArray();
                }
            }
        }
        return true;
    }

    /** Up to {@code count} (0 = all) live entries after {@code id}. */
    private static List<StreamEntry> after(StreamValue s, StreamId id, long count) {
        List<StreamEntry> out = new ArrayList<>();
        StreamId start = id.next();
        if (start == null || s.length() == 0) {
            return out;
        }
        s.forEach(start, StreamId.MAX, false, e -> {
            out.add(e);
            return count == 0 || out.size() < count;
        });
        return out;
    }

    /**
     * New entries delivered to {@code consumer}: the group's last ID and entries-read move on and,
     * unless NOACK, each entry joins the PEL (taken from another consumer if XGROUP SETID made it
     * pending there already).
     */
    private static void deliver(Client c, byte[] key, StreamValue s, ConsumerGroup g, StreamConsumer consumer,
            List<StreamEntry> entries, boolean noack, long now) {
        for (StreamEntry e : entries) {
            s.advanceGroup(g, e.id());
            if (noack) {
                continue;
            }
            PendingEntry p = g.pel.get(e.id());
            if (p == null) {
                p = new PendingEntry(e.id(), now, 1, consumer);
                g.pel.put(e.id(), p);
            } else {
                p.consumer.pel.remove(e.id());
                p.consumer = consumer;
                p.deliveryTime = now;
                p.deliveryCount = 1;
            }
            consumer.pel.put(e.id(), p);
            consumer.activeTime = now;
        }
        c.db().signalModifiedKey(key);
    }

    /**
     * A consumer's history: its pending entries after {@code start}, each delivered
     * again (time and count updated); an entry deleted since is its ID with a null body.
     */
    private static List<Object> history(StreamValue s, StreamConsumer consumer, StreamId start, long count,
            long now) {
        List<Object> out = new ArrayList<>();
        for (Map.Entry<StreamId, PendingEntry> pe : consumer.pel.tailMap(start, false).entrySet()) {
            if (count != 0 && out.size() >= count) {
                break;
            }
            StreamEntry e = s.get(pe.getKey());
            if (e == null) {
                out.add(pe.getKey());
            } else {
                PendingEntry p = pe.getValue();
                p.deliveryTime = now;
                p.deliveryCount++;
                out.add(e);
            }
        }
        return out;
    }
}
