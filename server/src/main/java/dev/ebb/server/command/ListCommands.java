package dev.ebb.server.command;

import static dev.ebb.server.command.CommandFlags.BLOCKING;
import static dev.ebb.server.command.CommandFlags.DENYOOM;
import static dev.ebb.server.command.CommandFlags.FAST;
import static dev.ebb.server.command.CommandFlags.MOVABLE_KEYS;
import static dev.ebb.server.command.CommandFlags.NOSCRIPT;
import static dev.ebb.server.command.CommandFlags.READONLY;
import static dev.ebb.server.command.CommandFlags.WRITE;
import static dev.ebb.server.command.CommandSpec.spec;

import dev.ebb.server.Client;
import dev.ebb.server.config.NotifyKeyspaceEvents;
import dev.ebb.storage.types.ListValue;
import java.util.List;

/**
 * The list family over {@link ListValue}: pushes, pops, ranges and edits here; the moves, LMPOP and
 * the blocking forms in {@link ListMoveCommands}. Every change ends in {@link #finishChange}, which
 * applies the listpack/quicklist naming rule, then {@link Aggregates#changed}: memory, WATCH
 * signal, keyspace event, deletion of an emptied list; every push that creates a list signals {@link dev.ebb.server.BlockingKeys} so blocked clients are served after the
 * command.
 */
public final class ListCommands {
    static final int HEAD = 0;
    static final int TAIL = 1;

    private ListCommands() {
    }

