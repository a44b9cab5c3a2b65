package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.LOADING;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.STALE;
import static dev.ebb.server.command.CommandFlags.WRITE;
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
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Consumer groups: XGROUP CREATE/SETID/DESTROY/CREATECONSUMER/DELCONSUMER, XACK, XPENDING,
 * XCLAIM and XAUTOCLAIM over {@link ConsumerGroup}. A group's pending entries (PEL) and each
 * consumer's are two sorted maps sharing one {@link PendingEntry} per ID, so acknowledging or
 * moving an entry is two O(log n) map operations. Delivery is in {@link StreamReadCommands}.
 */
public final class StreamGroupCommands {
    private static final String[] XGROUP_HELP = {
        "XGROUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "CREATE <key> <groupname> <id|$> [option]",
        "    Create a new consumer group. Options are:",
        "    * MKSTREAM",
        "      Create the empty stream if it does not exist.",
        "    * ENTRIESREAD entries_read",
        "      Set the group's entries_read counter (internal use).",
        "CREATECONSUMER <key> <groupname> <consumer>",
        "    Create a new consumer in the specified group.",
        "DELCONSUMER <key> <groupname> <consumer>",
        "    Remove the specified consumer.",
        "DESTROY <key> <groupname>",
        "    Remove the specified group.",
        "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
        "    Set the current group ID and entries_read counter.",
        "HELP",
        "    Print this help.",
    };
    /** XAUTOCLAIM looks at no more than COUNT times this many PEL entries. */
    private static final long ATTEMPTS_FACTOR = 10;

