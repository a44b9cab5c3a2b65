package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandSpec.container;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.resp.RespWriter;
import dev.ebb.server.Client;
import dev.ebb.storage.stream.ConsumerGroup;
import dev.ebb.storage.stream.PendingEntry;
import dev.ebb.storage.stream.StreamConsumer;
import dev.ebb.storage.stream.StreamEntry;
import dev.ebb.storage.stream.StreamId;
import dev.ebb.storage.stream.StreamValue;
import java.util.List;

/**
 * XINFO STREAM [FULL [COUNT n]], XINFO GROUPS and XINFO CONSUMERS: maps in RESP3, flat
 * key/value arrays in RESP2, with Redis 7.2's fields in Redis's order.
 */
public final class StreamInfoCommands {
    private static final String[] XINFO_HELP = {
        "XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "CONSUMERS <key> <groupname>",
        "    Show consumers of <groupname>.",
        "GROUPS <key>",
        "    Show the stream consumer groups.",
        "STREAM <key> [FULL [COUNT <count>]",
        "    Show information about the stream.",
        "HELP",
        "    Print this help.",
    };
    /** FULL lists at most this many entries and PEL entries unless COUNT says otherwise. */
    private static final long FULL_DEFAULT_COUNT = 10;

    private StreamInfoCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        CommandGroup g = CommandGroup.STREAM;
        return List.of(
                container("xinfo", -2, 0)
                        .doc(g, "5.0.0", "A container for stream introspection commands.", "")
                        .sub(spec("consumers", 4, READONLY, 2, 2, 1, StreamInfoCommands::consumers)
                                .doc(g, "5.0.0", "Returns a list of the consumers in a consumer group.", "key group"))
                        .sub(spec("groups", 3, READONLY, 2, 2, 1, StreamInfoCommands::groups)
                                .doc(g, "5.0.0", "Returns a list of the consumer groups of a stream.", "key"))
                        .sub(spec("stream", -3, READONLY, 2, 2, 1, StreamInfoCommands::stream)
                                .doc(g, "5.0.0", "Returns information about a stream.", "key [FULL [COUNT count]]"))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0,
                                (c, argv) -> ObjectCommands.replyHelp(c, XINFO_HELP))
                                .doc(g, "5.0.0", "Returns helpful text about the different subcommands.", "")));
    }

    /** The stream at argv[2], or null after replying (no such key, WRONGTYPE). */
    private static StreamValue streamOrReply(Client c, byte[][] argv) {
        Object found = StreamSupport.readOrReply(c, argv[2]);
        if (found == Values.WRONG_TYPE) {
            return null;
        }
        if (found == null) {
            c.reply().error(Errors.NO_SUCH_KEY);
            return null;
        }
        return (StreamValue) found;
    }

    static void consumers(Client c, byte[][] argv) {
        StreamValue s = streamOrReply(c, argv);
        if (s == null) {
            return;
        }
        ConsumerGroup g = s.group(argv[3]);
        if (g == null) {
            c.reply().error(Errors.noGroupForKey(argv[3], argv[2]));
            return;
        }
        long now = c.server().nowMs();
        RespWriter w = c.reply();
        w.arrayHeader(g.consumers.size());
        for (StreamConsumer consumer : g.consumers.values()) {
            w.mapHeader(4);
            w.bulk("name");
            w.bulk(consumer.name);
            w.bulk("pending");
            w.integer(consumer.pel.size());
            w.bulk("idle");
            w.integer(Math.max(0, now - consumer.seenTime));
            w.bulk("inactive");
            w.integer(consumer.activeTime == -1 ? -1 : now - consumer.activeTime);
        }
    }

    static void groups(Client c, byte[][] argv) {
        StreamValue s = streamOrReply(c, argv);
        if (s == null) {
            return;
        }
        RespWriter w = c.reply();
        w.arrayHeader(s.groupCount());
        for (ConsumerGroup g : s.groups()) {
            w.mapHeader(6);
            w.bulk("name");
            w.bulk(g.name);
            w.bulk("consumers");
            w.integer(g.consumers.size());
            w.bulk("pending");
            w.integer(g.pel.size());
            w.bulk("last-delivered-id");
            StreamSupport.replyId(w, g.lastId);
            replyCounters(w, s, g);
        }
    }

    /** entries-read (null when unknown) and lag (null when it cannot be known). */
    private static void replyCounters(RespWriter w, StreamValue s, ConsumerGroup g) {
        w.bulk("entries-read");
        if (g.entriesRead == StreamValue.INVALID_ENTRIES_READ) {
            w.nullBulk();
        } else {
            w.integer(g.entriesRead);
        }
        w.bulk("lag");
        long lag = s.lag(g);
        if (lag < 0) {
            w.nullBulk();
        } else {
            w.integer(lag);
        }
    }

    static void stream(Client c, byte[][] argv) {
        boolean full = false;
        long count = FULL_DEFAULT_COUNT;
        int options = argv.length - 3;
        if (options > 0) {
            if ((options != 1 && options != 3) || !Arguments.is(argv[3], "full")
                    || (options == 3 && !Arguments.is(argv[4], "count"))) {
                c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "XINFO"));
                return;
            }
            full = true;
            if (options == 3) {
                count = Arguments.longOrReply(c, argv[5]);
                if (count == Arguments.INVALID) {
                    return;
                }
                if (count < 0) {
                    count = FULL_DEFAULT_COUNT;
                }
            }
        }
        StreamValue s = streamOrReply(c, argv);
        if (s == null) {
            return;
        }
        RespWriter w = c.reply();
        w.mapHeader(full ? 9 : 10);
        w.bulk("length");
        w.integer(s.length());
        w.bulk("radix-tree-keys");
        w.integer(s.nodeCount());
        w.bulk("radix-tree-nodes");
        w.integer(s.radixTreeNodes());
        w.bulk("last-generated-id");
        StreamSupport.replyId(w, s.lastId());
        w.bulk("max-deleted-entry-id");
        StreamSupport.replyId(w, s.maxDeletedId());
        w.bulk("entries-added");
        w.integer(s.entriesAdded());
        w.bulk("recorded-first-entry-id");
        StreamSupport.replyId(w, s.firstId());
        if (!full) {
            w.bulk("groups");
            w.integer(s.groupCount());
            w.bulk("first-entry");
            replyEdge(w, s, false);
            w.bulk("last-entry");
            replyEdge(w, s, true);
            return;
        }
        w.bulk("entries");
        StreamCommands.replyRange(w, s, StreamId.MIN, StreamId.MAX, count, false);
        w.bulk("groups");
        w.arrayHeader(s.groupCount());
        for (ConsumerGroup g : s.groups()) {
            fullGroup(w, s, g, count);
        }
    }

    private static void replyEdge(RespWriter w, StreamValue s, boolean last) {
        StreamEntry[] found = {null};
        s.forEach(StreamId.MIN, StreamId.MAX, last, e -> {
            found[0] = e;
            return false;
        });
        if (found[0] == null) {
            w.nullBulk();
        } else {
            StreamSupport.replyEntry(w, found[0]);
        }
    }

    private static void fullGroup(RespWriter w, StreamValue s, ConsumerGroup g, long count) {
        w.mapHeader(7);
        w.bulk("name");
        w.bulk(g.name);
        w.bulk("last-delivered-id");
        StreamSupport.replyId(w, g.lastId);
        replyCounters(w, s, g);
        w.bulk("pel-count");
        w.integer(g.pel.size());
        w.bulk("pending");
        int n = (int) (count == 0 ? g.pel.size() : Math.min(count, g.pel.size()));
        w.arrayHeader(n);
        int i = 0;
        for (PendingEntry p : g.pel.values()) {
            if (i++ == n) {
                break;
            }
            w.arrayHeader(4);
            StreamSupport.replyId(w, p.id);
            w.bulk(p.consumer.name);
            w.integer(p.deliveryTime);
            w.integer(p.deliveryCount);
        }
        w.bulk("consumers");
        w.arrayHeader(g.consumers.size());
        for (StreamConsumer consumer : g.consumers.values()) {
            w.mapHeader(5);
            w.bulk("name");
            w.bulk(consumer.name);
            w.bulk("seen-time");
            w.integer(consumer.seenTime);
            w.bulk("active-time");
            w.integer(consumer.activeTime);
            w.bulk("pel-count");
            w.integer(consumer.pel.size());
            w.bulk("pending");
            int m = (int) (count == 0 ? consumer.pel.size() : Math.min(count, consumer.pel.size()));
            w.arrayHeader(m);
            int k = 0;
            for (PendingEntry p : consumer.pel.values()) {
                if (k++ == m) {
                    break;
                }
                w.arrayHeader(3);
                StreamSupport.replyId(w, p.id);
                w.integer(p.deliveryTime);
                w.integer(p.deliveryCount);
            }
        }
    }
}