    static List<CommandSpec.Builder> specs() {
        return List.of(
                spec("lpush", -3, WRITE | DENYOOM | FAST, 1, 1, 1, ListCommands::lpush)
                        .doc(CommandGroup.LIST, "1.0.0",
                                "Prepends one or more elements to a list. Creates the key if it doesn't exist.",
                                "key element [element ...]"),
                spec("rpush", -3, WRITE | DENYOOM | FAST, 1, 1, 1, ListCommands::rpush)
                        .doc(CommandGroup.LIST, "1.0.0",
                                "Appends one or more elements to a list. Creates the key if it doesn't exist.",
                                "key element [element ...]"),
                spec("lpushx", -3, WRITE | DENYOOM | FAST, 1, 1, 1, ListCommands::lpushx)
                        .doc(CommandGroup.LIST, "2.2.0",
                                "Prepends one or more elements to a list only when the list exists.",
                                "key element [element ...]"),
                spec("rpushx", -3, WRITE | DENYOOM | FAST, 1, 1, 1, ListCommands::rpushx)
                        .doc(CommandGroup.LIST, "2.2.0",
                                "Appends an element to a list only when the list exists.",
                                "key element [element ...]"),
                spec("lpop", -2, WRITE | FAST, 1, 1, 1, ListCommands::lpop)
                        .doc(CommandGroup.LIST, "1.0.0",
                                "Returns the first elements in a list after removing it. Deletes the list if the"
                                        + " last element was popped.", "key [count]"),
                spec("rpop", -2, WRITE | FAST, 1, 1, 1, ListCommands::rpop)
                        .doc(CommandGroup.LIST, "1.0.0",
                                "Returns and removes the last elements of a list. Deletes the list if the last"
                                        + " element was popped.", "key [count]"),
                spec("llen", 2, READONLY | FAST, 1, 1, 1, ListCommands::llen)
                        .doc(CommandGroup.LIST, "1.0.0", "Returns the length of a list.", "key"),
                spec("lrange", 4, READONLY, 1, 1, 1, ListCommands::lrange)
                        .doc(CommandGroup.LIST, "1.0.0", "Returns a range of elements from a list.",
                                "key start stop"),
                spec("lindex", 3, READONLY, 1, 1, 1, ListCommands::lindex)
                        .doc(CommandGroup.LIST, "1.0.0", "Returns an element from a list by its index.",
                                "key index"),
                spec("lset", 4, WRITE | DENYOOM, 1, 1, 1, ListCommands::lset)
                        .doc(CommandGroup.LIST, "1.0.0", "Sets the value of an element in a list by its index.",
                                "key index element"),
                spec("linsert", 5, WRITE | DENYOOM, 1, 1, 1, ListCommands::linsert)
                        .doc(CommandGroup.LIST, "2.2.0", "Inserts an element before or after another element in a"
                                + " list.", "key <BEFORE | AFTER> pivot element"),
                spec("lrem", 4, WRITE, 1, 1, 1, ListCommands::lrem)
                        .doc(CommandGroup.LIST, "1.0.0",
                                "Removes elements from a list. Deletes the list if the last element was removed.",
                                "key count element"),
                spec("ltrim", 4, WRITE, 1, 1, 1, ListCommands::ltrim)
                        .doc(CommandGroup.LIST, "1.0.0",
                                "Removes elements from both ends a list. Deletes the list if all elements were"
                                        + " trimmed.", "key start stop"),
                spec("lpos", -3, READONLY, 1, 1, 1, ListCommands::lpos)
                        .doc(CommandGroup.LIST, "6.0.6", "Returns the index of matching elements in a list.",
                                "key element [RANK rank] [COUNT num-matches] [MAXLEN len]"),
                spec("lmove", 5, WRITE | DENYOOM, 1, 2, 1, ListMoveCommands::lmove)
                        .doc(CommandGroup.LIST, "6.2.0",
                                "Returns an element after popping it from one list and pushing it to another."
                                        + " Deletes the list if the last element was moved.",
                                "source destination <LEFT | RIGHT> <LEFT | RIGHT>"),
                spec("rpoplpush", 3, WRITE | DENYOOM, 1, 2, 1, ListMoveCommands::rpoplpush)
                        .doc(CommandGroup.LIST, "1.2.0",
                                "Returns the last element of a list after removing and pushing it to another"
                                        + " list. Deletes the list if the last element was popped.",
                                "source destination"),
                spec("lmpop", -4, WRITE | MOVABLE_KEYS, 0, 0, 0, ListMoveCommands::lmpop)
                        .doc(CommandGroup.LIST, "7.0.0",
                                "Returns multiple elements from a list after removing them. Deletes the list if"
                                        + " the last element was popped.",
                                "numkeys key [key ...] <LEFT | RIGHT> [COUNT count]"),
                spec("blpop", -3, WRITE | NOSCRIPT | BLOCKING, 1, -2, 1, ListMoveCommands::blpop)
                        .doc(CommandGroup.LIST, "2.0.0",
                                "Removes and returns the first element in a list. Blocks until an element is"
                                        + " available otherwise. Deletes the list if the last element was popped.",
                                "key [key ...] timeout"),
                spec("brpop", -3, WRITE | NOSCRIPT | BLOCKING, 1, -2, 1, ListMoveCommands::brpop)
                        .doc(CommandGroup.LIST, "2.0.0",
                                "Removes and returns the last element in a list. Blocks until an element is"
                                        + " available otherwise. Deletes the list if the last element was popped.",
                                "key [key ...] timeout"),
                spec("blmove", 6, WRITE | DENYOOM | NOSCRIPT | BLOCKING, 1, 2, 1, ListMoveCommands::blmove)
                        .doc(CommandGroup.LIST, "6.2.0",
                                "Pops an element from a list, pushes it to another list and returns it. Blocks"
                                        + " until an element is available otherwise. Deletes the list if the last"
                                        + " element was moved.",
                                "source destination <LEFT | RIGHT> <LEFT | RIGHT> timeout"),
                spec("brpoplpush", 4, WRITE | DENYOOM | NOSCRIPT | BLOCKING, 1, 2, 1,
                        ListMoveCommands::brpoplpush)
                        .doc(CommandGroup.LIST, "2.2.0",
                                "Pops an element from a list, pushes it to another list and returns it. Block"
                                        + " until an element is available otherwise. Deletes the list if the last"
                                        + " element was popped.", "source destination timeout"),
                spec("blmpop", -5, WRITE | BLOCKING | MOVABLE_KEYS, 0, 0, 0, ListMoveCommands::blmpop)
                        .doc(CommandGroup.LIST, "7.0.0",
                                "Pops the first element from one of multiple lists. Blocks until an element is"
                                        + " available otherwise. Deletes the list if the last element was popped.",
                                "timeout numkeys key [key ...] <LEFT | RIGHT> [COUNT count]"));
    }