    private StreamGroupCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        CommandGroup g = CommandGroup.STREAM;
        return List.of(
                container("xgroup", -2, 0)
                        .doc(g, "5.0.0", "A container for consumer groups commands.", "")
                        .sub(spec("create", -5, WRITE | DENYOOM, 2, 2, 1, StreamGroupCommands::xgroup)
                                .doc(g, "5.0.0", "Creates a consumer group.",
                                        "key group <id | $> [MKSTREAM] [ENTRIESREAD entries-read]"))
                        .sub(spec("setid", -5, WRITE, 2, 2, 1, StreamGroupCommands::xgroup)
                                .doc(g, "5.0.0", "Sets the last-delivered ID of a consumer group.",
                                        "key group <id | $> [ENTRIESREAD entries-read]"))
                        .sub(spec("destroy", 4, WRITE, 2, 2, 1, StreamGroupCommands::xgroup)
                                .doc(g, "5.0.0", "Destroys a consumer group.", "key group"))
                        .sub(spec("createconsumer", 5, WRITE | DENYOOM, 2, 2, 1, StreamGroupCommands::xgroup)
                                .doc(g, "6.2.0", "Creates a consumer in a consumer group.", "key group consumer"))
                        .sub(spec("delconsumer", 5, WRITE, 2, 2, 1, StreamGroupCommands::xgroup)
                                .doc(g, "5.0.0", "Deletes a consumer from a consumer group.", "key group consumer"))
                        .sub(spec("help", 2, LOADING | STALE, 0, 0, 0,
                                (c, argv) -> ObjectCommands.replyHelp(c, XGROUP_HELP))
                                .doc(g, "5.0.0", "Returns helpful text about the different subcommands.", "")),
                spec("xack", -4, WRITE | FAST, 1, 1, 1, StreamGroupCommands::xack)
                        .doc(g, "5.0.0", "Returns the number of messages that were successfully acknowledged by"
                                + " the consumer group member of a stream.", "key group id [id ...]"),
                spec("xpending", -3, READONLY, 1, 1, 1, StreamGroupCommands::xpending)
                        .doc(g, "5.0.0", "Returns the information and entries from a stream consumer group's"
                                + " pending entries list.",
                                "key group [[IDLE min-idle-time] start end count [consumer]]"),
                spec("xclaim", -6, WRITE | FAST, 1, 1, 1, StreamGroupCommands::xclaim)
                        .doc(g, "5.0.0", "Changes, or acquires, ownership of a message in a consumer group, as if"
                                + " the message was delivered a consumer group member.",
                                "key group consumer min-idle-time id [id ...] [IDLE ms]"
                                        + " [TIME unix-time-milliseconds] [RETRYCOUNT count] [FORCE] [JUSTID]"
                                        + " [LASTID lastid]"),
                spec("xautoclaim", -6, WRITE | FAST, 1, 1, 1, StreamGroupCommands::xautoclaim)
                        .doc(g, "6.2.0", "Changes, or acquires, ownership of messages in a consumer group, as if"
                                + " the messages were delivered to as consumer group member.",
                                "key group consumer min-idle-time start [COUNT count] [JUSTID]"));
    }

    // ---------------------------------------------------------------- XGROUP

    /** Every XGROUP subcommand, as Redis's xgroupCommand: shared option parsing and look-ups first. */
    static void xgroup(Client c, byte[][] argv) {
        String sub = Arguments.text(argv[1]).toLowerCase(java.util.Locale.ROOT);
        boolean create = sub.equals("create");
        boolean setid = sub.equals("setid");
        boolean mkstream = false;
        long entriesRead = StreamValue.INVALID_ENTRIES_READ;
        for (int i = 5; i < argv.length;) {
            if (create && Arguments.is(argv[i], "mkstream")) {
                mkstream = true;
                i++;
            } else if ((create || setid) && Arguments.is(argv[i], "entriesread") && i + 1 < argv.length) {
                entriesRead = Arguments.longOrReply(c, argv[i + 1]);
                if (entriesRead == Arguments.INVALID) {
                    return;
                }
                if (entriesRead < 0 && entriesRead != StreamValue.INVALID_ENTRIES_READ) {
                    c.reply().error(Errors.STREAM_ENTRIESREAD);
                    return;
                }
                i += 2;
            } else {
                c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "XGROUP"));
                return;
            }
        }
        byte[] key = argv[2];
        byte[] name = argv[3];
        Object found = StreamSupport.writeOrReply(c, key);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        StreamValue s = (StreamValue) found;
        ConsumerGroup group = null;
        if (!mkstream) {
            if (s == null) {
                c.reply().error(Errors.STREAM_KEY_REQUIRED);
                return;
            }
            group = s.group(name);
            if (group == null && (setid || sub.equals("createconsumer") || sub.equals("delconsumer"))) {
                c.reply().error(Errors.noGroupForKey(name, key));
                return;
            }
        }
        switch (sub) {
            case "create" -> create(c, argv, s, entriesRead);
            case "setid" -> setid(c, argv, s, group, entriesRead);
            case "destroy" -> destroy(c, key, s, group);
            case "createconsumer" -> createConsumer(c, key, s, group, argv[4]);
            default -> delConsumer(c, key, s, group, argv[4]);
        }
    }

    private static void create(Client c, byte[][] argv, StreamValue s, long entriesRead) {
        if (argv.length > 8) {
            c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "XGROUP"));
            return;
        }
        StreamId id;
        if (argv[4].length == 1 && argv[4][0] == '$') {
            id = s == null ? StreamId.MIN : s.lastId();
        } else {
            id = StreamSupport.strictIdOrReply(c, argv[4], 0);
            if (id == null) {
                return;
            }
        }
        byte[] key = argv[2];
        boolean created = s == null;
        if (created) {
            s = new StreamValue();
        }
        long before = s.memoryBytes();
        ConsumerGroup g = s.createGroup(argv[3], id, entriesRead);
        if (created) {
            c.db().add(key, s, c.server().nowMs());
        }
        if (g == null) {
            c.reply().error(Errors.STREAM_BUSYGROUP);
            return;
        }
        c.reply().ok();
        if (!created) {
            c.db().adjustMemory(s.memoryBytes() - before);
        }
        c.server().propagation().changed();
        StreamSupport.notify(c, key, "xgroup-create");
    }

    private static void setid(Client c, byte[][] argv, StreamValue s, ConsumerGroup g, long entriesRead) {
        if (argv.length != 5 && argv.length != 7) {
            c.reply().error(Errors.unknownSubcommandOrArity(argv[1], "XGROUP"));
            return;
        }
        StreamId id;
        if (argv[4].length == 1 && argv[4][0] == '$') {
            id = s.lastId();
        } else {
            StreamSupport.IdArg parsed = StreamSupport.parse(argv[4], 0, false, false);
            if (parsed == null) {
                c.reply().error(Errors.STREAM_INVALID_ID);
                return;
            }
            id = parsed.id();
        }
        g.lastId = id;
        g.entriesRead = entriesRead;
        c.reply().ok();
        c.server().propagation().changed();
        StreamSupport.notify(c, argv[2], "xgroup-setid");
    }

    private static void destroy(Client c, byte[] key, StreamValue s, ConsumerGroup g) {
        if (g == null) {
            c.reply().integer(0);
            return;
        }
        long before = s.memoryBytes();
        s.destroyGroup(g.name);
        c.db().adjustMemory(s.memoryBytes() - before);
        c.reply().integer(1);
        c.server().propagation().changed();
        StreamSupport.notify(c, key, "xgroup-destroy");
        c.server().blockingKeys().signalKeyAsReady(c.db(), key);
    }

    private static void createConsumer(Client c, byte[] key, StreamValue s, ConsumerGroup g, byte[] name) {
        long before = s.memoryBytes();
        boolean created = g.createConsumer(name, c.server().nowMs()) != null;
        if (created) {
            c.db().adjustMemory(s.memoryBytes() - before);
            c.server().propagation().changed();
            StreamSupport.notify(c, key, "xgroup-createconsumer");
        }
        c.reply().integer(created ? 1 : 0);
    }

    private static void delConsumer(Client c, byte[] key, StreamValue s, ConsumerGroup g, byte[] name) {
        long before = s.memoryBytes();
        long pending = g.deleteConsumer(name);
        if (pending >= 0) {
            c.db().adjustMemory(s.memoryBytes() - before);
            c.server().propagation().changed();
            StreamSupport.notify(c, key, "xgroup-delconsumer");
        }
        c.reply().integer(Math.max(pending, 0));
    }

    // ---------------------------------------------------------------- XACK

    static void xack(Client c, byte[][] argv) {
        Object found = StreamSupport.readOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        ConsumerGroup g = found == null ? null : ((StreamValue) found).group(argv[2]);
        if (g == null) {
            c.reply().integer(0);
            return;
        }
        StreamId[] ids = StreamSupport.strictIdsOrReply(c, argv, 3);
        if (ids == null) {
            return;
        }
        StreamValue s = (StreamValue) found;
        long before = s.memoryBytes();
        int acked = 0;
        for (StreamId id : ids) {
            if (g.acknowledge(id)) {
                acked++;
            }
        }
        c.db().adjustMemory(s.memoryBytes() - before);
        if (acked > 0) {
            c.server().propagation().changed();
        }
        c.reply().integer(acked);
    }

    // ---------------------------------------------------------------- XPENDING

    static void xpending(Client c, byte[][] argv) {
        boolean summary = argv.length == 3;
        if (!summary && (argv.length < 6 || argv.length > 9)) {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        StreamId start = null;
        StreamId end = null;
        long count = 0;
        long minIdle = 0;
        byte[] consumerName = null;
        if (!summary) {
            int at = 3;
            if (Arguments.is(argv[3], "idle")) {
                minIdle = Arguments.longOrReply(c, argv[4]);
                if (minIdle == Arguments.INVALID) {
                    return;
                }
                if (argv.length < 8) {
                    c.reply().error(Errors.SYNTAX);
                    return;
                }
                at += 2;
            }
            count = Arguments.longOrReply(c, argv[at + 2]);
            if (count == Arguments.INVALID) {
                return;
            }
            count = Math.max(count, 0);
            start = StreamSupport.boundOrReply(c, argv[at], true);
            if (start == null) {
                return;
            }
            end = StreamSupport.boundOrReply(c, argv[at + 1], false);
            if (end == null) {
                return;
            }
            if (at + 3 < argv.length) {
                consumerName = argv[at + 3];
            }
        }
        Object found = StreamSupport.readOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        ConsumerGroup g = found == null ? null : ((StreamValue) found).group(argv[2]);
        if (g == null) {
            c.reply().error(Errors.noGroup(argv[1], argv[2]));
            return;
        }
        RespWriter w = c.reply();
        if (summary) {
            pendingSummary(w, g);
            return;
        }
        Map<StreamId, PendingEntry> pel = g.pel;
        if (consumerName != null) {
            StreamConsumer consumer = g.consumer(consumerName);
            if (consumer == null) {
                w.arrayHeader(0);
                return;
            }
            pel = consumer.pel;
        }
        long now = c.server().nowMs();
        List<PendingEntry> out = new ArrayList<>();
        if (count > 0 && start.compareTo(end) <= 0) {
            for (PendingEntry p : ((java.util.NavigableMap<StreamId, PendingEntry>) pel)
                    .subMap(start, true, end, true).values()) {
                if (minIdle != 0 && now - p.deliveryTime < minIdle) {
                    continue;
                }
                out.add(p);
                if (out.size() == count) {
                    break;
                }
            }
        }
        w.arrayHeader(out.size());
        for (PendingEntry p : out) {
            w.arrayHeader(4);
            StreamSupport.replyId(w, p.id);
            w.bulk(p.consumer.name);
            w.integer(Math.max(0, now - p.deliveryTime));
            w.integer(p.deliveryCount);
        }
    }

    private static void pendingSummary(RespWriter w, ConsumerGroup g) {
        w.arrayHeader(4);
        w.integer(g.pel.size());
        if (g.pel.isEmpty()) {
            w.nullBulk();
            w.nullBulk();
            w.nullArray();
            return;
        }
        StreamSupport.replyId(w, g.pel.firstKey());
        StreamSupport.replyId(w, g.pel.lastKey());
        int withPending = 0;
        for (StreamConsumer consumer : g.consumers.values()) {
            if (!consumer.pel.isEmpty()) {
                withPending++;
            }
        }
        w.arrayHeader(withPending);
        for (StreamConsumer consumer : g.consumers.values()) {
            if (!consumer.pel.isEmpty()) {
                w.arrayHeader(2);
                w.bulk(consumer.name);
                w.bulk(Long.toString(consumer.pel.size()));
            }
        }
    }

    // ---------------------------------------------------------------- XCLAIM, XAUTOCLAIM

    static void xclaim(Client c, byte[][] argv) {
        Object found = StreamSupport.readOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        StreamValue s = (StreamValue) found;
        ConsumerGroup g = s == null ? null : s.group(argv[2]);
        if (g == null) {
            c.reply().error(Errors.noGroup(argv[1], argv[2]));
            return;
        }
        long minIdle = Arguments.longOrReply(c, argv[4], Errors.XCLAIM_MIN_IDLE);
        if (minIdle == Arguments.INVALID) {
            return;
        }
        minIdle = Math.max(minIdle, 0);
        List<StreamId> ids = new ArrayList<>();
        int j = 5;
        for (; j < argv.length; j++) {
            StreamSupport.IdArg id = StreamSupport.parse(argv[j], 0, true, false);
            if (id == null) {
                break;
            }
            ids.add(id.id());
        }
        long now = c.server().nowMs();
        long retryCount = -1;
        long deliveryTime = -1;
        boolean force = false;
        boolean justId = false;
        StreamId lastId = StreamId.MIN;
        for (; j < argv.length; j++) {
            boolean more = j + 1 < argv.length;
            byte[] opt = argv[j];
            if (Arguments.is(opt, "force")) {
                force = true;
            } else if (Arguments.is(opt, "justid")) {
                justId = true;
            } else if (Arguments.is(opt, "idle") && more) {
                long idle = Arguments.longOrReply(c, argv[++j], Errors.XCLAIM_IDLE);
                if (idle == Arguments.INVALID) {
                    return;
                }
                deliveryTime = now - idle;
            } else if (Arguments.is(opt, "time") && more) {
                deliveryTime = Arguments.longOrReply(c, argv[++j], Errors.XCLAIM_TIME);
                if (deliveryTime == Arguments.INVALID) {
                    return;
                }
            } else if (Arguments.is(opt, "retrycount") && more) {
                retryCount = Arguments.longOrReply(c, argv[++j], Errors.XCLAIM_RETRYCOUNT);
                if (retryCount == Arguments.INVALID) {
                    return;
                }
            } else if (Arguments.is(opt, "lastid") && more) {
                lastId = StreamSupport.strictIdOrReply(c, argv[++j], 0);
                if (lastId == null) {
                    return;
                }
            } else {
                c.reply().error(Errors.xclaimOption(opt));
                return;
            }
        }
        if (lastId.compareTo(g.lastId) > 0) {
            g.lastId = lastId;
        }
        if (deliveryTime == -1 || deliveryTime < 0 || deliveryTime > now) {
            deliveryTime = now;
        }
        long before = s.memoryBytes();
        StreamConsumer consumer = StreamSupport.consumerOrCreate(c, argv[1], g, argv[3]);
        consumer.seenTime = now;
        List<Object> claimed = new ArrayList<>();
        for (StreamId id : ids) {
            PendingEntry p = g.pel.get(id);
            StreamEntry entry = s.get(id);
            if (entry == null) {
                if (p != null) {
                    g.acknowledge(id);
                }
                continue;
            }
            if (force && p == null) {
                p = new PendingEntry(id, now, 1, null);
                g.pel.put(id, p);
            }
            if (p == null) {
                continue;
            }
            if (p.consumer != null && minIdle != 0 && now - p.deliveryTime < minIdle) {
                continue;
            }
            p.deliveryTime = deliveryTime;
            if (retryCount >= 0) {
                p.deliveryCount = retryCount;
            } else if (!justId) {
                p.deliveryCount++;
            }
            moveTo(p, consumer);
            claimed.add(justId ? id : entry);
            consumer.activeTime = now;
        }
        c.db().adjustMemory(s.memoryBytes() - before);
        c.db().signalModifiedKey(argv[1]);
        replyClaimed(c.reply(), claimed);
    }

    /** Moves a pending entry to {@code consumer}'s PEL (from its owner's, if any). */
    private static void moveTo(PendingEntry p, StreamConsumer consumer) {
        if (p.consumer != consumer) {
            if (p.consumer != null) {
                p.consumer.pel.remove(p.id);
            }
            consumer.pel.put(p.id, p);
            p.consumer = consumer;
        }
    }

    private static void replyClaimed(RespWriter w, List<Object> claimed) {
        w.arrayHeader(claimed.size());
        for (Object o : claimed) {
            if (o instanceof StreamEntry e) {
                StreamSupport.replyEntry(w, e);
            } else {
                StreamSupport.replyId(w, (StreamId) o);
            }
        }
    }

    static void xautoclaim(Client c, byte[][] argv) {
        long minIdle = Arguments.longOrReply(c, argv[4], Errors.XAUTOCLAIM_MIN_IDLE);
        if (minIdle == Arguments.INVALID) {
            return;
        }
        minIdle = Math.max(minIdle, 0);
        StreamId start = StreamSupport.boundOrReply(c, argv[5], true);
        if (start == null) {
            return;
        }
        long count = 100;
        boolean justId = false;
        for (int j = 6; j < argv.length; j++) {
            if (Arguments.is(argv[j], "count") && j + 1 < argv.length) {
                long maxCount = Long.MAX_VALUE / 16;
                long n;
                try {
                    n = Arguments.parseLong(argv[j + 1]);
                } catch (NumberFormatException e) {
                    n = 0;
                }
                if (n < 1 || n > maxCount) {
                    c.reply().error(Errors.XAUTOCLAIM_COUNT);
                    return;
                }
                count = n;
                j++;
            } else if (Arguments.is(argv[j], "justid")) {
                justId = true;
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        Object found = StreamSupport.readOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        StreamValue s = (StreamValue) found;
        ConsumerGroup g = s == null ? null : s.group(argv[2]);
        if (g == null) {
            c.reply().error(Errors.noGroup(argv[1], argv[2]));
            return;
        }
        long now = c.server().nowMs();
        long before = s.memoryBytes();
        StreamConsumer consumer = StreamSupport.consumerOrCreate(c, argv[1], g, argv[3]);
        consumer.seenTime = now;
        long attempts = count * ATTEMPTS_FACTOR;
        List<Object> claimed = new ArrayList<>();
        List<StreamId> deleted = new ArrayList<>();
        Iterator<PendingEntry> it = new ArrayList<>(g.pel.tailMap(start, true).values()).iterator();
        StreamId next = StreamId.MIN;
        while (it.hasNext()) {
            if (attempts == 0 || count == 0) {
                next = it.next().id;
                break;
            }
            attempts--;
            PendingEntry p = it.next();
            StreamEntry entry = s.get(p.id);
            if (entry == null) {
                g.acknowledge(p.id);
                deleted.add(p.id);
                count--;
                continue;
            }
            if (minIdle != 0 && now - p.deliveryTime < minIdle) {
                continue;
            }
            p.deliveryTime = now;
            if (!justId) {
                p.deliveryCount++;
            }
            moveTo(p, consumer);
            claimed.add(justId ? p.id : entry);
            count--;
            consumer.activeTime = now;
        }
        c.db().adjustMemory(s.memoryBytes() - before);
        c.db().signalModifiedKey(argv[1]);
        RespWriter w = c.reply();
        w.arrayHeader(3);
        StreamSupport.replyId(w, next);
        replyClaimed(w, claimed);
        w.arrayHeader(deleted.size());
        for (StreamId id : deleted) {
            StreamSupport.replyId(w, id);
        }
    }
}