    static Object listForReadOrReply(Client c, byte[] key) {
        return Aggregates.lookupReadOrReply(c, key, ListValue.class);
    }

    static Object listForWriteOrReply(Client c, byte[] key) {
        return Aggregates.lookupWriteOrReply(c, key, ListValue.class);
    }

    /**
     * Ends a change of a stored list (call only if it changed): listpack/quicklist naming for
     * {@code list-max-listpack-size}, then {@link Aggregates#changed} with the keyspace event
     * {@code event}: memory change since {@code before}, WATCH signal, deletion when empty.
     */
    static void finishChange(Client c, byte[] key, ListValue list, long before, String event) {
        list.settle(fill(c));
        Aggregates.changed(c, key, list, before, list.size() == 0, NotifyKeyspaceEvents.LIST, event);
    }

    /** Stores a list this command created, publishes {@code event}, and signals its key to blocked clients. */
    static void storeNew(Client c, byte[] key, ListValue list, String event) {
        list.settle(fill(c));
        Aggregates.created(c, key, list, NotifyKeyspaceEvents.LIST, event);
        c.server().blockingKeys().signalKeyAsReady(c.db(), key);
    }

    /** {@code list-max-listpack-size}: the fill of Redis's list encodings. */
    static int fill(Client c) {
        return c.server().config().listMaxListpackSize();
    }

    /** {@code list-compress-depth}: the quicklist nodes left uncompressed at each end. */
    static int depth(Client c) {
        return c.server().config().listCompressDepth();
    }

    static void push(ListValue list, int where, byte[] element) {
        if (where == HEAD) {
            list.pushHead(element);
        } else {
            list.pushTail(element);
        }
    }

    static byte[] pop(ListValue list, int where) {
        return where == HEAD ? list.popHead() : list.popTail();
    }

    static void lpush(Client c, byte[][] argv) {
        pushGeneric(c, argv, HEAD, false);
    }

    static void rpush(Client c, byte[][] argv) {
        pushGeneric(c, argv, TAIL, false);
    }

    static void lpushx(Client c, byte[][] argv) {
        pushGeneric(c, argv, HEAD, true);
    }

    static void rpushx(Client c, byte[][] argv) {
        pushGeneric(c, argv, TAIL, true);
    }

    private static void pushGeneric(Client c, byte[][] argv, int where, boolean onlyIfExists) {
        Object found = listForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null && onlyIfExists) {
            c.reply().integer(0);
            return;
        }
        ListValue list = found == null ? new ListValue() : (ListValue) found;
        long before = list.memoryBytes();
        long addBytes = 0;
        for (int i = 2; i < argv.length; i++) {
            addBytes += argv[i].length;
        }
        list.growing(fill(c), depth(c), addBytes, argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            push(list, where, argv[i]);
        }
        String event = where == HEAD ? "lpush" : "rpush";
        if (found == null) {
            storeNew(c, argv[1], list, event);
        } else {
            finishChange(c, argv[1], list, before, event);
        }
        c.reply().integer(list.size());
    }

    static void lpop(Client c, byte[][] argv) {
        popGeneric(c, argv, HEAD);
    }

    static void rpop(Client c, byte[][] argv) {
        popGeneric(c, argv, TAIL);
    }

    /** LPOP/RPOP key [count]: one element as a bulk, or with a count an array (nil array for a missing key). */
    private static void popGeneric(Client c, byte[][] argv, int where) {
        if (argv.length > 3) {
            c.reply().error(Errors.wrongArity(where == HEAD ? "lpop" : "rpop"));
            return;
        }
        long count = -1;
        if (argv.length == 3) {
            try {
                count = Arguments.parseLong(argv[2]);
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (count < 0) {
                c.reply().error(Errors.NOT_POSITIVE);
                return;
            }
        }
        Object found = listForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            if (count < 0) {
                c.reply().nullBulk();
            } else {
                c.reply().nullArray();
            }
            return;
        }
        ListValue list = (ListValue) found;
        long before = list.memoryBytes();
        if (count < 0) {
            c.reply().bulk(pop(list, where));
        } else {
            int n = (int) Math.min(count, list.size());
            c.reply().arrayHeader(n);
            for (int i = 0; i < n; i++) {
                c.reply().bulk(pop(list, where));
            }
            if (n == 0) {
                return;
            }
        }
        finishChange(c, argv[1], list, before, where == HEAD ? "lpop" : "rpop");
    }

    static void llen(Client c, byte[][] argv) {
        Object found = listForReadOrReply(c, argv[1]);
        if (found != Values.WRONG_TYPE) {
            c.reply().integer(found == null ? 0 : ((ListValue) found).size());
        }
    }

    static void lrange(Client c, byte[][] argv) {
        if (!Arguments.isLongOrReply(c, argv[2]) || !Arguments.isLongOrReply(c, argv[3])) {
            return;
        }
        long start = Arguments.parseLong(argv[2]);
        long end = Arguments.parseLong(argv[3]);
        Object found = listForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().arrayHeader(0);
            return;
        }
        ListValue list = (ListValue) found;
        long size = list.size();
        if (start < 0) {
            start = Math.max(0, start + size);
        }
        if (end < 0) {
            end += size;
        }
        if (start > end || start >= size) {
            c.reply().arrayHeader(0);
            return;
        }
        end = Math.min(end, size - 1);
        c.reply().arrayHeader((int) (end - start + 1));
        for (long i = start; i <= end; i++) {
            c.reply().bulk(list.get((int) i));
        }
    }

    /** A list index (negative from the tail) as a position in {@code [0, size)}, or -1 if outside. */
    private static int position(long index, int size) {
        long at = index < 0 ? index + size : index;
        return at < 0 || at >= size ? -1 : (int) at;
    }

    static void lindex(Client c, byte[][] argv) {
        Object found = listForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().nullBulk();
            return;
        }
        if (!Arguments.isLongOrReply(c, argv[2])) {
            return;
        }
        ListValue list = (ListValue) found;
        int at = position(Arguments.parseLong(argv[2]), list.size());
        c.reply().bulk(at < 0 ? null : list.get(at));
    }

    static void lset(Client c, byte[][] argv) {
        Object found = listForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().error(Errors.NO_SUCH_KEY);
            return;
        }
        if (!Arguments.isLongOrReply(c, argv[2])) {
            return;
        }
        ListValue list = (ListValue) found;
        // As Redis, the list converts for the new element before the index is checked.
        list.growing(fill(c), depth(c), argv[3].length, 1);
        // Redis passes the index on as a C int: only its low 32 bits count (2^63-1 is -1).
        int at = position((int) Arguments.parseLong(argv[2]), list.size());
        if (at < 0) {
            c.reply().error(Errors.INDEX_OUT_OF_RANGE);
            return;
        }
        long before = list.memoryBytes();
        list.set(at, argv[3]);
        finishChange(c, argv[1], list, before, "lset");
        c.reply().ok();
    }

    static void linsert(Client c, byte[][] argv) {
        boolean after;
        if (Arguments.is(argv[2], "after")) {
            after = true;
        } else if (Arguments.is(argv[2], "before")) {
            after = false;
        } else {
            c.reply().error(Errors.SYNTAX);
            return;
        }
        Object found = listForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().integer(0);
            return;
        }
        ListValue list = (ListValue) found;
        // As Redis, the list converts before the pivot is looked for.
        list.growing(fill(c), depth(c), argv[4].length, 1);
        int pivot = list.indexOf(argv[3]);
        if (pivot < 0) {
            c.reply().integer(-1);
            return;
        }
        long before = list.memoryBytes();
        list.insert(pivot, after, argv[4]);
        finishChange(c, argv[1], list, before, "linsert");
        c.reply().integer(list.size());
    }

    /** LREM key count element: count > 0 from the head, < 0 from the tail, 0 all. O(n). */
    static void lrem(Client c, byte[][] argv) {
        if (!Arguments.isLongOrReply(c, argv[2])) {
            return;
        }
        long count = Arguments.parseLong(argv[2]);
        Object found = listForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().integer(0);
            return;
        }
        ListValue list = (ListValue) found;
        long before = list.memoryBytes();
        long limit = count == 0 ? Long.MAX_VALUE : Math.abs(count == Long.MIN_VALUE ? Long.MAX_VALUE : count);
        long removed = list.removeMatching(argv[3], limit, count < 0);
        if (removed > 0) {
            finishChange(c, argv[1], list, before, "lrem");
        }
        c.reply().integer(removed);
    }

    static void ltrim(Client c, byte[][] argv) {
        if (!Arguments.isLongOrReply(c, argv[2]) || !Arguments.isLongOrReply(c, argv[3])) {
            return;
        }
        long start = Arguments.parseLong(argv[2]);
        long end = Arguments.parseLong(argv[3]);
        Object found = listForWriteOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            c.reply().ok();
            return;
        }
        ListValue list = (ListValue) found;
        long size = list.size();
        if (start < 0) {
            start = Math.max(0, start + size);
        }
        if (end < 0) {
            end += size;
        }
        long before = list.memoryBytes();
        if (start > end || start >= size) {
            list.retain(0, -1);
        } else {
            list.retain((int) start, (int) Math.min(end, size - 1));
        }
        finishChange(c, argv[1], list, before, "ltrim");
        c.reply().ok();
    }

    /**
     * LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]: positions of matches, from the
     * RANK-th match (negative: searching from the tail), at most COUNT (0 = all), looking at no
     * more than MAXLEN elements (0 = all).
     */
    static void lpos(Client c, byte[][] argv) {
        long rank = 1;
        long count = -1;
        long maxlen = 0;
        for (int i = 3; i < argv.length; i += 2) {
            if (i + 1 >= argv.length) {
                c.reply().error(Errors.SYNTAX);
                return;
            }
            if (Arguments.is(argv[i], "rank")) {
                if (!Arguments.isLongOrReply(c, argv[i + 1])) {
                    return;
                }
                rank = Arguments.parseLong(argv[i + 1]);
                if (rank == 0) {
                    c.reply().error(Errors.LPOS_RANK_ZERO);
                    return;
                }
                if (rank == Long.MIN_VALUE) {
                    c.reply().error(Errors.COUNT_OUT_OF_RANGE);
                    return;
                }
            } else if (Arguments.is(argv[i], "count")) {
                if (!Arguments.isLongOrReply(c, argv[i + 1])) {
                    return;
                }
                count = Arguments.parseLong(argv[i + 1]);
                if (count < 0) {
                    c.reply().error(Errors.LPOS_COUNT_NEGATIVE);
                    return;
                }
            } else if (Arguments.is(argv[i], "maxlen")) {
                if (!Arguments.isLongOrReply(c, argv[i + 1])) {
                    return;
                }
                maxlen = Arguments.parseLong(argv[i + 1]);
                if (maxlen < 0) {
                    c.reply().error(Errors.LPOS_MAXLEN_NEGATIVE);
                    return;
                }
            } else {
                c.reply().error(Errors.SYNTAX);
                return;
            }
        }
        Object found = listForReadOrReply(c, argv[1]);
        if (found == Values.WRONG_TYPE) {
            return;
        }
        if (found == null) {
            if (count >= 0) {
                c.reply().arrayHeader(0);
            } else {
                c.reply().nullBulk();
            }
            return;
        }
        ListValue list = (ListValue) found;
        int size = list.size();
        long wanted = count < 0 ? 1 : count == 0 ? Long.MAX_VALUE : count;
        long skip = Math.abs(rank) - 1;
        long limit = maxlen == 0 ? size : Math.min(maxlen, size);
        List<Integer> matches = new java.util.ArrayList<>();
        for (long seen = 0; seen < limit && matches.size() < wanted; seen++) {
            int at = rank > 0 ? (int) seen : size - 1 - (int) seen;
            if (list.matches(at, argv[2])) {
                if (skip > 0) {
                    skip--;
                } else {
                    matches.add(at);
                }
            }
        }
        if (count < 0) {
            if (matches.isEmpty()) {
                c.reply().nullBulk();
            } else {
                c.reply().integer(matches.get(0));
            }
            return;
        }
        c.reply().arrayHeader(matches.size());
        for (int at : matches) {
            c.reply().integer(at);
        }
    }
}
